// SPDX-License-Identifier: GPL-2.0
/*
 * etw wpp's options and errors: -odir:, -tmfdir:, -p:, -func:, -scan:,
 * -cfgdir:, -ctl:, -ext:, -D, -dll, -km; message GUIDs stable across runs
 * and changed with the messages; the .tmh compiling as C and C++ (with
 * the C++ function names in the TMF); and each bad configuration or
 * source construct refused with its file and line.
 */
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

static char dir[64];

static void write_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static void remove_file(const char *sub, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	unlink(path);
}

static char *read_file(const char *name)
{
	static char buf[65536];
	char path[256];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* Run etw wpp in dir with these arguments; its status, stderr in "err". */
static int wpp(const char *fmt, ...)
{
	char args[1024], cmd[2048], top[512];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	if (!getcwd(top, sizeof(top)))
		return -1;
	snprintf(cmd, sizeof(cmd), "cd %s && %s/%s wpp %s 2>err", dir, top, ETW_TOOL_PATH, args);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The GUID of the one .tmf in a folder of dir. */
static int tmf_name(const char *sub, char *out, size_t n)
{
	char pat[256];
	glob_t g;
	int count;

	snprintf(pat, sizeof(pat), "%s/%s/*.tmf", dir, sub);
	if (glob(pat, 0, NULL, &g))
		return 0;
	count = (int)g.gl_pathc;
	snprintf(out, n, "%s", strrchr(g.gl_pathv[0], '/') + 1);
	globfree(&g);
	return count;
}

/* The text of the one .tmf in a folder of dir. */
static char *read_tmf(const char *sub)
{
	char name[64], path[128];

	if (tmf_name(sub, name, sizeof(name)) != 1)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", sub, name);
	return read_file(path);
}

static int compile(const char *compiler, const char *src)
{
	char cmd[1024], top[512];

	if (!getcwd(top, sizeof(top)))
		return -1;
	snprintf(cmd, sizeof(cmd), "cd %s && %s -Wall -Wextra -Werror -I%s/libetw/include -I. "
		 "-fsyntax-only %s 2>>err", dir, compiler, top, src);
	return system(cmd);
}

static const char hdr[] =
	"#include <windows.h>\n"
	"#define WPP_CONTROL_GUIDS WPP_DEFINE_CONTROL_GUID(C, (11111111,2222,3333,4444,555555555555), "
	"WPP_DEFINE_BIT(A) WPP_DEFINE_BIT(B))\n";

FIXTURE(tool) {
	int unused;
};

FIXTURE_SETUP(tool)
{
	char cmd[256];

	snprintf(dir, sizeof(dir), "/tmp/etw-wpp-tool-%d", getpid());
	snprintf(cmd, sizeof(cmd), "rm -rf %s && mkdir -p %s/out %s/tmf", dir, dir, dir);
	ASSERT_EQ(0, system(cmd));
}

FIXTURE_TEARDOWN(tool)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	system(cmd);
}

#define EXPECT_ERR(text) do {						\
	char *_e = read_file("err");					\
	EXPECT_NE(NULL, _e);						\
	if (_e) {							\
		EXPECT_NE(NULL, strstr(_e, text));			\
		if (!strstr(_e, text))					\
			TH_LOG("stderr: %s", _e);			\
	}								\
} while (0)

TEST_F(tool, odir_tmfdir_and_friendly_name)
{
	char name[64];

	write_file("a.c", "#include \"h.h\"\n#include \"a.tmh\"\n"
		   "void f(int x) { DoTraceMessage(A, \"x=%d\", x); }\n");
	write_file("h.h", hdr);
	ASSERT_EQ(0, wpp("-odir:out -tmfdir:tmf -p:Friendly a.c"));
	EXPECT_NE(NULL, read_file("out/a.tmh"));
	ASSERT_EQ(1, tmf_name("tmf", name, sizeof(name)));
	EXPECT_EQ(0, tmf_name("out", name, sizeof(name)));
	tmf_name("tmf", name, sizeof(name));
	{
		char path[128], *t;

		snprintf(path, sizeof(path), "tmf/%s", name);
		t = read_file(path);
		ASSERT_NE(NULL, t);
		/* The GUID line: the file's GUID, the friendly name, the source. */
		EXPECT_EQ(0, strncmp(strchr(t, '\n') + 1, name, 36));
		EXPECT_NE(NULL, strstr(t, " Friendly // SRC=a.c MJ= MN=\n"));
		EXPECT_NE(NULL, strstr(t, "#typev a_c3 10 \"%0x=%10!d!\" //   LEVEL=A FUNC=f\n"
				       "{\nx, ItemLong -- 10\n}\n"));
	}
	/* Without -tmfdir: the .tmf goes with the .tmh. */
	ASSERT_EQ(0, wpp("-odir:out a.c"));
	EXPECT_EQ(1, tmf_name("out", name, sizeof(name)));
	EXPECT_EQ(0, compile("cc -std=gnu11", "-Iout a.c"));
	EXPECT_EQ(0, compile("c++ -std=c++17 -x c++", "-Iout a.c"));
}

