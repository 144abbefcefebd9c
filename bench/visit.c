// SPDX-License-Identifier: GPL-2.0
/*
 * Where the nanoseconds of one visit go: a visit is what shrink_many() does
 * per memcg when every memcg is empty (tryget, shrink_one(), put, and the
 * rotation under the node lock). This times a whole visit in its loop (one
 * reclaimer, shrink_many() over N memcgs) and then each kernel API the visit
 * calls, alone in a loop of its own, as the port calls it: the same source
 * is built against the checked shim, the bench shim (with and without lock
 * statistics; --stats-period N times one hold in N) and the floor
 * (bench/CMakeLists.txt), so the rows show what each layer costs per call.
 *
 * A piece timed alone runs hot in the caches and the branch predictors, and
 * pieces overlap in the pipeline when they run together, so the pieces do
 * not add up to the visit exactly; the difference is shown as the rest (the
 * port's own code: the list moves, shrink_one(), the walk).
 *
 * Prints one JSON object: ns per call of each piece (the best of --repeat
 * runs, less the empty loop's) and ns per visit.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* sched_setaffinity() */
#endif
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mm/vmscan.h"

#if defined(MLF_FLOOR)
#define SHIM_NAME "floor"
#define bench_seed(s) mlf_floor_seed(s)
#elif defined(MLF_SHIM_BENCH_STATS)
#define SHIM_NAME "stats"
#define bench_seed(s) mlf_bench_seed(s)
#elif defined(MLF_SHIM_BENCH)
#define SHIM_NAME "fast"
#define bench_seed(s) mlf_bench_seed(s)
#else
#define SHIM_NAME "checked"
#define bench_seed(s) mlf_entropy_seed(s)
#endif

#ifndef barrier
#define barrier() __asm__ __volatile__("" ::: "memory")
#endif

static struct pglist_data node;
static struct mem_cgroup *probe_memcg;
static spinlock_t the_lock;
static volatile u32 sink;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Each piece: a loop of @n calls; returns ns per iteration. */
#define PIECE(name, setup, body, teardown)                          \
	static __attribute__((noinline)) double piece_##name(long n) \
	{                                                           \
		double t0;                                          \
		long i;                                             \
		setup;                                              \
		t0 = now_ns();                                      \
		for (i = 0; i < n; i++) {                           \
			body;                                       \
			barrier();                                  \
		}                                                   \
		t0 = (now_ns() - t0) / n;                           \
		teardown;                                           \
		return t0;                                          \
	}

PIECE(empty, , , )

/* spin_lock_irqsave() + spin_unlock_irqrestore(): one rotation's lock */
PIECE(lock, unsigned long flags = 0,
      spin_lock_irqsave(&the_lock, flags);
      spin_unlock_irqrestore(&the_lock, flags), (void)flags)

/* lru_gen_del_memcg() and lru_gen_add_memcg() each assert the lock */
PIECE(lockdep, unsigned long flags = 0; spin_lock_irqsave(&the_lock, flags),
      lockdep_assert_held(&the_lock); lockdep_assert_held(&the_lock),
      spin_unlock_irqrestore(&the_lock, flags))

/* the rotation's bin */
PIECE(draw, u32 acc = 0, acc += get_random_u32_below(MEMCG_NR_BINS),
      sink = acc)

/* shrink_many() leaves the read side around shrink_one() */
PIECE(rcu, rcu_read_lock(), rcu_read_unlock(); barrier(); rcu_read_lock(),
      rcu_read_unlock())

/* mem_cgroup_tryget() and mem_cgroup_put() of the cursor */
PIECE(ref, bool ok = true,
      ok &= mem_cgroup_tryget(probe_memcg); mem_cgroup_put(probe_memcg),
      sink = ok)

