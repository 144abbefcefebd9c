/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A weak memory model for scheduled runs, after the Linux kernel memory
 * model (tools/memory-model/; docs/weak-memory.md says what it allows,
 * what it does not, and how it was checked against the LKMM's own litmus
 * tests). Operational, in the style of tsan11 and C11Tester:
 *
 * - Every location a marked access touches keeps the history of its
 *   stores in coherence order (co). Memory holds the co-last one, so plain
 *   accesses and the harness see memory as the last writer left it.
 * - Each task has a view: per location, the co-latest store it has seen
 *   (read, written, or been handed by an ordering). A marked load may read
 *   any store of the location no older than its view's; which one is a
 *   choice of the schedule (mlf_sched_weak_choice(): the newest by
 *   default, the input's or the exploration's otherwise). A marked store
 *   goes after the task's view of the location, at the end of co by
 *   default or before newer stores the task has not seen.
 * - Orderings hand views on: a release store (smp_store_release,
 *   rcu_assign_pointer, a lock's release) carries its task's view, which
 *   an acquire (smp_load_acquire, rcu_dereference, a load of a pointer: the
 *   address dependency, taken as an acquire) joins into its own; smp_wmb()
 *   makes later stores carry the task's own earlier stores; smp_rmb() joins
 *   what the stores read since carried; smp_mb() and the full barriers of
 *   value-returning atomics do both and join a view all of them share, in
 *   the order they run; RCU's grace period joins the views of the readers
 *   it waited for into its waiter, and a reader that starts after a grace
 *   period began joins its starter's view.
 * - Load buffering (a load reading a store later in another task's
 *   program order, which the LKMM allows without a dependency or barrier
 *   between them) by promises, as in the promising semantics (Kang et al.,
 *   POPL 2017), where a run allows them (mlf_sched_config.promises): at
 *   a relaxed READ_ONCE(), a task may promise a relaxed store it would
 *   make later; other tasks may read it at once. Only a store the task
 *   makes when it runs on alone from there is promised (certified in a
 *   fork()ed child that runs it alone and reports its stores: a store that
 *   depends on what the task reads next, by value or by control, is not
 *   made alone, as in LB+datas and LB+ctrl); the promise must be kept by
 *   that very store with no barrier, acquire, release, lock, RCU or
 *   read-modify-write of the task between, nor an access of the location,
 *   else the run is discarded (mlf_sched_stats.discarded).
 */
#ifndef _MLF_KERNEL_WMM_H
#define _MLF_KERNEL_WMM_H

#include "types.h"

enum mlf_wmm_order {
	MLF_WMM_RELAXED,
	MLF_WMM_ACQUIRE,	/* a load */
	MLF_WMM_RELEASE,	/* a store */
};

enum mlf_wmm_fence {
	MLF_WMM_MB,
	MLF_WMM_RMB,
	MLF_WMM_WMB,
};

/* Non-zero while a scheduled run uses the model. */
extern int mlf_wmm_on;
/* Non-zero while it may make promises (wmm.h's load buffering). */
extern int mlf_wmm_promising;

static inline bool mlf_wmm_running(void)
{
	return __builtin_expect(__atomic_load_n(&mlf_wmm_on, __ATOMIC_RELAXED),
				0);
}

/*
 * The run's start and end (schedule.c): a model for @nr_tasks + rcu,
 * which may make up to @promises promises. The end fills in @stats's
 * promise counts and whether a promise was broken (the run is discarded).
 */
struct mlf_sched_stats;
void mlf_wmm_begin(int nr_tasks, int promises);
void mlf_wmm_end(struct mlf_sched_stats *stats);

/*
 * Before a relaxed READ_ONCE()'s point: the current task may promise a
 * store (a choice of the schedule); its certification runs it alone in a
 * child process (mlf_wmm_certifying()), which stops at the scheduler's
 * points other than a marked access, a barrier or the harness's between
 * ops, at a block and at the task's end (mlf_wmm_certify_stop()). A task's end keeps or breaks its promise.
 */
void __mlf_wmm_promise_point(void);
static inline void mlf_wmm_promise_point(void)
{
	if (__builtin_expect(__atomic_load_n(&mlf_wmm_promising,
					     __ATOMIC_RELAXED), 0))
		__mlf_wmm_promise_point();
}
bool mlf_wmm_certifying(void);
/* A promise of the run is not kept yet, or was broken: it may be no run. */
bool mlf_wmm_promise_pending(void);
/* @go_on: a marked access or a barrier, which the model judges itself, or
 * the harness's point between two ops */
void mlf_wmm_certify_point(bool go_on);
void mlf_wmm_certify_stop(void) __attribute__((noreturn));
void mlf_wmm_task_done(void);

/* A marked load of @size bytes at @p: the value the task reads. */
u64 mlf_wmm_load(const volatile void *p, int size, enum mlf_wmm_order order);
/* A marked store: into the history, and into memory if it is co-last. */
void mlf_wmm_store(volatile void *p, int size, u64 value,
		   enum mlf_wmm_order order);
/*
 * A read-modify-write: reads the co-last store and stores @op's result
 * right after it (if @op says so), atomically. @full: the full barriers
 * of a value-returning atomic, before and after. The old value returned.
 */
u64 mlf_wmm_rmw(volatile void *p, int size,
		bool (*op)(u64 old, u64 arg, u64 arg2, u64 *new), u64 arg,
		u64 arg2, bool full);
void mlf_wmm_fence(enum mlf_wmm_fence fence);
/*
 * WRITE_ONCE_DEP(): a relaxed store of a pointer a reader follows, which
 * carries what its task saw when it took the lock it holds (the LKMM's
 * acq-po ; rfe ; addr, compiler.h).
 */
void mlf_wmm_store_dep(volatile void *p, int size, u64 value);

/*
 * A lock's acquisition and release (spinlock.c): acquire and release, and
 * a read-modify-write to 1 and a store of 0 of its lock word @word, which
 * spin_is_locked() reads as any other location.
 */
void mlf_wmm_lock_acquired(const void *lock, int *word);
void mlf_wmm_lock_released(const void *lock, int *word);

/*
 * RCU (rcu_model.c): a grace period @gp begins (@strong: in
 * synchronize_rcu(), a full barrier); an outermost read-side section
 * begins, or ends; a reader @gp waited for leaves its section; it is over
 * for its waiter (or its callback).
 */
void mlf_wmm_gp_begin(const void *gp, bool strong);
void mlf_wmm_rcu_read_lock(void);
void mlf_wmm_rcu_read_unlock(void);
void mlf_wmm_gp_reader_left(const void *gp);
void mlf_wmm_gp_over(const void *gp);

/*
 * What the checks judge by: the values the tasks read. A marked load of
 * the current task among its last 32: the value it read, when the store
 * it read was made (mlf_sched_step(); 0: before the run, or a plain
 * write), and whether that store was older than the newest. Its last load
 * of @addr, or its last load that read @value (by which link a walker
 * came); false if none, or the model is off.
 */
struct mlf_wmm_read {
	u64 value;
	unsigned long step;
	bool stale;
};
bool mlf_wmm_last_load(const volatile void *addr, struct mlf_wmm_read *r);
bool mlf_wmm_last_load_of(u64 value, struct mlf_wmm_read *r);
/* How many of the current task's pointer loads read an older store. */
unsigned long mlf_wmm_stale_pointer_loads(void);
/*
 * The value at @p as the current task has seen it: the newest store of it
 * in its view (memory, for a location no marked access touched in this
 * run, or outside a task); what a lock holder reads of what the lock
 * protects.
 */
u64 mlf_wmm_peek(const volatile void *p, int size);

/*
 * The harness's own orderings, which the kernel has and the harness's
 * bookkeeping makes outside the model: a release to @key hands what the
 * current task saw to the next acquire of @key (the cgroup core's
 * cgroup_mutex between a memcg's online, offline and release); and an
 * acquire of the newest store of @p (the release work runs after the last
 * put of a reference).
 */
void mlf_wmm_handover_release(const void *key);
void mlf_wmm_handover_acquire(const void *key);
void mlf_wmm_acquire_newest(const volatile void *p, int size);

/* Memory allocated or freed: its history starts again. */
void mlf_wmm_forget(const void *p, size_t size);

/* How many loads read a store older than the newest, in this run. */
unsigned long mlf_wmm_stale_reads(void);

#endif
