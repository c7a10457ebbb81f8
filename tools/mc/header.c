// SPDX-License-Identifier: GPL-2.0
/*
 * etw mc: the C header Windows' mc.exe -um generates from a manifest,
 * with the same names and behaviour, for libetw.  The header keeps
 * mc.exe's public surface (EventRegister<Provider>, EventWrite<Event>,
 * EventEnabled<Event>, the symbols, MCGEN_TRACE_CONTEXT and the
 * documented MCGEN_* configuration macros); its internals are our own.
 * Definitions that several files including the header share are weak
 * symbols, the ELF counterpart of __declspec(selectany).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "etw.h"
#include "mc/mc.h"

/* TDH_INTYPE_* numbers, as the model gives them. */
enum {
	IN_UNICODESTRING = 1, IN_ANSISTRING, IN_INT8, IN_UINT8, IN_INT16,
	IN_UINT16, IN_INT32, IN_UINT32, IN_INT64, IN_UINT64, IN_FLOAT,
	IN_DOUBLE, IN_BOOLEAN, IN_BINARY, IN_GUID, IN_POINTER, IN_FILETIME,
	IN_SYSTEMTIME, IN_SID, IN_HEXINT32, IN_HEXINT64, IN_COUNTEDSTRING,
	IN_COUNTEDANSISTRING, IN_RESERVED24, IN_COUNTEDBINARY,
};

void mc_ident(char *buf, size_t size, const char *s)
{
	size_t n = 0;

	if ((*s >= '0' && *s <= '9') && size > 1)
		buf[n++] = '_';
	for (; *s && n + 1 < size; s++) {
		char c = *s;

		buf[n++] = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '_') ? c : '_';
	}
	buf[n] = '\0';
}

/* The scalar C type of an in-type passed by value, or NULL. */
static const char *scalar_type(uint16_t in)
{
	switch (in) {
	case IN_INT8: return "signed char";
	case IN_UINT8: return "unsigned char";
	case IN_INT16: return "signed short";
	case IN_UINT16: return "unsigned short";
	case IN_INT32: return "signed int";
	case IN_UINT32: case IN_HEXINT32: return "unsigned int";
	case IN_INT64: return "signed long long";
	case IN_UINT64: case IN_HEXINT64: return "unsigned long long";
	case IN_FLOAT: return "float";
	case IN_DOUBLE: return "double";
	case IN_BOOLEAN: return "BOOL";
	default: return NULL;
	}
}

/* Fixed-size values passed by pointer, and their type. */
static const char *pointed_type(uint16_t in)
{
	switch (in) {
	case IN_GUID: return "GUID";
	case IN_FILETIME: return "FILETIME";
	case IN_SYSTEMTIME: return "SYSTEMTIME";
	default: return NULL;
	}
}

/* How one top-level field becomes arguments and data descriptors. */
enum arg_kind {
	A_SCALAR,		/* T v: &v, sizeof(T) */
	A_POINTER,		/* const void *v: &v, sizeof(void *) */
	A_FIXED,		/* const T *v (GUID, FILETIME, SYSTEMTIME) */
	A_ARRAY,		/* const T *v, count elements */
	A_WSTRING,		/* PCWSTR */
	A_ASTRING,		/* PCSTR */
	A_BINARY,		/* const void *v, length bytes */
	A_SID,			/* const void *v: 8 + 4 * SubAuthorityCount */
	A_COUNTED,		/* USHORT v_Len, const T *v: 2 descriptors */
	A_BLOB,			/* ULONG v_Len, const void *v: structs, arrays */
};

struct arg {
	enum arg_kind kind;
	const char *type;
	char name[128];		/* the macro's parameter name */
	unsigned int descs;	/* data descriptors it takes */
};

static enum arg_kind kind_of(const struct etw_mf_field *f, const char **type)
{
	*type = NULL;
	if (f->is_struct)
		return A_BLOB;
	if (f->array) {
		*type = scalar_type(f->in_type);
		if (!*type)
			*type = pointed_type(f->in_type);
		return *type ? A_ARRAY : A_BLOB;
	}
	if ((*type = scalar_type(f->in_type)))
		return A_SCALAR;
	if ((*type = pointed_type(f->in_type)))
		return A_FIXED;
	switch (f->in_type) {
	case IN_POINTER:
		return A_POINTER;
	case IN_UNICODESTRING:
		return A_WSTRING;
	case IN_ANSISTRING:
		return A_ASTRING;
	case IN_BINARY:
		return A_BINARY;
	case IN_SID:
		return A_SID;
	case IN_COUNTEDSTRING:
		*type = "WCHAR";
		return A_COUNTED;
	case IN_COUNTEDANSISTRING:
		*type = "char";
		return A_COUNTED;
	default:
		*type = "void";
		return A_COUNTED;
	}
}

/* C and C++ keywords a field could be named: they get a '_' after them. */
static bool is_keyword(const char *s)
{
	static const char *const words[] = {
		"auto", "bool", "break", "case", "char", "class", "const", "continue",
		"default", "delete", "do", "double", "else", "enum", "extern", "float",
		"for", "goto", "if", "inline", "int", "long", "new", "operator",
		"private", "public", "register", "restrict", "return", "short",
		"signed", "sizeof", "static", "struct", "switch", "template", "this",
		"typedef", "union", "unsigned", "void", "volatile", "while",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(s, words[i]))
			return true;
	return false;
}

