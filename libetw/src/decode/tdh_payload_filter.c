// SPDX-License-Identifier: MIT
/*
 * TdhCreatePayloadFilter, TdhDeletePayloadFilter,
 * TdhAggregatePayloadFilters, TdhCleanupPayloadEventFilterDescriptor: the
 * EVENT_FILTER_TYPE_PAYLOAD filter EnableTraceEx2 hands to the module.
 *
 * Field names are resolved here, against the manifest's description of
 * the one event (TdhGetManifestEventInformation): the kernel gets, for
 * each top-level field up to the last one compared, how to skip it, and
 * for each predicate the field's index, its comparison type and the value
 * already converted from the predicate's string (uapi struct etw_pf_pred).
 * Windows compares integers (FILETIME among them) and strings (GUIDs with
 * IS and ISNOT only), not floating point, binary data, pointers, SIDs or
 * SYSTEMTIMEs: those are ERROR_NOT_SUPPORTED, and so is a field the kernel
 * could not find because a field before it has a length or count given
 * by another field, or is a structure or a SID.
 *
 * Errors Windows' documentation leaves open, and what is done here: an
 * unknown field name is ERROR_NOT_FOUND, as an unknown event is; an
 * operator that does not fit the field's type, a value that does not
 * parse or does not fit the field, a MODULO by 0 are
 * ERROR_INVALID_PARAMETER.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/etw.h>
#include <tdh.h>
#include <objbase.h>

#include "../common/internal.h"
#include "../common/utf.h"

/* What TdhCreatePayloadFilter returns: one etw_pf_event, its provider. */
struct single_filter {
	uint32_t magic;
	GUID provider;
	uint16_t size;			/* of @ev's bytes */
	_Alignas(8) uint8_t ev[];	/* struct etw_pf_event ... */
};

#define SINGLE_MAGIC	0x31665065u	/* "ePf1" */

/* A field's kind (uapi ETW_PF_FIELD_*) and fixed size, or an error. */
static ULONG field_layout(const EVENT_PROPERTY_INFO *pi, struct etw_pf_field *f)
{
	ULONG n = 1, size;

	memset(f, 0, sizeof(*f));
	if (pi->Flags & (PropertyStruct | PropertyParamCount | PropertyParamLength))
		return ERROR_NOT_SUPPORTED;
	if (pi->Flags & PropertyParamFixedCount)
		n = pi->count;
	switch (pi->nonStructType.InType) {
	case TDH_INTYPE_INT8: case TDH_INTYPE_UINT8:
		size = 1;
		break;
	case TDH_INTYPE_INT16: case TDH_INTYPE_UINT16:
		size = 2;
		break;
	case TDH_INTYPE_INT32: case TDH_INTYPE_UINT32: case TDH_INTYPE_HEXINT32:
	case TDH_INTYPE_BOOLEAN: case TDH_INTYPE_FLOAT:
		size = 4;
		break;
	case TDH_INTYPE_INT64: case TDH_INTYPE_UINT64: case TDH_INTYPE_HEXINT64:
	case TDH_INTYPE_DOUBLE: case TDH_INTYPE_FILETIME: case TDH_INTYPE_POINTER:
		size = 8;	/* 64-bit writers' pointers */
		break;
	case TDH_INTYPE_GUID: case TDH_INTYPE_SYSTEMTIME:
		size = 16;
		break;
	case TDH_INTYPE_UNICODESTRING:
	case TDH_INTYPE_ANSISTRING:
	case TDH_INTYPE_BINARY:
		if (pi->Flags & PropertyParamFixedLength || pi->length) {
			size = pi->length *
			       (pi->nonStructType.InType == TDH_INTYPE_UNICODESTRING ? 2 : 1);
			break;
		}
		if (pi->nonStructType.InType == TDH_INTYPE_BINARY)
			return ERROR_NOT_SUPPORTED;
		if (n != 1)
			return ERROR_NOT_SUPPORTED;
		f->kind = pi->nonStructType.InType == TDH_INTYPE_UNICODESTRING ?
			  ETW_PF_FIELD_STR16 : ETW_PF_FIELD_STR8;
		return ERROR_SUCCESS;
	case TDH_INTYPE_MANIFEST_COUNTEDSTRING:
	case TDH_INTYPE_MANIFEST_COUNTEDANSISTRING:
	case TDH_INTYPE_MANIFEST_COUNTEDBINARY:
		if (n != 1)
			return ERROR_NOT_SUPPORTED;
		f->kind = ETW_PF_FIELD_COUNTED;
		return ERROR_SUCCESS;
	default:	/* SID and the rest: no size without reading it */
		return ERROR_NOT_SUPPORTED;
	}
	if (!size || (uint64_t)size * n > 0xffff)
		return ERROR_NOT_SUPPORTED;
	f->kind = ETW_PF_FIELD_FIXED;
	f->size = (uint16_t)(size * n);
	return ERROR_SUCCESS;
}

