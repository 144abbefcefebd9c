/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduled concurrent engine: writers (online, offline, release,
 * rotate, soft reclaim, set, hold, drop) and readers (the real
 * shrink_many() walk) on the port, run by the deterministic scheduler
 * (kernel/schedule.h) one step at a time, the interleaving chosen by the
 * input: the same input gives the same run, the same failure, in every
 * build. Used by the concurrent fuzz target, tools/mlf explore and the
 * tests; the OS-scheduled engine (concurrent.h) stays for stress runs.
 *
 * The harness's own bookkeeping is lock-free and scheduled like the port:
 * a writer pins a memcg the way the kernel does, by rcu_dereference() of
 * the slot's pointer and mem_cgroup_tryget() inside an RCU read-side
 * critical section, and release clears the pointer before css_release(),
 * whose free waits for a grace period.
 *
 * Checked while it runs: the rcu.* checks and sched.* of the scheduler
 * (sched.livelock bounds a walk that does not end), at every release of a
 * node lock lin.step (lin.h) and that node's list.links, tail.cache and
 * nr_memcgs, walk.gen / walk.end / walk.complete and reader.nulls on every
 * walk (walk_checks.h); at the end lin.final, conservation, seq.monotonic
 * against the seq the tasks started from, and every structure check.
 */
#ifndef _MLF_HARNESS_SCHED_ENGINE_H
#define _MLF_HARNESS_SCHED_ENGINE_H

#include "kernel/explore.h"
#include "kernel/schedule.h"

#define SCHED_MAX_POOL 32
#define SCHED_MAX_WRITERS 3
#define SCHED_MAX_READERS 2
#define SCHED_MAX_OPS 256

enum sched_op_kind {
	SOP_ONLINE,	/* an empty slot gets a new memcg, onlined */
	SOP_OFFLINE,	/* offline an online memcg, drop its base reference */
	SOP_RELEASE,	/* css_release the first dead memcg from the slot on */
	SOP_ROTATE,	/* pin, lru_gen_rotate_memcg(node, op), unpin */
	SOP_SOFT,	/* pin, lru_gen_soft_reclaim(node) (maybe softirq) */
	SOP_SET,	/* pin, set what shrink_one() finds, unpin */
	SOP_HOLD,	/* pin and keep the reference */
	SOP_DROP,	/* drop the oldest reference this task holds */
	SOP_RECLAIM,	/* shrink_many(node) until target pages (0: never) */
	SOP_NR,
};

/* SOP_SET / SOP_ONLINE flags: what shrink_one() will find */
#define SOP_SHRINK_BELOW_MIN 0x01
#define SOP_SHRINK_BELOW_LOW 0x02
#define SOP_SHRINK_SUCCESS 0x04
#define SOP_SHRINK_SIZABLE 0x08
/* nr_reclaimed per visit in the high nibble */

struct sched_op {
	u8 task;	/* who runs it */
	u8 kind;	/* enum sched_op_kind */
	u8 slot;	/* memcg pool slot (modulo the pool) */
	u8 node;	/* modulo the node count */
	u8 arg;		/* rotate: mlf_rotation(arg % 4); soft: softirq; set, online:
			 * shrink flags */
	u16 target;	/* reclaim: pages */
	u8 bin;		/* 0: the op's draws from the seed; else its first
			 * draw (a bin, for online / rotate / soft / a walk's
			 * first bin) is bin - 1 */
};

struct sched_input {
	int nr_nodes;			/* 1..4 */
	int pool_size;			/* 1..SCHED_MAX_POOL */
	int nr_writers;			/* tasks 0.. */
	int nr_readers;			/* the tasks after them */
	int nr_initial;			/* slots onlined before the run */
	u8 initial_bin;			/* 0: their bins drawn from the seed;
					 * else every one in bin initial_bin - 1
					 * (a scenario of tools/mlf explore) */
	enum mlf_sched_policy policy;	/* input or PCT */
	u32 seed;			/* draws; PCT's priorities */
	int nr_ops;
	struct sched_op ops[SCHED_MAX_OPS];
	int nr_decisions;
	struct mlf_sched_decision decisions[SCHED_MAX_OPS];
	/* the weak memory model's choices (schedule.h), under LKMM */
	int nr_weak;
	struct mlf_sched_weak weak[SCHED_MAX_OPS];
	enum mlf_memory_model memory_model;	/* SC unless set */
	/*
	 * Explored under LKMM: the promises a run may make (wmm.h). Only in
	 * a forked child whose caller drops a discarded run: such a run ends
	 * without its checks at quiescence or its teardown.
	 */
	int promises;
};

struct sched_stats {
	unsigned long runs, ops, skipped, walks, visits, restarts;
	unsigned long sections;		/* critical sections checked */
	/*
	 * visits whose shrink_one() sent back YOUNG a memcg in the middle of
	 * its offline: the css_offline callback under way or done (in the
	 * old generation), CSS_ONLINE still set (the kernel's window)
	 */
	unsigned long young_in_offline_window;
	struct mlf_sched_stats sched;	/* of the last run */
	unsigned long steps_total;	/* over all runs */
	u64 final_state;		/* the last run's, at quiescence */
};

/* whether the tree has what @op runs (a rotation, soft reclaim): else skipped */
bool sched_op_in_tree(const struct sched_op *op);

/*
 * One run of @in: set up, run every task to its end under the scheduler,
 * check at quiescence, tear down. A failure ends the process through
 * mlf_fail() (or returns, with a test's fail handler).
 */
void sched_engine_run(const struct sched_input *in, struct sched_stats *stats);

/*
 * The same run with MLF_SCHED_EXPLORE choices from @explore (its prefix,
 * bound and mode), for tools/mlf explore.
 */
void sched_engine_explore(const struct sched_input *in,
			  struct mlf_explore_run *explore,
			  struct sched_stats *stats);

/*
 * The same run under PCT as published (MLF_SCHED_PCT_RANDOM): priorities
 * and @depth - 1 change points over @steps from @seed, not the input's.
 */
void sched_engine_pct(const struct sched_input *in, u64 seed, int depth,
		      unsigned long steps, struct sched_stats *stats);

const char *sched_op_name(int kind);

/*
 * What a failure report prints after its line: @print_input (the input's
 * trace around the op, the target's), then the schedule's last steps.
 */
void sched_engine_context(void (*print_input)(void));

#endif
