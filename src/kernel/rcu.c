// SPDX-License-Identifier: GPL-2.0
/*
 * RCU on liburcu.
 *
 * Flavour: memb (urcu-memb). The port's readers are ordinary threads that
 * never announce quiescent states, which rules out QSBR; the signal flavour
 * (urcu-signal) takes a signal for every grace period, which fuzzing engines
 * and sanitizers handle badly; bulletproof (urcu-bp) pays on every read-side
 * entry. memb uses sys_membarrier to keep readers cheap and needs only thread
 * registration, done here on first use.
 *
 * ThreadSanitizer does not see liburcu 0.13's grace periods (its native
 * annotations came in 0.15), so the shim tells it: every read-side critical
 * section releases a shared token at unlock, and whoever waited for a grace
 * period (synchronize_rcu, a call_rcu callback) acquires it. The one token
 * over-approximates the ordering, which can only hide a race, never invent
 * one. We call liburcu's exported functions (no _LGPL_SOURCE) so that its
 * inlined fast path is not instrumented.
 */
#include <pthread.h>
#include <stdlib.h>
#include <urcu/urcu-memb.h>

#include "irqflags.h"
#include "lockdep.h"
#include "rcu_head.h"
#include "rcu_model.h"
#include "report.h"
#include "sanitizer.h"
#include "sched.h"
#include "task.h"

static long grace_period_token;
#define tsan_release_gp() mlf_tsan_release(&grace_period_token)
#define tsan_acquire_gp() mlf_tsan_acquire(&grace_period_token)
#define tsan_release_head(h) mlf_tsan_release(h)
#define tsan_acquire_head(h) mlf_tsan_acquire(h)

/* In a scheduled run the scheduler's model is RCU (rcu_model.h). */
#define scheduled() unlikely(mlf_sched_running())

_Static_assert(sizeof(struct rcu_head) <=
		       sizeof(((struct callback_head *)0)->urcu_storage),
	       "liburcu's rcu_head does not fit the shim's callback_head");

static __thread int registered;
/* callbacks handed to liburcu and not yet run */
static long urcu_callbacks_pending;
/*
 * Deferred mode, for single-threaded runs: call_rcu() keeps callbacks on a
 * per-thread list and rcu_barrier() waits for one grace period and runs them.
 * Same guarantee as liburcu's call_rcu thread (a grace period between
 * call_rcu() and the callback), without its batching sleeps (about 10 ms per
 * rcu_barrier(), which would cap a fuzzer at 100 inputs a second).
 */
static bool deferred_mode;
static __thread struct callback_head *deferred_first;
static __thread struct callback_head **deferred_last;
#define read_depth (mlf_current()->rcu_read_depth)
static pthread_key_t unregister_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void unregister_at_exit(void *arg)
{
	(void)arg;
	if (registered) {
		urcu_memb_unregister_thread();
		registered = 0;
	}
}

static void make_key(void)
{
	pthread_key_create(&unregister_key, unregister_at_exit);
}

static void ensure_registered(void)
{
	if (likely(registered))
		return;
	pthread_once(&key_once, make_key);
	urcu_memb_register_thread();
	registered = 1;
	/* any non-NULL value makes the destructor run at thread exit */
	pthread_setspecific(unregister_key, &registered);
}

void mlf_rcu_read_lock(void)
{
	if (scheduled()) {
		mlf_rcu_model_read_lock();
		return;
	}
	ensure_registered();
	urcu_memb_read_lock();
	read_depth++;
}

void mlf_rcu_read_unlock(void)
{
	if (read_depth <= 0)
		mlf_fail_simple("rcu.unbalanced",
				"rcu_read_unlock() without rcu_read_lock()");
	if (scheduled()) {
		mlf_rcu_model_read_unlock();
		return;
	}
	read_depth--;
	tsan_release_gp();
	urcu_memb_read_unlock();
}

int mlf_rcu_read_depth(void)
{
	return read_depth;
}

void mlf_rcu_suspicious(const char *what, const char *file, int line)
{
	mlf_fail_simple("lockdep.rcu_suspicious",
			"suspicious RCU usage: %s:%d suspicious %s() usage! "
			"(rcu_read_lock() held: %s, locks held %d)",
			file, line, what, read_depth > 0 ? "yes" : "no",
			mlf_locks_held);
}

void mlf_synchronize_rcu(void)
{
	/* kernel/rcu/tree.c's RCU_LOCKDEP_WARN() first, then might_sleep() */
	if (read_depth) {
		mlf_fail_simple("rcu.deadlock",
				"Illegal synchronize_rcu() in RCU read-side "
				"critical section (depth %d): it would wait for "
				"itself",
				read_depth);
		return;
	}
	mlf_might_sleep("synchronize_rcu()");
	if (scheduled()) {
		mlf_rcu_model_synchronize();
		return;
	}
	urcu_memb_synchronize_rcu();
	tsan_acquire_gp();
}

static void call_rcu_trampoline(struct rcu_head *urcu_head)
{
	struct callback_head *head =
		container_of((void *)urcu_head, struct callback_head,
			     urcu_storage);

	tsan_acquire_gp();
	/* liburcu's queue orders this after call_rcu(); TSan does not see it */
	tsan_acquire_head(head);
	head->func(head);
	__atomic_sub_fetch(&urcu_callbacks_pending, 1, __ATOMIC_RELEASE);
}

void mlf_rcu_defer_callbacks(bool on)
{
	deferred_mode = on;
}

void mlf_call_rcu(struct callback_head *head,
		  void (*func)(struct callback_head *head))
{
	if (scheduled()) {
		mlf_rcu_model_call(head, func);
		return;
	}
	ensure_registered();
	head->func = func;
	if (deferred_mode) {
		head->urcu_storage[0] = NULL;
		if (!deferred_last)
			deferred_last = &deferred_first;
		*deferred_last = head;
		deferred_last = (struct callback_head **)&head->urcu_storage[0];
		return;
	}
	__atomic_add_fetch(&urcu_callbacks_pending, 1, __ATOMIC_RELAXED);
	tsan_release_head(head);
	urcu_memb_call_rcu((struct rcu_head *)head->urcu_storage,
			   call_rcu_trampoline);
}

void mlf_rcu_barrier(void)
{
	struct callback_head *head = deferred_first;

	/* mutex_lock(&rcu_state.barrier_mutex): might_sleep() */
	mlf_might_sleep("rcu_barrier()");
	if (read_depth)
		return;		/* it would wait for a callback that waits for it */
	if (scheduled()) {
		mlf_rcu_model_barrier();
		return;
	}
	ensure_registered();
	if (head) {
		deferred_first = NULL;
		deferred_last = &deferred_first;
		mlf_synchronize_rcu();
		while (head) {
			struct callback_head *next = head->urcu_storage[0];

			head->func(head);
			head = next;
		}
	}
	if (__atomic_load_n(&urcu_callbacks_pending, __ATOMIC_ACQUIRE)) {
		urcu_memb_barrier();
		/* pairs with the callbacks' release: they finished before us */
		(void)__atomic_load_n(&urcu_callbacks_pending, __ATOMIC_ACQUIRE);
		tsan_acquire_gp();
	}
}
