// SPDX-License-Identifier: GPL-2.0
/*
 * The logger's pace.  Asleep, the logger is woken by the kernel for its
 * watermark's worth of buffers, when the writers run low, or for what a
 * flush delivered.  A writer that wakes it from another CPU pays for the
 * wake-up on its buffer switch (try_to_wake_up(), an inter-processor
 * interrupt), and so does the woken CPU; a timer of the logger's own
 * expires on the CPU it sleeps on.  So once a wake-up has found buffers,
 * the logger looks again on its own timer, at a period that would find
 * about three quarters of its watermark at the rate the buffers came
 * since the last look: while the flow keeps that pace, the writers never
 * have to wake it.  The kernel's wake-ups stay armed all the while (the
 * watermark is not changed), so a flow that speeds up, writers running
 * low and flushes still wake it at once: the pace takes away wake-ups,
 * never margin.  A look that finds nothing, or a flow too slow to fill
 * three quarters of the watermark in LOGGER_PACE_MAX_NS, puts the logger
 * back to sleep until woken: an idle or slow session costs no timer and
 * keeps the watermark's batches.  This is LTTng's read timer, with the
 * writers' wake-up kept as the fallback.
 */
#include "logger_pace.h"

void logger_pace_watermark(struct logger_pace *p, unsigned int watermark)
{
	p->target = watermark > 1 ? watermark * 3 / 4 : 1;
}

void logger_pace_init(struct logger_pace *p, unsigned int watermark)
{
	logger_pace_watermark(p, watermark);
	p->last = 0;
	p->period = LOGGER_PACE_MAX_NS;
}

int logger_pace_timeout(const struct logger_pace *p, long long now)
{
	long long left;

	if (!p->last)
		return -1;
	left = p->last + p->period - now;
	if (left <= 0)
		return 0;
	/* Rounded up: poll() may return early, never before the look. */
	return (int)((left + 999999) / 1000000);
}

void logger_pace_found(struct logger_pace *p, unsigned int buffers, long long now)
{
	long long period = LOGGER_PACE_MAX_NS;

	/* Woken from sleep, the rate is not known yet: one look at most later. */
	if (buffers && p->last) {
		period = (now - p->last) * p->target / buffers;
		if (period < LOGGER_PACE_MIN_NS)
			period = LOGGER_PACE_MIN_NS;
	}
	if (!buffers || period > LOGGER_PACE_MAX_NS) {
		/* The flow stopped, or is slow: sleep until the kernel wakes us. */
		p->last = 0;
		return;
	}
	p->period = period;
	p->last = now;
}