TEST_F(tool, guid_stable_and_message_dependent)
{
	char one[64], two[64], three[64], four[64];

	write_file("h.h", hdr);
	write_file("b.c", "#include \"h.h\"\n#include \"b.tmh\"\n"
		   "void g(void) { DoTraceMessage(B, \"same\"); }\n");
	ASSERT_EQ(0, wpp("-odir:out -p:P b.c"));
	tmf_name("out", one, sizeof(one));
	remove_file("out", one);
	ASSERT_EQ(0, wpp("-odir:out -p:P b.c"));
	tmf_name("out", two, sizeof(two));
	EXPECT_STREQ(one, two);
	/* The version nibble of a name-based GUID as Windows' TMFs have it. */
	EXPECT_EQ('3', one[14]);
	ASSERT_EQ(0, wpp("-odir:tmf -p:Other b.c"));
	tmf_name("tmf", three, sizeof(three));
	EXPECT_STRNE(one, three);
	write_file("b.c", "#include \"h.h\"\n#include \"b.tmh\"\n"
		   "void g(void) { DoTraceMessage(B, \"changed\"); }\n");
	remove_file("out", one);
	ASSERT_EQ(0, wpp("-odir:out -p:P b.c"));
	tmf_name("out", four, sizeof(four));
	EXPECT_STRNE(one, four);
}

TEST_F(tool, func_scan_defines_dll_and_ctl)
{
	char *tmh;

	write_file("s.h", "// begin_wpp config\n// FUNC Log{LEVEL=3}(FLAGS, MSG, ...);\n"
		   "// end_wpp\n#define WPP_LEVEL_FLAGS_ENABLED(l, f) WPP_FLAG_ENABLED(f)\n"
		   "#define WPP_LEVEL_FLAGS_LOGGER(l, f) WPP_FLAG_LOGGER(f)\n");
	write_file("c.c", "#include <windows.h>\n#include \"s.h\"\n#include \"c.tmh\"\n"
		   "void h(void)\n{\n\tLog(Noise, \"n %s\", \"x\");\n"
		   "\tMine(Error, \"e\");\n\tOther(Unusual, \"u\");\n}\n");
	write_file("local.ini", "# a local configuration\nFUNC Other(FLAG, MSG, ...);\n");
	ASSERT_EQ(0, wpp("-odir:out -scan:s.h '-func:Mine(FLAG,MSG,...)' -ini:local.ini "
			 "-ctl:81b20fea-73a8-4b62-95bc-354477c97a6f -DWPP_CHECK_X=7 -dll c.c"));
	tmh = read_file("out/c.tmh");
	ASSERT_NE(NULL, tmh);
	EXPECT_NE(NULL, strstr(tmh, "#define WPP_DEFAULT_CONTROL_GUID 81b20fea,73a8,4b62,95bc,354477c97a6f\n"));
	EXPECT_NE(NULL, strstr(tmh, "#define WPP_CHECK_X 7\n"));
	EXPECT_NE(NULL, strstr(tmh, "#define WPP_DLL\n"));
	EXPECT_NE(NULL, strstr(tmh, "WPP_LEVEL_FLAGS_ENABLED(3, wpp_v0)"));
	EXPECT_NE(NULL, strstr(tmh, "WPP_FLAG_ENABLED(wpp_v0)"));
	EXPECT_NE(NULL, strstr(tmh, "#define Other WPP_(CALL)"));
	EXPECT_EQ(0, compile("cc -std=gnu11", "-Iout c.c"));
}

TEST_F(tool, cplusplus_function_names)
{
	char *t;

	write_file("h.h", hdr);
	write_file("k.cpp", "#include \"h.h\"\n#include \"k.tmh\"\nnamespace ns {\n"
		   "struct K { void run(int v); };\n"
		   "void K::run(int v)\n{\n\tDoTraceMessage(A, \"v %d\", v);\n}\n}\n");
	ASSERT_EQ(0, wpp("-odir:out k.cpp"));
	t = read_tmf("out");
	ASSERT_NE(NULL, t);
	EXPECT_NE(NULL, strstr(t, "#typev k_cpp7 10 \"%0v %10!d!\" //   LEVEL=A FUNC=K::run\n"));
	EXPECT_EQ(0, compile("c++ -std=c++17", "-Iout k.cpp"));
}

