// SPDX-License-Identifier: GPL-2.0
/*
 * EVENT_FILTER_TYPE_PAYLOAD: a session's filter on the values of an
 * event's fields (uapi struct etw_pf_header).  TdhCreatePayloadFilter
 * resolved the names against the manifest in user space; the kernel gets
 * each field's way of being skipped and each predicate's type, checks the
 * whole blob once at enable, and evaluates it at write for the sessions
 * that gave one, after their level, keyword and scope filters accepted
 * the event.  Windows evaluates payload filters at write, per session, in
 * the same place: an event that fails is not logged to that session, the
 * others still get it.
 *
 * The payload is kernel memory in one or more blocks (a user write's
 * kernel copy, a kernel provider's data descriptors); fields are read
 * through etw_pf_read(), never past the payload's end: a field the
 * payload is too short for makes its predicates false.
 */
#include <linux/err.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "internal.h"

#define ETW_PF_PRED_OFF(ev)	ALIGN(sizeof(struct etw_pf_event) + \
				      (ev)->field_count * sizeof(struct etw_pf_field), 8)

static bool etw_pf_op_int(u8 op)
{
	return op <= ETW_PF_OP_MODULO;
}

static bool etw_pf_op_str(u8 op)
{
	return op == ETW_PF_OP_CONTAINS || op == ETW_PF_OP_DOESNTCONTAIN ||
	       op == ETW_PF_OP_IS || op == ETW_PF_OP_ISNOT;
}

