// SPDX-License-Identifier: MIT
/*
 * The WPP formatter: a record's message by its TMF, as tracefmt prints
 * it.  The format text's %0 is where the prefix goes (TRACE_FORMAT_PREFIX
 * or tracefmt's default), %1..%9 are the prefix variables (friendly name,
 * message name, thread id, time, kernel and user time, sequence, process
 * id, processor), %10 and up the arguments, each with a printf or
 * FormatMessage spec between '!'s; %!FUNC!, %!LEVEL!, %!FLAGS!,
 * %!COMPNAME!, %!SUBCOMP!, %!FILE! and %!LINE! come from the TMF.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../common/internal.h"
#include "wpp.h"

struct etw_wpp_formatter {
	struct etw_wpp_options o;
	char *prefix;
	struct wpp_buf text, line, vals, tmp;
	struct etw_wpp_arg *args;
	uint32_t *val_off;		/* of each argument's value in vals */
	uint32_t *at;			/* of each argument in the payload */
	int32_t *size;			/* its bytes, -1 if bad */
	uint32_t arg_cap;
	char guid[ETW_ETL_GUID_STRLEN];
};

ETW_EXPORT int etw_wpp_formatter_new(struct etw_wpp_formatter **fp,
				     const struct etw_wpp_options *o)
{
	struct etw_wpp_formatter *f = calloc(1, sizeof(*f));

	*fp = f;
	if (!f)
		return -ENOMEM;
	if (o)
		f->o = *o;
	f->prefix = strdup(f->o.prefix ? f->o.prefix : ETW_WPP_DEFAULT_PREFIX);
	if (!f->prefix) {
		free(f);
		*fp = NULL;
		return -ENOMEM;
	}
	f->o.prefix = f->prefix;
	return 0;
}

ETW_EXPORT void etw_wpp_formatter_free(struct etw_wpp_formatter *f)
{
	if (!f)
		return;
	wb_free(&f->text);
	wb_free(&f->line);
	wb_free(&f->vals);
	wb_free(&f->tmp);
	free(f->args);
	free(f->val_off);
	free(f->at);
	free(f->size);
	free(f->prefix);
	free(f);
}

/* What the expansion of a format text refers to. */
struct fmt_ctx {
	struct etw_wpp_formatter *f;
	struct etw_tmf_store *s;
	const struct wpp_record *r;
	const struct wpp_msg *m;
	unsigned int ps;
	int ret;			/* -EBADMSG once an argument was bad */
};

/* The line number at the end of a message name ("Driver_c62": 62). */
static const char *line_of(const char *name)
{
	size_t n = strlen(name), i = n;

	while (i && name[i - 1] >= '0' && name[i - 1] <= '9')
		i--;
	return name + i;
}

static void prefix_var(struct fmt_ctx *c, unsigned int n,
		       const struct wpp_spec *sp, struct wpp_buf *out)
{
	const struct wpp_record *r = c->r;
	uint64_t v;

	switch (n) {
	case 1:
		wpp_put_text(out, sp, c->m ? c->m->header->friendly : "Unknown");
		return;
	case 2:
		wpp_put_text(out, sp, c->m ? c->m->name : "Unknown");
		return;
	case 4:
		wb_reset(&c->f->tmp);
		if (r->filetime)
			wpp_time_text(r->filetime, c->f->o.gmt, &c->f->tmp);
		wpp_put_text(out, sp, c->f->tmp.p ? c->f->tmp.p : "");
		return;
	case 3:
		v = r->thread_id;
		break;
	case 5:
		v = r->kernel_time;
		break;
	case 6:
		v = r->user_time;
		break;
	case 7:
		v = r->sequence;
		break;
	case 8:
		v = r->process_id;
		break;
	default:
		v = r->cpu;
		break;
	}
	wpp_put_number(out, sp, v);
}

/* The index of the argument shown as %n, or -1. */
static int arg_index(const struct wpp_msg *m, unsigned long n)
{
	for (uint32_t i = 0; m && i < m->arg_count; i++)
		if (m->args[i].number == n)
			return (int)i;
	return -1;
}

static void arg_text(struct fmt_ctx *c, int i, const struct wpp_spec *sp,
		     struct wpp_buf *out)
{
	struct etw_wpp_formatter *f = c->f;
	uint32_t off = f->at[i];

	if (f->size[i] == -2)
		return;
	if (f->size[i] == -1) {
		/* The marker once, where the bytes went wrong. */
		if (wpp_value(c->s, &c->m->args[i], sp, c->r->data, c->r->size,
			      &off, c->ps, f->o.gmt, out))
			c->ret = -EBADMSG;
		f->size[i] = -2;
		return;
	}
	wpp_value(c->s, &c->m->args[i], sp, c->r->data, c->r->size, &off,
		  c->ps, f->o.gmt, out);
}

static bool name_is(const char *p, size_t n, const char *name)
{
	return strlen(name) == n && !memcmp(p, name, n);
}