static int plan(const struct etw_mf_template *t, struct arg *args)
{
	for (size_t i = 0; i < t->ntop; i++) {
		const struct etw_mf_field *f = &t->fields[i];
		struct arg *a = &args[i];

		a->kind = kind_of(f, &a->type);
		mc_ident(a->name, sizeof(a->name), f->name);
		if (is_keyword(a->name))
			strcat(a->name, "_");
		a->descs = a->kind == A_COUNTED ? 2 : 1;
		/* Same names: later ones numbered, as parameters must differ. */
		for (size_t j = 0; j < i; j++)
			if (!strcmp(args[j].name, a->name)) {
				size_t n = strlen(a->name);

				snprintf(a->name + n, sizeof(a->name) - n, "_%zu", i);
				break;
			}
	}
	return 0;
}

/* The macro's parameter list: "(a, b_Len, b)". */
static void macro_params(FILE *out, const struct etw_mf_template *t,
			 const struct arg *args, bool leading_comma)
{
	for (size_t i = 0; t && i < t->ntop; i++) {
		const struct arg *a = &args[i];

		if (i || leading_comma)
			fputs(", ", out);
		if (a->kind == A_BLOB || a->kind == A_COUNTED)
			fprintf(out, "%s_Len, ", a->name);
		fputs(a->name, out);
	}
}

/* The count or length of field @f as an expression over the arguments. */
static void ref_expr(FILE *out, uint16_t fixed, uint16_t field)
{
	if (field != ETW_MF_NONE)
		fprintf(out, "(ULONG)_Arg%u", field);
	else
		fprintf(out, "%uu", fixed);
}

static void template_function(FILE *out, const char *fn,
			      const struct etw_mf_template *t,
			      const struct arg *args, unsigned int ndesc)
{
	fprintf(out, "#ifndef %s_def\n#define %s_def\n", fn, fn);
	fprintf(out, "ETW_INLINE ULONG _mcgen_PASTE2(%s_, MCGEN_EVENTWRITETRANSFER)(\n"
		"\tPMCGEN_TRACE_CONTEXT Context, PCEVENT_DESCRIPTOR Descriptor", fn);
	for (size_t i = 0; t && i < t->ntop; i++) {
		const struct arg *a = &args[i];

		switch (a->kind) {
		case A_SCALAR:
			fprintf(out, ",\n\tconst %s _Arg%zu", a->type, i);
			break;
		case A_FIXED:
		case A_ARRAY:
			fprintf(out, ",\n\tconst %s *_Arg%zu", a->type, i);
			break;
		case A_WSTRING:
			fprintf(out, ",\n\tPCWSTR _Arg%zu", i);
			break;
		case A_ASTRING:
			fprintf(out, ",\n\tPCSTR _Arg%zu", i);
			break;
		case A_POINTER:
		case A_BINARY:
		case A_SID:
			fprintf(out, ",\n\tconst void *_Arg%zu", i);
			break;
		case A_COUNTED:
			fprintf(out, ",\n\tUSHORT _Arg%zu_Len_, const %s *_Arg%zu", i,
				a->type, i);
			break;
		case A_BLOB:
			fprintf(out, ",\n\tULONG _Arg%zu_Len_, const void *_Arg%zu", i, i);
			break;
		}
	}
	fprintf(out, ")\n{\n\tEVENT_DATA_DESCRIPTOR EventData[%u];\n", ndesc);
	for (size_t i = 0, d = 1; t && i < t->ntop; i++) {
		const struct etw_mf_field *f = &t->fields[i];
		const struct arg *a = &args[i];

		switch (a->kind) {
		case A_SCALAR:
		case A_POINTER:
			fprintf(out, "\tEventDataDescCreate(&EventData[%zu], &_Arg%zu, sizeof(_Arg%zu));\n",
				d, i, i);
			break;
		case A_FIXED:
			fprintf(out, "\tEventDataDescCreate(&EventData[%zu], _Arg%zu, sizeof(*_Arg%zu));\n",
				d, i, i);
			break;
		case A_ARRAY:
			fprintf(out, "\tEventDataDescCreate(&EventData[%zu], _Arg%zu, ", d, i);
			ref_expr(out, f->count, f->count_field);
			fprintf(out, " * (ULONG)sizeof(*_Arg%zu));\n", i);
			break;
		case A_WSTRING:
			if (f->length || f->length_field != ETW_MF_NONE) {
				fprintf(out, "\tEventDataDescCreate(&EventData[%zu], _Arg%zu, ", d, i);
				ref_expr(out, f->length, f->length_field);
				fputs(" * (ULONG)sizeof(WCHAR));\n", out);
			} else {
				fprintf(out, "\tEventDataDescCreate(&EventData[%zu], _Arg%zu ? _Arg%zu : LIBETW_WIDE(\"NULL\"),\n"
					"\t\t(_mcgen_wcslen(_Arg%zu ? _Arg%zu : LIBETW_WIDE(\"NULL\")) + 1) * (ULONG)sizeof(WCHAR));\n",
					d, i, i, i, i);
			}
			break;
		case A_ASTRING:
			if (f->length || f->length_field != ETW_MF_NONE) {
				fprintf(out, "\tEventDataDescCreate(&EventData[%zu], _Arg%zu, ", d, i);
				ref_expr(out, f->length, f->length_field);
				fputs(");\n", out);
			} else {
				fprintf(out, "\tEventDataDescCreate(&EventData[%zu], _Arg%zu ? _Arg%zu : \"NULL\",\n"
					"\t\t(ULONG)strlen(_Arg%zu ? _Arg%zu : \"NULL\") + 1);\n",
					d, i, i, i, i);
			}
			break;
		case A_BINARY:
			fprintf(out, "\tEventDataDescCreate(&EventData[%zu], _Arg%zu, ", d, i);
			ref_expr(out, f->length, f->length_field);
			fputs(");\n", out);
			break;
		case A_SID:
			fprintf(out, "\tEventDataDescCreate(&EventData[%zu], _Arg%zu,\n"
				"\t\t8 + 4 * (ULONG)((const UCHAR *)_Arg%zu)[1]);\n", d, i, i);
			break;
		case A_COUNTED:
			/* The wire form: a UINT16 byte count, then the bytes. */
			fprintf(out, "\tconst USHORT _Arg%zu_Size_ = (USHORT)(_Arg%zu_Len_ * %s);\n"
				"\tEventDataDescCreate(&EventData[%zu], &_Arg%zu_Size_, sizeof(USHORT));\n"
				"\tEventDataDescCreate(&EventData[%zu], _Arg%zu, _Arg%zu_Size_);\n",
				i, i, strcmp(a->type, "WCHAR") ? "1" : "sizeof(WCHAR)",
				d, i, d + 1, i, i);
			break;
		case A_BLOB:
			fprintf(out, "\tEventDataDescCreate(&EventData[%zu], _Arg%zu, _Arg%zu_Len_);\n",
				d, i, i);
			break;
		}
		d += a->descs;
	}
	fprintf(out, "\treturn McGenEventWrite(Context, Descriptor, NULL, %u, EventData);\n}\n"
		"#endif /* %s_def */\n\n", ndesc, fn);
}

