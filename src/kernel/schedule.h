/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The deterministic scheduler. A scheduled run has a few logical threads
 * (tasks), each a fiber (fiber.h) on the calling OS thread; exactly one
 * runs at a time, and it can lose the CPU only at a scheduling point: every
 * READ_ONCE / WRITE_ONCE / rcu_dereference / rcu_assign_pointer / smp_* /
 * atomic op of the shim, spin_lock / unlock, rcu_read_lock / unlock,
 * synchronize_rcu, call_rcu, cond_resched, and the harness's own
 * bookkeeping. Plain accesses are not points: a lock orders them, and where
 * code forgets the lock ThreadSanitizer still sees the race, since the
 * switch between fibers is no synchronization to it (fiber.h).
 *
 * Who runs next is decided at each point by a policy, from the input only,
 * so the same input gives the same interleaving in every build:
 *
 *   MLF_SCHED_INPUT    a list of decisions "after D more points, switch to
 *                      task T"; when they run out, the current task runs
 *                      until it blocks or ends, then the next one in order
 *   MLF_SCHED_PCT      PCT's priorities with the input's change points:
 *                      distinct priorities from the seed, the highest-
 *                      priority runnable task runs, and at the decisions'
 *                      delays (as steps) the running task drops below
 *                      every other. The fuzzer steers the change points,
 *                      so no probability bound holds
 *   MLF_SCHED_PCT_RANDOM  probabilistic concurrency testing as published
 *                      (Burckhardt et al., ASPLOS 2010): the same
 *                      priorities, and d - 1 change points drawn from the
 *                      seed uniformly over 1..k, k an estimate of the run's
 *                      steps; if the run takes at most k steps, a bug of
 *                      depth d among n tasks is found with probability
 *                      >= 1 / (n k^(d-1)) per run (tests/test_sched.c
 *                      measures it on a bug of depth 2)
 *   MLF_SCHED_EXPLORE  choices replayed from a prefix, then the default;
 *                      every choice point is logged, for a depth-first
 *                      enumeration of the schedules (explore.h)
 *
 * Locks are model locks: a task that would block is not runnable (and a
 * run where nothing is runnable is "sched.deadlock"). RCU is modelled by the
 * scheduler too (rcu_model.c): a grace period ends only when every task
 * that was inside a read-side critical section at its start has left it,
 * call_rcu callbacks run in a task of their own ("rcu", schedulable like
 * the others) after their grace period, and memory freed by the port stays
 * poisoned in quarantine until the run ends, so a reader that still holds
 * it fails with a named check at its next scheduling point.
 *
 * Readers may be preempted anywhere, inside read-side critical sections
 * and spinlocks included: one task's run of steps stands for one CPU, and
 * any interleaving of the CPUs' steps is an execution of the kernel, with
 * CONFIG_PREEMPT_RCU or without (without it a reader is not preempted, but
 * the other CPUs go on all the same). Under MLF_MM_LKMM (the concurrent
 * target's and explore's default) the marked accesses go through a weak
 * memory model after the Linux kernel memory model (wmm.h): a load may
 * read an older store than the newest, a weak choice the input or the
 * exploration makes; under MLF_MM_SC every store is seen by every later
 * load (sequential consistency). Plain accesses are ThreadSanitizer's: a
 * data race is a failure whatever the order.
 */
#ifndef _MLF_KERNEL_SCHEDULE_H
#define _MLF_KERNEL_SCHEDULE_H

#include <stdio.h>

#include "task.h"
#include "types.h"

enum mlf_point {
	MLF_PT_READ,		/* READ_ONCE */
	MLF_PT_WRITE,		/* WRITE_ONCE */
	MLF_PT_DEREF,		/* rcu_dereference, smp_load_acquire */
	MLF_PT_PUBLISH,		/* rcu_assign_pointer, smp_store_release */
	MLF_PT_ATOMIC,		/* atomic_long_* */
	MLF_PT_BARRIER,		/* smp_mb */
	MLF_PT_LOCK,		/* spin_lock, before taking it */
	MLF_PT_UNLOCK,		/* spin_unlock, before releasing it */
	MLF_PT_RCU_LOCK,	/* rcu_read_lock */
	MLF_PT_RCU_UNLOCK,	/* rcu_read_unlock */
	MLF_PT_SYNC_RCU,	/* synchronize_rcu, rcu_barrier */
	MLF_PT_CALL_RCU,	/* call_rcu */
	MLF_PT_RESCHED,		/* cond_resched */
	MLF_PT_HARNESS,		/* the harness's own bookkeeping */
	MLF_PT_START,		/* a task's first step */
	MLF_PT_NR,
};

