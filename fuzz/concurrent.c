// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target concurrent: writers and RCU readers on the port at once,
 * run by the deterministic scheduler (src/harness/sched_engine.h): the
 * input chooses the set-up, each task's ops and the interleaving (the
 * byte format: concurrent_codec.h), so a failure replays every time, in every
 * build. A failure prints the input's trace (concurrent_trace.h) around the
 * failing op, the ops the other tasks were in, the schedule's decisions
 * with the step each falls on, the weak choices with the weak choice point
 * each falls on, then the engine prints the schedule's last steps.
 * MLF_SCHED_SHOW=N shows a run that passes: its counts and its last N
 * steps (up to 512), to read what a seed or a reproducer does on a
 * variant where it does not fail. MLF_SCHED_TIMELINE=1 adds, to either,
 * the whole run as spans, one per stretch of steps a task ran in one op,
 * each with how it ended (preempted, blocks, op done): the interleaving
 * a reproducer's trace opens with (tools/mlf replay --timeline).
 *
 * The memory model is the weak one after the LKMM (kernel/wmm.h), whose
 * choices the input's weak records make; MLF_MEMORY_MODEL=sc runs every
 * input sequentially consistent instead (tools/mlf --memory-model), weak
 * records unused.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "engine_counters.h"
#include "kernel/report.h"
#include "kernel/schedule.h"
#include "concurrent_codec.h"
#include "concurrent_trace.h"

/* ops and decisions shown before and after the failing one */
#define CONTEXT_BEFORE 8
#define CONTEXT_AFTER 4

static struct sched_input input;
static struct sched_stats stats;

/*
 * The op task @t is in (or last ran), or -1. Read on the failing task's
 * fiber, of what @t wrote on its own: the harness's bookkeeping, which
 * no reads-from of the memory model orders, so not ThreadSanitizer's.
 */
MLF_NO_TSAN static long op_of_task(int t)
{
	long op;

	if (t >= mlf_sched_nr_tasks())
		return -1;
	op = mlf_sched_task_at(t)->op;
	/* a task's op is one of its own: anything else is not this run's */
	if (op < 0 || op >= input.nr_ops || input.ops[op].task != t)
		return -1;
	return op;
}

static void print_ops(long at)
{
	long from, to, i;
	int t;

	if (at < 0 || at >= input.nr_ops) {
		/* not inside an op (e.g. quiescence): show how the input ended */
		fprintf(stderr, "trace (failure outside an op), last ops:\n");
		at = input.nr_ops;
	} else {
		fprintf(stderr, "trace around op %ld (of %d), t%u's:\n", at,
			input.nr_ops, input.ops[at].task);
	}
	fprintf(stderr, "  " MLF_SCHED_TRACE_MAGIC "\n  nodes %d pool %d\n  ",
		input.nr_nodes, input.pool_size);
	mlf_sched_trace_print_run(stderr, &input);
	fputc('\n', stderr);
	from = at > CONTEXT_BEFORE ? at - CONTEXT_BEFORE : 0;
	to = at + CONTEXT_AFTER < input.nr_ops ? at + CONTEXT_AFTER :
						 input.nr_ops - 1;
	if (from)
		fprintf(stderr, "  # ... %ld op%s before\n", from,
			from == 1 ? "" : "s");
	for (i = from; i <= to; i++) {
		char mark = i == at ? '>' : ' ';

		/* '*': the op another task is in */
		for (t = 0; mark == ' ' && t < mlf_sched_nr_tasks(); t++)
			if (op_of_task(t) == i)
				mark = '*';
		fprintf(stderr, "%c ", mark);
		mlf_sched_trace_print_op(stderr, &input, i);
		fputc('\n', stderr);
	}
	if (to + 1 < input.nr_ops)
		fprintf(stderr, "  # ... %ld op%s after\n", input.nr_ops - to - 1,
			input.nr_ops - to - 1 == 1 ? "" : "s");
}

/*
 * The decisions, each with the step it falls on (decision i after the
 * sum of the delays up to it); those around the last one reached.
 */
static void print_decisions(void)
{
	unsigned long now = mlf_sched_step(), step = 0;
	long last = -1, from, to, i;

	if (!input.nr_decisions) {
		fprintf(stderr, "schedule: no decisions (%s)\n",
			input.policy == MLF_SCHED_PCT ?
				"PCT, priorities from the seed only" :
				"each task runs until it blocks or ends");
		return;
	}
	for (i = 0; i < input.nr_decisions; i++) {
		step += input.decisions[i].delay;
		if (step <= now)
			last = i;
	}
	fprintf(stderr, "schedule: %d decision%s, %ld reached by step %lu:\n",
		input.nr_decisions, input.nr_decisions == 1 ? "" : "s",
		last + 1, now);
	from = last > CONTEXT_BEFORE ? last - CONTEXT_BEFORE : 0;
	to = last + CONTEXT_AFTER < input.nr_decisions ?
		     last + CONTEXT_AFTER :
		     input.nr_decisions - 1;
	if (from)
		fprintf(stderr, "  # ... %ld before\n", from);
	for (step = 0, i = 0; i <= to; i++) {
		step += input.decisions[i].delay;
		if (i < from)
			continue;
		fprintf(stderr, "  ");
		mlf_sched_trace_print_decision(stderr, &input, i);
		fprintf(stderr, "  # step %lu%s\n", step,
			step > now ? ", not reached" : "");
	}
	if (to + 1 < input.nr_decisions)
		fprintf(stderr, "  # ... %ld after\n", input.nr_decisions - to - 1);
}

