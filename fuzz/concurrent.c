// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target concurrent: writers and RCU readers on the port at once,
 * run by the deterministic scheduler (src/harness/sched_engine.h): the
 * input chooses the set-up, each task's ops and the interleaving (the
 * byte format: sched_codec.h), so a failure replays every time, in every
 * build. A failure prints the input's trace around the failing op and
 * the schedule's last steps.
 */
#include <stdint.h>
#include <stdio.h>

#include "context.h"
#include "kernel/report.h"
#include "sched_codec.h"

static struct sched_input input;
static struct sched_stats stats;

static const char *const policy_names[] = {
	[MLF_SCHED_INPUT] = "input", [MLF_SCHED_PCT] = "pct",
	[MLF_SCHED_EXPLORE] = "explore",
};

static void print_header(FILE *out)
{
	fprintf(out,
		"nodes %d pool %d writers %d readers %d initial %d policy %s seed %u\n",
		input.nr_nodes, input.pool_size, input.nr_writers,
		input.nr_readers, input.nr_initial, policy_names[input.policy],
		input.seed);
}

static void print_op(FILE *out, size_t i)
{
	const struct sched_op *op = &input.ops[i];

	fprintf(out, "t%d %s", op->task, sched_op_name(op->kind));
	if (op->kind == SOP_RECLAIM)
		fprintf(out, " n%d target=%d", op->node, op->target);
	else if (op->kind != SOP_DROP && op->kind != SOP_RELEASE)
		fprintf(out, " m%d n%d arg=%d", op->slot, op->node, op->arg);
	else if (op->kind == SOP_RELEASE)
		fprintf(out, " m%d", op->slot);
}

static void print_context(void)
{
	int i;

	mlf_print_trace_context(mlf_current_op, input.nr_ops, 8, print_header,
				print_op);
	for (i = 0; i < input.nr_decisions; i++)
		fprintf(stderr, "  switch after %d to t%d\n",
			input.decisions[i].delay, input.decisions[i].task);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	mlf_sched_decode(data, size, &input);
	sched_engine_context(print_context);
	sched_engine_run(&input, &stats);
	return 0;
}
