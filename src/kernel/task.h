/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The current task: what the kernel keeps per task (or per CPU) and the
 * shim needs per logical thread. An OS thread has one, made on first use;
 * under the deterministic scheduler (schedule.h) every logical thread has
 * its own and the scheduler points mlf_current_task at the one that runs.
 * That is why this state is not in __thread variables: the scheduler runs
 * all its logical threads on one OS thread, so a __thread variable would be
 * shared by them (and ThreadSanitizer, which sees each as a thread of its
 * own, would call every access to it a race).
 */
#ifndef _MLF_KERNEL_TASK_H
#define _MLF_KERNEL_TASK_H

#include "prng.h"
#include "types.h"

struct mlf_sched_task;
struct mlf_walk;

/* How far back a task's ThreadSanitizer tokens reach (rcu_model.c). */
#define MLF_TSAN_RING 64

/* random.c: where get_random_u32_below() takes its draws from */
struct mlf_entropy {
	const u8 *bytes;
	size_t len, pos;
	struct mlf_rng prng;
	bool use_prng;
	unsigned long draws;
};

struct mlf_task {
	unsigned long id;		/* never 0: lock owners, lockdep */
	long op;			/* the harness's op index (reports) */
	/* irqflags.h: simulated interrupt state */
	int irqs_disabled;
	int softirq_depth;
	/* lockdep.h: spinlocks held */
	int locks_held;
	/* rcupdate.h: read-side nesting */
	int rcu_read_depth;
	/* rcu_model.c: sections left, and the step the current one began */
	unsigned long rcu_exits;
	unsigned long rcu_section_start;
	/*
	 * rcu_model.c, for ThreadSanitizer: a sync object for each of the
	 * task's last MLF_TSAN_RING exits from a read-side critical section
	 * (by exit count) and acquisitions of a lock (by their count), each
	 * released into at that moment: what a grace period and a dependent
	 * load acquire, no more.
	 */
	long rcu_exit_tokens[MLF_TSAN_RING];
	long lock_snapshots[MLF_TSAN_RING];
	unsigned long lock_acquisitions;
	struct mlf_entropy entropy;
	/* current_is_kswapd(), task_is_dying() */
	bool is_kswapd;
	bool is_dying;
	/* trace.h: the walk in progress on this task, if any */
	struct mlf_walk *walk;
	/* the scheduler's state of this task (NULL: an OS thread) */
	struct mlf_sched_task *sched;
	/* the harness's per-thread state, if it keeps any */
	void *harness;
};

extern __thread struct mlf_task *mlf_current_task;

/* The calling OS thread's own task, made on first use. */
struct mlf_task *mlf_thread_task(void);

static inline struct mlf_task *mlf_current(void)
{
	struct mlf_task *t = mlf_current_task;

	return likely(t) ? t : mlf_thread_task();
}

/* Set up @t as a fresh task with a new id (the scheduler's tasks). */
void mlf_task_init(struct mlf_task *t);

#endif
