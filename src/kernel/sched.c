// SPDX-License-Identifier: GPL-2.0
/* Scheduling points: the harness hook and the might_sleep() check. */
#include "sched.h"

#include "irqflags.h"
#include "lockdep.h"
#include "rcupdate.h"
#include "report.h"

static mlf_resched_hook_t resched_hook;

mlf_resched_hook_t mlf_set_resched_hook(mlf_resched_hook_t hook)
{
	mlf_resched_hook_t old = resched_hook;

	resched_hook = hook;
	return old;
}

/*
 * What __might_resched() (kernel/sched/core.c) calls "sleeping function
 * called from invalid context": preemption off (a spinlock held, in
 * softirq or hardirq), interrupts off, or inside an RCU read-side critical
 * section (rcu_sleep_check(): "Illegal context switch in RCU read-side
 * critical section").
 */
static bool atomic_context(void)
{
	return rcu_read_lock_held() || mlf_locks_held || irqs_disabled() ||
	       in_softirq() || in_hardirq();
}

static void fail_atomic(const char *what, const char *where)
{
	mlf_fail_simple("sched.atomic",
			"%s%s%s from atomic context: sleeping function called "
			"from invalid context (rcu depth %d, locks held %d, "
			"irqs %s%s%s)",
			what, where ? " in " : "", where ? where : "",
			mlf_rcu_read_depth(), mlf_locks_held,
			irqs_disabled() ? "off" : "on",
			in_softirq() ? ", in softirq" : "",
			in_hardirq() ? ", in hardirq" : "");
}

void mlf_cond_resched(const char *where)
{
	if (atomic_context())
		fail_atomic("scheduling point", where);
	if (resched_hook)
		resched_hook(where);
}

void mlf_might_sleep(const char *what)
{
	if (atomic_context())
		fail_atomic(what, NULL);
}
