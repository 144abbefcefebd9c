// SPDX-License-Identifier: GPL-2.0
/*
 * The seed series' benchmark in userspace: N memcgs on one node, W workers
 * each issuing requests back to back, where a request is what a write of
 * "1024M swappiness=0" to the root's memory.reclaim does to the memcg LRU
 * when nothing can be reclaimed: shrink_many() once per priority from 12 down
 * to 0 (times --retries; the kernel retries MAX_RECLAIM_RETRIES + 1 = 17
 * times before EAGAIN). Every memcg is empty, so shrink_one() sends it to
 * the tail (TAIL) and then to the young generation (YOUNG): the rotations
 * whose tail insertion the series makes O(1).
 *
 * The same source is built against each kernel-API layer
 * (bench/CMakeLists.txt):
 *   checked  the shim as the tests use it (lockdep, probes, liburcu, pthread
 *            lock; -DMLF_SPINLOCK_SPIN for a spinning one)
 *   fast     the bench shim (-DMLF_SHIM_BENCH, src/kernel/bench_fast.h)
 *   stats    the bench shim with TSC lock statistics (-DMLF_SHIM_BENCH_STATS):
 *            every wait timed, one hold in --stats-period
 *   work     the bench shim and --visit-work NS of busy work in each
 *            shrink_one(), outside the lock (-DMLF_SHIM_BENCH_WORK)
 *   floor    no shim at all (-DMLF_FLOOR, bench/floor/kernel.h)
 *
 * Two kinds of run: --time S issues requests for S seconds (a request is a
 * fixed amount of work only with one worker); --passes P stops once the
 * workers together visited P x N memcgs, so that runs with several walkers,
 * each skipping what the others moved, still compare on the same work.
 *
 * Prints one JSON object with the figures; tools/mlf bench rotation runs the
 * builds and variants interleaved and lays out the tables.
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
#define LOCK_NAME "xchg"
#define bench_seed(s) mlf_floor_seed(s)
#elif defined(MLF_SHIM_BENCH_WORK)
#define SHIM_NAME "work"
#define LOCK_NAME "ttas"
#define bench_seed(s) mlf_bench_seed(s)
#elif defined(MLF_SHIM_BENCH_STATS)
#define SHIM_NAME "stats"
#define LOCK_NAME "ttas"
#define bench_seed(s) mlf_bench_seed(s)
#elif defined(MLF_SHIM_BENCH)
#define SHIM_NAME "fast"
#define LOCK_NAME "ttas"
#define bench_seed(s) mlf_bench_seed(s)
#else
#define SHIM_NAME "checked"
#ifdef MLF_SPINLOCK_SPIN
#define LOCK_NAME "spin"
#else
#define LOCK_NAME "mutex"
#endif
#define bench_seed(s) mlf_entropy_seed(s)
#endif

/* Lock statistics, in nanoseconds, whichever build collected them. */
struct lock_figures {
	unsigned long acquisitions, contended, sampled;
	double wait_ns, max_wait_ns, hold_ns, max_hold_ns;
};

struct worker {
	pthread_t thread;
	int id, cpu;
	unsigned long requests, passes, visits;
	double start, end;	/* its own clock: the main thread may run late */
	double latency_sum, latency_max;
	struct lock_figures lock;
};

static struct pglist_data node;
static volatile int stop;
static int retries = 1;
static unsigned long target_visits;	/* --passes x memcgs; 0: --time */
static unsigned long visits_done;
static bool lock_stats = true;
static double tsc_ghz = 1.0;	/* cycles per ns of mlf_bench_cycles() */
static pthread_barrier_t start_line;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One shrink_many() pass; false once the fixed amount of work is done. */
static bool one_pass(struct worker *wk, int priority)
{
	struct scan_control sc = {
		.nr_to_reclaim = 0,	/* never met: EAGAIN */
		.priority = priority,
		.proactive = 1,
	};

	mlf_shrink_many(&node, &sc);
	wk->passes++;
	wk->visits += sc.nr_scanned;	/* one try_to_shrink_lruvec() a visit */
	if (target_visits &&
	    __atomic_add_fetch(&visits_done, sc.nr_scanned, __ATOMIC_RELAXED) >=
		    target_visits) {
		__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
		return false;
	}
	return true;
}

/* A request; false if the work ran out in the middle of it. */
static bool one_request(struct worker *wk)
{
	int retry, priority;

	for (retry = 0; retry < retries; retry++)
		for (priority = 12; priority >= 0; priority--)
			if (!one_pass(wk, priority))
				return false;
	return true;
}

