/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shim's callback_head for rcu.c, which sees liburcu's struct rcu_head
 * and so cannot include rcupdate.h. Keep in sync with rcupdate.h.
 */
#ifndef _MLF_KERNEL_RCU_HEAD_H
#define _MLF_KERNEL_RCU_HEAD_H

#include "types.h"

/* Large enough for liburcu's struct rcu_head (checked in rcu.c). */
struct callback_head {
	void *urcu_storage[4];
	void (*func)(struct callback_head *head);
};

void mlf_rcu_read_lock(void);
void mlf_rcu_read_unlock(void);
void mlf_synchronize_rcu(void);
void mlf_call_rcu(struct callback_head *head,
		  void (*func)(struct callback_head *head));
void mlf_rcu_barrier(void);
/* Single-threaded runs: run call_rcu callbacks at rcu_barrier() (rcu.c). */
void mlf_rcu_defer_callbacks(bool on);
int mlf_rcu_read_depth(void);
/*
 * lockdep-RCU's splat, "suspicious RCU usage": @what (the primitive) at
 * @file:@line ran outside the conditions it requires (lockdep.rcu_suspicious).
 */
void mlf_rcu_suspicious(const char *what, const char *file, int line);

#endif
