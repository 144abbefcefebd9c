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

void mlf_cond_resched(const char *where)
{
	if (rcu_read_lock_held() || mlf_locks_held || irqs_disabled() ||
	    in_softirq())
		mlf_fail_simple("sched.atomic",
				"scheduling point in %s() from atomic context "
				"(rcu depth %d, locks held %d, irqs %s%s)",
				where, mlf_rcu_read_depth(), mlf_locks_held,
				irqs_disabled() ? "off" : "on",
				in_softirq() ? ", in softirq" : "");
	if (resched_hook)
		resched_hook(where);
}
