// SPDX-License-Identifier: MIT
/*
 * A MOF property in TDH's terms, by the rules of Microsoft's "Event
 * Tracing MOF Qualifiers": the MOF type gives the in-type, and Format,
 * StringTermination, Extension and Pointer change it; [N], Max(N) and
 * WmiSizeIs("Prop") make arrays; ValueMap/Values and BitMap/BitValues
 * make maps.  The kernel's own classes (kernel_classes.h) follow the same
 * table.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mof.h"

int mof_guid(const char *s, GUID *g)
{
	unsigned int d[11];
	size_t n = strlen(s);
	char buf[40];
	int used = 0;

	if (n == 38 && s[0] == '{' && s[37] == '}') {
		memcpy(buf, s + 1, 36);
		buf[36] = '\0';
		s = buf;
	} else if (n != 36) {
		return -1;
	}
	if (sscanf(s, "%8x-%4x-%4x-%2x%2x-%2x%2x%2x%2x%2x%2x%n", &d[0], &d[1],
		   &d[2], &d[3], &d[4], &d[5], &d[6], &d[7], &d[8], &d[9],
		   &d[10], &used) != 11 || used != 36)
		return -1;
	for (int i = 0; i < 36; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != '-' :
		    !((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
		      (s[i] >= 'A' && s[i] <= 'F')))
			return -1;
	}
	g->Data1 = d[0];
	g->Data2 = (unsigned short)d[1];
	g->Data3 = (unsigned short)d[2];
	for (int i = 0; i < 8; i++)
		g->Data4[i] = (unsigned char)d[3 + i];
	return 0;
}

/* The single string value of a qualifier, or NULL. */
static const char *value_of(const struct etw_mof_property *p, const char *name)
{
	const struct etw_mof_qualifier *q = etw_mof_property_qualifier(p, name);

	return q && q->nvalues == 1 ? q->values[0] : NULL;
}

static bool number(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	*out = strtoul(s, &end, 0);
	return !errno && !*end && *out <= max;
}

struct mof_type {
	const char *name;
	uint16_t in_type, hex_out;
};

static const struct mof_type types[] = {
	{ "uint8", TDH_INTYPE_UINT8, TDH_OUTTYPE_HEXINT8 },
	{ "sint8", TDH_INTYPE_INT8, TDH_OUTTYPE_HEXINT8 },
	{ "uint16", TDH_INTYPE_UINT16, TDH_OUTTYPE_HEXINT16 },
	{ "sint16", TDH_INTYPE_INT16, TDH_OUTTYPE_HEXINT16 },
	{ "uint32", TDH_INTYPE_UINT32, TDH_OUTTYPE_HEXINT32 },
	{ "sint32", TDH_INTYPE_INT32, TDH_OUTTYPE_HEXINT32 },
	{ "uint64", TDH_INTYPE_UINT64, TDH_OUTTYPE_HEXINT64 },
	{ "sint64", TDH_INTYPE_INT64, TDH_OUTTYPE_HEXINT64 },
	{ "real32", TDH_INTYPE_FLOAT, 0 },
	{ "real64", TDH_INTYPE_DOUBLE, 0 },
	{ "boolean", TDH_INTYPE_BOOLEAN, 0 },
	{ "char16", TDH_INTYPE_UNICODECHAR, 0 },
	{ "string", TDH_INTYPE_ANSISTRING, 0 },
	{ "object", 0, 0 },
};

static __attribute__((format(printf, 3, 4)))
int why_not(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -1;
}

static int string_type(const struct etw_mof_property *p, struct mof_field *f,
		       char *why, size_t size)
{
	const char *term = value_of(p, "StringTermination");
	const char *format = value_of(p, "Format");
	const char *ext = value_of(p, "Extension");
	bool wide = format && !strcasecmp(format, "w");

	if (format && !wide && strcasecmp(format, "s"))
		return why_not(why, size, "Format(\"%s\") does not apply to a string",
			       format);
	if (ext && !strcasecmp(ext, "RWString"))
		wide = true;
	else if (ext && strcasecmp(ext, "RString"))
		return why_not(why, size, "Extension(\"%s\") does not apply to a string", ext);
	if (!term || !strcasecmp(term, "NullTerminated"))
		f->in_type = wide ? TDH_INTYPE_UNICODESTRING : TDH_INTYPE_ANSISTRING;
	else if (!strcasecmp(term, "Counted"))
		f->in_type = wide ? TDH_INTYPE_COUNTEDSTRING : TDH_INTYPE_COUNTEDANSISTRING;
	else if (!strcasecmp(term, "ReverseCounted"))
		f->in_type = wide ? TDH_INTYPE_REVERSEDCOUNTEDSTRING :
				    TDH_INTYPE_REVERSEDCOUNTEDANSISTRING;
	else if (!strcasecmp(term, "NotCounted"))
		f->in_type = wide ? TDH_INTYPE_NONNULLTERMINATEDSTRING :
				    TDH_INTYPE_NONNULLTERMINATEDANSISTRING;
	else
		return why_not(why, size, "unknown StringTermination(\"%s\")", term);
	return 0;
}