static void guid_init(FILE *out, const GUID *g)
{
	fprintf(out, "{0x%08x, 0x%04x, 0x%04x, {0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x}}",
		g->Data1, g->Data2, g->Data3, g->Data4[0], g->Data4[1],
		g->Data4[2], g->Data4[3], g->Data4[4], g->Data4[5],
		g->Data4[6], g->Data4[7]);
}

/* The start of a header for libetw (mc -um). */
static const char prologue_um[] =
"#pragma once\n"
"\n"
"#include <string.h>\n"
"#include <wmistr.h>\n"
"#include <evntrace.h>\n"
"#include <evntprov.h>\n"
"\n"
"#ifndef ETW_INLINE\n"
"#define ETW_INLINE static inline\n"
"#endif\n"
"\n"
"#if defined(__cplusplus)\n"
"extern \"C\" {\n"
"#endif\n"
"\n"
"/* Defining MCGEN_DISABLE_PROVIDER_CODE_GENERATION leaves out the code. */\n"
"#ifndef MCGEN_DISABLE_PROVIDER_CODE_GENERATION\n"
"\n"
"/* libetw is a user-mode API: there is no kernel-mode one to choose. */\n"
"#ifndef MCGEN_USE_KERNEL_MODE_APIS\n"
"#define MCGEN_USE_KERNEL_MODE_APIS 0\n"
"#endif\n"
"#if MCGEN_USE_KERNEL_MODE_APIS\n"
"#error \"MCGEN_USE_KERNEL_MODE_APIS: this header is for user mode (libetw)\"\n"
"#endif\n"
"\n";

/*
 * The start of a header for a kernel module (mc -km): etw.ko's kernel API
 * (<etw/kernel.h>, with Windows' types from <etw/provider_api.h>), the
 * functions' results NTSTATUS as mc.exe -km's.
 */
static const char prologue_km[] =
"#pragma once\n"
"\n"
"#include <etw/provider_api.h>\n"
"\n"
"#ifndef ETW_INLINE\n"
"#define ETW_INLINE static inline\n"
"#endif\n"
"\n"
"/* Defining MCGEN_DISABLE_PROVIDER_CODE_GENERATION leaves out the code. */\n"
"#ifndef MCGEN_DISABLE_PROVIDER_CODE_GENERATION\n"
"\n"
"/* A kernel module: EtwRegister, EtwUnregister, EtwSetInformation, EtwWriteTransfer. */\n"
"#ifndef MCGEN_USE_KERNEL_MODE_APIS\n"
"#define MCGEN_USE_KERNEL_MODE_APIS 1\n"
"#endif\n"
"#ifndef MCGEN_EVENTREGISTER\n"
"#define MCGEN_EVENTREGISTER EtwRegister\n"
"#endif\n"
"#ifndef MCGEN_EVENTUNREGISTER\n"
"#define MCGEN_EVENTUNREGISTER EtwUnregister\n"
"#endif\n"
"#ifndef MCGEN_EVENTSETINFORMATION\n"
"#define MCGEN_EVENTSETINFORMATION EtwSetInformation\n"
"#endif\n"
"#ifndef MCGEN_EVENTWRITETRANSFER\n"
"#define MCGEN_EVENTWRITETRANSFER EtwWriteTransfer\n"
"#endif\n"
"\n";