/* lru_gen_rotate_memcg()'s VM_WARN_ON_ONCE() */
PIECE(warn, struct lruvec *lruvec = get_lruvec(probe_memcg, 0),
      VM_WARN_ON_ONCE(hlist_nulls_unhashed(&lruvec->lrugen.list)),
      (void)lruvec)

/* shrink_one()'s tracepoint (the others fire once per bin or walk) */
PIECE(trace, , trace_mlf_walk(MLF_WALK_VISIT, probe_memcg, 0), )

/* p1-5 and later: a scheduling point per visit */
PIECE(resched, , cond_resched_tasks_rcu_qs(), )

#if !defined(MLF_SHIM_BENCH) && !defined(MLF_FLOOR)
/* the checked shim's lock with its clock_gettime() statistics on */
PIECE(lock_stats, unsigned long flags = 0; mlf_lock_stats_enable(true),
      spin_lock_irqsave(&the_lock, flags);
      spin_unlock_irqrestore(&the_lock, flags),
      mlf_lock_stats_enable(false);
      struct mlf_lock_stats s = { 0 }; mlf_lock_stats_collect(&s))
#endif

/* The whole visit: shrink_many() passes for @seconds; ns per visit. */
static double visit_ns(double seconds, unsigned long *visits_out)
{
	unsigned long visits = 0;
	double t0 = now_ns(), t;
	int priority = 12;

	do {
		struct scan_control sc = { .priority = priority, .proactive = 1 };

		mlf_shrink_many(&node, &sc);
		visits += sc.nr_scanned;
		priority = priority ? priority - 1 : 12;
		t = now_ns();
	} while (t - t0 < seconds * 1e9);
	*visits_out = visits;
	return (t - t0) / visits;
}

/*
 * --line-transfer: what a cache line costs to move between two CPUs, the
 * unit of contention: two threads on the first two CPUs this process may
 * use hand one line back and forth. Needs no shim; any build does it.
 */
static long line_turn __attribute__((aligned(64)));
static const long line_rounds = 1000000;

