// SPDX-License-Identifier: GPL-2.0
/*
 * Reading manifests (etw_manifest.h): the test manifest of
 * testdata/manifests in full (names resolved to values, fields in TDH's
 * order, count and length references, maps, string tables), and a
 * malformed manifest of each kind refused with its line and what is wrong.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <etw_manifest.h>

#include "kselftest_harness.h"

#define TYPES_MAN "testdata/manifests/etw-test-types.man"

TEST(test_manifest_read)
{
	struct etw_manifest_error err;
	const struct etw_mf_provider *p;
	const struct etw_mf_event *e;
	const struct etw_mf_template *t;
	struct etw_manifest *m;

	ASSERT_EQ(0, etw_manifest_read(TYPES_MAN, &m, &err)) TH_LOG("%lu: %s", err.line, err.message);
	ASSERT_EQ(1, m->nproviders);
	p = &m->providers[0];
	EXPECT_STREQ("Etw-Test-Manifest", p->name);
	EXPECT_EQ(0x6f1b9a52, p->guid.Data1);
	EXPECT_EQ(0x3c1d, p->guid.Data2);
	EXPECT_EQ(0x61, p->guid.Data4[7]);
	EXPECT_STREQ("Etw test provider", p->message);
	EXPECT_STREQ("en-US", m->culture);
	ASSERT_EQ(4, p->nevents);

	e = etw_mf_find_event(p, 1, 0);
	ASSERT_NE(NULL, e);
	EXPECT_EQ(16, e->channel);		/* the manifest's first channel */
	EXPECT_EQ(4, e->level);
	EXPECT_EQ(10, e->opcode);		/* the task's own opcode */
	EXPECT_EQ(1, e->task);
	/* Network, and C1's channel keyword: the second channel, bit 62. */
	EXPECT_EQ(0x4000000000000001ull, e->keywords);
	EXPECT_EQ(0x4000000000000000ull, e->channel_v->keyword);
	EXPECT_STREQ("Handshake", e->opcode_v->message);
	EXPECT_STREQ("Information", e->level_v->message);
	EXPECT_STREQ("IntsEvent", e->symbol);
	EXPECT_STREQ("Ints: %1 %2 port %6 pid %9, error %12%n(100%% done)", e->message);
	ASSERT_NE(NULL, e->tmpl);
	EXPECT_EQ(22, e->tmpl->nfields);
	EXPECT_EQ(16, e->tmpl->fields[2].out_type);	/* win:HexInt8 */

	e = etw_mf_find_event(p, 2, 0);
	ASSERT_NE(NULL, e);
	EXPECT_EQ(9, e->channel);		/* imported Application */
	/* Network, Disk and the imported Application channel's bit 63. */
	EXPECT_EQ(0x8000000000000003ull, e->keywords);
	EXPECT_EQ(2, e->nkeywords);
	EXPECT_EQ(1, e->opcode);		/* win:Start */
	t = e->tmpl;
	EXPECT_EQ(22, t->fields[4].in_type);	/* win:CountedUnicodeString */
	EXPECT_EQ(4, t->fields[3].length);
	EXPECT_EQ(11, t->fields[12].length_field);	/* Blob's length is Len */
	EXPECT_EQ(24, t->fields[13].out_type);

	e = etw_mf_find_event(p, 3, 0);
	ASSERT_NE(NULL, e);
	EXPECT_EQ(16, e->level);
	EXPECT_EQ(11, e->opcode);
	t = e->tmpl;
	ASSERT_EQ(8, t->nfields);
	EXPECT_EQ(6, t->ntop);
	EXPECT_TRUE(t->fields[1].array);
	EXPECT_EQ(0, t->fields[1].count_field);
	EXPECT_EQ(3, t->fields[2].count);
	EXPECT_EQ(ETW_MF_NONE, t->fields[2].count_field);
	EXPECT_TRUE(t->fields[3].is_struct);
	EXPECT_EQ(6, t->fields[3].struct_first);
	EXPECT_EQ(2, t->fields[3].struct_members);
	EXPECT_STREQ("X", t->fields[6].name);
	EXPECT_EQ(3, t->fields[7].parent);
	ASSERT_NE(NULL, t->fields[5].map);
	EXPECT_TRUE(t->fields[5].map->bitmap);
	EXPECT_STREQ("Exec", t->fields[5].map->entries[2].message);
	EXPECT_EQ(NULL, etw_mf_find_event(p, 3, 1));
	EXPECT_EQ(NULL, etw_mf_find_event(p, 4, 0)->tmpl);
	etw_manifest_free(m);
}