static void collect_lock(struct lock_figures *f)
{
#if defined(MLF_SHIM_BENCH_STATS)
	struct mlf_bench_lock_stats s = { 0 };
	double scale;

	mlf_bench_lock_stats_collect(&s);
	/* the timed holds stand for all of them; every wait is timed */
	scale = s.sampled ? (double)s.acquisitions / s.sampled : 0;
	f->acquisitions = s.acquisitions;
	f->contended = s.contended;
	f->sampled = s.sampled;
	f->wait_ns = s.wait_cycles / tsc_ghz;
	f->max_wait_ns = s.max_wait_cycles / tsc_ghz;
	f->hold_ns = s.hold_cycles / tsc_ghz * scale;
	f->max_hold_ns = s.max_hold_cycles / tsc_ghz;
#elif !defined(MLF_SHIM_BENCH) && !defined(MLF_FLOOR)
	struct mlf_lock_stats s = { 0 };

	mlf_lock_stats_collect(&s);
	f->acquisitions = s.acquisitions;
	f->sampled = s.acquisitions;
	f->wait_ns = s.wait_ns;
	f->hold_ns = s.hold_ns;
	f->max_hold_ns = s.max_hold_ns;
#else
	(void)f;
#endif
}

static void *worker_fn(void *arg)
{
	struct worker *wk = arg;

	if (wk->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(wk->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			perror("bench_rotation: sched_setaffinity");
	}
	bench_seed(0x5eed0000ULL + wk->id);
	pthread_barrier_wait(&start_line);
	wk->start = now();
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		double t0 = now(), lat;

		if (!one_request(wk))
			break;
		lat = now() - t0;
		wk->requests++;
		wk->latency_sum += lat;
		if (lat > wk->latency_max)
			wk->latency_max = lat;
	}
	wk->end = now();
	collect_lock(&wk->lock);
	return NULL;
}

#if defined(MLF_SHIM_BENCH_STATS) || defined(MLF_SHIM_BENCH_WORK)
/* TSC cycles per nanosecond, against CLOCK_MONOTONIC over 50 ms. */
static double calibrate_tsc(void)
{
	double t0 = now(), t1;
	u64 c0 = mlf_bench_cycles(), c1;

	do {
		t1 = now();
	} while (t1 - t0 < 0.05);
	c1 = mlf_bench_cycles();
	return (c1 - c0) / ((t1 - t0) * 1e9);
}
#endif

static void usage(void)
{
	fprintf(stderr, "usage: bench_rotation [--memcgs N] [--workers W] "
			"[--time S | --passes P] [--retries R] [--pin] "
			"[--no-lock-stats] [--stats-period N] "
			"[--visit-work NS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int memcgs = 1500, workers = 8, i, ncpus = 0, *cpus;
	double seconds = 10, passes = 0, start, end = 0, elapsed, lat_sum = 0,
	       lat_max = 0, visit_work_ns = 0;
	long stats_period = 1;
	unsigned long requests = 0, nr_passes = 0, visits = 0;
	struct lock_figures lock = { 0 };
	bool pin = false;
	struct worker *wk;
	struct mem_cgroup **pool;
	cpu_set_t allowed;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-lock-stats")) {
			lock_stats = false;
			continue;
		}
		if (!strcmp(argv[i], "--pin")) {
			pin = true;
			continue;
		}
		if (i + 1 >= argc)
			usage();
		if (!strcmp(argv[i], "--memcgs"))
			memcgs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--workers"))
			workers = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--time"))
			seconds = atof(argv[++i]);
		else if (!strcmp(argv[i], "--passes"))
			passes = atof(argv[++i]);
		else if (!strcmp(argv[i], "--retries"))
			retries = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--visit-work"))
			visit_work_ns = atof(argv[++i]);
		else if (!strcmp(argv[i], "--stats-period"))
			stats_period = atol(argv[++i]);
		else
			usage();
	}
	if (memcgs < 1 || workers < 1 || seconds <= 0 || passes < 0 ||
	    retries < 1 || visit_work_ns < 0 || stats_period < 1)
		usage();
#ifndef MLF_SHIM_BENCH_WORK
	if (visit_work_ns) {
		fprintf(stderr, "bench_rotation: --visit-work needs a work build "
				"(bench_rotation_work_*)\n");
		return 2;
	}
#endif
	target_visits = (unsigned long)(passes * memcgs);

	/* the CPUs this process may run on, in order: worker i gets the i-th */
	sched_getaffinity(0, sizeof(allowed), &allowed);
	cpus = calloc(CPU_SETSIZE, sizeof(*cpus));
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &allowed))
			cpus[ncpus++] = i;

	nr_node_ids = 1;
	node_data[0] = &node;
	lru_gen_init_pgdat(&node);
	bench_seed(42);
	pool = calloc(memcgs, sizeof(*pool));
	for (i = 0; i < memcgs; i++) {
		pool[i] = mem_cgroup_alloc(i);
		mem_cgroup_css_online(pool[i]);
	}

#if defined(MLF_SHIM_BENCH_STATS) || defined(MLF_SHIM_BENCH_WORK)
	tsc_ghz = calibrate_tsc();