static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *line_partner(void *arg)
{
	long i;

	pin_to(*(int *)arg);
	for (i = 0; i < line_rounds; i++) {
		while (__atomic_load_n(&line_turn, __ATOMIC_ACQUIRE) != 2 * i + 1)
			;
		__atomic_store_n(&line_turn, 2 * i + 2, __ATOMIC_RELEASE);
	}
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of batches of round trips, so that a preemption of either
 * thread (other processes share the CPUs) spoils a batch, not the figure. */
static double line_transfer_ns(int cpu0, int cpu1)
{
	enum { BATCH = 1000 };
	double batch[1000], t0, t;
	pthread_t partner;
	long i;

	pin_to(cpu0);
	__atomic_store_n(&line_turn, 0, __ATOMIC_RELAXED);
	pthread_create(&partner, NULL, line_partner, &cpu1);
	t0 = now_ns();
	for (i = 0; i < line_rounds; i++) {
		__atomic_store_n(&line_turn, 2 * i + 1, __ATOMIC_RELEASE);
		while (__atomic_load_n(&line_turn, __ATOMIC_ACQUIRE) != 2 * i + 2)
			;
		if ((i + 1) % BATCH == 0) {
			t = now_ns();
			batch[i / BATCH] = t - t0;
			t0 = t;
		}
	}
	pthread_join(partner, NULL);
	qsort(batch, line_rounds / BATCH, sizeof(batch[0]), cmp_double);
	/* a round trip is two transfers */
	return batch[line_rounds / BATCH / 2] / BATCH / 2;
}

struct piece {
	const char *name;
	double (*fn)(long n);
};

static const struct piece pieces[] = {
	{ "lock", piece_lock },
	{ "lockdep", piece_lockdep },
	{ "warn", piece_warn },
	{ "draw", piece_draw },
	{ "rcu", piece_rcu },
	{ "ref", piece_ref },
	{ "trace", piece_trace },
	{ "resched", piece_resched },
#if !defined(MLF_SHIM_BENCH) && !defined(MLF_FLOOR)
	{ "lock_stats", piece_lock_stats },
#endif
};

static double best_of(double (*fn)(long n), long n, int repeat)
{
	double best = 1e30;
	int r;

	for (r = 0; r < repeat; r++) {
		double t = fn(n);

		if (t < best)
			best = t;
	}
	return best;
}

int main(int argc, char **argv)
{
	int memcgs = 1500, repeat = 5, i, cpu[2] = { -1, -1 }, n;
	bool line = false;
	long iterations = 2000000, stats_period = 1;
	double seconds = 0.5, empty, visit;
	unsigned long visits;
	cpu_set_t set;

	for (i = 1; i < argc; i += 2) {
		if (!strcmp(argv[i], "--line-transfer")) {
			line = true;
			i--;
		} else if (i + 1 >= argc) {
			break;
		} else if (!strcmp(argv[i], "--memcgs"))
			memcgs = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--iterations"))
			iterations = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--repeat"))
			repeat = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--time"))
			seconds = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "--stats-period"))
			stats_period = atol(argv[i + 1]);
		else
			break;
	}
	if (i < argc || memcgs < 1 || iterations < 1 || repeat < 1 ||
	    seconds <= 0 || stats_period < 1) {
		fprintf(stderr, "usage: bench_visit [--memcgs N] [--iterations I] "
				"[--repeat R] [--time S] [--stats-period N] "
				"[--line-transfer]\n");
		return 2;
	}
	if (line) {
		double best = 1e30;

		sched_getaffinity(0, sizeof(set), &set);
		for (i = n = 0; i < CPU_SETSIZE && n < 2; i++)
			if (CPU_ISSET(i, &set))
				cpu[n++] = i;
		if (n < 2) {
			printf("{\"line_transfer_ns\": null}\n");
			return 0;
		}
		for (i = 0; i < repeat; i++) {
			double t = line_transfer_ns(cpu[0], cpu[1]);

			if (t < best)
				best = t;
		}
		printf("{\"line_transfer_ns\": %.2f, \"cpus\": [%d, %d]}\n",
		       best, cpu[0], cpu[1]);
		return 0;
	}
#ifdef MLF_SHIM_BENCH_STATS
	mlf_bench_stats_period = stats_period;
#endif

	/* one reclaimer, on the first CPU this process may use */
	sched_getaffinity(0, sizeof(set), &set);
	for (i = 0; i < CPU_SETSIZE && !CPU_ISSET(i, &set); i++)
		;
	CPU_ZERO(&set);
	CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);

	nr_node_ids = 1;
	node_data[0] = &node;
	lru_gen_init_pgdat(&node);
	spin_lock_init(&the_lock);
	bench_seed(42);
	for (i = 0; i < memcgs; i++) {
		struct mem_cgroup *memcg = mem_cgroup_alloc(i);

		mem_cgroup_css_online(memcg);
		if (!probe_memcg)
			probe_memcg = memcg;
	}

	printf("{\"shim\": \"%s\", \"variant\": \"%s\", \"memcgs\": %d, "
	       "\"stats_period\": %ld", SHIM_NAME, MLF_VARIANT_NAME, memcgs,
	       stats_period);
	visit = visit_ns(seconds, &visits);
	for (i = 1; i < repeat; i++) {
		unsigned long v;
		double t = visit_ns(seconds, &v);

		if (t < visit)
			visit = t;
	}
	empty = best_of(piece_empty, iterations, repeat);
	printf(", \"visit\": %.3f, \"empty_loop\": %.3f", visit, empty);
	for (i = 0; i < (int)(sizeof(pieces) / sizeof(pieces[0])); i++) {
		double t = best_of(pieces[i].fn, iterations, repeat) - empty;

		printf(", \"%s\": %.3f", pieces[i].name, t > 0 ? t : 0);
	}
	printf("}\n");
	return 0;
}