/* The rest, the same for both. */
static const char prologue[] =
"/* 1: EventSetInformation is called directly (libetw always has it). */\n"
"#ifndef MCGEN_HAVE_EVENTSETINFORMATION\n"
"#define MCGEN_HAVE_EVENTSETINFORMATION 1\n"
"#endif\n"
"\n"
"/*\n"
" * The functions the code calls; each may be defined, before any\n"
" * generated header is included, as another function's plain name.\n"
" */\n"
"#ifndef MCGEN_EVENTREGISTER\n"
"#define MCGEN_EVENTREGISTER EventRegister\n"
"#endif\n"
"#ifndef MCGEN_EVENTUNREGISTER\n"
"#define MCGEN_EVENTUNREGISTER EventUnregister\n"
"#endif\n"
"#ifndef MCGEN_EVENTSETINFORMATION\n"
"#define MCGEN_EVENTSETINFORMATION EventSetInformation\n"
"#endif\n"
"#ifndef MCGEN_EVENTWRITETRANSFER\n"
"#define MCGEN_EVENTWRITETRANSFER EventWriteTransfer\n"
"#endif\n"
"\n"
"/* How EventWrite<Event> decides an event is wanted. */\n"
"#ifndef MCGEN_EVENT_ENABLED\n"
"#define MCGEN_EVENT_ENABLED(EventName) EventEnabled##EventName()\n"
"#endif\n"
"#ifndef MCGEN_EVENT_ENABLED_FORCONTEXT\n"
"#define MCGEN_EVENT_ENABLED_FORCONTEXT(pContext, EventName) EventEnabled##EventName##_ForContext(pContext)\n"
"#endif\n"
"#ifndef MCGEN_ENABLE_CHECK\n"
"#define MCGEN_ENABLE_CHECK(Context, Descriptor) ((Context).IsEnabled && McGenEventEnabled(&(Context), &(Descriptor)))\n"
"#endif\n"
"\n"
"/* Shared definitions: weak symbols (Windows: __declspec(selectany)). */\n"
"#ifndef _mcgen_SELECTANY\n"
"#if defined(__cplusplus)\n"
"#define _mcgen_SELECTANY extern __attribute__((weak))\n"
"#else\n"
"#define _mcgen_SELECTANY __attribute__((weak))\n"
"#endif\n"
"#define _mcgen_SELECTANY_VAR __attribute__((weak))\n"
"#endif\n"
"\n"
"#if !defined(_mcgen_PASTE2)\n"
"#define _mcgen_PASTE2(a, b) _mcgen_PASTE2_imp(a, b)\n"
"#define _mcgen_PASTE2_imp(a, b) a##b\n"
"#endif\n"
"\n"
"#if !defined(MCGEN_TRACE_CONTEXT_DEF)\n"
"#define MCGEN_TRACE_CONTEXT_DEF\n"
"/* A provider's state, kept by the generated code. */\n"
"typedef struct _MCGEN_TRACE_CONTEXT {\n"
"\tTRACEHANDLE RegistrationHandle;\n"
"\tTRACEHANDLE Logger;\t\t/* the provider traits, or 0 */\n"
"\tULONGLONG MatchAnyKeyword;\n"
"\tULONGLONG MatchAllKeyword;\n"
"\tULONG Flags;\n"
"\tULONG IsEnabled;\n"
"\tUCHAR Level;\n"
"\tUCHAR Reserve;\n"
"\tUSHORT EnableBitsCount;\n"
"\tPULONG EnableBitMask;\n"
"\tconst ULONGLONG *EnableKeyWords;\n"
"\tconst UCHAR *EnableLevel;\n"
"} MCGEN_TRACE_CONTEXT, *PMCGEN_TRACE_CONTEXT;\n"
"#endif\n"
"\n"
"#if !defined(MCGEN_LEVEL_KEYWORD_ENABLED_DEF)\n"
"#define MCGEN_LEVEL_KEYWORD_ENABLED_DEF\n"
"/* Would an event of this level and keyword be wanted now? */\n"
"ETW_INLINE BOOLEAN McGenLevelKeywordEnabled(PMCGEN_TRACE_CONTEXT EnableInfo,\n"
"\t\t\t\t\t    UCHAR Level, ULONGLONG Keyword)\n"
"{\n"
"\tif (Level > EnableInfo->Level && EnableInfo->Level != 0)\n"
"\t\treturn FALSE;\n"
"\treturn Keyword == 0 ||\n"
"\t       ((Keyword & EnableInfo->MatchAnyKeyword) &&\n"
"\t\t(Keyword & EnableInfo->MatchAllKeyword) == EnableInfo->MatchAllKeyword);\n"
"}\n"
"#endif\n"
"\n"
"#if !defined(MCGEN_EVENT_ENABLED_DEF)\n"
"#define MCGEN_EVENT_ENABLED_DEF\n"
"ETW_INLINE BOOLEAN McGenEventEnabled(PMCGEN_TRACE_CONTEXT EnableInfo,\n"
"\t\t\t\t     PCEVENT_DESCRIPTOR EventDescriptor)\n"
"{\n"
"\treturn McGenLevelKeywordEnabled(EnableInfo, EventDescriptor->Level,\n"
"\t\t\t\t\tEventDescriptor->Keyword);\n"
"}\n"
"#endif\n"
"\n"
"#if !defined(MCGEN_CONTROL_CALLBACK)\n"
"#define MCGEN_CONTROL_CALLBACK\n"
"/*\n"
" * The enable callback: keeps the session's level and keywords and one\n"
" * bit per (level, keyword) pair the provider's events use, then calls\n"
" * MCGEN_PRIVATE_ENABLE_CALLBACK_V2 if the program defined it.\n"
" */\n"
"ETW_INLINE VOID WINAPI McGenControlCallbackV2(LPCGUID SourceId, ULONG ControlCode,\n"
"\t\t\t\t\t      UCHAR Level, ULONGLONG MatchAnyKeyword,\n"
"\t\t\t\t\t      ULONGLONG MatchAllKeyword,\n"
"\t\t\t\t\t      PEVENT_FILTER_DESCRIPTOR FilterData,\n"
"\t\t\t\t\t      PVOID CallbackContext)\n"
"{\n"
"\tPMCGEN_TRACE_CONTEXT Ctx = (PMCGEN_TRACE_CONTEXT)CallbackContext;\n"
"\tULONG Ix;\n"
"\n"
"\t(void)SourceId;\n"
"\t(void)FilterData;\n"
"\tif (Ctx == NULL)\n"
"\t\treturn;\n"
"\tswitch (ControlCode) {\n"
"\tcase EVENT_CONTROL_CODE_ENABLE_PROVIDER:\n"
"\t\tCtx->Level = Level;\n"
"\t\tCtx->MatchAnyKeyword = MatchAnyKeyword;\n"
"\t\tCtx->MatchAllKeyword = MatchAllKeyword;\n"
"\t\tCtx->IsEnabled = EVENT_CONTROL_CODE_ENABLE_PROVIDER;\n"
"\t\tfor (Ix = 0; Ix < Ctx->EnableBitsCount; Ix++) {\n"
"\t\t\tif (McGenLevelKeywordEnabled(Ctx, Ctx->EnableLevel[Ix],\n"
"\t\t\t\t\t\t     Ctx->EnableKeyWords[Ix]))\n"
"\t\t\t\tCtx->EnableBitMask[Ix >> 5] |= 1u << (Ix % 32);\n"
"\t\t\telse\n"
"\t\t\t\tCtx->EnableBitMask[Ix >> 5] &= ~(1u << (Ix % 32));\n"
"\t\t}\n"
"\t\tbreak;\n"
"\tcase EVENT_CONTROL_CODE_DISABLE_PROVIDER:\n"
"\t\tCtx->IsEnabled = EVENT_CONTROL_CODE_DISABLE_PROVIDER;\n"
"\t\tCtx->Level = 0;\n"
"\t\tCtx->MatchAnyKeyword = 0;\n"
"\t\tCtx->MatchAllKeyword = 0;\n"
"\t\tif (Ctx->EnableBitsCount > 0)\n"
"\t\t\tmemset(Ctx->EnableBitMask, 0,\n"
"\t\t\t       ((Ctx->EnableBitsCount - 1) / 32 + 1) * sizeof(ULONG));\n"
"\t\tbreak;\n"
"\tdefault:\n"
"\t\tbreak;\n"
"\t}\n"
"#ifdef MCGEN_PRIVATE_ENABLE_CALLBACK_V2\n"
"\tMCGEN_PRIVATE_ENABLE_CALLBACK_V2(SourceId, ControlCode, Level, MatchAnyKeyword,\n"
"\t\t\t\t\t MatchAllKeyword, FilterData, CallbackContext);\n"
"#endif\n"
"}\n"
"#endif /* MCGEN_CONTROL_CALLBACK */\n"
"\n"
"#ifndef McGenEventWrite_def\n"
"#define McGenEventWrite_def\n"
"#define McGenEventWrite _mcgen_PASTE2(McGenEventWrite_, MCGEN_EVENTWRITETRANSFER)\n"
"/* EventData[0] is the provider traits (none: an empty descriptor). */\n"
"ETW_INLINE ULONG McGenEventWrite(PMCGEN_TRACE_CONTEXT Context,\n"
"\t\t\t\t PCEVENT_DESCRIPTOR Descriptor, LPCGUID ActivityId,\n"
"\t\t\t\t ULONG EventDataCount, EVENT_DATA_DESCRIPTOR *EventData)\n"
"{\n"
"\tconst USHORT *Traits = (const USHORT *)(UINT_PTR)Context->Logger;\n"
"\n"
"\tif (Traits == NULL) {\n"
"\t\tEventData[0].Ptr = 0;\n"
"\t\tEventData[0].Size = 0;\n"
"\t\tEventData[0].Reserved = 0;\n"
"\t} else {\n"
"\t\tEventData[0].Ptr = (ULONGLONG)(UINT_PTR)Traits;\n"
"\t\tEventData[0].Size = *Traits;\n"
"\t\tEventData[0].Reserved = 2;\t/* provider metadata */\n"
"\t}\n"
"\treturn MCGEN_EVENTWRITETRANSFER(Context->RegistrationHandle, Descriptor,\n"
"\t\t\t\t\tActivityId, NULL, EventDataCount, EventData);\n"
"}\n"
"#endif /* McGenEventWrite_def */\n"
"\n"
"#if !defined(McGenEventRegisterUnregister)\n"
"#define McGenEventRegisterUnregister\n"
"#define McGenEventRegister _mcgen_PASTE2(McGenEventRegister_, MCGEN_EVENTREGISTER)\n"
"/* Registering a registered provider again is a bug, but succeeds. */\n"
"ETW_INLINE ULONG McGenEventRegister(LPCGUID ProviderId, PENABLECALLBACK EnableCallback,\n"
"\t\t\t\t    PVOID CallbackContext, PREGHANDLE RegHandle)\n"
"{\n"
"\tif (*RegHandle != 0)\n"
"\t\treturn 0;\n"
"\treturn MCGEN_EVENTREGISTER(ProviderId, EnableCallback, CallbackContext,\n"
"\t\t\t\t   RegHandle);\n"
"}\n"
"\n"
"#define McGenEventUnregister _mcgen_PASTE2(McGenEventUnregister_, MCGEN_EVENTUNREGISTER)\n"
"/* Safe whether or not the provider was registered. */\n"
"ETW_INLINE ULONG McGenEventUnregister(PREGHANDLE RegHandle)\n"
"{\n"
"\tULONG Error = 0;\n"
"\n"
"\tif (*RegHandle != 0) {\n"
"\t\tError = MCGEN_EVENTUNREGISTER(*RegHandle);\n"
"\t\t*RegHandle = (REGHANDLE)0;\n"
"\t}\n"
"\treturn Error;\n"
"}\n"
"#endif /* McGenEventRegisterUnregister */\n"
"\n"
"#ifndef _mcgen_EVENT_BIT_SET\n"
"#define _mcgen_EVENT_BIT_SET(EnableBits, BitPosition) \\\n"
"\t(((EnableBits)[(BitPosition) >> 5] & (1u << ((BitPosition) & 31))) != 0)\n"
"#endif\n"
"\n"
"#ifndef _mcgen_wcslen_def\n"
"#define _mcgen_wcslen_def\n"
"/* WCHAR is 16 bits here, wchar_t 32: wcslen() does not apply. */\n"
"ETW_INLINE ULONG _mcgen_wcslen(PCWSTR s)\n"
"{\n"
"\tULONG n = 0;\n"
"\n"
"\twhile (s[n])\n"
"\t\tn++;\n"
"\treturn n;\n"
"}\n"
"#endif\n"
"\n"
"#endif /* MCGEN_DISABLE_PROVIDER_CODE_GENERATION */\n"
"\n";

