/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exhaustive exploration of the schedules of a small scenario: a depth-first
 * enumeration, by re-execution, of every choice the scheduler can make at
 * its choice points (a scheduling point where two or more tasks could run),
 * up to a preemption bound (CHESS: most concurrency bugs need one or two
 * preemptions; a switch away from a task that could go on is one, a switch
 * because it blocked or ended is not).
 *
 * One run replays a prefix of choices, then takes the default (the current
 * task goes on, or the lowest runnable one), logging every choice point
 * with its options. mlf_explore_next() then backtracks to the deepest
 * choice point with an option left within the bound. State hashing cuts
 * the enumeration: at a choice point past the prefix whose state (a hash
 * the harness computes: the shared structures and where each task is) was
 * met before with no more preemptions spent, the rest of the run is taken
 * as explored, since what can follow was explored from there already.
 */
#ifndef _MLF_KERNEL_EXPLORE_H
#define _MLF_KERNEL_EXPLORE_H

#include "schedule.h"

#define MLF_EXPLORE_MAX_CHOICES 4096

struct mlf_choice {
	u8 nr_options;		/* runnable tasks, the default first */
	s8 options[MLF_SCHED_MAX_TASKS + 1];	/* task indexes, -1: rcu */
	u8 chosen;		/* index into options[] */
	u8 preemptions;		/* spent before this choice */
	bool preemptive;	/* options other than the first preempt */
};

struct mlf_explore_run {
	/* in: the choices to replay (indexes into options[]), the bound */
	u8 prefix[MLF_EXPLORE_MAX_CHOICES];
	int nr_prefix;
	int max_preemptions;
	/* the harness's state hash at a choice point (NULL: no hashing) */
	u64 (*state_hash)(void *arg);
	void *hash_arg;
	/* count the distinct states, cut nothing: the full enumeration */
	bool count_only;
	/* out: every choice point of the run */
	struct mlf_choice log[MLF_EXPLORE_MAX_CHOICES];
	int nr_log;
	int pruned_from;	/* log index from which the run was cut, or -1 */
	bool truncated;		/* more choice points than the log holds */
};

struct mlf_explore_stats {
	unsigned long schedules;	/* runs */
	unsigned long choice_points;	/* over all runs */
	unsigned long states;		/* distinct state hashes met */
	unsigned long pruned;		/* runs cut by a state seen before */
	unsigned long truncated;	/* runs longer than the log */
};

/* The set of states met so far, for the cuts and the count. */
struct mlf_explore_visited;
struct mlf_explore_visited *mlf_explore_visited_new(void);
void mlf_explore_visited_free(struct mlf_explore_visited *v);

/* Before a run: nothing to replay. */
void mlf_explore_begin(struct mlf_explore_run *run, int max_preemptions);
/*
 * After a run: the next prefix to run, or false when every schedule within
 * the bound was explored.
 */
bool mlf_explore_next(struct mlf_explore_run *run);

/* For schedule.c: the choice at a choice point with these options. */
int mlf_explore_choose(struct mlf_explore_run *run,
		       struct mlf_explore_visited *visited,
		       struct mlf_explore_stats *stats, const s8 *options,
		       int nr_options, bool preemptive, int preemptions,
		       u64 sched_hash);

/* The visited set schedule.c uses for MLF_SCHED_EXPLORE runs. */
void mlf_explore_use(struct mlf_explore_visited *visited,
		     struct mlf_explore_stats *stats);

#endif
