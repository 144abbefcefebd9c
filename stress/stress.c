// SPDX-License-Identifier: GPL-2.0
/*
 * The stress binary, in the liburcu tradition: R readers run shrink_many()
 * back to back while W writers put memcgs through their life (online,
 * offline, release, rotate, soft reclaim, hold and drop references) for S
 * seconds, with the real liburcu underneath. The run is cut into rounds;
 * after each one the threads stop and every structure check runs
 * (src/harness/stress.c), then the same memcgs go on. Prints one
 * summary line; a failure prints its report and the line, then aborts.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/stress.h"
#include "kernel/prng.h"

static struct stress_config config = {
	.nr_nodes = 1,
	.pool_size = 1500,
	.nr_writers = 4,
	.nr_readers = 4,
	.yield_every = 0,
	.seed = 1,
};
static double run_seconds = 10, round_seconds = 1;
static double started;
static int nr_rounds;
static u64 round_end_ns;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void summary(int failures)
{
	struct stress_stats s;

	stress_stats_read(&s);
	printf("mlf stress: variant=%s readers=%d writers=%d memcgs=%d nodes=%d "
	       "time=%.1fs rounds=%d ops=%lu skipped=%lu walks=%lu visits=%lu "
	       "restarts=%lu reader_releases=%lu releases=%lu frees=%lu "
	       "failures=%d\n",
	       MLF_VARIANT_NAME, config.nr_readers, config.nr_writers,
	       config.pool_size, config.nr_nodes, now() - started, nr_rounds,
	       s.ops, s.skipped, s.walks, s.visits, s.restarts,
	       s.reader_releases, s.releases, s.frees, failures);
	fflush(stdout);
}

static void on_failure(const struct mlf_failure *f)
{
	mlf_print_failure(f);
	fflush(stderr);
	summary(1);
	abort();
}

/* The op mix; each thread has its own generator (the port's draws too). */
static void writer_op(struct mlf_rng *g, struct stress_op *op)
{
	static const u8 mix[32] = {
		STRESS_ONLINE,  STRESS_ONLINE,  STRESS_ONLINE,  STRESS_OFFLINE,
		STRESS_OFFLINE, STRESS_OFFLINE, STRESS_RELEASE, STRESS_RELEASE,
		STRESS_RELEASE, STRESS_ROTATE,  STRESS_ROTATE,  STRESS_ROTATE,
		STRESS_ROTATE,  STRESS_ROTATE,  STRESS_ROTATE,  STRESS_ROTATE,
		STRESS_ROTATE,  STRESS_SOFT,    STRESS_SOFT,	  STRESS_SOFT,
		STRESS_SET,     STRESS_SET,	    STRESS_SET,	  STRESS_HOLD,
		STRESS_HOLD,    STRESS_DROP,    STRESS_DROP,	  STRESS_DROP,
		STRESS_YIELD,   STRESS_ROTATE,  STRESS_ONLINE,  STRESS_OFFLINE,
	};
	u64 r = mlf_rng_next64(g);

	op->kind = mix[r & 31];
	op->slot = (r >> 8) % config.pool_size;
	op->node = (r >> 24) % config.nr_nodes;
	op->arg = r >> 32;
	if (op->kind == STRESS_YIELD)
		op->arg |= 1;
}

static void reader_op(struct mlf_rng *g, struct stress_op *op)
{
	u64 r = mlf_rng_next64(g);

	op->kind = (r & 15) ? STRESS_RECLAIM : STRESS_YIELD;
	op->node = (r >> 8) % config.nr_nodes;
	/* half of the walks go all the way, half stop after a few pages */
	op->target = (r >> 16) & 1 ? 0 : 1 + (r >> 17) % 64;
	op->arg = 1;
}

static void job(int thread, enum stress_role role, void *arg)
{
	struct mlf_rng g = mlf_rng_seeded((config.seed + 1) * MLF_RNG_GOLDEN +
					   thread * 7919 + nr_rounds);
	struct stress_op op = { 0 };
	unsigned long n;

	(void)arg;
	for (n = 0;; n++) {
		if (!(n & 15) &&
		    now_ns() >= __atomic_load_n(&round_end_ns, __ATOMIC_RELAXED))
			break;
		if (role == STRESS_WRITER)
			writer_op(&g, &op);
		else
			reader_op(&g, &op);
		stress_apply(thread, &op);
	}
}

static void usage(void)
{
	fprintf(stderr,
		"usage: mlf_stress [--readers R] [--writers W] [--memcgs N] [--nodes K]\n"
		"                  [--time S] [--round S] [--seed X] [--yield N] [--no-pool]\n"
		"  R readers run shrink_many() while W writers online, offline, release,\n"
		"  rotate and soft-reclaim N memcgs on K nodes for S seconds; every\n"
		"  structure check runs after each round of --round seconds (default 1).\n"
		"  --yield N: cond_resched() yields every Nth call.\n");
	exit(2);
}

static double arg_num(int argc, char **argv, int *i)
{
	char *end;
	double v;

	if (*i + 1 >= argc)
		usage();
	v = strtod(argv[++*i], &end);
	if (*end || v < 0)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--readers"))
			config.nr_readers = arg_num(argc, argv, &i);
		else if (!strcmp(argv[i], "--writers"))
			config.nr_writers = arg_num(argc, argv, &i);
		else if (!strcmp(argv[i], "--memcgs"))
			config.pool_size = arg_num(argc, argv, &i);
		else if (!strcmp(argv[i], "--nodes"))
			config.nr_nodes = arg_num(argc, argv, &i);
		else if (!strcmp(argv[i], "--time"))
			run_seconds = arg_num(argc, argv, &i);
		else if (!strcmp(argv[i], "--round"))
			round_seconds = arg_num(argc, argv, &i);
		else if (!strcmp(argv[i], "--seed"))
			config.seed = arg_num(argc, argv, &i);
		else if (!strcmp(argv[i], "--yield"))
			config.yield_every = arg_num(argc, argv, &i);
		else if (!strcmp(argv[i], "--no-pool"))
			stress_set_pool(false);
		else
			usage();
	}
	if (config.nr_readers + config.nr_writers < 1 ||
	    config.nr_readers + config.nr_writers > STRESS_MAX_THREADS ||
	    config.pool_size < 1 || config.pool_size > MLF_MAX_POOL ||
	    config.nr_nodes < 1 || config.nr_nodes > MAX_NUMNODES ||
	    round_seconds <= 0)
		usage();
	config.nr_initial = config.pool_size;
	/* a round must end within this, checks included */
	config.deadline_s = round_seconds + 60;

	mlf_set_fail_handler(on_failure);
	started = now();
	stress_setup(&config);
	do {
		double left = run_seconds - (now() - started);

		if (left > round_seconds)
			left = round_seconds;
		round_end_ns = now_ns() + (u64)(left > 0 ? left * 1e9 : 0);
		stress_run(job, NULL);
		nr_rounds++;
		stress_check();
	} while (now() - started < run_seconds);
	stress_teardown();
	summary(0);
	return 0;
}