/* %!NAME!: the TMF's text for it; false if it names nothing. */
static bool tmf_var(struct fmt_ctx *c, const char *p, size_t n,
		    struct wpp_buf *out)
{
	const struct wpp_msg *m = c->m;

	if (name_is(p, n, "FUNC"))
		wb_puts(out, m ? m->func : "");
	else if (name_is(p, n, "LEVEL"))
		wb_puts(out, m ? m->level : "");
	else if (name_is(p, n, "FLAGS"))
		wb_puts(out, m ? m->flags : "");
	else if (name_is(p, n, "COMPNAME"))
		wb_puts(out, m ? m->header->mj : "");
	else if (name_is(p, n, "SUBCOMP"))
		wb_puts(out, m ? m->header->mn : "");
	else if (name_is(p, n, "FILE"))
		wb_puts(out, m ? m->header->src : "");
	else if (name_is(p, n, "LINE"))
		wb_puts(out, m ? line_of(m->name) : "");
	else
		return false;
	return true;
}

/*
 * Expand fmt into out.  *zero (if not NULL) gets where %0 was, or -1.
 * args: %10 and up are arguments (the message), else literal (a prefix).
 */
static void expand(struct fmt_ctx *c, const char *fmt, bool args,
		   struct wpp_buf *out, long *zero)
{
	const char *p = fmt;

	if (zero)
		*zero = -1;
	while (*p) {
		const char *pct = strchr(p, '%');
		unsigned long n = 0;
		const char *q, *bang;
		struct wpp_spec sp;
		bool has_spec = false;
		int k;

		if (!pct) {
			wb_puts(out, p);
			return;
		}
		wb_put(out, p, (size_t)(pct - p));
		q = pct + 1;
		if (*q == '%') {
			wb_put(out, "%", 1);
			p = q + 1;
			continue;
		}
		if (*q == '!') {
			bang = strchr(q + 1, '!');
			if (bang && tmf_var(c, q + 1, (size_t)(bang - q - 1), out)) {
				p = bang + 1;
				continue;
			}
			wb_put(out, "%", 1);
			p = q;
			continue;
		}
		if (*q < '0' || *q > '9') {
			wb_put(out, "%", 1);
			p = q;
			continue;
		}
		while (*q >= '0' && *q <= '9' && n < 100000)
			n = n * 10 + (unsigned long)(*q++ - '0');
		if (*q == '!' && (bang = strchr(q + 1, '!')) &&
		    wpp_spec_parse(q + 1, (size_t)(bang - q - 1), &sp)) {
			has_spec = true;
			q = bang + 1;
		}
		p = q;
		if (n == 0) {
			if (zero && *zero < 0)
				*zero = (long)out->len;
			continue;
		}
		if (n < 10) {
			prefix_var(c, (unsigned int)n, has_spec ? &sp : NULL, out);
			continue;
		}
		if (args && (k = arg_index(c->m, n)) >= 0) {
			arg_text(c, k, has_spec ? &sp : NULL, out);
			continue;
		}
		/* An insert nothing fills: kept as written. */
		wb_put(out, pct, (size_t)(q - pct));
	}
}

static int reserve_args(struct etw_wpp_formatter *f, uint32_t n)
{
	struct etw_wpp_arg *a;
	uint32_t *vo, *at;
	int32_t *sz;

	if (n <= f->arg_cap)
		return 0;
	a = realloc(f->args, n * sizeof(*a));
	if (a)
		f->args = a;
	vo = realloc(f->val_off, n * sizeof(*vo));
	if (vo)
		f->val_off = vo;
	at = realloc(f->at, n * sizeof(*at));
	if (at)
		f->at = at;
	sz = realloc(f->size, n * sizeof(*sz));
	if (sz)
		f->size = sz;
	if (!a || !vo || !at || !sz)
		return -ENOMEM;
	f->arg_cap = n;
	return 0;
}

/* The spec of the first %n!spec! of fmt, false if none. */
static bool first_spec(const char *fmt, uint32_t n, struct wpp_spec *sp)
{
	for (const char *p = strchr(fmt, '%'); p; p = strchr(p + 1, '%')) {
		unsigned long k = 0;
		const char *q = p + 1, *bang;

		if (*q == '%') {
			p = q;
			continue;
		}
		while (*q >= '0' && *q <= '9' && k < 100000)
			k = k * 10 + (unsigned long)(*q++ - '0');
		if (k != n || q == p + 1)
			continue;
		return *q == '!' && (bang = strchr(q + 1, '!')) &&
		       wpp_spec_parse(q + 1, (size_t)(bang - q - 1), sp);
	}
	return false;
}