#define HEAD "<?xml version=\"1.0\"?>\n" \
	"<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\"\n" \
	" xmlns:win=\"http://manifests.microsoft.com/win/2004/08/windows/events\">\n" \
	"<instrumentation><events>\n" \
	"<provider name=\"P\" guid=\"{11111111-2222-3333-4444-555555555555}\">\n"
#define TAIL "</provider></events></instrumentation></instrumentationManifest>\n"

struct bad {
	const char *xml;
	unsigned long line;
	const char *says;
};

static const struct bad bad[] = {
	{ HEAD "<events><event value=\"1\"></events>" TAIL, 6, "XML: mismatched tag" },
	{ "<foo/>", 1, "not an instrumentation manifest" },
	{ HEAD "<templates><template tid=\"t\">\n<data name=\"a\" inType=\"win:Int33\"/>\n"
	  "</template></templates>" TAIL, 7, "unknown inType \"win:Int33\"" },
	{ HEAD "<templates><template tid=\"t\">\n<data name=\"a\" inType=\"win:Int32\" outType=\"xs:nope\"/>\n"
	  "</template></templates>" TAIL, 7, "unknown outType" },
	{ HEAD "<events>\n<event value=\"1\" template=\"missing\"/>\n</events>" TAIL, 7,
	  "no template with tid \"missing\"" },
	{ HEAD "<templates><template tid=\"t\">\n<data name=\"a\" inType=\"win:UInt32\" count=\"n\"/>\n"
	  "<data name=\"n\" inType=\"win:UInt16\"/>\n</template></templates>" TAIL, 7,
	  "neither a number nor an earlier field" },
	{ HEAD "<templates><template tid=\"t\">\n<data name=\"s\" inType=\"win:UnicodeString\"/>\n"
	  "<data name=\"a\" inType=\"win:UInt32\" count=\"s\"/>\n</template></templates>" TAIL, 8,
	  "is not a single integer" },
	{ HEAD "<templates><template tid=\"t\">\n<data name=\"b\" inType=\"win:Binary\"/>\n"
	  "</template></templates>" TAIL, 7, "win:Binary needs a length" },
	{ HEAD "<events>\n<event value=\"1\"/>\n<event value=\"1\" version=\"0\"/>\n</events>" TAIL, 8,
	  "already defined on line 7" },
	{ HEAD "<events>\n<event value=\"70000\"/>\n</events>" TAIL, 7, "not a number from 0 to 65535" },
	{ HEAD "<events>\n<event value=\"1\" level=\"win:Loud\"/>\n</events>" TAIL, 7,
	  "no level named \"win:Loud\"" },
	{ HEAD "<events>\n<event value=\"1\" keywords=\"A B\"/>\n</events>" TAIL, 7,
	  "no keyword named \"A\"" },
	{ HEAD "<events>\n<event value=\"1\" message=\"$(string.none)\"/>\n</events>" TAIL, 7,
	  "no such string in the string table" },
	{ HEAD "<templates><template tid=\"t\">\n<struct name=\"s\">\n<struct name=\"u\"/>\n"
	  "</struct></template></templates>" TAIL, 8, "structs do not nest" },
	{ HEAD "<templates><template tid=\"t\">\n<data name=\"a\" inType=\"win:UInt32\" map=\"m\"/>\n"
	  "</template></templates>" TAIL, 7, "no map named \"m\"" },
	{ "<?xml version=\"1.0\"?>\n<instrumentationManifest>\n<instrumentation><events>\n"
	  "<provider name=\"P\" guid=\"{1111-2222}\"/>\n</events></instrumentation></instrumentationManifest>",
	  4, "not a GUID" },
	{ "<?xml version=\"1.0\"?>\n<instrumentationManifest>\n<instrumentation><events>\n"
	  "<provider guid=\"{11111111-2222-3333-4444-555555555555}\"/>\n</events></instrumentation></instrumentationManifest>",
	  4, "<provider> has no name attribute" },
	{ "<?xml version=\"1.0\"?>\n<instrumentationManifest/>\n", 0, "no <provider>" },
	{ "", 1, "XML: no element found" },
	{ HEAD "<channels>\n<channel name=\"P/O\" isolation=\"Private\"/>\n</channels>" TAIL, 7,
	  "<channel name=\"P/O\">: isolation \"Private\" is not Application, System or Custom" },
	/* A channel keyword bit each, from bit 63 down: 8 at most. */
	{ HEAD "<channels><channel name=\"P/C0\" chid=\"c0\" type=\"Operational\"/><channel name=\"P/C1\" chid=\"c1\" type=\"Operational\"/><channel name=\"P/C2\" chid=\"c2\" type=\"Operational\"/><channel name=\"P/C3\" chid=\"c3\" type=\"Operational\"/><channel name=\"P/C4\" chid=\"c4\" type=\"Operational\"/><channel name=\"P/C5\" chid=\"c5\" type=\"Operational\"/><channel name=\"P/C6\" chid=\"c6\" type=\"Operational\"/><channel name=\"P/C7\" chid=\"c7\" type=\"Operational\"/><channel name=\"P/C8\" chid=\"c8\" type=\"Operational\"/></channels>" TAIL, 5, "provider P: 9 channels, 8 at most" },
};