struct bits {
	uint8_t *level;
	uint64_t *keyword;
	size_t n;
};

/* One enable bit per (level, keyword) pair, in the events' order. */
static size_t bit_of(struct bits *b, uint8_t level, uint64_t keyword)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->level[i] == level && b->keyword[i] == keyword)
			return i;
	b->level[b->n] = level;
	b->keyword[b->n] = keyword;
	return b->n++;
}

static void symbols(FILE *out, const struct etw_mf_provider *p)
{
	char id[256];

	if (p->nchannels)
		fputs("/* Channels */\n", out);
	for (size_t i = 0; i < p->nchannels; i++)
		if (p->channels[i].v.symbol)
			fprintf(out, "#define %s 0x%llx\n", p->channels[i].v.symbol,
				(unsigned long long)p->channels[i].v.value);
	if (p->nlevels)
		fputs("/* Levels */\n", out);
	for (size_t i = 0; i < p->nlevels; i++)
		if (p->levels[i].symbol)
			fprintf(out, "#define %s 0x%llx\n", p->levels[i].symbol,
				(unsigned long long)p->levels[i].value);
	if (p->ntasks)
		fputs("/* Tasks */\n", out);
	for (size_t i = 0; i < p->ntasks; i++) {
		const struct etw_mf_task *t = &p->tasks[i];
		static const GUID zero;

		if (!t->v.symbol)
			continue;
		fprintf(out, "#define %s 0x%llx\n", t->v.symbol,
			(unsigned long long)t->v.value);
		if (memcmp(&t->event_guid, &zero, sizeof(zero))) {
			fprintf(out, "_mcgen_SELECTANY const GUID %sId = ", t->v.symbol);
			guid_init(out, &t->event_guid);
			fputs(";\n", out);
		}
		for (size_t j = 0; j < t->nopcodes; j++)
			if (t->opcodes[j].symbol)
				fprintf(out, "#define %s 0x%llx\n", t->opcodes[j].symbol,
					(unsigned long long)t->opcodes[j].value);
	}
	if (p->nopcodes)
		fputs("/* Opcodes */\n", out);
	for (size_t i = 0; i < p->nopcodes; i++)
		if (p->opcodes[i].symbol)
			fprintf(out, "#define %s 0x%llx\n", p->opcodes[i].symbol,
				(unsigned long long)p->opcodes[i].value);
	if (p->nkeywords)
		fputs("/* Keywords */\n", out);
	for (size_t i = 0; i < p->nkeywords; i++)
		if (p->keywords[i].symbol)
			fprintf(out, "#define %s 0x%llx\n", p->keywords[i].symbol,
				(unsigned long long)p->keywords[i].value);
	(void)id;
}