/* Where a point is in the source: for the trace of a schedule. */
struct mlf_site {
	const char *file;
	int line;
	const char *func;
};

#define MLF_SITE()                                                    \
	({                                                            \
		static const struct mlf_site __mlf_site = {           \
			__FILE__, __LINE__, __func__                  \
		};                                                    \
		&__mlf_site;                                          \
	})

/* Non-zero while a scheduled run is in progress. */
extern int mlf_sched_on;

void __mlf_sched_point(enum mlf_point kind, const volatile void *addr,
		       const struct mlf_site *site);

/*
 * A scheduled run is in progress: asked at every scheduling point of the
 * port, each READ_ONCE() and WRITE_ONCE() of it. Written in C, the test
 * is a comparison inlined into the port, which the fuzz builds hand to
 * the engine's comparison hook (-fsanitize-coverage=trace-cmp) at every
 * access: a twentieth of memcg_lru's time, for the shim's bookkeeping,
 * not the kernel's. On x86-64 the comparison is asm, out of the
 * instrumentation's sight (a plain load: an aligned int is read whole).
 */
static inline __attribute__((always_inline)) bool mlf_sched_running(void)
{
#ifdef __x86_64__
	asm goto("cmpl $0, %0\n\tjne %l[on]" : : "m"(mlf_sched_on) : "cc" : on);
	return false;
on:
	return true;
#else
	return __atomic_load_n(&mlf_sched_on, __ATOMIC_RELAXED);
#endif
}

static inline void mlf_sched_point(enum mlf_point kind,
				   const volatile void *addr,
				   const struct mlf_site *site)
{
	if (unlikely(mlf_sched_running()))
		__mlf_sched_point(kind, addr, site);
}

#define MLF_SCHED_MAX_TASKS 8
/* the call_rcu callbacks' task, after the harness's */
#define MLF_SCHED_RCU_TASK (-1)

enum mlf_sched_policy {
	MLF_SCHED_INPUT,
	MLF_SCHED_PCT,
	MLF_SCHED_EXPLORE,
	MLF_SCHED_PCT_RANDOM,
	MLF_SCHED_NR_POLICIES,
};

struct mlf_sched_decision {
	u16 delay;	/* points from the previous decision (>= 1) */
	u8 task;	/* input: who runs next (if not runnable: the next) */
};

struct mlf_explore_run;

enum mlf_memory_model {
	MLF_MM_SC,		/* sequential consistency: each load the newest */
	MLF_MM_LKMM,		/* the weak model after the LKMM (wmm.h) */
};

/*
 * The input's choices of what a marked load reads (or where in coherence
 * a store goes) under MLF_MM_LKMM, whatever the policy but exploration's:
 * at the delay-th weak choice point from the previous one, the back-th
 * store before the newest (or the oldest allowed); the newest at every
 * other. A weak choice point is a marked access with two options or more.
 */
struct mlf_sched_weak {
	u16 delay;	/* weak choice points from the previous (>= 1) */
	u8 back;	/* 1..: how far before the newest */
};

struct mlf_sched_config {
	int nr_tasks;				/* 1..MLF_SCHED_MAX_TASKS */
	void (*fn)(int task, void *arg);	/* each task's work */
	void *arg;
	const char *const *names;		/* "writer", "reader", ... */
	enum mlf_sched_policy policy;
	const struct mlf_sched_decision *decisions;
	int nr_decisions;
	u64 seed;				/* PCT's priorities */
	int pct_depth;				/* PCT_RANDOM: d */
	unsigned long pct_steps;		/* PCT_RANDOM: k */
	unsigned long max_steps;		/* 0: a default bound */
	struct mlf_explore_run *explore;	/* MLF_SCHED_EXPLORE */
	enum mlf_memory_model memory_model;
	const struct mlf_sched_weak *weak;	/* the input's, under LKMM */
	int nr_weak;
	/*
	 * MLF_SCHED_EXPLORE under MLF_MM_LKMM: how many promises (wmm.h,
	 * load buffering) a run may make; 0: none
	 */
	int promises;
	/* called at every point of a task, before the scheduler's choice */
	void (*on_point)(enum mlf_point kind, const volatile void *addr,
			 void *arg);
};

struct mlf_sched_stats {
	unsigned long steps;		/* scheduling points passed */
	unsigned long switches;		/* a different task ran on */
	unsigned long preemptions;	/* ... while the one before could go on */
	unsigned long decisions;	/* input decisions taken */
	unsigned long grace_periods;
	unsigned long callbacks;
	unsigned long weak_choices;	/* choice points of the memory model */
	unsigned long weak_decisions;	/* the input's weak choices taken */
	unsigned long stale_reads;	/* loads that read an older store */
	unsigned long promises;		/* promises made (wmm.h) */
	/* relaxed loads where one could be, and of those with a store to */
	unsigned long promise_points, promise_offers;
	/*
	 * A promise of the run was broken (never kept, or kept by a store
	 * the promise could not go before): the run is no execution of the
	 * memory model, and what it ends with does not count.
	 */
	bool discarded;
};

