// SPDX-License-Identifier: GPL-2.0
/*
 * TraceLoggingProvider.h end to end in the VM: a provider written as on
 * Windows records every field type into an ETL file (etw record), the
 * hand-packed, custom and TraceLoggingWriteEx forms too, and etw dump
 * decodes each field back to the value that was written; a
 * disabled event makes no system call and evaluates none of its arguments;
 * each record carries the provider's traits and the event's metadata
 * whichever path the module writes it by.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <TraceLoggingProvider.h>
#include <etw_tld.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

/* "EtwTest.TraceLogging": the GUID is the name's (etw guid). */
TRACELOGGING_DEFINE_PROVIDER(g_test, "EtwTest.TraceLogging",
	(0x23dfa3bf, 0x9e8d, 0x5772, 0x14, 0xac, 0xcc, 0x33, 0x58, 0xf6, 0x75, 0x57),
	TraceLoggingOptionGroup(0x4f50731a, 0x89cf, 0x4782, 0xb3, 0xe0, 0xdc, 0xe8,
				0xc9, 0x04, 0x76, 0xba));

static const GUID guid_value = { 0x11223344, 0x5566, 0x7788,
				 { 1, 2, 3, 4, 5, 6, 7, 8 } };
static const SYSTEMTIME st_value = { 2020, 2, 1, 17, 12, 48, 30, 420 };
/* 2020-02-17T12:48:30.4203140Z */
static const FILETIME ft_value = { 0x8e630584, 0x01d5e590 };

