/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RCU as the deterministic scheduler models it (schedule.h), in place of
 * liburcu during a scheduled run:
 *
 * - A grace period starts at a step s (synchronize_rcu, call_rcu) and ends
 *   at the first step at which every task that was inside a read-side
 *   critical section at s has left that section; later readers do not
 *   delay it. synchronize_rcu() blocks its caller until then; a call_rcu
 *   callback becomes ready then and runs when the schedule picks rcu's task
 *   (in softirq context, as the kernel runs it).
 * - What the port frees (kfree_poisoned) is poisoned at once and kept in
 *   quarantine until the run ends, so a task that still holds it fails at
 *   its next scheduling point on it, deterministically and by name:
 *     rcu.no_grace  freed with no grace period while a reader that could
 *                   hold it was inside (its section began before the free);
 *                   also at the free itself, reader or not, when the
 *                   object holds a node that left an RCU list and no grace
 *                   period begun after that has ended
 *     rcu.gp_early  freed after a grace period that ended while this
 *                   reader, inside since before it began, still held it
 *     rcu.stale     the reader's section began after the grace period (or
 *                   the free) began, or it is in none and the free waited
 *                   for a grace period: it kept the pointer across
 *                   rcu_read_unlock() (/ rcu_read_lock())
 *     rcu.uaf       touched outside any read-side critical section after
 *                   a free that waited for nothing
 * - Independent checks of the model itself, from each task's own count of
 *   the sections it left (not from the grace period's bookkeeping):
 *     rcu.gp        a grace period ended while a task inside at its start
 *                   had not left that section
 *     rcu.cb_early  a callback ran before its grace period ended
 * - For ThreadSanitizer: a reader's exit from a section that a grace period
 *   waits for releases into the grace period, and whoever waited on it
 *   acquires it; nothing else orders readers with writers.
 */
#ifndef _MLF_KERNEL_RCU_MODEL_H
#define _MLF_KERNEL_RCU_MODEL_H

#include "rcu_head.h"
#include "schedule.h"

void mlf_rcu_model_begin(void);
/* The run is over: free the quarantine, count into @stats. */
void mlf_rcu_model_end(struct mlf_sched_stats *stats);

void mlf_rcu_model_read_lock(void);
void mlf_rcu_model_read_unlock(void);
void mlf_rcu_model_synchronize(void);
void mlf_rcu_model_call(struct callback_head *head,
			void (*func)(struct callback_head *head));
void mlf_rcu_model_barrier(void);

/* rcu's task: run one ready callback; false if none is ready. */
bool mlf_rcu_model_run_callback(void);
/* A task's work is done: it must not be inside a read-side section. */
void mlf_rcu_model_task_done(void);

/* A node left an RCU list / joined one (rculist_nulls.h), during a run. */
void mlf_rcu_model_unlinked(const void *node);
void mlf_rcu_model_linked(const void *node);
/* kfree_poisoned() during a run: poison and quarantine. */
void mlf_rcu_model_free(void *ptr, size_t size);
/* Whether @p lies in memory freed (and quarantined) in this run. */
bool mlf_rcu_model_freed(const void *p);
/* The model's share of an exploration's state hash (explore.h). */
u64 mlf_rcu_model_hash(void);
/* A scheduling point on @addr: fails if it lies in freed memory. */
void mlf_rcu_model_access(const volatile void *addr, enum mlf_point kind);

/*
 * ThreadSanitizer's view of dependency ordering in a scheduled run (TSan
 * builds only; compiler.h and rcupdate.h call these): a task took a lock
 * (its clock then is kept); a WRITE_ONCE_DEP() store to @p by a task
 * holding a lock (false: no room to note it, store with release instead);
 * a dependent load of @p (rcu_dereference*()), which acquires what
 * happened before that writer took its lock; an rcu_assign_pointer() to
 * @p, a release the load acquires by itself.
 */
void mlf_rcu_model_lock_acquired(void);
/*
 * ThreadSanitizer's sync object of what happened before the current task
 * took the lock it holds (NULL: none held, or not a TSan build): what a
 * dependent load of a WRITE_ONCE_DEP() store acquires, under the weak
 * memory model per store (wmm.c), whichever store of the location it read.
 */
const void *mlf_rcu_model_dep_token(void);
bool mlf_rcu_model_dep_store(const volatile void *p);
void mlf_rcu_model_dep_load(const volatile void *p);
void mlf_rcu_model_dep_publish(const volatile void *p);

/* schedule.c: wake rcu's task, a callback is ready */
void mlf_sched_callback_ready(void);

#endif