/* A source's own types: simple, flavor, complex, a set and a list. */
TEST_F(tool, user_types)
{
	char *t;

	write_file("h.h", hdr);
	write_file("u.c", "#include \"h.h\"\n"
		   "struct blob { USHORT len; const char *data; };\n"
		   "#define MY_LOGBLOB(x) WPP_LOGPAIR(sizeof((x)->len), &(x)->len) "
		   "WPP_LOGPAIR((x)->len, (x)->data)\n"
		   "// begin_wpp config\n"
		   "// DEFINE_SIMPLE_TYPE(MYINT, int, ItemLong, \"d\", M, 4);\n"
		   "// DEFINE_FLAVOR(MYHEX, MYINT, , \"08x\");\n"
		   "// DEFINE_CPLX_TYPE(BLOB, MY_LOGBLOB, const struct blob *, ItemHEXDump, "
		   "\"s\", _blob_, 0, 2);\n"
		   "// CUSTOM_TYPE(perm, ItemSetLong(read, write, exec));\n"
		   "// TYPEMACRO(color, ItemListByte(red,green));\n"
		   "// end_wpp\n"
		   "#include \"u.tmh\"\n"
		   "void u(const struct blob *b)\n{\n"
		   "\tDoTraceMessage(A, \"%!MYINT! %!MYHEX! %!BLOB! %!perm! %!color!\", 1, 2, b, 5, 1);\n"
		   "}\n");
	ASSERT_EQ(0, wpp("-odir:out u.c"));
	t = read_tmf("out");
	ASSERT_NE(NULL, t);
	EXPECT_NE(NULL, strstr(t, "\"%0%10!d! %11!08x! %12!s! %13!s! %14!s!\" //   LEVEL=A FUNC=u\n"
			       "{\n1, ItemLong -- 10\n2, ItemLong -- 11\nb, ItemHEXDump -- 12\n"
			       "5, ItemSetLong(read,write,exec) -- 13\n"
			       "1, ItemListByte(red,green) -- 14\n}\n"));
	t = read_file("out/u.tmh");
	ASSERT_NE(NULL, t);
	EXPECT_NE(NULL, strstr(t, "WPP_SF_MM_blob_Lc("));
	EXPECT_NE(NULL, strstr(t, "MY_LOGBLOB(_a3)"));
	EXPECT_EQ(0, compile("cc -std=gnu11", "-Iout u.c"));
}

TEST_F(tool, ext_selects_sources)
{
	write_file("h.h", hdr);
	write_file("e.cpp", "#include \"h.h\"\nvoid e(void) { DoTraceMessage(A, \"e\"); }\n");
	ASSERT_EQ(0, wpp("-odir:out -ext:.c e.cpp"));
	EXPECT_EQ(NULL, read_file("out/e.tmh"));
	ASSERT_EQ(0, wpp("-odir:out -ext:.c.cpp e.cpp"));
	EXPECT_NE(NULL, read_file("out/e.tmh"));
}

TEST_F(tool, km_is_not_supported_yet)
{
	write_file("k.c", "void k(void) {}\n");
	EXPECT_EQ(1, wpp("-km k.c"));
	EXPECT_ERR("-km: kernel-mode tracing is not supported yet");
	write_file("s.h", "// begin_wpp config\n// WPP_FLAGS(-km);\n// end_wpp\n");
	EXPECT_EQ(1, wpp("-scan:s.h k.c"));
	EXPECT_ERR("-km: kernel-mode tracing is not supported yet");
}

TEST_F(tool, bad_options)
{
	write_file("k.c", "void k(void) {}\n");
	EXPECT_EQ(1, wpp("-frob k.c"));
	EXPECT_ERR("unknown option '-frob'");
	EXPECT_EQ(1, wpp("-odir: k.c"));
	EXPECT_ERR("needs a value");
	EXPECT_EQ(1, wpp("-ctl:nope k.c"));
	EXPECT_ERR("-ctl: 'nope' is not a GUID");
	EXPECT_EQ(1, wpp("-odir:out"));
	EXPECT_ERR("no source files");
	EXPECT_EQ(1, wpp("missing.c"));
	EXPECT_ERR("missing.c: No such file");
	EXPECT_EQ(1, wpp("-cfgdir:nowhere k.c"));
	EXPECT_ERR("nowhere/defaultwpp.ini");
	EXPECT_EQ(1, wpp("-ini:none.ini k.c"));
	EXPECT_ERR("-ini:none.ini: No such file");
}

