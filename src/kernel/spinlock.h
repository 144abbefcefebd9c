/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spinlock_t on pthreads, with the _irq / _irqsave forms, an owner for
 * lockdep_assert_held(), and lockdep's interrupt-state tracking.
 *
 * The lock is a pthread mutex by default (a preempted holder does not make
 * the waiters burn the other core), or a pthread spinlock with
 * -DMLF_SPINLOCK_SPIN, closer to the kernel's irq-disabled spinning lock;
 * bench/README.md says how the two differ in the figures.
 */
#ifndef _MLF_KERNEL_SPINLOCK_H
#define _MLF_KERNEL_SPINLOCK_H

#include <pthread.h>

#include "irqflags.h"
#include "lockdep.h"
#include "schedule.h"
#include "wmm.h"

#ifdef MLF_SHIM_BENCH
#include "bench_fast.h"	/* spinlock_t and the lock calls of the bench shim */
#else
typedef struct spinlock {
#ifdef MLF_SPINLOCK_SPIN
	pthread_spinlock_t lock;
#else
	pthread_mutex_t lock;
#endif
	unsigned long owner;	/* mlf_thread_id() of the holder, 0 if free */
	int locked;		/* the lock word, under the weak memory model */
	struct lock_class_key *key;
	const char *name;
} spinlock_t;
#endif

/*
 * spin_is_locked(): whether someone holds @l now, one scheduling point;
 * smp_mb__after_spinlock(): a full barrier after the acquisition.
 */
#define spin_is_locked(l)                                             \
	({                                                            \
		mlf_point(MLF_PT_READ, &(l)->owner);                  \
		mlf_wmm_running() ?                                   \
			mlf_wmm_load(&(l)->locked, sizeof(int),       \
				     MLF_WMM_RELAXED) != 0 :          \
			__atomic_load_n(&(l)->owner, __ATOMIC_RELAXED) != 0; \
	})
#define smp_mb__after_spinlock() smp_mb()

/* A small unique id per thread (never 0). */
unsigned long mlf_thread_id(void);

void __spin_lock_init(spinlock_t *lock, const char *name,
		      struct lock_class_key *key);
struct mlf_site;
void mlf_spin_lock(spinlock_t *lock, const char *where,
		   const struct mlf_site *site);
void mlf_spin_unlock(spinlock_t *lock, const struct mlf_site *site);
void mlf_lockdep_assert_held(spinlock_t *lock, const char *where);
#ifndef MLF_SHIM_BENCH
/* lockdep_is_held(): the calling thread or task holds @lock */
#define lockdep_is_held(l) \
	(__atomic_load_n(&(l)->owner, __ATOMIC_RELAXED) == mlf_thread_id())
#endif

/* Lock statistics for benchmarks: off unless a benchmark turns them on. */
struct mlf_lock_stats {
	unsigned long acquisitions;
	unsigned long wait_ns;		/* time spent waiting to acquire */
	unsigned long hold_ns;		/* total time held */
	unsigned long max_hold_ns;
};
void mlf_lock_stats_enable(bool on);
/* Add the calling thread's counters into @sum and clear them. */
void mlf_lock_stats_collect(struct mlf_lock_stats *sum);

#ifndef MLF_SHIM_BENCH
/* Each init site is its own lock class, as in the kernel. */
#define spin_lock_init(l)                                           \
	do {                                                        \
		static struct lock_class_key __key = { .name = #l }; \
		__spin_lock_init((l), #l, &__key);                  \
	} while (0)

#define __MLF_WHERE __func__

#define spin_lock(l) mlf_spin_lock((l), __MLF_WHERE, MLF_SITE())
#define spin_unlock(l) mlf_spin_unlock((l), MLF_SITE())

#define spin_lock_irq(l)                                         \
	do {                                                     \
		local_irq_disable();                             \
		mlf_spin_lock((l), __MLF_WHERE, MLF_SITE());     \
	} while (0)

#define spin_unlock_irq(l)                       \
	do {                                     \
		mlf_spin_unlock((l), MLF_SITE()); \
		local_irq_enable();              \
	} while (0)

#define spin_lock_irqsave(l, flags)                              \
	do {                                                     \
		local_irq_save(flags);                           \
		mlf_spin_lock((l), __MLF_WHERE, MLF_SITE());     \
	} while (0)

#define spin_unlock_irqrestore(l, flags)         \
	do {                                     \
		mlf_spin_unlock((l), MLF_SITE()); \
		local_irq_restore(flags);        \
	} while (0)

#define lockdep_assert_held(l) mlf_lockdep_assert_held((l), __MLF_WHERE)
#endif /* !MLF_SHIM_BENCH */

#endif
