/* SPDX-License-Identifier: GPL-2.0 */
/*
 * When the logger looks for buffers while they flow: on a timer of its
 * own rather than woken by the writers (tools/cmd/logger_pace.c).
 */
#ifndef ETW_TOOL_LOGGER_PACE_H
#define ETW_TOOL_LOGGER_PACE_H

/* The bounds of the period between two looks, ns. */
#define LOGGER_PACE_MIN_NS	1000000LL	/* poll()'s resolution */
#define LOGGER_PACE_MAX_NS	100000000LL	/* the first look, and slower flows */

struct logger_pace {
	unsigned int target;	/* buffers a look should find */
	long long last;		/* the last look, ns; 0: asleep until woken */
	long long period;	/* ns from one look to the next */
};

/* Start asleep, for a logger the kernel wakes for @watermark buffers. */
void logger_pace_init(struct logger_pace *p, unsigned int watermark);

/* The watermark changed (ControlTrace UPDATE): aim at the new one. */
void logger_pace_watermark(struct logger_pace *p, unsigned int watermark);

/* poll()'s timeout at @now: ms to the next look, or -1 (until woken). */
int logger_pace_timeout(const struct logger_pace *p, long long now);

/* A look at @now found @buffers (woken or on the timer). */
void logger_pace_found(struct logger_pace *p, unsigned int buffers, long long now);

#endif
