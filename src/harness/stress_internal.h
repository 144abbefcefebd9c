/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the concurrent engine share (concurrent.h is its API):
 * the engine's slots and their life-cycle stages, its configuration and
 * world, the counters, and the functions one file calls in another:
 *
 *   concurrent.c          set-up, counters, tear-down
 *   concurrent_pool.c     the thread pool: stress_run()
 *   concurrent_slots.c    slot life cycle and the ops: stress_apply()
 *   concurrent_probe.c    the checks on readers as they go (walk probe)
 *   concurrent_quiesce.c  the checks at quiescence: stress_check()
 */
#ifndef _MLF_HARNESS_STRESS_INTERNAL_H
#define _MLF_HARNESS_STRESS_INTERNAL_H

#include <pthread.h>

#include "stress.h"

enum stress_slot_state {
	CS_EMPTY,
	CS_ONLINING,
	CS_ONLINE,
	CS_OFFLINING,
	CS_OFFLINE,
	CS_RELEASING,
};

struct stress_slot {
	pthread_mutex_t lock;
	int state;			/* enum stress_slot_state, atomic */
	struct mem_cgroup *memcg;	/* under lock */
};

/* concurrent.c: the run's configuration (clamped), world and slots */
extern struct stress_config stress_cfg;
/* nodes, and slots filled in for the checks at quiescence */
extern struct mlf_world stress_lru_world;
extern struct stress_slot *stress_slots;
/* each node's seq when the threads last started (seq.monotonic) */
extern unsigned long stress_seq_start[MAX_NUMNODES];
/* counters: per thread, added into the totals when a job ends */
extern struct stress_stats stress_totals;
extern __thread struct stress_stats stress_tl;
void stress_stats_flush(void);

/* concurrent_slots.c */
long stress_memcg_refs(struct mem_cgroup *memcg);
bool stress_do_online(int i, u8 flags);
/* Claim slot @i if its memcg is dead; then css_release() it. */
bool stress_try_release(int i);
/* Drop every reference this thread holds (at the end of its job). */
void stress_drop_all(void);

/* concurrent_probe.c */
/* @n lrugens moved: by a visit, or by a writer op that links or rotates */
void stress_count_moves(unsigned long n);
void stress_walk_probe(enum mlf_walk_event event, void *obj, long arg);
void stress_resched_hook(const char *where);
/* A thread starts a job: its cond_resched() count starts again. */
void stress_resched_reset(void);

/* concurrent_quiesce.c */
void stress_fail_conservation(int nid, int gen, int bin, int memcg,
			    const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#endif
