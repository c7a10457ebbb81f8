// SPDX-License-Identifier: MIT
/*
 * The names Windows predefines for manifests (the SDK's winmeta.xml, as
 * the EventManifest schema pages on Microsoft Learn list them): levels,
 * opcodes, the task win:None, channels, keywords, and the in-type and
 * out-type names with their TDH_INTYPE_* / TDH_OUTTYPE_* numbers.
 */
#include <string.h>

#include "manifest.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct etw_mf_value levels[] = {
	{ "win:LogAlways", "WINEVENT_LEVEL_LOG_ALWAYS", "Log Always", 0 },
	{ "win:Critical", "WINEVENT_LEVEL_CRITICAL", "Critical", 1 },
	{ "win:Error", "WINEVENT_LEVEL_ERROR", "Error", 2 },
	{ "win:Warning", "WINEVENT_LEVEL_WARNING", "Warning", 3 },
	{ "win:Informational", "WINEVENT_LEVEL_INFO", "Information", 4 },
	{ "win:Verbose", "WINEVENT_LEVEL_VERBOSE", "Verbose", 5 },
};

static const struct etw_mf_value opcodes[] = {
	{ "win:Info", "WINEVENT_OPCODE_INFO", "Info", 0 },
	{ "win:Start", "WINEVENT_OPCODE_START", "Start", 1 },
	{ "win:Stop", "WINEVENT_OPCODE_STOP", "Stop", 2 },
	{ "win:DC_Start", "WINEVENT_OPCODE_DC_START", "DCStart", 3 },
	{ "win:DC_Stop", "WINEVENT_OPCODE_DC_STOP", "DCStop", 4 },
	{ "win:Extension", "WINEVENT_OPCODE_EXTENSION", "Extension", 5 },
	{ "win:Reply", "WINEVENT_OPCODE_REPLY", "Reply", 6 },
	{ "win:Resume", "WINEVENT_OPCODE_RESUME", "Resume", 7 },
	{ "win:Suspend", "WINEVENT_OPCODE_SUSPEND", "Suspend", 8 },
	{ "win:Send", "WINEVENT_OPCODE_SEND", "Send", 9 },
	{ "win:Receive", "WINEVENT_OPCODE_RECEIVE", "Receive", 240 },
};

static const struct etw_mf_value tasks[] = {
	{ "win:None", "WINEVENT_TASK_NONE", "None", 0 },
};

static const struct etw_mf_value keywords[] = {
	{ "win:AnyKeyword", "WINEVENT_KEYWORD_ANY", NULL, 0 },
	{ "win:ResponseTime", "WINEVENT_KEYWORD_RESPONSE_TIME", "Response Time", 0x0001000000000000ULL },
	{ "win:WDIContext", "WINEVENT_KEYWORD_WDI_CONTEXT", "WDI Context", 0x0002000000000000ULL },
	{ "win:WDIDiag", "WINEVENT_KEYWORD_WDI_DIAG", "WDI Diag", 0x0004000000000000ULL },
	{ "win:SQM", "WINEVENT_KEYWORD_SQM", "SQM", 0x0008000000000000ULL },
	{ "win:AuditFailure", "WINEVENT_KEYWORD_AUDIT_FAILURE", "Audit Failure", 0x0010000000000000ULL },
	{ "win:CorrelationHint", "WINEVENT_KEYWORD_CORRELATION_HINT", "Correlation Hint", 0x0010000000000000ULL },
	{ "win:AuditSuccess", "WINEVENT_KEYWORD_AUDIT_SUCCESS", "Audit Success", 0x0020000000000000ULL },
	{ "win:CorrelationHint2", "WINEVENT_KEYWORD_CORRELATION_HINT2", "Correlation Hint", 0x0040000000000000ULL },
	{ "win:EventlogClassic", "WINEVENT_KEYWORD_EVENTLOG_CLASSIC", "Classic", 0x0080000000000000ULL },
};

static const struct etw_mf_channel channels[] = {
	{ { "TraceClassic", "WINEVENT_CHANNEL_CLASSIC_TRACE", "Classic", 0 }, NULL, NULL, NULL, true, true, 0 },
	{ { "System", "WINEVENT_CHANNEL_GLOBAL_SYSTEM", "System", 8 }, NULL, "Admin", "System", true, true, 0 },
	{ { "Application", "WINEVENT_CHANNEL_GLOBAL_APPLICATION", "Application", 9 }, NULL, "Admin",
	  "Application", true, true, 0 },
	{ { "Security", "WINEVENT_CHANNEL_GLOBAL_SECURITY", "Security", 10 }, NULL, "Admin", "Security",
	  true, true, 0 },
	{ { "TraceLogging", "WINEVENT_CHANNEL_TRACELOGGING", "TraceLogging", 11 }, NULL, NULL, NULL, true,
	  true, 0 },
	{ { "ProviderMetadata", "WINEVENT_CHANNEL_PROVIDERMETADATA", "ProviderMetadata", 12 }, NULL, NULL,
	  NULL, true, true, 0 },
};