/* One predicate of @ev (at @base, @size bytes): its op, type and field. */
static int etw_pf_check_pred(const struct etw_pf_event *ev, const u8 *base,
			     u32 size, const struct etw_pf_pred *pr)
{
	const struct etw_pf_field *fields = (const void *)(ev + 1);
	const struct etw_pf_field *f;
	u32 w;

	if (pr->reserved || pr->field >= ev->field_count)
		return -EINVAL;
	f = &fields[pr->field];
	w = f->size;
	switch (pr->type) {
	case ETW_PF_T_UINT:
	case ETW_PF_T_INT:
		if (f->kind != ETW_PF_FIELD_FIXED ||
		    (w != 1 && w != 2 && w != 4 && w != 8) ||
		    !etw_pf_op_int(pr->op))
			return -EINVAL;
		if (pr->op == ETW_PF_OP_MODULO && !pr->value[0])
			return -EINVAL;
		if (pr->op == ETW_PF_OP_MODULO && pr->type == ETW_PF_T_INT &&
		    (s64)pr->value[0] < 0)
			return -EINVAL;
		break;
	case ETW_PF_T_STR16:
	case ETW_PF_T_STR8:
		/* A NUL-terminated field's type is its encoding. */
		if (!etw_pf_op_str(pr->op) ||
		    (pr->type == ETW_PF_T_STR16 && (pr->str_len & 1)) ||
		    (pr->type == ETW_PF_T_STR16 && f->kind == ETW_PF_FIELD_STR8) ||
		    (pr->type == ETW_PF_T_STR8 && f->kind == ETW_PF_FIELD_STR16))
			return -EINVAL;
		if ((u32)pr->str_off + pr->str_len > size ||
		    pr->str_off < ETW_PF_PRED_OFF(ev) +
				  ev->pred_count * sizeof(*pr))
			return -EINVAL;
		break;
	case ETW_PF_T_GUID:
		if (f->kind != ETW_PF_FIELD_FIXED || w != 16 ||
		    (pr->op != ETW_PF_OP_IS && pr->op != ETW_PF_OP_ISNOT))
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/* One filter, @avail bytes left in the blob from it. */
static int etw_pf_check_event(const struct etw_pf_event *ev, u32 avail)
{
	const struct etw_pf_field *fields = (const void *)(ev + 1);
	const struct etw_pf_pred *preds;
	u32 i, need;
	int ret;

	if (avail < sizeof(*ev) || ev->size < sizeof(*ev) || ev->size > avail ||
	    !IS_ALIGNED(ev->size, 8) || (ev->flags & ~(ETW_PF_F_ANY | ETW_PF_F_ALL)) ||
	    !ev->field_count || ev->field_count > ETW_PF_MAX_FIELDS ||
	    !ev->pred_count || ev->pred_count > ETW_PF_MAX_PREDICATES)
		return -EINVAL;
	need = ETW_PF_PRED_OFF(ev) + ev->pred_count * sizeof(*preds);
	if (need > ev->size)
		return -EINVAL;
	for (i = 0; i < ev->field_count; i++) {
		const struct etw_pf_field *f = &fields[i];
		bool fixed = f->kind == ETW_PF_FIELD_FIXED;

		/* A size for fixed fields only, and one they must have. */
		if (f->reserved || f->kind > ETW_PF_FIELD_COUNTED ||
		    fixed != !!f->size)
			return -EINVAL;
	}
	preds = (const void *)((const u8 *)ev + ETW_PF_PRED_OFF(ev));
	for (i = 0; i < ev->pred_count; i++) {
		ret = etw_pf_check_pred(ev, (const u8 *)ev, ev->size, &preds[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * etw_payload_filter_copy() - the payload filter of an ETW_IOC_ENABLE
 * @arg: the request
 *
 * Return: NULL if there is none, the checked copy, or an ERR_PTR: -EINVAL
 * for a malformed blob or one naming another provider, -EFAULT, -ENOMEM.
 */
struct etw_payload_filter *etw_payload_filter_copy(const struct etw_enable *arg)
{
	const struct etw_pf_header *h;
	struct etw_payload_filter *pf;
	u32 off, i;
	int ret = -EINVAL;

	if (!(arg->flags & ETW_ENABLE_F_PAYLOAD))
		return NULL;
	if (arg->payload_size < sizeof(*h) ||
	    arg->payload_size > ETW_MAX_FILTER_PAYLOAD)
		return ERR_PTR(-EINVAL);
	pf = kmalloc(struct_size(pf, data, arg->payload_size), GFP_KERNEL);
	if (!pf)
		return ERR_PTR(-ENOMEM);
	pf->size = arg->payload_size;
	if (copy_from_user(pf->data, u64_to_user_ptr(arg->payload_data),
			   arg->payload_size)) {
		ret = -EFAULT;
		goto fail;
	}
	h = (const void *)pf->data;
	if (h->magic != ETW_PF_MAGIC || h->size != pf->size || !h->count ||
	    memcmp(h->guid, arg->guid, sizeof(h->guid)))
		goto fail;
	off = sizeof(*h);
	for (i = 0; i < h->count; i++) {
		const struct etw_pf_event *ev = (const void *)(pf->data + off);

		ret = etw_pf_check_event(ev, pf->size - off);
		if (ret)
			goto fail;
		off += ev->size;
	}
	ret = -EINVAL;
	if (off != pf->size)
		goto fail;
	return pf;
fail:
	kfree(pf);
	return ERR_PTR(ret);
}

void etw_payload_filter_free(struct etw_payload_filter *pf)
{
	if (pf)
		kfree_rcu(pf, rcu);
}

/*
 * Copy @n bytes at payload offset @off to @dst: false if the payload
 * ends first.  Blocks with a type other than NONE are metadata (when
 * @p->typed), not payload.
 */
static bool etw_pf_read(const struct etw_pf_payload *p, u32 off, void *dst,
			u32 n)
{
	u8 *out = dst;
	u32 i, base = 0;

	if (off > p->len || n > p->len - off)
		return false;
	for (i = 0; i < p->count && n; i++) {
		const struct etw_data_desc *d = &p->descs[i];
		u32 from, take;

		if (p->typed && d->type != ETW_DATA_DESC_NONE)
			continue;
		if (off < base + d->size) {
			from = off - base;
			take = min(n, d->size - from);
			memcpy(out, (const u8 *)(uintptr_t)d->ptr + from, take);
			out += take;
			off += take;
			n -= take;
		}
		base += d->size;
	}
	return !n;
}

/* The bytes of field @f at @off: false if the payload ends inside it. */
static bool etw_pf_extent(const struct etw_pf_payload *p,
			  const struct etw_pf_field *f, u32 off, u32 *len)
{
	u8 c[2];
	u32 n;

	switch (f->kind) {
	case ETW_PF_FIELD_FIXED:
		*len = f->size;
		return off <= p->len && f->size <= p->len - off;
	case ETW_PF_FIELD_COUNTED:
		if (!etw_pf_read(p, off, c, 2))
			return false;
		*len = 2 + (c[0] | c[1] << 8);
		return *len <= p->len - off;
	case ETW_PF_FIELD_STR16:
		for (n = 0; etw_pf_read(p, off + n, c, 2); n += 2)
			if (!c[0] && !c[1]) {
				*len = n + 2;
				return true;
			}
		return false;
	default:
		for (n = 0; etw_pf_read(p, off + n, c, 1); n++)
			if (!c[0]) {
				*len = n + 1;
				return true;
			}
		return false;
	}
}

static u16 etw_pf_fold(u16 c)
{
	return c >= 'a' && c <= 'z' ? c - ('a' - 'A') : c;
}

/* Code unit @i (of @unit bytes) of the string at payload offset @off. */
static u16 etw_pf_unit(const struct etw_pf_payload *p, u32 off, u32 i, u32 unit)
{
	u8 c[2] = { 0, 0 };

	etw_pf_read(p, off + i * unit, c, unit);	/* in the extent */
	return etw_pf_fold(c[0] | c[1] << 8);
}

static u16 etw_pf_vunit(const u8 *v, u32 i, u32 unit)
{
	u16 c = unit == 2 ? v[2 * i] | v[2 * i + 1] << 8 : v[i];

	return etw_pf_fold(c);
}

/* A string predicate on the field's @len bytes at @off. */
static bool etw_pf_string(const struct etw_pf_payload *p, const u8 *filter,
			  const struct etw_pf_pred *pr,
			  const struct etw_pf_field *f, u32 off, u32 len)
{
	u32 unit = pr->type == ETW_PF_T_STR16 ? 2 : 1;
	const u8 *v = filter + pr->str_off;
	u32 vn = pr->str_len / unit, n, i, j;
	bool found = false;

	if (f->kind == ETW_PF_FIELD_COUNTED) {
		off += 2;
		len -= 2;
	}
	/* Up to its NUL, if the extent holds one. */
	for (n = 0; n < len / unit; n++)
		if (!etw_pf_unit(p, off, n, unit))
			break;
	if (pr->op == ETW_PF_OP_IS || pr->op == ETW_PF_OP_ISNOT) {
		found = n == vn;
		for (i = 0; found && i < n; i++)
			found = etw_pf_unit(p, off, i, unit) == etw_pf_vunit(v, i, unit);
		return found == (pr->op == ETW_PF_OP_IS);
	}
	for (i = 0; !found && i + vn <= n; i++) {
		for (j = 0; j < vn; j++)
			if (etw_pf_unit(p, off, i + j, unit) != etw_pf_vunit(v, j, unit))
				break;
		found = j == vn;
	}
	return found == (pr->op == ETW_PF_OP_CONTAINS);
}

static bool etw_pf_integer(const struct etw_pf_pred *pr, const u8 *raw, u32 w)
{
	bool sgn = pr->type == ETW_PF_T_INT;
	u64 v = 0, a = pr->value[0], b = pr->value[1], rem;
	bool lt_a, gt_a, in;
	u32 i;

	for (i = w; i--; )	/* little-endian */
		v = v << 8 | raw[i];
	if (sgn && w < 8)
		v = (u64)sign_extend64(v, w * 8 - 1);
	lt_a = sgn ? (s64)v < (s64)a : v < a;
	gt_a = sgn ? (s64)v > (s64)a : v > a;
	in = !lt_a && (sgn ? (s64)v <= (s64)b : v <= b);
	switch (pr->op) {
	case ETW_PF_OP_EQ:
		return v == a;
	case ETW_PF_OP_NE:
		return v != a;
	case ETW_PF_OP_LE:
		return !gt_a;
	case ETW_PF_OP_GT:
		return gt_a;
	case ETW_PF_OP_LT:
		return lt_a;
	case ETW_PF_OP_GE:
		return !lt_a;
	case ETW_PF_OP_BETWEEN:
		return in;
	case ETW_PF_OP_NOTBETWEEN:
		return !in;
	default:	/* MODULO: a multiple of the divisor (sampling) */
		if (sgn && (s64)v < 0)
			v = -v;
		div64_u64_rem(v, a, &rem);
		return !rem;
	}
}

/* Does the payload pass filter @ev? */
static bool etw_pf_event_passes(const struct etw_pf_event *ev,
				const struct etw_pf_payload *p)
{
	const struct etw_pf_field *fields = (const void *)(ev + 1);
	const struct etw_pf_pred *preds =
		(const void *)((const u8 *)ev + ETW_PF_PRED_OFF(ev));
	bool any = ev->flags & ETW_PF_F_ANY;
	u32 off = 0, len = 0, i, k;
	u32 at[ETW_PF_MAX_PREDICATES] __uninitialized;
	u32 ln[ETW_PF_MAX_PREDICATES] __uninitialized;
	bool ok[ETW_PF_MAX_PREDICATES] __uninitialized;
	u8 raw[16];

	for (k = 0; k < ev->pred_count; k++)
		ok[k] = false;
	/* One walk of the fields: each predicate's field found on the way. */
	for (i = 0; i < ev->field_count; i++) {
		if (!etw_pf_extent(p, &fields[i], off, &len))
			break;
		for (k = 0; k < ev->pred_count; k++) {
			if (preds[k].field != i)
				continue;
			at[k] = off;
			ln[k] = len;
			ok[k] = true;
		}
		off += len;
	}
	for (k = 0; k < ev->pred_count; k++) {
		const struct etw_pf_pred *pr = &preds[k];
		bool r = false;

		if (ok[k]) {
			if (pr->type == ETW_PF_T_STR16 || pr->type == ETW_PF_T_STR8)
				r = etw_pf_string(p, (const u8 *)ev, pr,
						  &fields[pr->field], at[k], ln[k]);
			else if (etw_pf_read(p, at[k], raw, ln[k]))
				r = pr->type == ETW_PF_T_GUID ?
				    !memcmp(raw, pr->value, 16) ==
				    (pr->op == ETW_PF_OP_IS) :
				    etw_pf_integer(pr, raw, ln[k]);
		}
		if (r == any)
			return any;
	}
	return !any;
}

/**
 * etw_payload_filter_passes() - does a session's payload filter keep it?
 * @pf: the session's filter
 * @d: the event's descriptor
 * @p: its payload
 *
 * Of the filters naming the event (Id and Version), every one flagged
 * %ETW_PF_F_ALL must pass and, if there are unflagged ones, one of those.
 * An event no filter names passes.  Any context; reads kernel memory only.
 */
bool etw_payload_filter_passes(const struct etw_payload_filter *pf,
			       const struct etw_event_desc *d,
			       const struct etw_pf_payload *p)
{
	const struct etw_pf_header *h = (const void *)pf->data;
	bool others = false, other_ok = false;
	u32 off = sizeof(*h), i;

	for (i = 0; i < h->count; i++) {
		const struct etw_pf_event *ev = (const void *)(pf->data + off);

		off += ev->size;
		if (ev->id != d->id || ev->version != d->version)
			continue;
		if (ev->flags & ETW_PF_F_ALL) {
			if (!etw_pf_event_passes(ev, p))
				return false;
		} else if (!other_ok) {
			others = true;
			other_ok = etw_pf_event_passes(ev, p);
		}
	}
	return !others || other_ok;
}

/*
 * Clear @want[i] of the sessions of @route whose payload filter drops the
 * event; return the EnableProperty bits of the sessions that still want it.
 */
u32 etw_payload_route_filter(const struct etw_route *route, bool *want,
			     const struct etw_event_desc *d,
			     const struct etw_pf_payload *p)
{
	u32 i, props = 0;

	for (i = 0; i < route->count; i++) {
		if (want[i] && route->entry[i].pf &&
		    !etw_payload_filter_passes(route->entry[i].pf, d, p))
			want[i] = false;
		if (want[i])
			props |= route->entry[i].enable_property;
	}
	return props;
}