/* The weak choices, each with the weak choice point it falls on. */
static void print_weak(void)
{
	unsigned long now = mlf_sched_weak_points(), at = 0;
	long i, reached = 0;

	if (input.memory_model != MLF_MM_LKMM) {
		fprintf(stderr, "memory model: sc (MLF_MEMORY_MODEL)%s\n",
			input.nr_weak ? ", weak choices unused" : "");
		return;
	}
	for (i = 0; i < input.nr_weak; i++) {
		at += input.weak[i].delay;
		if (at <= now)
			reached++;
	}
	fprintf(stderr, "memory model: lkmm, %lu weak choice points passed, %d weak choice%s, %ld reached%s\n",
		now, input.nr_weak, input.nr_weak == 1 ? "" : "s", reached,
		input.nr_weak ? ":" : " (every load read the newest store)");
	for (at = 0, i = 0; i < input.nr_weak && i < reached + CONTEXT_AFTER;
	     i++) {
		at += input.weak[i].delay;
		if (i + CONTEXT_BEFORE < reached)
			continue;
		fprintf(stderr, "  ");
		mlf_sched_trace_print_weak(stderr, &input, i);
		fprintf(stderr, "  # weak point %lu%s\n", at,
			at > now ? ", not reached" : "");
	}
}

/* the kernel function of the code under test each op runs (none: NULL) */
static const char *const sop_kernel_functions[SOP_NR] = {
	[SOP_ONLINE] = "lru_gen_online_memcg",
	[SOP_OFFLINE] = "mem_cgroup_css_offline",
	[SOP_RELEASE] = "mem_cgroup_css_released",
	[SOP_ROTATE] = "lru_gen_rotate_memcg",
	[SOP_SOFT] = "lru_gen_soft_reclaim",
	[SOP_RECLAIM] = "shrink_many",
};

/* A timeline span's op: its index and trace line, if it is the task's. */
static void print_span_op(FILE *f, int task, long op)
{
	char line[256];
	const char *text;
	FILE *m;

	if (op < 0 || op >= input.nr_ops || input.ops[op].task != task) {
		fprintf(f, "op -  %-34s", task == MLF_SCHED_RCU_TASK ?
				"(grace periods, callbacks)" : "(between ops)");
		return;
	}
	/* the op's trace line without its task, which the span names */
	line[0] = 0;
	m = fmemopen(line, sizeof(line), "w");
	if (m) {
		mlf_sched_trace_print_op(m, &input, op);
		fclose(m);
	}
	text = strchr(line, ' ') ? strchr(line, ' ') + 1 : line;
	fprintf(f, "op %-2ld %-34s", op, text);
}

static void print_context(void)
{
	long at = mlf_current_op;

	if (at >= 0 && at < input.nr_ops && input.ops[at].kind < SOP_NR)
		mlf_print_tree_where(sop_kernel_functions[input.ops[at].kind]);
	print_ops(at);
	print_decisions();
	print_weak();
	mlf_sched_print_timeline(print_span_op);
}

/* MLF_MEMORY_MODEL: lkmm (or unset) or sc; anything else is an error. */
static enum mlf_memory_model memory_model(void)
{
	const char *env = getenv("MLF_MEMORY_MODEL");

	if (!env || !*env || !strcmp(env, "lkmm"))
		return MLF_MM_LKMM;
	if (!strcmp(env, "sc"))
		return MLF_MM_SC;
	fprintf(stderr, "concurrent: MLF_MEMORY_MODEL=%s: not lkmm or sc\n",
		env);
	exit(2);
}

/* MLF_SCHED_SHOW: what the run did */
static void show_run(int nr_steps)
{
	const struct mlf_sched_stats *s = &stats.sched;

	fprintf(stderr,
		"run: %lu steps, %lu switches (%lu preemptions), %lu decisions taken, %lu grace periods, %lu callbacks; %lu ops done, %lu skipped; %lu walks, %lu visits, %lu restarts, %lu critical sections checked; %s: %lu weak choice points, %lu weak choices taken, %lu loads read an older store\n",
		s->steps, s->switches, s->preemptions, s->decisions,
		s->grace_periods, s->callbacks, stats.ops, stats.skipped,
		stats.walks, stats.visits, stats.restarts, stats.sections,
		input.memory_model == MLF_MM_LKMM ? "lkmm" : "sc",
		s->weak_choices, s->weak_decisions, s->stale_reads);
	mlf_sched_print_recent(nr_steps);
	mlf_sched_print_timeline(print_span_op);
}

/*
 * A sanitizer ends the run (ThreadSanitizer's data race, under
 * halt_on_error): with MLF_SCHED_TIMELINE, the run's timeline up to the
 * report, whose last span is the task that made the access (replay_main.c
 * calls this from its death callback).
 */
void mlf_on_sanitizer_death(void);
void mlf_on_sanitizer_death(void)
{
	if (getenv("MLF_SCHED_TIMELINE"))
		mlf_sched_print_timeline(print_span_op);
}

/*
 * The scheduler's interleaving feedback (kernel/schedule.c): libFuzzer
 * reads this section after every input as it reads its edge counters.
 */
static unsigned char sched_feedback[4096]
	__attribute__((section("__libfuzzer_extra_counters"), used));

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *show = getenv("MLF_SCHED_SHOW");
	static enum mlf_memory_model model;
	static bool attached;

	if (!attached) {
		mlf_sched_feedback_attach(sched_feedback,
					  sizeof(sched_feedback));
		model = memory_model();
		mlf_sched_keep_timeline(getenv("MLF_SCHED_TIMELINE") != NULL);
		attached = true;
	}
	mlf_sched_decode(data, size, &input);
	input.memory_model = model;
	sched_engine_context(print_context);
	memset(&stats, 0, sizeof(stats));
	sched_engine_run(&input, &stats);
	if (show)
		show_run(atoi(show));
	mlf_engine_counters_done();
	return 0;
}