/* 2001:db8::1, and S-1-5-32-544 (two sub-authorities). */
static const UINT8 ipv6_value[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
static const UINT8 sid_value[16] = { 1, 2, 0, 0, 0, 0, 0, 5, 32, 0, 0, 0, 0x20, 2, 0, 0 };

static int evaluated;

static int count_me(int v)
{
	evaluated++;
	return v;
}

/* The provider side: every field macro once, then structs and arrays. */
static int provider_main(void)
{
	static const int16_t i16s[3] = { 1, -1, 2 };
	static const uint32_t u32s[2] = { 7, 4000000000u };
	static const double ds[2] = { 0.5, -1.5 };
	static const GUID guids[1] = { { 0xaabbccdd, 0x1, 0x2, { 9, 9, 9, 9, 9, 9, 9, 9 } } };
	static const UINT8 bools[3] = { 1, 0, 1 };
	ANSI_STRING bbuf = { 2, 2, (PCHAR)"\x0a\x0b" };
	int i;

	if (TraceLoggingRegister(g_test) != S_OK)
		return 10;
	/* etw record enabled us before we started: enabled at once. */
	for (i = 0; i < 500 && !TraceLoggingProviderEnabled(g_test, 5, 0); i++)
		usleep(10000);
	TraceLoggingWrite(g_test, "Scalars",
		TraceLoggingLevel(WINEVENT_LEVEL_INFO), TraceLoggingKeyword(0x2),
		TraceLoggingInt8(-3, "i8"), TraceLoggingUInt8(200, "u8"),
		TraceLoggingInt16(-300, "i16"), TraceLoggingUInt16(60000, "u16"),
		TraceLoggingInt32(-5, "i32"), TraceLoggingUInt32(4000000000u, "u32"),
		TraceLoggingInt64(-6000000000LL, "i64"),
		TraceLoggingUInt64(18000000000000000000ULL, "u64"),
		TraceLoggingIntPtr(-7, "iptr"), TraceLoggingUIntPtr(7, "uptr"),
		TraceLoggingLong(-8, "long"), TraceLoggingULong(8, "ulong"),
		TraceLoggingHexInt8(0x7b, "h8"), TraceLoggingHexUInt16(0xabcd, "h16"),
		TraceLoggingHexInt32(0x12345678, "h32"),
		TraceLoggingHexUInt64(0x1122334455667788ULL, "h64"),
		TraceLoggingHexLong(0x1f, "hlong"),
		TraceLoggingFloat32(1.25f, "f32"), TraceLoggingFloat64(-2.5, "f64"),
		TraceLoggingBoolean(1, "boolean"), TraceLoggingBool(0, "bool"),
		TraceLoggingChar('c', "char"), TraceLoggingWChar(u'w', "wchar"),
		TraceLoggingPointer((void *)0x1234, "ptr"),
		TraceLoggingPid(77, "pid"), TraceLoggingTid(78, "tid"),
		TraceLoggingIPv4Address(0x04030201, "ip"),
		TraceLoggingWinError(5, "winerr"), TraceLoggingNTStatus((INT32)0xc0000034, "nt"),
		TraceLoggingHResult((INT32)0x80070005, "hr"),
		TraceLoggingGuid(guid_value, "guid"),
		TraceLoggingFileTime(ft_value, "ft"),
		TraceLoggingSystemTime(st_value, "st"));
	TraceLoggingWrite(g_test, "Strings", TraceLoggingLevel(4),
		TraceLoggingString("narrow", "s"), TraceLoggingString(NULL, "null"),
		TraceLoggingUtf8String("caf\xc3\xa9", "utf8"),
		TraceLoggingWideString(u"wide \u00e9", "w"),
		TraceLoggingCountedString("counted!", 7, "cs"),
		TraceLoggingCountedWideString(u"cw-xyz", 2, "cw"),
		TraceLoggingBinary("\x01\x02\xff", 3, "bin"),
		TraceLoggingBinaryBuffer(&bbuf, ANSI_STRING, "buf"),
		TraceLoggingPackedField("\x02\x00\x0c\x0d", 4, TlgInCOUNTEDBINARY, "cbin"),
		TraceLoggingString16(u"sixteen", "s16"),
		TraceLoggingCountedString16(u"c16-", 3, "c16"),
		TraceLoggingChar16(u'z', "ch16"),
		TraceLoggingIPv6Address(ipv6_value, "ip6"),
		TraceLoggingSid(sid_value, "sid"));
	TraceLoggingWrite(g_test, "Shapes", TraceLoggingLevel(4),
		TraceLoggingInt16Array(i16s, 3, "i16s"),
		TraceLoggingUInt32FixedArray(u32s, 2, "u32s"),
		TraceLoggingFloat64Array(ds, 2, "ds"),
		TraceLoggingGuidFixedArray(guids, 1, "guids"),
		TraceLoggingBooleanArray(bools, 3, "bools"),
		TraceLoggingCharArray("xyz", 3, "chars"),
		TraceLoggingStruct(3, "outer"),
			TraceLoggingInt32(1, "a"),
			TraceLoggingStruct(2, "inner"),
				TraceLoggingString("deep", "b"),
				TraceLoggingUInt8(9, "c"),
			TraceLoggingInt32(2, "d"),
		TraceLoggingValue(42, "value"), TraceLoggingValue("auto", "text"));
	{
		/* SOCKADDR_IN (Windows' family 2), sockaddr_in6 as Linux has it. */
		static const UINT8 sin4[16] = { 2, 0, 0, 80, 10, 0, 0, 1 };
		static const UINT8 sin6[28] = { 10, 0, 0x01, 0xbb, [8] = 0x20, 0x01, 0x0d, 0xb8,
						[23] = 1 };
		static const UINT8 strs[] = { 2, 0, 'h', 'i', 0, 'y', 'o', 0 };
		static const INT32 lt[2] = { -1, 2 };
		static const UINT16 two = 2;
		static const INT32 vs[2] = { 5, 6 };
		static const UINT8 cust[3] = { 7, 8, 9 };
		ANSI_STRING as = { 3, 6, (PCHAR)"abcdef" };
		UNICODE_STRING us = { 4, 6, (PWSTR)u"xyz" };

		TraceLoggingWrite(g_test, "Packed", TraceLoggingLevel(4),
			TraceLoggingEventTag(0x0fe00000),
			TraceLoggingSocketAddress(sin4, sizeof(sin4), "sa4"),
			TraceLoggingSocketAddress(sin6, sizeof(sin6), "sa6"),
			TraceLoggingAnsiString(&as, "astr"),
			TraceLoggingUnicodeString(&us, "ustr", "d", 0x4000),
			TraceLoggingPackedField(strs, sizeof(strs), TlgInANSISTRING | TlgInVcount,
						"strs"),
			TraceLoggingPackedFieldEx(u"{}", 6, TlgInUNICODESTRING, TlgOutJSON, "json"),
			TraceLoggingPackedData(lt, sizeof(lt)),
			TraceLoggingPackedStruct(2, "rect"),
				TraceLoggingPackedMetadata(TlgInINT32, "l"),
				TraceLoggingPackedMetadataEx(TlgInINT32, TlgOutHEX, "t"),
			TraceLoggingPackedData(&two, sizeof(two)),
			TraceLoggingPackedData(vs, sizeof(vs)),
			TraceLoggingPackedStructArray(1, "rects"),
				TraceLoggingPackedMetadata(TlgInINT32, "v"),
			TraceLoggingCustom(cust, sizeof(cust), 5, (1, 2), 2, "cust"));
		TraceLoggingWriteEx(g_test, "ViaEx", 0, 0, NULL, NULL, TraceLoggingLevel(4),
				    TraceLoggingInt32(1, "exv"));
	}
	/* The same kind of event defined at run time. */
	{
		struct etw_tld_provider *p;
		struct etw_tld_event *ev = etw_tld_event_new();
		static const uint16_t n[1] = { 2 };
		static const int32_t v[2] = { -1, 1 };

		if (!ev || etw_tld_provider_open("EtwTest.Dynamic", NULL, &p))
			return 11;
		etw_tld_event_begin(ev, "Dyn", 4, 0x8, 0);
		etw_tld_int64(ev, "n64", -64);
		etw_tld_string(ev, "txt", "dynamic");
		etw_tld_struct(ev, "pair", 2);
		etw_tld_double(ev, "x", 0.25);
		etw_tld_bool(ev, "ok", 1);
		etw_tld_field(ev, "arr", 7 | ETW_TLD_VAR_ARRAY, 0, 0, 0);
		etw_tld_data(ev, n, sizeof(n));
		etw_tld_data(ev, v, sizeof(v));
		if (etw_tld_event_write(p, ev, NULL, NULL))
			return 12;
		etw_tld_event_free(ev);
		etw_tld_provider_close(p);
	}
	/* Filtered out by the session's level: nothing evaluated, nothing sent. */
	TraceLoggingWrite(g_test, "TooVerbose", TraceLoggingLevel(5),
			  TraceLoggingInt32(count_me(1), "x"));
	TraceLoggingUnregister(g_test);
	return evaluated;
}

/* Run a shell command; its output in @out (up to @len), exit status back. */
static int sh(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0;
	int status;

	if (!p)
		return -1;
	n = fread(out, 1, len - 1, p);
	out[n] = 0;
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char dump[1 << 17];

/* The decoded field, as etw dump --format json writes it (TDH's text). */
static int has_field(const char *name, const char *value)
{
	char want[256];

	snprintf(want, sizeof(want), "{\"name\": \"%s\", \"value\": \"%s\"}", name, value);
	return strstr(dump, want) != NULL;
}

#define EXPECT_FIELD(name, value)					\
	EXPECT_TRUE(has_field(name, value)) TH_LOG("%s = %s", name, value)

TEST(every_field_type_round_trips)
{
	char cmd[512], self[256];
	ssize_t n;

	if (geteuid() || access("/usr/bin/etw", X_OK))
		SKIP(return, "needs root and the etw tool (the VM has them)");
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	ASSERT_LT(0, n);
	self[n] = 0;
	snprintf(cmd, sizeof(cmd),
		 "etw record -o /tmp/tl.etl -b 64 -p EtwTest.TraceLogging:4 "
		 "-p EtwTest.Dynamic -- %s provider 2>&1",
		 self);
	ASSERT_EQ(0, sh(cmd, dump, sizeof(dump))) TH_LOG("%s", dump);
	ASSERT_EQ(0, sh("etw dump --format json /tmp/tl.etl", dump, sizeof(dump)));

	/* Provider traits with the group, the schema, channel 11. */
	EXPECT_TRUE(strstr(dump, "\"provider_name\": \"EtwTest.TraceLogging\"") != NULL);
	EXPECT_TRUE(strstr(dump, "EtwTest.TraceLogging group 4f50731a-89cf-4782-b3e0-dce8c90476ba") != NULL);
	EXPECT_TRUE(strstr(dump, "\"event_name\": \"Scalars\", \"id\": 0, \"version\": 0, "
			   "\"channel\": 11, \"level\": 4, \"opcode\": 0, \"task\": 0, "
			   "\"keyword\": \"0x0000000000000002\"") != NULL) TH_LOG("%s", dump);
	EXPECT_TRUE(strstr(dump, "TooVerbose") == NULL);

	EXPECT_FIELD("i8", "-3");
	EXPECT_FIELD("u8", "200");
	EXPECT_FIELD("i16", "-300");
	EXPECT_FIELD("u16", "60000");
	EXPECT_FIELD("i32", "-5");
	EXPECT_FIELD("u32", "4000000000");
	EXPECT_FIELD("i64", "-6000000000");
	EXPECT_FIELD("u64", "18000000000000000000");
	EXPECT_FIELD("iptr", "-7");
	EXPECT_FIELD("uptr", "7");
	EXPECT_FIELD("long", "-8");
	EXPECT_FIELD("ulong", "8");
	EXPECT_FIELD("h8", "0x7B");
	EXPECT_FIELD("h16", "0xABCD");
	EXPECT_FIELD("h32", "0x12345678");
	EXPECT_FIELD("h64", "0x1122334455667788");
	EXPECT_FIELD("hlong", "0x1F");
	EXPECT_FIELD("f32", "1.25");
	EXPECT_FIELD("f64", "-2.5");
	EXPECT_FIELD("boolean", "true");
	EXPECT_FIELD("bool", "false");
	EXPECT_FIELD("char", "c");
	EXPECT_FIELD("wchar", "w");
	EXPECT_FIELD("ptr", "0x1234");
	EXPECT_FIELD("pid", "77");
	EXPECT_FIELD("tid", "78");
	EXPECT_FIELD("ip", "1.2.3.4");
	EXPECT_FIELD("winerr", "0x5");
	EXPECT_FIELD("nt", "0xC0000034");
	EXPECT_FIELD("hr", "0x80070005");
	EXPECT_FIELD("guid", "{11223344-5566-7788-0102-030405060708}");
	EXPECT_FIELD("ft", "2020-02-17T12:48:30.4203140Z");
	EXPECT_FIELD("st", "2020-02-17T12:48:30.420");

	EXPECT_FIELD("s", "narrow");
	EXPECT_FIELD("null", "");
	EXPECT_FIELD("utf8", "caf\xc3\xa9");
	EXPECT_FIELD("w", "wide \xc3\xa9");
	EXPECT_FIELD("cs", "counted");
	EXPECT_FIELD("cw", "cw");
	EXPECT_FIELD("bin", "0x0102FF");
	EXPECT_FIELD("buf", "0x0A0B");
	EXPECT_FIELD("cbin", "0x0C0D");
	EXPECT_FIELD("s16", "sixteen");
	EXPECT_FIELD("c16", "c16");
	EXPECT_FIELD("ch16", "z");
	EXPECT_FIELD("ip6", "2001:db8::1");
	EXPECT_FIELD("sid", "S-1-5-32-544");

	EXPECT_FIELD("i16s", "[1, -1, 2]");
	EXPECT_FIELD("u32s", "[7, 4000000000]");
	EXPECT_FIELD("ds", "[0.5, -1.5]");
	EXPECT_FIELD("guids", "[{AABBCCDD-0001-0002-0909-090909090909}]");
	EXPECT_FIELD("bools", "[true, false, true]");
	EXPECT_FIELD("chars", "xyz");
	EXPECT_FIELD("outer.a", "1");
	EXPECT_FIELD("outer.inner.b", "deep");
	EXPECT_FIELD("outer.inner.c", "9");
	EXPECT_FIELD("outer.d", "2");
	EXPECT_FIELD("value", "42");
	EXPECT_FIELD("text", "auto");

	EXPECT_FIELD("sa4", "10.0.0.1:80");
	EXPECT_FIELD("sa6", "[2001:db8::1]:443");
	EXPECT_FIELD("astr", "abc");
	EXPECT_FIELD("ustr", "xy");
	EXPECT_FIELD("strs", "[hi, yo]");
	EXPECT_FIELD("json", "{}");
	EXPECT_FIELD("rect.l", "-1");
	EXPECT_FIELD("rect.t", "0x2");
	EXPECT_FIELD("rects[0].v", "5");
	EXPECT_FIELD("rects[1].v", "6");
	EXPECT_FIELD("cust", "0x070809");
	EXPECT_FIELD("exv", "1");
	EXPECT_TRUE(strstr(dump, "\"event_name\": \"ViaEx\"") != NULL);

	EXPECT_TRUE(strstr(dump, "\"provider_name\": \"EtwTest.Dynamic\", \"event_name\": \"Dyn\"") != NULL);
	EXPECT_FIELD("n64", "-64");
	EXPECT_FIELD("txt", "dynamic");
	EXPECT_FIELD("pair.x", "0.25");
	EXPECT_FIELD("pair.ok", "true");
	EXPECT_FIELD("arr", "[-1, 1]");
	/* Every event decoded in full: no raw payload left. */
	EXPECT_TRUE(strstr(dump, "\"payload\"") == NULL || strstr(dump, "Scalars") == NULL ||
		    strstr(strstr(dump, "Scalars"), "\"payload\"") == NULL);
}

/*
 * A disabled event: under a seccomp filter that kills the process on any
 * system call but exit, TraceLoggingWrite of a registered but disabled
 * provider, and of an enabled one above its level, returns, evaluating
 * none of the arguments.
 */
TEST(disabled_event_no_syscall_no_evaluation)
{
	int status;
	pid_t pid;

	if (access(ETW_DEV, R_OK | W_OK))
		SKIP(return, "no %s", ETW_DEV);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit_group, 1, 0),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { .len = 4, .filter = f };

		if (TraceLoggingRegister(g_test) != S_OK)
			_exit(100);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(101);
		TraceLoggingWrite(g_test, "Off", TraceLoggingLevel(1),
				  TraceLoggingInt32(count_me(1), "x"),
				  TraceLoggingString(count_me(2) ? "a" : "b", "s"));
		/* Enabled (as the callback would) at level 3: level 4 stays out. */
		((_tlgProvider_t *)g_test)->KeywordAny = ~0ULL;
		__atomic_store_n(&((_tlgProvider_t *)g_test)->LevelPlus1, 4, __ATOMIC_RELEASE);
		TraceLoggingWrite(g_test, "Verbose", TraceLoggingLevel(4),
				  TraceLoggingInt32(count_me(3), "x"));
		syscall(SYS_exit_group, evaluated);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("killed by signal %d", WTERMSIG(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* "EtwTest.TraceLoggingLane": written into the tests' own sessions. */
TRACELOGGING_DEFINE_PROVIDER(g_lane, "EtwTest.TraceLoggingLane",
	(0x5a1e0c3d, 0x7b42, 0x4e11, 0x9a, 0x07, 0x3c, 0x51, 0x6d, 0x2e, 0x88, 0x40));

static void lane_write(INT32 v, const char *s)
{
	TraceLoggingWrite(g_lane, "Lane", TraceLoggingLevel(4), TraceLoggingKeyword(0x1),
			  TraceLoggingInt32(v, "v"), TraceLoggingString(s, "s"));
}

/* The records of g_lane in one session: what follows each header. */
struct lane_recs {
	__u8 guid[16];
	__u8 body[512][256];
	__u16 len[512];
	int n;
};

static int lane_keep(const struct etw_test_event_header *h, const __u8 *buffer,
		     __u32 cpu, void *ctx)
{
	struct lane_recs *r = ctx;

	if (memcmp(h->provider_id, r->guid, 16))
		return 0;
	if (r->n < 512 && h->size <= sizeof(*h) + sizeof(r->body[0])) {
		r->len[r->n] = h->size - sizeof(*h);
		memcpy(r->body[r->n], h + 1, r->len[r->n]);
	}
	r->n++;
	return 0;
}

/*
 * Record @i of @r: the traits item the provider's blob, the schema item
 * @schema, then the payload: its INT32 and (in @text) its string; -1 if
 * the record is not so.
 */
static INT32 lane_check(const struct lane_recs *r, int i, const __u8 *schema,
			const char **text)
{
	const __u8 *traits = (const __u8 *)g_lane->ProviderMetadataPtr;
	const __u8 *b = r->body[i], *end = b + r->len[i];
	__u16 tsize = traits[0] | traits[1] << 8, stride, size;
	INT32 v;

	/* PROV_TRAITS, linked to the next item. */
	memcpy(&stride, b, 2);
	memcpy(&size, b + 6, 2);
	if (b[2] != 0x0c || b[3] || b[4] != 1 || size != tsize ||
	    memcmp(b + 8, traits, tsize) || stride != ((8 + size + 7) & ~7))
		return -1;
	b += stride;
	/* EVENT_SCHEMA_TL, the last. */
	memcpy(&stride, b, 2);
	memcpy(&size, b + 6, 2);
	if (b[2] != 0x0b || b[3] || b[4] || stride != ((8 + size + 7) & ~7) ||
	    memcmp(b + 8, schema, size))
		return -1;
	b += stride;
	if (end - b < 5 || end[-1])
		return -1;
	memcpy(&v, b, 4);
	*text = (const char *)b + 4;
	return v;
}

struct lane_thread {
	int cpu;
	int n;
};

static void *lane_thread_main(void *arg)
{
	struct lane_thread *t = arg;
	int i;

	if (etw_pin_cpu(t->cpu))
		return NULL;
	for (i = 0; i < t->n; i++)
		lane_write(1000 * (t->cpu + 1) + i, "thread");
	return NULL;
}

static int lane_session(int fd, const char *name, __u32 *id)
{
	GUID g = TraceLoggingProviderId(g_lane);

	if (etw_session_start_simple(fd, name, 0, 64, 0, id))
		return -1;
	return etw_enable_simple(fd, *id, (const __u8 *)&g, 1, 4, 0x1, 0, 0);
}

/*
 * TraceLoggingWrite into the module's sessions, whichever way it is
 * written: with one session enabling the provider (the fast lane), with
 * two (the full path, both sessions getting it), after the provider
 * registered again, and from two threads on both CPUs at once.  Every
 * record carries the provider's traits and the same schema item, then
 * its own payload; none is lost or changed.
 */
TEST(metadata_on_every_path)
{
	static struct lane_recs a, b;
	static char seen[3][200];
	int by_value[20] = { 0 };
	struct lane_thread t[2] = { { 0, 200 }, { 1, 200 } };
	GUID g = TraceLoggingProviderId(g_lane);
	const __u8 *schema;
	const char *text;
	__u32 sa, sb;
	pthread_t th[2];
	int fd, i, k;

	etw_require_root(_metadata);
	fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(fd);
	ASSERT_EQ(0, etw_pin_cpu(0));
	ASSERT_EQ(S_OK, TraceLoggingRegister(g_lane));
	ASSERT_EQ(0, lane_session(fd, "etwtest-tl-a", &sa));
	for (i = 0; i < 500 && !TraceLoggingProviderEnabled(g_lane, 4, 0x1); i++)
		usleep(10000);
	ASSERT_TRUE(TraceLoggingProviderEnabled(g_lane, 4, 0x1));
	for (i = 0; i < 20; i++)
		lane_write(i, "one");
	ASSERT_EQ(0, lane_session(fd, "etwtest-tl-b", &sb));
	for (i = 0; i < 20; i++)
		lane_write(100 + i, "two");
	ASSERT_EQ(0, etw_enable_simple(fd, sb, (const __u8 *)&g, 0, 0, 0, 0, 0));
	TraceLoggingUnregister(g_lane);
	ASSERT_EQ(S_OK, TraceLoggingRegister(g_lane));
	/* Enabled before it registered: enabled when EventRegister returns. */
	ASSERT_TRUE(TraceLoggingProviderEnabled(g_lane, 4, 0x1));
	for (i = 0; i < 20; i++)
		lane_write(200 + i, "again");
	for (k = 0; k < 2; k++)
		ASSERT_EQ(0, pthread_create(&th[k], NULL, lane_thread_main, &t[k]));
	for (k = 0; k < 2; k++)
		ASSERT_EQ(0, pthread_join(th[k], NULL));
	TraceLoggingUnregister(g_lane);

	memcpy(a.guid, &g, 16);
	memcpy(b.guid, &g, 16);
	ASSERT_LE(0, etw_drain(fd, sa, lane_keep, &a));
	ASSERT_LE(0, etw_drain(fd, sb, lane_keep, &b));
	etw_stop_test_sessions(fd);
	close(fd);

	ASSERT_EQ(460, a.n);
	ASSERT_EQ(20, b.n);
	/*
	 * The schema item of the first record is every record's.  Each value
	 * written is in session a once; those of "two" in b too, the same.
	 */
	schema = a.body[0] + (a.body[0][0] | a.body[0][1] << 8) + 8;
	for (i = 0; i < a.n; i++) {
		INT32 v = lane_check(&a, i, schema, &text);

		ASSERT_LE(0, v) TH_LOG("record %d", i);
		if (v < 300) {
			EXPECT_STREQ(v < 100 ? "one" : v < 200 ? "two" : "again", text);
			ASSERT_LT(v % 100, 20);
			EXPECT_EQ(0, seen[0][v / 100 * 20 + v % 100]++) TH_LOG("value %d", v);
			if (v >= 100 && v < 200)
				by_value[v - 100] = i;
		} else {
			EXPECT_STREQ("thread", text);
			ASSERT_TRUE(v >= 1000 && v / 1000 <= 2 && v % 1000 < 200) TH_LOG("%d", v);
			EXPECT_EQ(0, seen[v / 1000][v % 1000]++) TH_LOG("value %d", v);
		}
	}
	for (i = 0; i < b.n; i++) {
		INT32 v = lane_check(&b, i, schema, &text);

		ASSERT_TRUE(v >= 100 && v < 120) TH_LOG("record %d: %d", i, v);
		ASSERT_EQ(a.len[by_value[v - 100]], b.len[i]);
		EXPECT_EQ(0, memcmp(a.body[by_value[v - 100]], b.body[i], b.len[i]));
	}
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "provider"))
		return provider_main();
	return test_harness_run(argc, argv);
}
