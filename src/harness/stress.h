/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The concurrent engine: writers (online, offline, release, rotate, soft
 * reclaim) and readers (the real shrink_many walk) on the port at once, on
 * real liburcu, with the memcg life cycle running through call_rcu, for
 * `tools/mlf stress`. The concurrent fuzz target does not use it: it runs
 * on the scheduled engine (sched_engine.h), where every failure replays.
 *
 * One run: stress_setup() builds the nodes and onlines the first memcgs,
 * stress_run() releases the thread pool (threads are created once per
 * process and parked between runs) and waits for every thread to finish its
 * job, stress_check() releases the dead memcgs and checks the structure at
 * quiescence, stress_teardown() frees everything and resets the shim.
 *
 * While the threads run, a walk probe checks every reader: rcu.uaf (poison
 * on what the walk touches), reader.nulls (the nulls value a restart met),
 * reader.terminates (bounded visits and restarts per walk; and a watchdog
 * on the whole run).
 */
#ifndef _MLF_HARNESS_STRESS_H
#define _MLF_HARNESS_STRESS_H

#include "world.h"

#define STRESS_MAX_THREADS 64

enum stress_role {
	STRESS_WRITER,
	STRESS_READER,
};

enum stress_op_kind {
	STRESS_ONLINE,	/* an empty slot gets a new memcg, onlined */
	STRESS_OFFLINE,	/* the winner of ONLINE->OFFLINE offlines, drops base */
	STRESS_RELEASE,	/* claim a dead memcg (from slot on) and css_release it */
	STRESS_ROTATE,	/* tryget, lru_gen_rotate_memcg(node, arg), put */
	STRESS_SOFT,	/* tryget, lru_gen_soft_reclaim(node) (arg: softirq), put */
	STRESS_SET,	/* tryget, set what shrink_one() finds (arg: flags), put */
	STRESS_HOLD,	/* tryget and keep the reference (until DROP / job end) */
	STRESS_DROP,	/* drop the oldest reference this thread holds */
	STRESS_RECLAIM,	/* shrink_many(node), stopping at target pages (0: never) */
	STRESS_YIELD,	/* sched_yield() (arg odd) or spin arg * 16 loads */
	STRESS_NR,
};

/* STRESS_SET / STRESS_ONLINE flags: what shrink_one() will find */
#define STRESS_SHRINK_BELOW_MIN 0x01
#define STRESS_SHRINK_BELOW_LOW 0x02
#define STRESS_SHRINK_SUCCESS 0x04
#define STRESS_SHRINK_SIZABLE 0x08
/* nr_reclaimed per visit in the high nibble */

struct stress_op {
	u8 kind;		/* enum stress_op_kind */
	u8 node;		/* taken modulo the node count */
	u8 arg;			/* rotate op, softirq, shrink flags, yield */
	u16 slot;		/* taken modulo the pool size */
	u16 target;		/* reclaim: pages */
	const u8 *draws;	/* the op's random draws; NULL: keep the PRNG */
	u32 nr_draws;
};

struct stress_config {
	int nr_nodes;		/* 1..MAX_NUMNODES */
	int pool_size;		/* 1..MLF_MAX_POOL */
	int nr_writers;		/* threads 0..nr_writers-1 */
	int nr_readers;		/* the threads after them */
	int nr_initial;		/* slots onlined before the threads start */
	int yield_every;	/* cond_resched points yield every Nth (0: no) */
	u64 seed;		/* draws of the initial onlines */
	unsigned int deadline_s;	/* watchdog for one stress_run() */
};

struct stress_stats {
	unsigned long ops;		/* ops that applied */
	unsigned long skipped;		/* ops that did not apply */
	unsigned long walks;		/* shrink_many calls */
	unsigned long visits;		/* shrink_one calls */
	unsigned long restarts;		/* nulls mismatches */
	unsigned long reader_releases;	/* tryget failed in a walk */
	unsigned long releases;		/* css_release calls */
	unsigned long allocs;		/* memcgs allocated */
	unsigned long frees;		/* memcgs freed (after a grace period) */
	unsigned long runs;		/* stress_run calls */
};

/* Each thread of a run calls this once; it returns when its work is done. */
typedef void (*stress_job_t)(int thread, enum stress_role role, void *arg);

void stress_setup(const struct stress_config *cfg);
void stress_run(stress_job_t job, void *arg);
void stress_check(void);
void stress_teardown(void);

/* Apply one op from inside a job; returns whether it applied. */
bool stress_apply(int thread, const struct stress_op *op);

/* The world the engine runs on (nodes, slots for the checks). */
const struct mlf_world *stress_world(void);
/* Totals since the process started (frees: allocs - still allocated). */
void stress_stats_read(struct stress_stats *s);
/* Create and join the threads on every run instead of reusing a pool. */
void stress_set_pool(bool reuse);

#endif