/*
 * Run @cfg's tasks to their end on fibers of the calling thread, then the
 * RCU callbacks still pending (their grace periods end once no task is a
 * reader), and free the quarantine. A failure inside is reported through
 * mlf_fail() as usual; the run ends with the process (or, with a test's
 * fail handler, when the failing task ends).
 */
void mlf_sched_run(const struct mlf_sched_config *cfg,
		   struct mlf_sched_stats *stats);

/* Inside a run: the tasks, 0..nr - 1 the harness's and nr rcu's. */
int mlf_sched_nr_tasks(void);
struct mlf_task *mlf_sched_task_at(int i);
/* Inside a run: the current task's index (MLF_SCHED_RCU_TASK: rcu). */
int mlf_sched_task_index(void);
/* ... its slot: 0..nr - 1 the harness's tasks, nr rcu's (-1 outside). */
int mlf_sched_slot(void);
/*
 * The memory model's choice among @nr options (the newest store first):
 * the input's, the exploration's, else 0. A choice point of its own.
 */
int mlf_sched_weak_choice(int nr);
/* Where the current task stands: its points so far, and the last one. */
unsigned long mlf_sched_task_points(void);
const struct mlf_site *mlf_sched_task_site(void);
/* The weak choice points passed so far in this run (or the last one). */
unsigned long mlf_sched_weak_points(void);
/*
 * The number of points passed since the run began; in an exploration with
 * the reduction (explore.h), the current step's logical time instead
 * (sched_hb.h): what the harness and the RCU model compare the order of
 * events by, the same in every run of the same trace.
 */
unsigned long mlf_sched_step(void);
/*
 * What the current task's step does beyond its point's access, for the
 * exploration's reduction (sched_hb.h; no-ops unless exploring):
 * observe: it reads or writes state shared with other tasks' steps that is
 * not the code under test's (the harness's slots, the allocator, the
 * quarantine), so it depends on every step; look: the harness looks on,
 * reading the code under test and the records of other looks; note_write:
 * it writes what looks read (a record of a write); rcu_step: it reads the
 * RCU model's order (@write: it changes what a grace period waits for).
 */
void mlf_sched_observe(void);
void mlf_sched_look(void);
void mlf_sched_note_write(void);
void mlf_sched_rcu_step(bool write);
/* ... it is an smp_mb() of the weak memory model, which all of them share. */
void mlf_sched_note_fence(void);
/*
 * Around a probe's checks (the harness looking on, as on_point is): a
 * scheduling point reached in between fails "harness", for it would let
 * other tasks run in the middle of a check, which would then judge a
 * later step than the one it was called at.
 */
void mlf_sched_look_on_begin(void);
void mlf_sched_look_on_end(void);

/* Blocking, for the shim's model lock and RCU (not for the harness). */
enum mlf_sched_wait {
	MLF_WAIT_LOCK,		/* a spinlock, until its owner unlocks it */
	MLF_WAIT_GP,		/* synchronize_rcu, until the grace period */
	MLF_WAIT_BARRIER,	/* rcu_barrier, until the callbacks ran */
	MLF_WAIT_CALLBACK,	/* the rcu task, until a callback is ready */
};
/* Block the current task on @on until mlf_sched_wake(@on). */
void mlf_sched_block(enum mlf_sched_wait why, const void *on);
/* Make every task blocked on @on runnable again. */
void mlf_sched_wake(const void *on);

/*
 * The last steps of the current run (or of the last one), one line each:
 * step, task, point, source line; printed after a failure.
 */
void mlf_sched_print_recent(int nr_steps);

/*
 * Keep the run's timeline (off by default): each stretch of steps one task
 * ran in one op, and how it ended (op done, preempted, blocks, idle).
 * mlf_sched_print_timeline() prints it, @op_text naming a task's op.
 */
void mlf_sched_keep_timeline(bool on);
void mlf_sched_print_timeline(void (*op_text)(FILE *f, int task, long op));

const char *mlf_point_name(enum mlf_point kind);

/*
 * Count each switch between two tasks' source lines in @counters (@size
 * bytes, a power of two): the engine's extra coverage, so that a new
 * interleaving is a new feature (fuzz/concurrent.c). None by default.
 */
void mlf_sched_feedback_attach(u8 *counters, size_t size);

#endif