static void event_symbol(char *buf, size_t size, const char *pname,
			 const struct etw_mf_event *e)
{
	if (e->symbol)
		mc_ident(buf, size, e->symbol);
	else if (e->version)
		snprintf(buf, size, "%s_Event%u_V%u", pname, e->id, e->version);
	else
		snprintf(buf, size, "%s_Event%u", pname, e->id);
}

static int provider(FILE *out, const struct etw_mf_provider *p)
{
	char pname[256], sym[256], ev[256], fn[600];
	struct bits b = { 0 };
	size_t *bit;
	struct arg *args;

	mc_ident(pname, sizeof(pname), p->name);
	if (p->symbol)
		mc_ident(sym, sizeof(sym), p->symbol);
	else
		snprintf(sym, sizeof(sym), "%s", pname);
	b.level = calloc(p->nevents + 1, 1);
	b.keyword = calloc(p->nevents + 1, sizeof(*b.keyword));
	bit = calloc(p->nevents + 1, sizeof(*bit));
	if (!b.level || !b.keyword || !bit) {
		free(b.level);
		free(b.keyword);
		free(bit);
		return etw_error("mc: out of memory");
	}
	for (size_t i = 0; i < p->nevents; i++)
		bit[i] = bit_of(&b, p->events[i].level, p->events[i].keywords);

	fprintf(out, "/*\n * Provider \"%s\": %zu events\n */\n\n", p->name, p->nevents);
	fprintf(out, "/* Provider GUID = %08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x */\n",
		p->guid.Data1, p->guid.Data2, p->guid.Data3, p->guid.Data4[0],
		p->guid.Data4[1], p->guid.Data4[2], p->guid.Data4[3],
		p->guid.Data4[4], p->guid.Data4[5], p->guid.Data4[6],
		p->guid.Data4[7]);
	fprintf(out, "_mcgen_SELECTANY const GUID %s = ", sym);
	guid_init(out, &p->guid);
	fputs(";\n\n", out);
	fprintf(out, "#ifndef %s_Traits\n#define %s_Traits NULL\n#endif\n\n", sym, sym);
	symbols(out, p);
	fputs("\n/* Event descriptors */\n", out);
	for (size_t i = 0; i < p->nevents; i++) {
		const struct etw_mf_event *e = &p->events[i];

		event_symbol(ev, sizeof(ev), pname, e);
		fprintf(out, "_mcgen_SELECTANY const EVENT_DESCRIPTOR %s = {0x%x, 0x%x, 0x%x, 0x%x, 0x%x, 0x%x, 0x%llx};\n"
			"#define %s_value 0x%x\n", ev, e->id, e->version, e->channel,
			e->level, e->opcode, e->task, (unsigned long long)e->keywords,
			ev, e->id);
	}

	fputs("\n#ifndef MCGEN_DISABLE_PROVIDER_CODE_GENERATION\n\n", out);
	fprintf(out, "/* Enable bits, one per (level, keyword) pair; for the generated code. */\n"
		"_mcgen_SELECTANY_VAR ULONG %sEnableBits[%zu];\n", pname,
		b.n ? (b.n + 31) / 32 : 1);
	fprintf(out, "_mcgen_SELECTANY const ULONGLONG %sKeywords[%zu] = {", pname,
		b.n ? b.n : 1);
	for (size_t i = 0; i < (b.n ? b.n : 1); i++)
		fprintf(out, "%s0x%llx", i ? ", " : "", (unsigned long long)b.keyword[i]);
	fprintf(out, "};\n_mcgen_SELECTANY const UCHAR %sLevels[%zu] = {", pname,
		b.n ? b.n : 1);
	for (size_t i = 0; i < (b.n ? b.n : 1); i++)
		fprintf(out, "%s%u", i ? ", " : "", b.level[i]);
	fputs("};\n\n", out);
	fprintf(out, "/* The provider's context and REGHANDLE. */\n"
		"_mcgen_SELECTANY_VAR MCGEN_TRACE_CONTEXT %s_Context = {0, (ULONG_PTR)%s_Traits, 0, 0, 0, 0, 0, 0, %zu, %sEnableBits, %sKeywords, %sLevels};\n"
		"#define %sHandle (%s_Context.RegistrationHandle)\n\n",
		sym, sym, b.n, pname, pname, pname, pname, sym);
	fprintf(out, "/* EventWrite<Event> takes no activity ID (mc -um). */\n"
		"#define %s_EventWriteActivity 0\n\n", sym);
	fprintf(out, "/* Register at start-up; a failure only means no event is written. */\n"
		"#ifndef EventRegister%s\n"
		"#define EventRegister%s() McGenEventRegister(&%s, McGenControlCallbackV2, &%s_Context, &%sHandle)\n"
		"#endif\n", pname, pname, sym, sym, pname);
	fprintf(out, "/* With a control GUID other than the manifest's. */\n"
		"#ifndef EventRegisterByGuid%s\n"
		"#define EventRegisterByGuid%s(Guid) McGenEventRegister(&(Guid), McGenControlCallbackV2, &%s_Context, &%sHandle)\n"
		"#endif\n", pname, pname, sym, pname);
	fprintf(out, "/* Unregister before the code that registered goes away. */\n"
		"#ifndef EventUnregister%s\n"
		"#define EventUnregister%s() McGenEventUnregister(&%sHandle)\n"
		"#endif\n\n", pname, pname, pname);

	args = calloc(65536, sizeof(*args));
	if (!args) {
		free(b.level);
		free(b.keyword);
		free(bit);
		return etw_error("mc: out of memory");
	}
	for (size_t i = 0; i < p->nevents; i++) {
		const struct etw_mf_event *e = &p->events[i];
		const struct etw_mf_template *t = e->tmpl;
		char tid[256];
		unsigned int ndesc = 1;

		event_symbol(ev, sizeof(ev), pname, e);
		if (t) {
			plan(t, args);
			for (size_t j = 0; j < t->ntop; j++)
				ndesc += args[j].descs;
			if (ndesc > 128) {
				free(args);
				free(b.level);
				free(b.keyword);
				free(bit);
				return etw_error("mc: event %u: template %s needs %u data descriptors, more than ETW's 128",
						 e->id, t->tid, ndesc);
			}
			mc_ident(tid, sizeof(tid), t->tid);
			snprintf(fn, sizeof(fn), "McTemplate_%s_%s", pname, tid);
		} else {
			snprintf(fn, sizeof(fn), "McTemplate_%s_none", pname);
		}
		template_function(out, fn, t, args, ndesc);
		fprintf(out, "/* Event %s: id %u, version %u */\n", ev, e->id, e->version);
		fprintf(out, "#define EventEnabled%s() _mcgen_EVENT_BIT_SET(%sEnableBits, %zu)\n",
			ev, pname, bit[i]);
		fprintf(out, "#define EventWrite%s(", ev);
		macro_params(out, t, args, false);
		fprintf(out, ") \\\n\t(MCGEN_EVENT_ENABLED(%s) \\\n"
			"\t ? _mcgen_PASTE2(%s_, MCGEN_EVENTWRITETRANSFER)(&%s_Context, &%s",
			ev, fn, sym, ev);
		macro_params(out, t, args, true);
		fputs(") : 0)\n", out);
		fprintf(out, "#define EventWrite%s_AssumeEnabled(", ev);
		macro_params(out, t, args, false);
		fprintf(out, ") \\\n\t_mcgen_PASTE2(%s_, MCGEN_EVENTWRITETRANSFER)(&%s_Context, &%s",
			fn, sym, ev);
		macro_params(out, t, args, true);
		fputs(")\n\n", out);
	}
	fputs("#endif /* MCGEN_DISABLE_PROVIDER_CODE_GENERATION */\n\n", out);
	free(args);
	free(b.level);
	free(b.keyword);
	free(bit);
	return 0;
}