static const struct etw_mf_value *find(const struct etw_mf_value *v, size_t n,
				       const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

const struct etw_mf_value *mf_win_level(const char *name)
{
	return find(levels, N(levels), name);
}

const struct etw_mf_value *mf_win_opcode(const char *name)
{
	return find(opcodes, N(opcodes), name);
}

const struct etw_mf_value *mf_win_task(const char *name)
{
	return find(tasks, N(tasks), name);
}

const struct etw_mf_value *mf_win_keyword(const char *name)
{
	return find(keywords, N(keywords), name);
}

const struct etw_mf_channel *mf_win_channel(const char *name)
{
	/* "win:Application" is how some manifests import them. */
	if (!strncmp(name, "win:", 4))
		name += 4;
	for (size_t i = 0; i < N(channels); i++)
		if (!strcmp(channels[i].v.name, name))
			return &channels[i];
	return NULL;
}

struct type_name {
	const char *name;
	uint16_t type;
};

/* TDH_INTYPE_* by manifest name (win:CountedString is an older spelling). */
static const struct type_name in_types[] = {
	{ "win:UnicodeString", 1 }, { "win:AnsiString", 2 },
	{ "win:Int8", 3 }, { "win:UInt8", 4 }, { "win:Int16", 5 },
	{ "win:UInt16", 6 }, { "win:Int32", 7 }, { "win:UInt32", 8 },
	{ "win:Int64", 9 }, { "win:UInt64", 10 }, { "win:Float", 11 },
	{ "win:Double", 12 }, { "win:Boolean", 13 }, { "win:Binary", 14 },
	{ "win:GUID", 15 }, { "win:Pointer", 16 }, { "win:FILETIME", 17 },
	{ "win:SYSTEMTIME", 18 }, { "win:SID", 19 }, { "win:HexInt32", 20 },
	{ "win:HexInt64", 21 }, { "win:CountedUnicodeString", 22 },
	{ "win:CountedString", 22 }, { "win:CountedAnsiString", 23 },
	{ "win:CountedBinary", 25 },
};

/* TDH_OUTTYPE_* by manifest name: the schema's order is TDH's. */
static const struct type_name out_types[] = {
	{ "xs:string", 1 }, { "xs:dateTime", 2 }, { "xs:byte", 3 },
	{ "xs:unsignedByte", 4 }, { "xs:short", 5 }, { "xs:unsignedShort", 6 },
	{ "xs:int", 7 }, { "xs:unsignedInt", 8 }, { "xs:long", 9 },
	{ "xs:unsignedLong", 10 }, { "xs:float", 11 }, { "xs:double", 12 },
	{ "xs:boolean", 13 }, { "xs:GUID", 14 }, { "xs:hexBinary", 15 },
	{ "win:HexInt8", 16 }, { "win:HexInt16", 17 }, { "win:HexInt32", 18 },
	{ "win:HexInt64", 19 }, { "win:PID", 20 }, { "win:TID", 21 },
	{ "win:Port", 22 }, { "win:IPv4", 23 }, { "win:IPv6", 24 },
	{ "win:SocketAddress", 25 }, { "win:CIMDateTime", 26 },
	{ "win:ETWTIME", 27 }, { "win:Xml", 28 }, { "win:ErrorCode", 29 },
	{ "win:Win32Error", 30 }, { "win:NTSTATUS", 31 }, { "win:HResult", 32 },
	{ "win:DateTimeCultureInsensitive", 33 }, { "win:Json", 34 },
	{ "win:Utf8", 35 }, { "win:Pkcs7WithTypeInfo", 36 },
	{ "win:CodePointer", 37 }, { "win:DateTimeUtc", 38 },
};

static bool type_of(const struct type_name *t, size_t n, const char *name,
		    uint16_t *type)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].name, name)) {
			*type = t[i].type;
			return true;
		}
	return false;
}

bool mf_in_type(const char *name, uint16_t *type)
{
	return type_of(in_types, N(in_types), name, type);
}

bool mf_out_type(const char *name, uint16_t *type)
{
	return type_of(out_types, N(out_types), name, type);
}