static bool plain_number(const char *s)
{
	if (*s == '-')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Each argument's place, size and value text (by its first spec). */
static int decode_args(struct fmt_ctx *c)
{
	struct etw_wpp_formatter *f = c->f;
	const struct wpp_msg *m = c->m;
	uint32_t off = 0;
	bool bad = false;

	if (reserve_args(f, m->arg_count))
		return -ENOMEM;
	wb_reset(&f->vals);
	for (uint32_t i = 0; i < m->arg_count; i++) {
		const struct wpp_arg *a = &m->args[i];
		struct wpp_spec sp;
		bool has = first_spec(m->format, a->number, &sp);
		int n = bad ? -EBADMSG :
			wpp_value_size(a, c->r->data, c->r->size, off, c->ps);

		f->at[i] = off;
		f->val_off[i] = (uint32_t)f->vals.len;
		if (n < 0) {
			uint32_t o = off;

			f->size[i] = bad ? -2 : -1;
			if (!bad)
				wpp_value(c->s, a, has ? &sp : NULL, c->r->data,
					  c->r->size, &o, c->ps, f->o.gmt, &f->vals);
			bad = true;
			c->ret = -EBADMSG;
		} else {
			uint32_t o = off;

			f->size[i] = n;
			wpp_value(c->s, a, has ? &sp : NULL, c->r->data,
				  c->r->size, &o, c->ps, f->o.gmt, &f->vals);
			off += (uint32_t)n;
		}
		wb_put(&f->vals, "", 1);	/* the NUL ends the value */
	}
	return f->vals.oom ? -ENOMEM : 0;
}

static void fill_out(struct fmt_ctx *c, struct etw_wpp_message *out)
{
	struct etw_wpp_formatter *f = c->f;
	const struct wpp_msg *m = c->m;

	for (uint32_t i = 0; i < m->arg_count; i++) {
		f->args[i].name = m->args[i].expr;
		f->args[i].item = m->args[i].item->name;
		f->args[i].value = f->vals.p + f->val_off[i];
		f->args[i].number = plain_number(f->args[i].value);
	}
	out->guid_name = m->header->friendly;
	out->message_name = m->name;
	out->file = m->header->src;
	out->function = m->func;
	out->level = m->level;
	out->flags = m->flags;
	out->component = m->header->mj;
	out->subcomponent = m->header->mn;
	out->args = f->args;
	out->arg_count = m->arg_count;
}

int wpp_format_record(struct etw_wpp_formatter *f, struct etw_tmf_store *s,
		      const struct wpp_record *r, struct etw_wpp_message *out)
{
	struct fmt_ctx c = { .f = f, .s = s, .r = r };
	long zero;
	int ret;

	memset(out, 0, sizeof(*out));
	c.ps = f->o.pointer_size == 4 || f->o.pointer_size == 8 ?
	       f->o.pointer_size : r->pointer_size;
	if (c.ps != 4 && c.ps != 8)
		c.ps = 8;
	wb_reset(&f->text);
	wb_reset(&f->line);
	c.m = s ? wpp_store_find(s, &r->guid, r->number) : NULL;
	if (!c.m) {
		etw_etl_guid_to_str(&r->guid, f->guid);
		wb_printf(&f->line, "Unknown(%3u): GUID=%s (No Format Information found).",
			  r->number, f->guid);
		out->line = out->text = f->line.p;
		out->guid_name = out->message_name = out->file = out->function =
			out->level = out->flags = out->component =
			out->subcomponent = "";
		return f->line.oom ? -ENOMEM : -ENOENT;
	}
	ret = decode_args(&c);
	if (ret)
		return ret;
	expand(&c, c.m->format, true, &f->text, &zero);
	/* A bad argument the text does not show: its marker at the end. */
	for (uint32_t i = 0; i < c.m->arg_count; i++)
		if (f->size[i] == -1) {
			wb_puts(&f->text, " ");
			wb_puts(&f->text, f->vals.p + f->val_off[i]);
		}
	if (zero >= 0 && !f->o.no_prefix) {
		wb_put(&f->line, f->text.p, (size_t)zero);
		expand(&c, f->o.prefix, false, &f->line, NULL);
		wb_puts(&f->line, f->text.p + zero);
	} else {
		wb_puts(&f->line, f->text.p);
	}
	if (f->text.oom || f->line.oom)
		return -ENOMEM;
	out->line = f->line.p;
	out->text = f->text.p;
	fill_out(&c, out);
	return c.ret;
}

ETW_EXPORT int etw_wpp_format(struct etw_wpp_formatter *f,
			      struct etw_tmf_store *s,
			      const struct etw_etl_event *ev,
			      struct etw_wpp_message *out)
{
	struct wpp_record r = { 0 };

	if (ev->kind != ETW_ETL_KIND_MESSAGE)
		return -EINVAL;
	r.guid = ev->provider;
	r.number = ev->id;
	r.data = ev->data;
	r.size = ev->data_size;
	r.pointer_size = ev->pointer_size;
	r.cpu = ev->processor;
	r.thread_id = ev->thread_id;
	r.process_id = ev->process_id;
	r.sequence = ev->sequence;
	r.filetime = (ev->has & ETW_ETL_HAS_FILETIME) ? ev->filetime : 0;
	r.kernel_time = ev->kernel_time;
	r.user_time = ev->user_time;
	return wpp_format_record(f, s, &r, out);
}