/* The comparison type of a field Windows filters on, or an error. */
static ULONG field_type(const EVENT_PROPERTY_INFO *pi, uint8_t *type)
{
	if (pi->Flags & PropertyParamFixedCount && pi->count != 1)
		return ERROR_NOT_SUPPORTED;	/* an array */
	switch (pi->nonStructType.InType) {
	case TDH_INTYPE_INT8: case TDH_INTYPE_INT16: case TDH_INTYPE_INT32:
	case TDH_INTYPE_INT64:
		*type = ETW_PF_T_INT;
		return ERROR_SUCCESS;
	case TDH_INTYPE_UINT8: case TDH_INTYPE_UINT16: case TDH_INTYPE_UINT32:
	case TDH_INTYPE_UINT64: case TDH_INTYPE_HEXINT32: case TDH_INTYPE_HEXINT64:
	case TDH_INTYPE_BOOLEAN: case TDH_INTYPE_FILETIME:
		*type = ETW_PF_T_UINT;
		return ERROR_SUCCESS;
	case TDH_INTYPE_UNICODESTRING: case TDH_INTYPE_MANIFEST_COUNTEDSTRING:
		*type = ETW_PF_T_STR16;
		return ERROR_SUCCESS;
	case TDH_INTYPE_ANSISTRING: case TDH_INTYPE_MANIFEST_COUNTEDANSISTRING:
		*type = ETW_PF_T_STR8;
		return ERROR_SUCCESS;
	case TDH_INTYPE_GUID:
		*type = ETW_PF_T_GUID;
		return ERROR_SUCCESS;
	default:
		return ERROR_NOT_SUPPORTED;
	}
}

static bool op_fits(USHORT op, uint8_t type)
{
	switch (type) {
	case ETW_PF_T_UINT:
	case ETW_PF_T_INT:
		return op <= PAYLOADFIELD_MODULO;
	case ETW_PF_T_GUID:
		return op == PAYLOADFIELD_IS || op == PAYLOADFIELD_ISNOT;
	default:
		return op == PAYLOADFIELD_CONTAINS || op == PAYLOADFIELD_DOESNTCONTAIN ||
		       op == PAYLOADFIELD_IS || op == PAYLOADFIELD_ISNOT;
	}
}

/*
 * One integer of @s[*i..], up to @stop or the end: decimal, or hexadecimal
 * after 0x; a '-' only for signed fields; it must fit @width bytes.
 */
