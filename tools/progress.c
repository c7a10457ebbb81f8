// SPDX-License-Identifier: GPL-2.0
/*
 * Progress of long work (etw dump of a large file, etw record) on one
 * line of standard error, rewritten at most a few times a second and
 * cleared at the end.  Only when standard error is a terminal, so logs
 * and pipes never see it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "etw.h"

#define INTERVAL_NS	200000000LL

void progress_init(struct progress *p, const char *what, bool wanted)
{
	memset(p, 0, sizeof(*p));
	p->what = what;
	p->on = wanted && isatty(STDERR_FILENO);
	p->last = etw_now_ns() - INTERVAL_NS;	/* the first one at once */
}

void progress_show(struct progress *p, const char *fmt, ...)
{
	char line[160];
	long long t;
	va_list ap;
	int n;

	if (!p->on)
		return;
	t = etw_now_ns();
	if (t - p->last < INTERVAL_NS)
		return;
	p->last = t;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	fprintf(stderr, "\retw: %s: %s%*s", p->what, line,
		p->width > n ? p->width - n : 0, "");
	p->width = n;
	fflush(stderr);
}

void progress_done(struct progress *p)
{
	if (!p->on || !p->width)
		return;
	fprintf(stderr, "\r%*s\r", p->width + (int)strlen(p->what) + 7, "");
	fflush(stderr);
	p->width = 0;
}