static int object_type(const char *ext, struct mof_field *f, char *why,
		       size_t size)
{
	if (!ext)
		return why_not(why, size, "%s", "an object needs an Extension qualifier");
	if (!strcasecmp(ext, "Guid")) {
		f->in_type = TDH_INTYPE_GUID;
	} else if (!strcasecmp(ext, "Sid")) {
		f->in_type = TDH_INTYPE_WBEMSID;
	} else if (!strcasecmp(ext, "SizeT")) {
		f->in_type = TDH_INTYPE_SIZET;
	} else if (!strcasecmp(ext, "IPAddrV6")) {
		f->in_type = TDH_INTYPE_BINARY;
		f->out_type = TDH_OUTTYPE_IPV6;
		f->length = 16;
	} else if (!strcasecmp(ext, "IPAddr") || !strcasecmp(ext, "IPAddrV4")) {
		f->in_type = TDH_INTYPE_UINT32;
		f->out_type = TDH_OUTTYPE_IPV4;
	} else if (!strcasecmp(ext, "WmiTime")) {
		f->in_type = TDH_INTYPE_UINT64;
	} else {
		return why_not(why, size, "Extension(\"%s\") is not supported on an object",
			       ext);
	}
	return 0;
}

/* Format, Extension and Pointer on a number or a character. */
static int number_type(const struct mof_type *t, const struct etw_mof_property *p,
		       struct mof_field *f, char *why, size_t size)
{
	const char *format = value_of(p, "Format");
	const char *ext = value_of(p, "Extension");

	f->in_type = t->in_type;
	if (format) {
		if (!strcasecmp(format, "x") && t->hex_out)
			f->out_type = t->hex_out;
		else if (!strcasecmp(format, "c") && t->in_type == TDH_INTYPE_UINT8)
			f->in_type = TDH_INTYPE_ANSICHAR;
		else if (strcasecmp(format, "s") || !p->array)
			return why_not(why, size, "Format(\"%s\") does not apply here", format);
	}
	if (ext) {
		if (!strcasecmp(ext, "Port") && t->in_type == TDH_INTYPE_UINT16)
			f->out_type = TDH_OUTTYPE_PORT;
		else if ((!strcasecmp(ext, "IPAddr") || !strcasecmp(ext, "IPAddrV4")) &&
			 t->in_type == TDH_INTYPE_UINT32)
			f->out_type = TDH_OUTTYPE_IPV4;
		else if (!strcasecmp(ext, "SizeT"))
			f->in_type = TDH_INTYPE_SIZET;
		else if (strcasecmp(ext, "WmiTime") && strcasecmp(ext, "NoPrint"))
			return why_not(why, size, "Extension(\"%s\") does not apply here", ext);
	}
	return 0;
}

static int array_size(const struct etw_mof_property *p, struct mof_field *f,
		      char *why, size_t size)
{
	const char *max = value_of(p, "Max");
	unsigned long n;

	f->count_of = value_of(p, "WmiSizeIs");
	if (p->array_size) {
		f->count = (uint16_t)p->array_size;
	} else if (max) {
		if (!number(max, 65535, &n) || !n)
			return why_not(why, size, "Max(%s) is not a number from 1 to 65535", max);
		f->count = (uint16_t)n;
	} else if (!f->count_of) {
		return why_not(why, size, "%s",
			       "an array needs a size: [N], Max(N) or WmiSizeIs(\"Property\")");
	}
	/* Characters of a fixed size are one string of that length. */
	if (f->count_of)
		return 0;
	if (f->in_type == TDH_INTYPE_UNICODECHAR ||
	    ((f->in_type == TDH_INTYPE_UINT8 || f->in_type == TDH_INTYPE_INT8 ||
	      f->in_type == TDH_INTYPE_ANSICHAR) && value_of(p, "Format") &&
	     !strcasecmp(value_of(p, "Format"), "s"))) {
		f->in_type = f->in_type == TDH_INTYPE_UNICODECHAR ?
			     TDH_INTYPE_UNICODESTRING : TDH_INTYPE_ANSISTRING;
		f->length = f->count;
		f->count = 1;
	}
	return 0;
}