static bool parse_int(const WCHAR *s, size_t *i, WCHAR stop, bool sgn,
		      unsigned int width, __u64 *out)
{
	uint64_t v = 0, max = width == 8 ? UINT64_MAX : (1ULL << (width * 8)) - 1;
	unsigned int base = 10, digits = 0;
	bool neg = false;
	size_t k = *i;

	while (s[k] == ' ')
		k++;
	if (s[k] == '-' && sgn) {
		neg = true;
		k++;
	}
	if (s[k] == '0' && (s[k + 1] == 'x' || s[k + 1] == 'X')) {
		base = 16;
		k += 2;
	}
	for (;; k++, digits++) {
		WCHAR c = s[k];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	while (s[k] == ' ')
		k++;
	if (!digits || (s[k] && s[k] != stop))
		return false;
	if (sgn) {
		/* The range of a signed field of @width bytes. */
		uint64_t lim = 1ULL << (width * 8 - 1);

		if (neg ? v > lim : v >= lim)
			return false;
		v = neg ? (uint64_t)0 - v : v;
	} else if (v > max) {
		return false;
	}
	*out = v;
	*i = k;
	return true;
}

/* A predicate's value from its string; string values go to @str. */
static ULONG parse_value(const PAYLOAD_FILTER_PREDICATE *p, struct etw_pf_pred *pr,
			 unsigned int width, char **str, size_t *str_len)
{
	const WCHAR *v = p->Value;
	size_t i = 0, n;
	bool sgn = pr->type == ETW_PF_T_INT;
	GUID g;

	if (!v)
		return ERROR_INVALID_PARAMETER;
	switch (pr->type) {
	case ETW_PF_T_UINT:
	case ETW_PF_T_INT:
		if (!parse_int(v, &i, ',', sgn, width, &pr->value[0]))
			return ERROR_INVALID_PARAMETER;
		if (pr->op == PAYLOADFIELD_BETWEEN || pr->op == PAYLOADFIELD_NOTBETWEEN) {
			if (v[i] != ',')
				return ERROR_INVALID_PARAMETER;
			i++;
			if (!parse_int(v, &i, 0, sgn, width, &pr->value[1]))
				return ERROR_INVALID_PARAMETER;
		}
		if (v[i])
			return ERROR_INVALID_PARAMETER;
		if (pr->op == PAYLOADFIELD_MODULO &&
		    (!pr->value[0] || (sgn && (int64_t)pr->value[0] < 0)))
			return ERROR_INVALID_PARAMETER;
		return ERROR_SUCCESS;
	case ETW_PF_T_GUID:
		/* With its braces, as Windows requires. */
		if (v[0] != '{' || CLSIDFromString(v, &g) != S_OK)
			return ERROR_INVALID_PARAMETER;
		memcpy(pr->value, &g, sizeof(g));
		return ERROR_SUCCESS;
	case ETW_PF_T_STR16:
		for (n = 0; v[n]; n++)
			;
		*str = malloc(n * 2 + 1);
		if (!*str)
			return ERROR_NOT_ENOUGH_MEMORY;
		for (i = 0; i < n; i++) {
			(*str)[2 * i] = (char)(v[i] & 0xff);
			(*str)[2 * i + 1] = (char)(v[i] >> 8);
		}
		*str_len = n * 2;
		return ERROR_SUCCESS;
	default: {
		/* The value is UNICODE; an ANSI field is compared in UTF-8. */
		ssize_t len;

		for (n = 0; v[n]; n++)
			;
		len = etw_utf16_to_utf8(v, n, NULL, 0);
		if (len < 0)
			return ERROR_INVALID_PARAMETER;
		*str = malloc((size_t)len + 1);
		if (!*str)
			return ERROR_NOT_ENOUGH_MEMORY;
		etw_utf16_to_utf8(v, n, *str, (size_t)len + 1);
		*str_len = (size_t)len;
		return ERROR_SUCCESS;
	}
	}
}

static bool name_is(const TRACE_EVENT_INFO *tei, const EVENT_PROPERTY_INFO *pi,
		    const WCHAR *name)
{
	const WCHAR *n = (const WCHAR *)((const BYTE *)tei + pi->NameOffset);
	size_t i;

	if (!pi->NameOffset)
		return false;
	for (i = 0; n[i] && n[i] == name[i]; i++)
		;
	return n[i] == name[i];
}

/* The predicates resolved against @tei into @pr, their strings in @str. */
static ULONG resolve(const TRACE_EVENT_INFO *tei, ULONG count,
		     const PAYLOAD_FILTER_PREDICATE *preds, struct etw_pf_pred *pr,
		     char **str, size_t *str_len, ULONG *fields)
{
	ULONG i, k, err;

	*fields = 0;
	for (k = 0; k < count; k++) {
		const PAYLOAD_FILTER_PREDICATE *p = &preds[k];
		struct etw_pf_field f;

		if (!p->FieldName || !p->Value || p->CompareOp >= PAYLOADFIELD_INVALID)
			return ERROR_INVALID_PARAMETER;
		for (i = 0; i < tei->TopLevelPropertyCount; i++)
			if (name_is(tei, &tei->EventPropertyInfoArray[i], p->FieldName))
				break;
		if (i == tei->TopLevelPropertyCount || i >= ETW_PF_MAX_FIELDS)
			return i == tei->TopLevelPropertyCount ? ERROR_NOT_FOUND :
			       ERROR_NOT_SUPPORTED;
		memset(&pr[k], 0, sizeof(pr[k]));
		pr[k].op = (uint8_t)p->CompareOp;
		pr[k].field = (uint8_t)i;
		err = field_type(&tei->EventPropertyInfoArray[i], &pr[k].type);
		if (!err)
			err = field_layout(&tei->EventPropertyInfoArray[i], &f);
		if (err)
			return err;
		if (!op_fits(p->CompareOp, pr[k].type))
			return ERROR_INVALID_PARAMETER;
		err = parse_value(p, &pr[k], f.size, &str[k], &str_len[k]);
		if (err)
			return err;
		if (i + 1 > *fields)
			*fields = i + 1;
	}
	return ERROR_SUCCESS;
}

/* Lay the filter out: header, fields, predicates, strings. */
static ULONG build(const GUID *provider, const EVENT_DESCRIPTOR *d, bool any,
		   const TRACE_EVENT_INFO *tei, ULONG count,
		   struct etw_pf_pred *pr, char **str, const size_t *str_len,
		   ULONG nfields, PVOID *out)
{
	size_t fields_end = (sizeof(struct etw_pf_event) +
			     nfields * sizeof(struct etw_pf_field) + 7) & ~(size_t)7;
	size_t off = fields_end + count * sizeof(*pr), size;
	struct single_filter *sf;
	struct etw_pf_event *ev;
	struct etw_pf_field *f;
	ULONG i, err;

	size = off;
	for (i = 0; i < count; i++)
		size += str_len[i];
	size = (size + 7) & ~(size_t)7;
	/* It and the aggregate's header must fit EnableTraceEx2's limit. */
	if (size + sizeof(struct etw_pf_header) > MAX_EVENT_FILTER_PAYLOAD_SIZE)
		return ERROR_INSUFFICIENT_BUFFER;
	sf = calloc(1, sizeof(*sf) + size);
	if (!sf)
		return ERROR_NOT_ENOUGH_MEMORY;
	sf->magic = SINGLE_MAGIC;
	sf->provider = *provider;
	sf->size = (uint16_t)size;
	ev = (struct etw_pf_event *)sf->ev;
	ev->size = (uint16_t)size;
	ev->id = d->Id;
	ev->version = d->Version;
	ev->flags = any ? ETW_PF_F_ANY : 0;
	ev->field_count = (uint8_t)nfields;
	ev->pred_count = (uint8_t)count;
	f = (struct etw_pf_field *)(ev + 1);
	for (i = 0; i < nfields; i++) {
		err = field_layout(&tei->EventPropertyInfoArray[i], &f[i]);
		if (err) {
			free(sf);
			return err;
		}
	}
	for (i = 0; i < count; i++) {
		if (str[i]) {
			pr[i].str_off = (uint16_t)off;
			pr[i].str_len = (uint16_t)str_len[i];
			memcpy(sf->ev + off, str[i], str_len[i]);
			off += str_len[i];
		}
	}
	memcpy(sf->ev + fields_end, pr, count * sizeof(*pr));
	*out = sf;
	return ERROR_SUCCESS;
}

ETW_EXPORT TDHSTATUS WINAPI TdhCreatePayloadFilter(LPCGUID ProviderGuid,
						   PCEVENT_DESCRIPTOR EventDescriptor,
						   BOOLEAN EventMatchANY,
						   ULONG PayloadPredicateCount,
						   PPAYLOAD_FILTER_PREDICATE PayloadPredicates,
						   PVOID *PayloadFilter)
{
	struct etw_pf_pred pr[MAX_PAYLOAD_PREDICATES];
	char *str[MAX_PAYLOAD_PREDICATES] = { 0 };
	size_t str_len[MAX_PAYLOAD_PREDICATES] = { 0 };
	EVENT_DESCRIPTOR d;
	TRACE_EVENT_INFO *tei = NULL;
	ULONG size = 0, err, nfields, i;
	GUID g;

	if (!ProviderGuid || !EventDescriptor || !PayloadPredicates ||
	    !PayloadFilter || !PayloadPredicateCount ||
	    PayloadPredicateCount > MAX_PAYLOAD_PREDICATES)
		return ERROR_INVALID_PARAMETER;
	*PayloadFilter = NULL;
	g = *ProviderGuid;
	d = *EventDescriptor;
	err = TdhGetManifestEventInformation(&g, &d, NULL, &size);
	if (err == ERROR_INSUFFICIENT_BUFFER) {
		tei = malloc(size);
		if (!tei)
			return ERROR_NOT_ENOUGH_MEMORY;
		err = TdhGetManifestEventInformation(&g, &d, tei, &size);
	}
	if (err)
		goto out;
	err = resolve(tei, PayloadPredicateCount, PayloadPredicates, pr, str,
		      str_len, &nfields);
	if (!err)
		err = build(&g, &d, EventMatchANY, tei, PayloadPredicateCount, pr,
			    str, str_len, nfields, PayloadFilter);
out:
	for (i = 0; i < MAX_PAYLOAD_PREDICATES; i++)
		free(str[i]);
	free(tei);
	return err;
}

static struct single_filter *single(PVOID p)
{
	struct single_filter *sf = p;

	return sf && sf->magic == SINGLE_MAGIC ? sf : NULL;
}

ETW_EXPORT TDHSTATUS WINAPI TdhDeletePayloadFilter(PVOID *PayloadFilter)
{
	struct single_filter *sf;

	if (!PayloadFilter || !(sf = single(*PayloadFilter)))
		return ERROR_INVALID_PARAMETER;
	sf->magic = 0;
	free(sf);
	*PayloadFilter = NULL;
	return ERROR_SUCCESS;
}

ETW_EXPORT TDHSTATUS WINAPI TdhAggregatePayloadFilters(ULONG PayloadFilterCount,
						       PVOID *PayloadFilterPtrs,
						       PBOOLEAN EventMatchALLFlags,
						       PEVENT_FILTER_DESCRIPTOR EventFilterDescriptor)
{
	struct etw_pf_header *h;
	size_t size = sizeof(*h), off;
	uint8_t *blob;
	ULONG i;

	if (!PayloadFilterCount || !PayloadFilterPtrs || !EventFilterDescriptor ||
	    PayloadFilterCount > UINT16_MAX)
		return ERROR_INVALID_PARAMETER;
	for (i = 0; i < PayloadFilterCount; i++) {
		const struct single_filter *sf = single(PayloadFilterPtrs[i]);

		/* All of one provider: the one EnableTraceEx2 enables. */
		if (!sf || memcmp(&sf->provider, &single(PayloadFilterPtrs[0])->provider,
				  sizeof(GUID)))
			return ERROR_INVALID_PARAMETER;
		size += sf->size;
	}
	if (size > MAX_EVENT_FILTER_PAYLOAD_SIZE)
		return ERROR_INSUFFICIENT_BUFFER;
	blob = calloc(1, size);
	if (!blob)
		return ERROR_NOT_ENOUGH_MEMORY;
	h = (struct etw_pf_header *)blob;
	h->magic = ETW_PF_MAGIC;
	h->size = (uint16_t)size;
	h->count = (uint16_t)PayloadFilterCount;
	memcpy(h->guid, &single(PayloadFilterPtrs[0])->provider, sizeof(h->guid));
	off = sizeof(*h);
	for (i = 0; i < PayloadFilterCount; i++) {
		const struct single_filter *sf = single(PayloadFilterPtrs[i]);
		struct etw_pf_event *ev = (struct etw_pf_event *)(blob + off);

		memcpy(ev, sf->ev, sf->size);
		if (EventMatchALLFlags && EventMatchALLFlags[i])
			ev->flags |= ETW_PF_F_ALL;
		off += sf->size;
	}
	EventFilterDescriptor->Ptr = (ULONGLONG)(uintptr_t)blob;
	EventFilterDescriptor->Size = (ULONG)size;
	EventFilterDescriptor->Type = EVENT_FILTER_TYPE_PAYLOAD;
	return ERROR_SUCCESS;
}

ETW_EXPORT TDHSTATUS WINAPI
TdhCleanupPayloadEventFilterDescriptor(PEVENT_FILTER_DESCRIPTOR EventFilterDescriptor)
{
	if (!EventFilterDescriptor ||
	    EventFilterDescriptor->Type != EVENT_FILTER_TYPE_PAYLOAD)
		return ERROR_INVALID_PARAMETER;
	free((void *)(uintptr_t)EventFilterDescriptor->Ptr);
	memset(EventFilterDescriptor, 0, sizeof(*EventFilterDescriptor));
	return ERROR_SUCCESS;
}
