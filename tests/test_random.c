// SPDX-License-Identifier: GPL-2.0
/*
 * A long seeded-random run: ops drawn from a PRNG over a large pool and up
 * to four nodes, with every check and the model after every op (or, with
 * --full-every N, the cheap per-op checks every op and everything every N
 * ops). Any failure aborts with its check name. ctest runs a short version;
 * the full one is
 *
 *   test_random_<variant> --ops 1000000 --memcgs 1500 --nodes 4
 *
 * and it prints ops/s and the cost of one full check at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/world.h"
#include "kernel/prng.h"

static struct mlf_rng rng_state;

static u64 rng(void)
{
	return mlf_rng_next64(&rng_state);
}

static unsigned int below(unsigned int n)
{
	return mlf_rng_below(&rng_state, n);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Weights chosen so that the pool fills, memcgs die and are released
 * continually, and walks meet dead, protected, low and tail memcgs.
 */
static void random_op(struct mlf_op *op, int pool, int nodes)
{
	unsigned int r = below(100);
	int i;

	memset(op, 0, sizeof(*op));
	op->memcg = below(pool);
	op->node = below(nodes);
	op->nr_draws = nodes;
	for (i = 0; i < MLF_OP_MAX_DRAWS; i++)
		op->draws[i] = (u8)rng();

	if (r < 22) {
		op->kind = MLF_OP_ONLINE;
	} else if (r < 26) {
		op->kind = MLF_OP_OFFLINE;
	} else if (r < 28) {
		/* the callback alone: walks may run before its offline */
		op->kind = MLF_OP_CSS_OFFLINE;
	} else if (r < 33) {
		op->kind = MLF_OP_GET;
	} else if (r < 38) {
		op->kind = MLF_OP_PUT;
	} else if (r < 45) {
		op->kind = MLF_OP_RELEASE;
	} else if (r < 80) {
		op->kind = MLF_OP_ROTATE;
		op->rotate_op = 1 + below(4);
	} else if (r < 85) {
		op->kind = MLF_OP_SOFT;
		op->softirq = below(2);
	} else if (r < 97) {
		unsigned int flags = below(16);

		op->kind = MLF_OP_SET;
		op->below_min = (flags & 1) && !below(4);
		op->below_low = !!(flags & 2);
		op->success = !!(flags & 4);
		op->sizable = !!(flags & 8);
		op->nr_reclaimed = below(4);
	} else {
		op->kind = MLF_OP_RECLAIM;
		op->target = below(3) ? below(64) : 0;
		op->nr_draws = MLF_OP_MAX_DRAWS;
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: test_random [--ops N] [--memcgs P] [--nodes K] "
			"[--seed S] [--full-every N]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long ops = 20000, full_every = 0, i, applied;
	int memcgs = 300, nodes = 4;
	u64 seed = 1;
	struct mlf_world w;
	struct mlf_op op;
	double start, elapsed, check_start, check_cost;
	int a, reps;

	for (a = 1; a < argc; a++) {
		if (a + 1 >= argc)
			usage();
		if (!strcmp(argv[a], "--ops"))
			ops = strtoul(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--memcgs"))
			memcgs = atoi(argv[++a]);
		else if (!strcmp(argv[a], "--nodes"))
			nodes = atoi(argv[++a]);
		else if (!strcmp(argv[a], "--seed"))
			seed = strtoull(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--full-every"))
			full_every = strtoul(argv[++a], NULL, 0);
		else
			usage();
	}
	if (memcgs < 1 || memcgs > MLF_MAX_POOL || nodes < 1 ||
	    nodes > MAX_NUMNODES)
		usage();

	rng_state = mlf_rng_seeded(seed);
	world_init(&w, nodes, memcgs);
	/* default: everything after every op; --full-every N: the schedule */
	w.full_checks = !full_every;
	if (full_every)
		w.full_check_interval = full_every;

	/* start full: 1500 memcgs onlined, as in the seed's benchmark */
	memset(&op, 0, sizeof(op));
	op.kind = MLF_OP_ONLINE;
	op.nr_draws = 1;
	for (a = 0; a < memcgs; a++) {
		op.memcg = a;
		op.draws[0] = (u8)rng();
		world_apply(&w, &op);
	}

	start = now();
	for (i = 0; i < ops; i++) {
		random_op(&op, memcgs, nodes);
		world_apply(&w, &op);
	}
	elapsed = now() - start;
	world_check_all(&w);

	reps = 20;
	check_start = now();
	for (a = 0; a < reps; a++)
		world_check_all(&w);
	check_cost = (now() - check_start) / reps;

	applied = w.ops_applied;
	printf("variant %s: %lu ops (%lu applied, %lu skipped) on %d memcgs, "
	       "%d nodes in %.2f s: %.0f ops/s; %lu walks\n",
	       MLF_VARIANT_NAME, ops, applied - memcgs, w.ops_skipped, memcgs,
	       nodes, elapsed, ops / elapsed, w.walks);
	printf("one full check (structure + model, all nodes): %.1f us\n",
	       check_cost * 1e6);
	world_destroy(&w);
	if (w.walks == 0 || applied <= (unsigned long)memcgs) {
		printf("0 passed, 1 failed: the run exercised nothing\n");
		return 1;
	}
	printf("1 passed, 0 failed\n");
	return 0;
}
