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
 * choice point with an option left within the bound. Three modes:
 *
 *   MLF_EXPLORE_REDUCED    (the default) a run is cut at a choice point
 *                          whose trace (sched_hb.h: the steps so far with
 *                          their happens-before clocks) and running task
 *                          were met before with no more preemptions spent:
 *                          the same trace is the same state, so what can
 *                          follow was explored from there already. Sound
 *                          under the premises docs/explore.md states: it
 *                          reaches every state, final state and failure
 *                          the complete enumeration reaches.
 *   MLF_EXPLORE_COMPLETE   nothing is cut: every schedule within the bound;
 *                          distinct traces are counted, for comparison.
 *   MLF_EXPLORE_HEURISTIC  a run is cut at a state whose hash (the
 *                          harness's: the shared structures and where each
 *                          task is, not all of it) was met before: a
 *                          heuristic, which can cut states whose futures
 *                          differ and so miss schedules that fail.
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
	/*
	 * A weak choice (the memory model's: which store a load reads,
	 * where a store goes): options are 0..nr - 1, the newest first;
	 * any other than the first spends one of the weak bound.
	 */
	bool weak;
	u8 weak_spent;		/* spent before this choice */
};

/* The most options a weak choice offers: older stores are not read. */
#define MLF_EXPLORE_MAX_WEAK_OPTIONS 255

enum mlf_explore_mode {
	MLF_EXPLORE_REDUCED,
	MLF_EXPLORE_COMPLETE,
	MLF_EXPLORE_HEURISTIC,
};

struct mlf_explore_run {
	/* in: the choices to replay (indexes into options[]), the bound */
	u8 prefix[MLF_EXPLORE_MAX_CHOICES];
	int nr_prefix;
	int max_preemptions;
	int max_weak;		/* the weak bound: non-newest choices */
	enum mlf_explore_mode mode;
	/* MLF_EXPLORE_HEURISTIC: the harness's state hash at a choice point */
	u64 (*state_hash)(void *arg);
	void *hash_arg;
	/* out: every choice point of the run */
	struct mlf_choice log[MLF_EXPLORE_MAX_CHOICES];
	int nr_log;
	int pruned_from;	/* log index from which the run was cut, or -1 */
	int weak_spent_now;	/* the run's weak choices so far */
	bool truncated;		/* more choice points than the log holds */
};

struct mlf_explore_stats {
	unsigned long schedules;	/* runs */
	unsigned long choice_points;	/* over all runs */
	unsigned long states;		/* distinct states (traces, or hashes) */
	unsigned long pruned;		/* runs cut by a state seen before */
	unsigned long truncated;	/* runs longer than the log */
};

/* The set of states met so far, for the cuts and the count. */
struct mlf_explore_visited;
struct mlf_explore_visited *mlf_explore_visited_new(void);
/*
 * ... in memory shared with forked children, which a run in a child then
 * writes: room for @nr more states must be made (by the parent) before.
 */
struct mlf_explore_visited *mlf_explore_visited_new_shared(void);
void mlf_explore_visited_reserve(struct mlf_explore_visited *v, size_t nr);
void mlf_explore_visited_free(struct mlf_explore_visited *v);

/* Before a run: nothing to replay. */
void mlf_explore_begin(struct mlf_explore_run *run, int max_preemptions);
/*
 * After a run: the next prefix to run, or false when every schedule within
 * the bound was explored.
 */
bool mlf_explore_next(struct mlf_explore_run *run);

/*
 * For schedule.c: the choice at a choice point with these options, in the
 * state @key (the trace and running task, or the heuristic's hash).
 */
int mlf_explore_choose(struct mlf_explore_run *run,
		       struct mlf_explore_visited *visited,
		       struct mlf_explore_stats *stats, const s8 *options,
		       int nr_options, bool preemptive, int preemptions,
		       const u64 key[2]);

/* ... a weak choice of @nr options, @weak_spent spent before it. */
int mlf_explore_choose_weak(struct mlf_explore_run *run,
			    struct mlf_explore_visited *visited,
			    struct mlf_explore_stats *stats, int nr,
			    int preemptions, int weak_spent,
			    const u64 key[2]);

const char *mlf_explore_mode_name(enum mlf_explore_mode mode);

/* The visited set schedule.c uses for MLF_SCHED_EXPLORE runs. */
void mlf_explore_use(struct mlf_explore_visited *visited,
		     struct mlf_explore_stats *stats);

#endif
