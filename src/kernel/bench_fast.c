// SPDX-License-Identifier: GPL-2.0
/*
 * The bench shim's state (bench_fast.h): the per-thread generator, RCU
 * nesting count and lock statistics, and the work per visit. Built into
 * bench/'s port libraries only, with -DMLF_SHIM_BENCH.
 */
#include "bench_fast.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__thread struct mlf_rng mlf_bench_rng = { MLF_RNG_GOLDEN };
__thread int mlf_bench_rcu_depth;
__thread struct mlf_bench_lock_stats mlf_bench_lock_stats;
u64 mlf_bench_visit_work;	/* MLF_SHIM_BENCH_WORK builds */
unsigned long mlf_bench_stats_period = 1;	/* MLF_SHIM_BENCH_STATS builds */

void mlf_bench_seed(u64 seed)
{
	mlf_bench_rng = mlf_rng_seeded(seed);
}

void mlf_bench_no_grace_period(const char *what)
{
	fprintf(stderr, "mlf bench shim: %s() called, but the bench shim has "
			"no grace periods (src/kernel/bench_fast.h)\n", what);
	abort();
}

u64 mlf_bench_clock_fallback(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void mlf_bench_lock_stats_collect(struct mlf_bench_lock_stats *sum)
{
	struct mlf_bench_lock_stats *s = &mlf_bench_lock_stats;

	sum->acquisitions += s->acquisitions;
	sum->contended += s->contended;
	sum->sampled += s->sampled;
	sum->wait_cycles += s->wait_cycles;
	sum->hold_cycles += s->hold_cycles;
	if (s->max_wait_cycles > sum->max_wait_cycles)
		sum->max_wait_cycles = s->max_wait_cycles;
	if (s->max_hold_cycles > sum->max_hold_cycles)
		sum->max_hold_cycles = s->max_hold_cycles;
	*s = (struct mlf_bench_lock_stats){ 0 };
}