/* Each construct: the source, then the "file:line: message" wanted. */
static const struct {
	const char *src, *err;
} bad[] = {
	{ "void f(void)\n{\n\tDoTraceMessage(A, \"%!NOPE!\", 1);\n}\n",
	  "x.c:3: message: unknown format %!NOPE!" },
	{ "void f(void)\n{\n\tDoTraceMessage(A, \"%d %d\", 1);\n}\n",
	  "x.c:3: message: more formats than arguments (1)" },
	{ "void f(void)\n{\n\tDoTraceMessage(A, \"%d\", 1, 2);\n}\n",
	  "x.c:3: message: 2 arguments for 1 formats" },
	{ "void f(void)\n{\n\tDoTraceMessage(A, msg, 1);\n}\n",
	  "x.c:3: the message of DoTraceMessage is not a string literal: msg" },
	{ "void f(void)\n{\n\tDoTraceMessage(A);\n}\n",
	  "x.c:3: DoTraceMessage takes at least 2 arguments, the call has 1" },
	{ "void f(void)\n{\n\tDoTraceMessage(A, \"a\"); DoTraceMessage(A, \"b\");\n}\n",
	  "x.c:3: two trace calls on one line" },
	{ "void f(void)\n{\n\tDoTraceMessage(A, \"%*d\", 1, 2);\n}\n",
	  "x.c:3: message: '*' widths are not supported" },
	{ "void f(void)\n{\n\tDoTraceMessage(A, \"%lq\", 1);\n}\n",
	  "x.c:3: message: unknown format %lq" },
	{ "void f(void)\n{\n\tDoTraceMessage(A, \"x\"\n", "x.c:3: the call has no closing ')'" },
	{ "\n// begin_wpp config\n// FROB(x);\n// end_wpp\n",
	  "x.c:3: unknown configuration statement FROB" },
	{ "// begin_wpp config\n// FUNC F(MSG, ..., X);\n// end_wpp\n",
	  "x.c:2: FUNC F: '...' must follow MSG and end the list" },
	{ "// begin_wpp config\n//\n// CUSTOM_TYPE(t, ItemNope(a));\n// end_wpp\n",
	  "x.c:3: CUSTOM_TYPE t: unknown item type ItemNope" },
	{ "// begin_wpp config\n// DEFINE_FLAVOR(q, NOBASE, , );\n// end_wpp\n",
	  "x.c:2: DEFINE_FLAVOR q: no type NOBASE" },
	{ "// begin_wpp config\n// USEPREFIX(F, notastring);\n// end_wpp\n",
	  "x.c:2: USEPREFIX: the format is not a string: notastring" },
	{ "// begin_wpp config\n// USEPREFIX(DoTraceMessage, \"%d\");\n// end_wpp\n"
	  "void f(void) { DoTraceMessage(A, \"x\"); }\n",
	  "x.c:4: USEPREFIX: %d takes an argument; a prefix takes none" },
	{ "\n\n// begin_wpp config\n// FUNC F(MSG);\n",
	  "x.c:3: begin_wpp config without end_wpp" },
	{ "/* begin_wpp config\n   CUSTOM_TYPE(e, ItemEnum(_Missing));\n   end_wpp */\n"
	  "void f(void) { DoTraceMessage(A, \"%!e!\", 1); }\n",
	  "x.c:4: %!e!: no enum _Missing in the scanned files (-scan: its header)" },
	{ "// begin_wpp config\n// CUSTOM_TYPE(e, ItemEnum(E));\n// end_wpp\n"
	  "enum E { X = 1 << 2 };\nvoid f(void) { DoTraceMessage(A, \"%!e!\", X); }\n",
	  "x.c:4: enum E: a value that is not an integer constant" },
	{ "void f(void)\n{\n\tconst char *s = \"open;\n}\n", "x.c:3: unterminated string" },
};

TEST_F(tool, errors_name_file_and_line)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file("x.c", bad[i].src);
		EXPECT_EQ(1, wpp("-odir:out x.c"));
		EXPECT_ERR(bad[i].err);
	}
	/* A bad -cfgdir: file names its own line. */
	write_file("defaultwpp.ini", "# comment\n\nFUNC Ok(MSG, ...);\nNOT_A_STATEMENT(1);\n");
	write_file("x.c", "void f(void) {}\n");
	EXPECT_EQ(1, wpp("-cfgdir:. x.c"));
	EXPECT_ERR("./defaultwpp.ini:4: unknown configuration statement NOT_A_STATEMENT");
}

TEST_HARNESS_MAIN