#endif
#if defined(MLF_SHIM_BENCH_WORK)
	mlf_bench_visit_work = (u64)(visit_work_ns * tsc_ghz);
#endif
#if defined(MLF_SHIM_BENCH_STATS)
	mlf_bench_stats_period = stats_period;
#elif !defined(MLF_SHIM_BENCH) && !defined(MLF_FLOOR)
	mlf_lock_stats_enable(lock_stats);
#else
	lock_stats = false;
#endif
	wk = calloc(workers, sizeof(*wk));
	pthread_barrier_init(&start_line, NULL, workers + 1);
	for (i = 0; i < workers; i++) {
		wk[i].id = i;
		wk[i].cpu = pin ? cpus[i % ncpus] : -1;
		pthread_create(&wk[i].thread, NULL, worker_fn, &wk[i]);
	}
	pthread_barrier_wait(&start_line);
	if (!target_visits) {
		struct timespec until;

		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_sec += (time_t)seconds;
		until.tv_nsec += (long)((seconds - (time_t)seconds) * 1e9);
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until,
				       NULL))
			;
		__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	}
	for (i = 0; i < workers; i++) {
		pthread_join(wk[i].thread, NULL);
		if (!i || wk[i].start < start)
			start = wk[i].start;
		if (wk[i].end > end)
			end = wk[i].end;
		requests += wk[i].requests;
		nr_passes += wk[i].passes;
		visits += wk[i].visits;
		lat_sum += wk[i].latency_sum;
		if (wk[i].latency_max > lat_max)
			lat_max = wk[i].latency_max;
		lock.acquisitions += wk[i].lock.acquisitions;
		lock.contended += wk[i].lock.contended;
		lock.sampled += wk[i].lock.sampled;
		lock.wait_ns += wk[i].lock.wait_ns;
		lock.hold_ns += wk[i].lock.hold_ns;
		if (wk[i].lock.max_wait_ns > lock.max_wait_ns)
			lock.max_wait_ns = wk[i].lock.max_wait_ns;
		if (wk[i].lock.max_hold_ns > lock.max_hold_ns)
			lock.max_hold_ns = wk[i].lock.max_hold_ns;
	}
	/* from the first worker's start to the last one's end */
	elapsed = end - start;

	printf("{\"variant\": \"%s\", \"shim\": \"%s\", \"lock\": \"%s\", "
	       "\"memcgs\": %d, \"workers\": %d, \"cpus\": %d, "
	       "\"pinned\": %s, \"mode\": \"%s\", \"seconds\": %.6f, "
	       "\"requests\": %lu, \"passes\": %lu, \"visits\": %lu, "
	       "\"requests_per_s\": %.3f, \"visits_per_s\": %.1f, "
	       "\"ns_per_visit\": %.3f, \"visits_per_pass\": %.2f, "
	       "\"visits_per_request\": %.1f, "
	       "\"mean_latency_ms\": %.3f, \"max_latency_ms\": %.3f, "
	       "\"lock_stats\": %s, \"stats_period\": %ld, "
	       "\"lock_sampled\": %lu, \"rotations\": %lu, "
	       "\"rotations_per_s\": %.1f, \"lock_contended\": %lu, "
	       "\"lock_mean_hold_us\": %.4f, \"lock_max_hold_us\": %.3f, "
	       "\"lock_wait_s\": %.6f, \"lock_max_wait_us\": %.3f, "
	       "\"lock_wait_share\": %.5f, \"tsc_ghz\": %.4f, "
	       "\"visit_work_ns\": %.1f}\n",
	       MLF_VARIANT_NAME, SHIM_NAME, LOCK_NAME, memcgs, workers, ncpus,
	       pin ? "true" : "false", target_visits ? "passes" : "time",
	       elapsed, requests, nr_passes, visits, requests / elapsed,
	       visits / elapsed, visits ? elapsed * 1e9 / visits : 0,
	       nr_passes ? (double)visits / nr_passes : 0,
	       nr_passes ? (double)visits / nr_passes * 13 * retries : 0,
	       requests ? lat_sum / requests * 1e3 : 0, lat_max * 1e3,
	       lock_stats ? "true" : "false", stats_period, lock.sampled,
	       lock.acquisitions,
	       lock.acquisitions / elapsed, lock.contended,
	       lock.acquisitions ? lock.hold_ns / 1e3 / lock.acquisitions : 0,
	       lock.max_hold_ns / 1e3, lock.wait_ns / 1e9,
	       lock.max_wait_ns / 1e3, lock.wait_ns / 1e9 / (elapsed * workers),
	       tsc_ghz, visit_work_ns);
	/* the memcgs stay linked on the node: reachable, not leaked */
	free(wk);
	free(pool);
	free(cpus);
	return visits ? 0 : 1;
}
