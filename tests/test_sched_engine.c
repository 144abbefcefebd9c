// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduled concurrent engine on many pseudo-random inputs (ops and
 * schedule decisions from a seeded PRNG, both policies): a correct variant
 * must pass every check of every run, and the same input must give the
 * same run (the same steps, switches and sections) twice. First, one
 * handcrafted input: the kernel's window in offline_css(), between the
 * css_offline callback and CSS_ONLINE cleared, must be reachable by some
 * schedule (offline_window()). ctest runs a short version; the long one is
 *
 *   test_sched_engine_<variant> --inputs 100000 --seed N
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/sched_engine.h"

static u64 rng_state;

static u64 rng(void)
{
	u64 x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return x;
}

static unsigned int below(unsigned int n)
{
	return (unsigned int)(rng() % n);
}

static void random_input(struct sched_input *in)
{
	int i;

	memset(in, 0, sizeof(*in));
	in->nr_nodes = 1 + below(2);
	in->pool_size = 1 + below(8);
	in->nr_writers = 1 + below(SCHED_MAX_WRITERS);
	in->nr_readers = 1 + below(SCHED_MAX_READERS);
	in->nr_initial = below(in->pool_size + 1);
	in->policy = below(2) ? MLF_SCHED_PCT : MLF_SCHED_INPUT;
	in->seed = (u32)rng();
	in->nr_ops = 1 + below(24);
	for (i = 0; i < in->nr_ops; i++) {
		struct sched_op *op = &in->ops[i];

		op->task = below(in->nr_writers + in->nr_readers);
		op->kind = below(SOP_RECLAIM);
		op->slot = below(in->pool_size);
		op->node = below(in->nr_nodes);
		op->arg = (u8)rng();
		op->target = below(4) ? 0 : below(8);
		op->bin = below(2) ? 0 : 1 + below(8);
	}
	in->nr_decisions = below(12);
	for (i = 0; i < in->nr_decisions; i++) {
		in->decisions[i].delay = 1 + below(below(2) ? 8 : 64);
		in->decisions[i].task = (u8)below(8);
	}
}

/*
 * A writer sets m0 to succeed, rotates it YOUNG and offlines it; a reader
 * walks the old generation (m1 keeps it from emptying). The reader can meet
 * m0 there only after the css_offline callback moved it OLD; the kernel
 * clears CSS_ONLINE only after the callback, so some switch point lets the
 * reader's shrink_one() see m0 online and send it back YOUNG. Try every
 * point of the writer's run for the switch: at least one must show it, and
 * every run must pass every check. (With CSS_ONLINE cleared first, as the
 * port once had it, none does.)
 */
static int offline_window(void)
{
	static struct sched_input in;
	unsigned long hits = 0, runs = 0;
	int delay;

#ifndef MLF_TREE_HAS_OFFLINE_OLD
	printf("offline window: skipped: the tree's offline callback does not rotate to "
	       "MEMCG_LRU_OLD\n");
	return 0;
#endif
	for (delay = 1; delay <= 400; delay++) {
		struct sched_stats st = { 0 };

		memset(&in, 0, sizeof(in));
		in.nr_nodes = 1;
		in.pool_size = 2;
		in.nr_writers = 1;
		in.nr_readers = 1;
		in.nr_initial = 2;
		in.policy = MLF_SCHED_INPUT;
		in.seed = 7;
		in.nr_ops = 4;
		in.ops[0] = (struct sched_op){ .task = 0, .kind = SOP_SET,
					      .slot = 0,
					      .arg = SOP_SHRINK_SUCCESS };
		in.ops[1] = (struct sched_op){ .task = 0, .kind = SOP_ROTATE,
					      .slot = 0, .arg = 3 /* YOUNG */ };
		in.ops[2] = (struct sched_op){ .task = 0, .kind = SOP_OFFLINE,
					      .slot = 0 };
		in.ops[3] = (struct sched_op){ .task = 1, .kind = SOP_RECLAIM };
		/* the writer first, then after @delay points the reader */
		in.nr_decisions = 2;
		in.decisions[0] = (struct mlf_sched_decision){ 1, 0 };
		in.decisions[1] = (struct mlf_sched_decision){ delay, 1 };
		sched_engine_run(&in, &st);
		runs++;
		hits += st.young_in_offline_window;
	}
	printf("offline window: %lu of %lu schedules send the offlining memcg back YOUNG\n",
	       hits, runs);
	if (!hits) {
		fprintf(stderr,
			"no schedule puts a walk between the css_offline callback and CSS_ONLINE cleared\n");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long inputs = 300, n;
	static struct sched_input in;
	struct sched_stats a = { 0 };
	u64 seed = 1;
	int i;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--inputs"))
			inputs = strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoull(argv[i + 1], NULL, 0);
	}
	if (offline_window())
		return 1;
	rng_state = seed ? seed : 1;
	for (n = 0; n < inputs; n++) {
		random_input(&in);
		sched_engine_run(&in, &a);
		if (n % 16 == 0) {
			struct sched_stats again = { 0 };

			/* the same input, the same run */
			sched_engine_run(&in, &again);
			if (again.sched.steps != a.sched.steps ||
			    again.sched.switches != a.sched.switches ||
			    again.sched.decisions != a.sched.decisions) {
				fprintf(stderr,
					"input %lu ran twice differently: steps %lu/%lu switches %lu/%lu\n",
					n, a.sched.steps, again.sched.steps,
					a.sched.switches, again.sched.switches);
				return 1;
			}
		}
	}
	printf("sched_engine: %lu inputs, %lu ops (%lu skipped), %lu walks, %lu visits, %lu restarts, %lu sections checked, %lu steps\n",
	       inputs, a.ops, a.skipped, a.walks, a.visits, a.restarts,
	       a.sections, a.steps_total);
	return 0;
}
