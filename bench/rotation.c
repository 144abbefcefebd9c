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
 * Prints one JSON object with the figures; tools/mlf bench rotation runs the
 * variants interleaved and lays out the table.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mm/vmscan.h"

struct worker {
	pthread_t thread;
	int id;
	unsigned long requests;
	double latency_sum, latency_max;
	struct mlf_lock_stats lock;
};

static struct pglist_data node;
static volatile int stop;
static int retries = 1;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void one_request(void)
{
	int retry, priority;

	for (retry = 0; retry < retries; retry++) {
		for (priority = 12; priority >= 0; priority--) {
			struct scan_control sc = {
				.nr_to_reclaim = 0,	/* never met: EAGAIN */
				.priority = priority,
				.proactive = 1,
			};

			mlf_shrink_many(&node, &sc);
		}
	}
}

static void *worker_fn(void *arg)
{
	struct worker *wk = arg;

	mlf_entropy_seed(0x5eed0000ULL + wk->id);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		double t0 = now(), lat;

		one_request();
		lat = now() - t0;
		wk->requests++;
		wk->latency_sum += lat;
		if (lat > wk->latency_max)
			wk->latency_max = lat;
	}
	mlf_lock_stats_collect(&wk->lock);
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: bench_rotation [--memcgs N] [--workers W] "
			"[--time S] [--retries R] [--no-lock-stats]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int memcgs = 1500, workers = 8, i;
	double seconds = 10, start, elapsed, lat_sum = 0, lat_max = 0;
	unsigned long requests = 0;
	struct mlf_lock_stats lock = { 0 };
	bool lock_stats = true;
	struct worker *wk;
	struct mem_cgroup **pool;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-lock-stats")) {
			lock_stats = false;
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
		else if (!strcmp(argv[i], "--retries"))
			retries = atoi(argv[++i]);
		else
			usage();
	}
	if (memcgs < 1 || workers < 1 || seconds <= 0 || retries < 1)
		usage();

	nr_node_ids = 1;
	node_data[0] = &node;
	lru_gen_init_pgdat(&node);
	mlf_entropy_seed(42);
	pool = calloc(memcgs, sizeof(*pool));
	for (i = 0; i < memcgs; i++) {
		pool[i] = mem_cgroup_alloc(i);
		mem_cgroup_css_online(pool[i]);
	}

	mlf_lock_stats_enable(lock_stats);
	wk = calloc(workers, sizeof(*wk));
	start = now();
	for (i = 0; i < workers; i++) {
		wk[i].id = i;
		pthread_create(&wk[i].thread, NULL, worker_fn, &wk[i]);
	}
	while (now() - start < seconds) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < workers; i++) {
		pthread_join(wk[i].thread, NULL);
		requests += wk[i].requests;
		lat_sum += wk[i].latency_sum;
		if (wk[i].latency_max > lat_max)
			lat_max = wk[i].latency_max;
		lock.acquisitions += wk[i].lock.acquisitions;
		lock.wait_ns += wk[i].lock.wait_ns;
		lock.hold_ns += wk[i].lock.hold_ns;
		if (wk[i].lock.max_hold_ns > lock.max_hold_ns)
			lock.max_hold_ns = wk[i].lock.max_hold_ns;
	}
	elapsed = now() - start;

	printf("{\"variant\": \"%s\", \"memcgs\": %d, \"workers\": %d, "
	       "\"seconds\": %.3f, \"requests\": %lu, \"requests_per_s\": %.3f, "
	       "\"mean_latency_ms\": %.3f, \"max_latency_ms\": %.3f, "
	       "\"rotations\": %lu, \"rotations_per_s\": %.1f, "
	       "\"lock_mean_hold_us\": %.3f, \"lock_max_hold_us\": %.3f, "
	       "\"lock_wait_s\": %.3f, \"lock_stats\": %s, \"lock\": \"%s\"}\n",
	       MLF_VARIANT_NAME, memcgs, workers, elapsed, requests,
	       requests / elapsed, requests ? lat_sum / requests * 1e3 : 0,
	       lat_max * 1e3, lock.acquisitions, lock.acquisitions / elapsed,
	       lock.acquisitions ? lock.hold_ns / 1e3 / lock.acquisitions : 0,
	       lock.max_hold_ns / 1e3, lock.wait_ns / 1e9,
	       lock_stats ? "true" : "false",
#ifdef MLF_SPINLOCK_SPIN
	       "spin"
#else
	       "mutex"
#endif
	);
	return requests ? 0 : 1;
}