int mc_header(FILE *out, const struct etw_manifest *m, const char *source,
	      bool km)
{
	fprintf(out, "/*\n * Generated by etw mc from %s: do not edit.\n *\n"
		" * The header mc.exe -um makes, for libetw: EventRegister<Provider>,\n"
		" * EventWrite<Event>(fields...), EventEnabled<Event>(), the symbols of\n"
		" * the manifest.  Arguments by in-type: integers, floats and BOOL by\n"
		" * value; GUID, FILETIME and SYSTEMTIME by pointer; strings as\n"
		" * NUL-terminated pointers (NULL writes \"NULL\"), or exactly length\n"
		" * characters when the manifest gives one; win:Binary as a pointer to\n"
		" * length bytes; counted strings and binary as (length, pointer), the\n"
		" * length in WCHARs for win:CountedUnicodeString, bytes otherwise;\n"
		" * arrays of fixed-size values as a pointer to count of them; structs\n"
		" * and arrays of variable-size values as (size in bytes, pointer) to\n"
		" * the values packed without padding.\n */\n", source);
	fputs(km ? prologue_km : prologue_um, out);
	fputs(prologue, out);
	for (size_t i = 0; i < m->nproviders; i++)
		if (provider(out, &m->providers[i]))
			return -1;
	if (!km)
		fputs("#if defined(__cplusplus)\n}\n#endif\n", out);
	return 0;
}