TEST(malformed_manifests)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct etw_manifest_error err;
		struct etw_manifest *m = (void *)1;

		EXPECT_EQ(-EBADMSG, etw_manifest_parse(bad[i].xml, strlen(bad[i].xml),
							&m, &err)) TH_LOG("case %zu", i);
		EXPECT_EQ(NULL, m);
		EXPECT_EQ(bad[i].line, err.line) TH_LOG("case %zu: %s", i, err.message);
		EXPECT_NE(NULL, strstr(err.message, bad[i].says))
			TH_LOG("case %zu: \"%s\" does not say \"%s\"", i, err.message,
			       bad[i].says);
	}
}

TEST(missing_file)
{
	struct etw_manifest_error err;
	struct etw_manifest *m;

	EXPECT_EQ(-ENOENT, etw_manifest_read("testdata/manifests/none.man", &m, &err));
	EXPECT_EQ(NULL, m);
}

/* The test manifest with bytes changed: refused or read, never a crash. */
TEST(flipped_manifests)
{
	static char xml[16384], copy[16384];
	struct etw_manifest_error err;
	struct etw_manifest *m;
	int read_ok = 0, refused = 0;
	size_t n;
	FILE *f;

	f = fopen(TYPES_MAN, "r");
	ASSERT_NE(NULL, f);
	n = fread(xml, 1, sizeof(xml), f);
	fclose(f);
	ASSERT_LT(n, sizeof(xml));
	srand(18);
	for (int round = 0; round < 2000; round++) {
		int ret;

		memcpy(copy, xml, n);
		for (int k = 0; k < 1 + round % 4; k++)
			copy[rand() % n] = (char)(rand() % 128);
		ret = etw_manifest_parse(copy, n, &m, &err);
		if (!ret) {
			read_ok++;
			etw_manifest_free(m);
		} else {
			EXPECT_EQ(-EBADMSG, ret);
			EXPECT_NE(0, err.message[0]);
			refused++;
		}
	}
	EXPECT_LT(0, read_ok);
	EXPECT_LT(0, refused);
}

TEST_HARNESS_MAIN
