// SPDX-License-Identifier: GPL-2.0
/* spinlock_t on pthreads: ownership, lockdep hooks, optional statistics. */
#include "spinlock.h"

#include <time.h>

#include "compiler.h"
#include "report.h"


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
	lock->key = key;
	lock->name = name;
}

void mlf_spin_lock(spinlock_t *lock, const char *where)
{
	unsigned long self = mlf_thread_id();
	unsigned long start = 0;

	if (READ_ONCE(lock->owner) == self) {
		mlf_fail_simple("lockdep.deadlock",
				"recursive locking: %s taken again in %s()",
				lock->name, where);
		return;
	}
	lockdep_acquire(lock->key, where);
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
	WRITE_ONCE(lock->owner, self);
	mlf_locks_held++;
}

void mlf_spin_unlock(spinlock_t *lock)
{
	if (READ_ONCE(lock->owner) != mlf_thread_id()) {
		mlf_fail_simple("lockdep.held",
				"unlocking %s, which this thread does not hold",
				lock->name);
		return;
	}
	if (stats_on) {
		unsigned long held = now_ns() - hold_start_ns;

		thread_stats.hold_ns += held;
		if (held > thread_stats.max_hold_ns)
			thread_stats.max_hold_ns = held;
	}
	mlf_locks_held--;
	WRITE_ONCE(lock->owner, 0);
#ifdef MLF_SPINLOCK_SPIN
	pthread_spin_unlock(&lock->lock);
#else
	pthread_mutex_unlock(&lock->lock);
#endif
}

void mlf_lockdep_assert_held(spinlock_t *lock, const char *where)
{
	if (READ_ONCE(lock->owner) != mlf_thread_id())
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