void mc_embed(FILE *out, const char *xml, size_t size, const char *source,
	      const char *base)
{
	char id[256];
	size_t col = 0;

	mc_ident(id, sizeof(id), base);
	fprintf(out, "/*\n * Generated by etw mc -b from %s: do not edit.\n *\n"
		" * The manifest, carried by the program in its %s section\n"
		" * (Windows keeps it in a resource), for TdhLoadManifestFromBinary\n"
		" * and `etw manifest install --from-binary`.\n */\n\n", source,
		ETW_MANIFEST_SECTION);
	fprintf(out, "__attribute__((section(\"%s\"), used, aligned(1)))\n"
		"static const char etw_manifest_%s[] =\n\t\"", ETW_MANIFEST_SECTION, id);
	for (size_t i = 0; i < size; i++) {
		unsigned char c = (unsigned char)xml[i];

		if (col > 72) {
			fputs("\"\n\t\"", out);
			col = 0;
		}
		if (c == '\n') {
			fputs("\\n\"\n\t\"", out);
			col = 0;
			continue;
		}
		if (c == '"' || c == '\\')
			col += (size_t)fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f || c == '?')
			/* Octal, and '?' too: no trigraph can form. */
			col += (size_t)fprintf(out, "\\%03o", c);
		else
			col += (size_t)(fputc(c, out) != EOF);
	}
	fputs("\";\n", out);
}
