// SPDX-License-Identifier: GPL-2.0
/*
 * etw wpp's parsers on damaged input: the WPP sample's source and header
 * and the default configuration, cut short, with bytes changed and with
 * the characters that open quotes, comments, brackets and formats put in,
 * go through the scanner, the configuration parser, the formatter and both
 * writers in this process.  Each run either succeeds or reports an error;
 * none crashes or hangs (built again under ASan and UBSan, libetw/build.mk).
 * The undamaged input gives the sample's 12 messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "../../tools/wpp/wpp.h"

#ifdef __SANITIZE_ADDRESS__
/* The tool exits after an error: what an error path leaves is not a leak. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}
#endif

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	if (getdelim(&s, &cap, 0, f) < 0) {
		free(s);
		s = NULL;
	}
	fclose(f);
	return s;
}

/* The whole pipeline on one source (and header); 0 or -1. */
static int pipeline(const char *cfg_text, const char *header, const char *source, int *nmsgs)
{
	struct wpp_config cfg = { 0 };
	struct wpp_source src = { .path = "s.c" }, none = { 0 };
	struct wpp_tmf_opts to = { .friendly = "Fuzz" };
	struct wpp_tmh_opts ho = { 0 };
	struct wpp_buf tmf = { 0 }, tmh = { 0 };
	int ret;

	src.base = wpp_strdup("s.c");
	src.canon = wpp_strdup("s_c");
	src.msgname = wpp_strdup("s_c");
	ret = wpp_config_parse(&cfg, cfg_text, "defaultwpp.ini", 1);
	if (!ret)
		ret = wpp_config_func(&cfg, "DoTraceLevelMessage(LEVEL,FLAGS,MSG,...)", NULL);
	if (!ret)
		ret = wpp_scan(&cfg, "h.h", header, &none, false);
	if (!ret)
		ret = wpp_scan(&cfg, "s.c", source, &src, false);
	if (!ret)
		ret = wpp_scan(&cfg, "s.c", source, &src, true);
	for (int i = 0; !ret && i < src.nmsgs; i++)
		ret = wpp_format_msg(&cfg, &src, &src.msgs[i]);
	if (!ret) {
		wpp_tmf_text(&src, &cfg, &to, &tmf);
		wpp_tmh_text(&src, &cfg, tmf.s, &ho, &tmh);
	}
	*nmsgs = src.nmsgs;
	wpp_buf_free(&tmf);
	wpp_buf_free(&tmh);
	wpp_source_free(&src);
	wpp_config_free(&cfg);
	return ret;
}

static const char specials[] = "\"'()/*%!{},;\\\n#";

/* A copy of @s damaged the @i-th way. */
static char *damage(const char *s, unsigned int i, unsigned int *seed)
{
	size_t n = strlen(s);
	char *d = malloc(n + 64);
	size_t at = n ? (size_t)rand_r(seed) % n : 0;

	memcpy(d, s, n + 1);
	switch (i % 4) {
	case 0:					/* cut short */
		d[at] = 0;
		break;
	case 1:					/* bytes changed */
		for (int k = 0; k < 4; k++)
			d[(size_t)rand_r(seed) % (n ? n : 1)] = (char)(rand_r(seed) % 255 + 1);
		break;
	case 2:					/* a special character put in */
		memmove(d + at + 1, d + at, n - at + 1);
		d[at] = specials[(size_t)rand_r(seed) % (sizeof(specials) - 1)];
		break;
	default:				/* a config block opened */
		memmove(d + at + 20, d + at, n - at + 1);
		memcpy(d + at, "\n// begin_wpp config", 20);
		break;
	}
	return d;
}

FIXTURE(fuzz) {
	char *cfg, *header, *source;
};

FIXTURE_SETUP(fuzz)
{
	self->cfg = slurp("tools/wpp/defaultwpp.ini");
	self->header = slurp("examples/wpp/trace.h");
	self->source = slurp("examples/wpp/tracesample.c");
	ASSERT_NE(NULL, self->cfg);
	ASSERT_NE(NULL, self->header);
	ASSERT_NE(NULL, self->source);
}

FIXTURE_TEARDOWN(fuzz)
{
	free(self->cfg);
	free(self->header);
	free(self->source);
}

TEST_F(fuzz, undamaged)
{
	int n;

	ASSERT_EQ(0, pipeline(self->cfg, self->header, self->source, &n));
	EXPECT_EQ(12, n);
}

/* Slow under ASan on a loaded machine: a generous limit, a hang still fails. */
TEST_F_TIMEOUT(fuzz, damaged_inputs_give_results_or_errors, 600)
{
	unsigned int seed = 26;
	int saved = dup(2), errors = 0, n;

	/* The errors each damaged input gets are not this test's output. */
	freopen("/dev/null", "w", stderr);
	for (unsigned int i = 0; i < 3000; i++) {
		char *src = damage(self->source, i, &seed);
		char *hdr = damage(self->header, i + 1, &seed);
		char *cfg = i % 5 ? self->cfg : damage(self->cfg, i, &seed);

		errors += pipeline(cfg, i % 3 ? self->header : hdr, src, &n) != 0;
		free(src);
		free(hdr);
		if (cfg != self->cfg)
			free(cfg);
	}
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	/* Both outcomes happened: the damage reached the parsers. */
	EXPECT_LT(0, errors);
	EXPECT_GT(3000, errors);
}

TEST_HARNESS_MAIN
