// SPDX-License-Identifier: GPL-2.0
/*
 * What etw dump shows of stacks: each StackWalk record's frames named as
 * far as the trace read so far allows (innermost first), and in the text
 * summary the CPU samples per process and per module.
 */
#include <stdlib.h>

#include "etw.h"
#include "model/stack.h"

struct stack_dump {
	struct stack_model *model;
	struct stack_samples *samples;
	struct sbuf tmp;
};

struct stack_dump *stack_dump_new(bool summary)
{
	struct stack_dump *sd = calloc(1, sizeof(*sd));

	if (!sd) {
		etw_error("dump: out of memory");
		exit(1);
	}
	sd->model = stack_model_new(NULL);
	/* Samples are counted (and their frames named) for --summary only. */
	if (summary)
		sd->samples = stack_samples_new(sd->model);
	return sd;
}

void stack_dump_free(struct stack_dump *sd)
{
	if (!sd)
		return;
	stack_samples_free(sd->samples);
	stack_model_free(sd->model);
	sb_free(&sd->tmp);
	free(sd);
}

void stack_dump_event(struct stack_dump *sd, const struct etw_etl_event *ev)
{
	stack_model_event(sd->model, ev);
	if (sd->samples)
		stack_samples_event(sd->samples, ev);
}

void stack_dump_annotate(struct stack_dump *sd, const struct etw_etl_event *ev,
			 struct kv_list *fields)
{
	struct rec_stack st;

	if (!(ev->has & ETW_ETL_HAS_HOOK) || ev->hook_id != HOOK_STACK_WALK ||
	    !stack_model_stack(sd->model, ev, &st))
		return;
	sb_reset(&sd->tmp);
	sb_put(&sd->tmp, "", 0);
	for (uint32_t i = 0; i < st.nframes; i++) {
		if (i)
			sb_put(&sd->tmp, " <- ", 4);
		stack_model_frame(sd->model, st.pid, rec_stack_frame(&st, i),
				  true, &sd->tmp);
	}
	kv_add(fields, "Frames", "Frames", false, "%s", sd->tmp.p);
	kv_finish(fields);
}

void stack_dump_summary(struct stack_dump *sd, const struct dump *d)
{
	if (!sd->samples)
		return;
	stack_samples_finish(sd->samples);
	if (d->fmt != &dump_text || !stack_samples_count(sd->samples))
		return;
	fputc('\n', d->out);
	stack_samples_print_summary(sd->samples, d->out);
}