int mof_field_of(const struct etw_mof_class *c,
		 const struct etw_mof_property *p, struct mof_field *f,
		 char *why, size_t size)
{
	const struct mof_type *t = NULL;
	const char *id = value_of(p, "WmiDataId");
	const char *vtype = value_of(p, "ValueType");
	unsigned long n;

	(void)c;
	memset(f, 0, sizeof(*f));
	f->count = 1;
	if (!id || !number(id, 0xffff, &n) || !n)
		return why_not(why, size, "%s", "needs WmiDataId(N), N from 1");
	f->data_id = (uint32_t)n;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcasecmp(p->type, types[i].name))
			t = &types[i];
	if (!t)
		return why_not(why, size, "type %s is not supported", p->type);
	if (!strcasecmp(t->name, "string")) {
		if (string_type(p, f, why, size))
			return -1;
	} else if (!strcasecmp(t->name, "object")) {
		if (object_type(value_of(p, "Extension"), f, why, size))
			return -1;
	} else if (number_type(t, p, f, why, size)) {
		return -1;
	}
	if (etw_mof_property_qualifier(p, "Pointer"))
		f->in_type = TDH_INTYPE_POINTER;
	if (p->array && array_size(p, f, why, size))
		return -1;
	if (!p->array && value_of(p, "WmiSizeIs"))
		return why_not(why, size, "%s", "WmiSizeIs is for arrays (name[])");

	f->map_values = etw_mof_property_qualifier(p, "Values");
	f->map_keys = etw_mof_property_qualifier(p, "ValueMap");
	if (f->map_values) {
		f->map_flags = f->map_keys ? EVENTMAP_INFO_FLAG_WBEM_VALUEMAP :
					     EVENTMAP_INFO_FLAG_WBEM_NO_MAP;
		if (vtype && !strcasecmp(vtype, "flag"))
			f->map_flags = EVENTMAP_INFO_FLAG_WBEM_FLAG;
	} else if (etw_mof_property_qualifier(p, "BitValues")) {
		f->map_values = etw_mof_property_qualifier(p, "BitValues");
		f->map_keys = etw_mof_property_qualifier(p, "BitMap");
		if (!f->map_keys)
			return why_not(why, size, "%s", "BitValues needs BitMap");
		f->map_flags = EVENTMAP_INFO_FLAG_WBEM_BITMAP;
	} else if (f->map_keys) {
		return why_not(why, size, "%s", "ValueMap needs Values");
	}
	if (f->map_keys && f->map_keys->nvalues != f->map_values->nvalues)
		return why_not(why, size, "%s",
			       "the map's keys and values differ in number");
	if (f->map_values) {
		struct tei_map_entry *e;
		uint32_t count;
		int ret = mof_map_entries(f, &e, &count);

		if (ret == -EINVAL)
			return why_not(why, size, "%s", "a map key is not a number (or a bit from 0 to 31)");
		free(e);
		if (ret)
			return why_not(why, size, "%s", "out of memory");
	}
	return 0;
}

int mof_map_entries(const struct mof_field *f, struct tei_map_entry **out,
		    uint32_t *n)
{
	const struct etw_mof_qualifier *v = f->map_values, *k = f->map_keys;
	bool bits = f->map_flags == EVENTMAP_INFO_FLAG_WBEM_BITMAP;
	struct tei_map_entry *e;

	*out = NULL;
	*n = 0;
	if (!v || !v->nvalues)
		return 0;
	e = calloc(v->nvalues, sizeof(*e));
	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < v->nvalues; i++) {
		unsigned long key = i;

		if (k && !number(k->values[i], bits ? 31 : 0xffffffffUL, &key)) {
			free(e);
			return -EINVAL;
		}
		e[i].value = bits ? 1u << key : (uint32_t)key;
		e[i].output = v->values[i];
	}
	*out = e;
	*n = (uint32_t)v->nvalues;
	return 0;
}
