/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scheduling points. cond_resched() and cond_resched_tasks_rcu_qs() call a
 * hook the harness installs (to count them, or to let another thread run),
 * and check what the kernel's might_sleep() checks: no scheduling point
 * inside an RCU read-side critical section or with a spinlock held
 * ("sched.atomic"); so do the shim's other functions that may sleep
 * (synchronize_rcu(), rcu_barrier()).
 */
#ifndef _MLF_KERNEL_SCHED_H
#define _MLF_KERNEL_SCHED_H

#include "schedule.h"
#include "task.h"

typedef void (*mlf_resched_hook_t)(const char *where);
mlf_resched_hook_t mlf_set_resched_hook(mlf_resched_hook_t hook);

void mlf_cond_resched(const char *where);
/*
 * might_sleep() of a function that may sleep (@what: "synchronize_rcu",
 * "rcu_barrier"): "sched.atomic" in atomic context, as cond_resched().
 */
void mlf_might_sleep(const char *what);

#ifdef MLF_SHIM_BENCH
#include "bench_fast.h"	/* scheduling points cost nothing */
#else
#define cond_resched()                                                \
	({                                                            \
		mlf_cond_resched(__func__);                           \
		mlf_sched_point(MLF_PT_RESCHED, NULL, MLF_SITE());    \
	})
#define cond_resched_tasks_rcu_qs() cond_resched()
#endif

/* kswapd and dying tasks, as the throttle sees them */
#define mlf_current_is_kswapd (mlf_current()->is_kswapd)
#define mlf_current_is_dying (mlf_current()->is_dying)
static inline bool current_is_kswapd(void)
{
	return mlf_current_is_kswapd;
}

/* fatal_signal_pending() / an OOM victim: reclaim lets it go */
static inline bool task_is_dying(void)
{
	return mlf_current_is_dying;
}

#endif
