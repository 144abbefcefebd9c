// SPDX-License-Identifier: GPL-2.0
/*
 * spinlock_t on pthreads: ownership, lockdep hooks, optional statistics;
 * in a scheduled run, a model lock of the scheduler instead (schedule.h):
 * a task that would wait is not runnable until the owner unlocks, and
 * ThreadSanitizer is told of the lock's happens-before explicitly, since
 * the switch between fibers is none.
 */
#include "spinlock.h"

#include <time.h>

#include "compiler.h"
#include "rcu_model.h"
#include "report.h"
#include "sanitizer.h"
#include "schedule.h"
#include "wmm.h"

/* the lock's own bookkeeping: not scheduling points of the code under test */
#define owner_of(lock) __atomic_load_n(&(lock)->owner, __ATOMIC_RELAXED)
#define set_owner(lock, id) __atomic_store_n(&(lock)->owner, (id), __ATOMIC_RELAXED)
#define scheduled() unlikely(mlf_sched_running())


static bool stats_on;
static __thread struct mlf_lock_stats thread_stats;
static __thread unsigned long hold_start_ns;

unsigned long mlf_thread_id(void)
{
	return mlf_current()->id;
}

static unsigned long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_sec * 1000000000UL + ts.tv_nsec;
}

void __spin_lock_init(spinlock_t *lock, const char *name,
		      struct lock_class_key *key)
{
#ifdef MLF_SPINLOCK_SPIN
	pthread_spin_init(&lock->lock, PTHREAD_PROCESS_PRIVATE);
#else
	pthread_mutex_init(&lock->lock, NULL);
#endif
	lock->owner = 0;
	lock->locked = 0;
	lock->key = key;
	lock->name = name;
}

static void model_lock(spinlock_t *lock, unsigned long self,
		       const struct mlf_site *site)
{
	__mlf_sched_point(MLF_PT_LOCK, lock, site);
	while (owner_of(lock))
		mlf_sched_block(MLF_WAIT_LOCK, lock);
	set_owner(lock, self);
	mlf_tsan_acquire(lock);
	mlf_wmm_lock_acquired(lock, &lock->locked);
	mlf_locks_held++;
#ifdef MLF_TSAN
	/* the clock a WRITE_ONCE_DEP() in this section orders (compiler.h) */
	mlf_rcu_model_lock_acquired();
#endif
}

static void model_unlock(spinlock_t *lock, const struct mlf_site *site)
{
	__mlf_sched_point(MLF_PT_UNLOCK, lock, site);
	mlf_locks_held--;
	mlf_wmm_lock_released(lock, &lock->locked);
	mlf_tsan_release(lock);
	set_owner(lock, 0);
	mlf_sched_wake(lock);
}

void mlf_spin_lock(spinlock_t *lock, const char *where,
		   const struct mlf_site *site)
{
	unsigned long self = mlf_thread_id();
	unsigned long start = 0;

	if (owner_of(lock) == self) {
		mlf_fail_simple("lockdep.deadlock",
				"recursive locking: %s taken again in %s()",
				lock->name, where);
		return;
	}
	lockdep_acquire(lock->key, where);
	if (scheduled()) {
		model_lock(lock, self, site);
		return;
	}
	if (stats_on)
		start = now_ns();
#ifdef MLF_SPINLOCK_SPIN
	pthread_spin_lock(&lock->lock);
#else
	pthread_mutex_lock(&lock->lock);
#endif
	if (stats_on) {
		hold_start_ns = now_ns();
		thread_stats.acquisitions++;
		thread_stats.wait_ns += hold_start_ns - start;
	}
	set_owner(lock, self);
	mlf_locks_held++;
}

void mlf_spin_unlock(spinlock_t *lock, const struct mlf_site *site)
{
	if (owner_of(lock) != mlf_thread_id()) {
		mlf_fail_simple("lockdep.held",
				"unlocking %s, which this thread does not hold",
				lock->name);
		return;
	}
	if (scheduled()) {
		model_unlock(lock, site);
		return;
	}
	if (stats_on) {
		unsigned long held = now_ns() - hold_start_ns;

		thread_stats.hold_ns += held;
		if (held > thread_stats.max_hold_ns)
			thread_stats.max_hold_ns = held;
	}
	mlf_locks_held--;
	set_owner(lock, 0);
#ifdef MLF_SPINLOCK_SPIN
	pthread_spin_unlock(&lock->lock);
#else
	pthread_mutex_unlock(&lock->lock);
#endif
}

void mlf_lockdep_assert_held(spinlock_t *lock, const char *where)
{
	if (owner_of(lock) != mlf_thread_id())
		mlf_fail_simple("lockdep.held",
				"%s() requires %s, which this thread does not "
				"hold",
				where, lock->name);
}

void mlf_lock_stats_enable(bool on)
{
	stats_on = on;
}

void mlf_lock_stats_collect(struct mlf_lock_stats *sum)
{
	sum->acquisitions += thread_stats.acquisitions;
	sum->wait_ns += thread_stats.wait_ns;
	sum->hold_ns += thread_stats.hold_ns;
	if (thread_stats.max_hold_ns > sum->max_hold_ns)
		sum->max_hold_ns = thread_stats.max_hold_ns;
	thread_stats = (struct mlf_lock_stats){ 0 };
}
