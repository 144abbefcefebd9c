// SPDX-License-Identifier: GPL-2.0
/*
 * The concurrent engine's thread pool: threads created once per process and
 * parked between runs (or, stress_set_pool(false), created and joined per
 * run), released together by stress_run(), which waits for every one to
 * finish its job, with a watchdog on the whole run.
 */
#define _GNU_SOURCE
#include "stress_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_start = PTHREAD_COND_INITIALIZER;
static pthread_cond_t gate_done = PTHREAD_COND_INITIALIZER;
static unsigned long gate_gen;		/* bumped to start a run */
static int gate_nr;			/* threads taking part in this run */
static int gate_finished;
static bool thread_finished[STRESS_MAX_THREADS];
static stress_job_t gate_job;
static void *gate_arg;
static int nr_pool_threads;
static pthread_t pool_threads[STRESS_MAX_THREADS];
static bool reuse_pool = true;

void stress_set_pool(bool reuse)
{
	reuse_pool = reuse;
}

static enum stress_role role_of(int thread)
{
	return thread < stress_cfg.nr_writers ? STRESS_WRITER : STRESS_READER;
}

static void run_job(int thread)
{
	mlf_current_op = MLF_NONE;
	stress_resched_reset();
	mlf_entropy_seed(stress_cfg.seed * 0x100000001b3ULL + thread + 1);
	gate_job(thread, role_of(thread), gate_arg);
	stress_drop_all();
	stress_stats_flush();
}

static void finish(int thread)
{
	pthread_mutex_lock(&gate_lock);
	thread_finished[thread] = true;
	if (++gate_finished == gate_nr)
		pthread_cond_signal(&gate_done);
	pthread_mutex_unlock(&gate_lock);
}

static void *pool_thread(void *arg)
{
	int thread = (int)(long)arg;
	unsigned long seen = 0;

	pthread_mutex_lock(&gate_lock);
	for (;;) {
		while (gate_gen == seen)
			pthread_cond_wait(&gate_start, &gate_lock);
		seen = gate_gen;
		if (thread >= gate_nr)
			continue;
		pthread_mutex_unlock(&gate_lock);
		run_job(thread);
		finish(thread);
		pthread_mutex_lock(&gate_lock);
	}
	return NULL;
}

static void *one_shot_thread(void *arg)
{
	int thread = (int)(long)arg;

	run_job(thread);
	finish(thread);
	return NULL;
}

static void start_thread(pthread_t *t, void *(*fn)(void *), int thread)
{
	if (pthread_create(t, NULL, fn, (void *)(long)thread))
		mlf_fail_simple("harness", "pthread_create failed");
}

static void watchdog_fail(void)
{
	char stuck[256] = "";
	size_t len = 0;
	bool reader = false;
	int t;

	for (t = 0; t < gate_nr; t++) {
		if (thread_finished[t])
			continue;
		reader |= role_of(t) == STRESS_READER;
		len += snprintf(stuck + len, len < sizeof(stuck) ?
				sizeof(stuck) - len : 0, " %d (%s)", t,
				role_of(t) == STRESS_READER ? "reader" : "writer");
		if (len >= sizeof(stuck))
			break;
	}
	mlf_fail_simple(reader ? "reader.terminates" : "writer.terminates",
			"threads still running after %u s:%s", stress_cfg.deadline_s,
			stuck);
}

void stress_run(stress_job_t job, void *arg)
{
	int n = stress_cfg.nr_writers + stress_cfg.nr_readers;
	pthread_t one_shot[STRESS_MAX_THREADS];
	struct timespec deadline;
	int t, err = 0;

	__atomic_fetch_add(&stress_totals.runs, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&gate_lock);
	gate_job = job;
	gate_arg = arg;
	gate_nr = n;
	gate_finished = 0;
	memset(thread_finished, 0, sizeof(thread_finished));
	if (reuse_pool) {
		for (; nr_pool_threads < n; nr_pool_threads++)
			start_thread(&pool_threads[nr_pool_threads],
				     pool_thread, nr_pool_threads);
		gate_gen++;
		pthread_cond_broadcast(&gate_start);
	} else {
		for (t = 0; t < n; t++)
			start_thread(&one_shot[t], one_shot_thread, t);
	}

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += stress_cfg.deadline_s;
	while (gate_finished < n && err != ETIMEDOUT)
		err = pthread_cond_timedwait(&gate_done, &gate_lock, &deadline);
	if (gate_finished < n)
		watchdog_fail();
	pthread_mutex_unlock(&gate_lock);

	if (!reuse_pool)
		for (t = 0; t < n; t++)
			pthread_join(one_shot[t], NULL);
}
