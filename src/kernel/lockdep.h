/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small lockdep: lock classes keyed by their init site, ownership for
 * lockdep_assert_held() ("lockdep.held"), and the interrupt-state usage bits
 * behind lockdep's "inconsistent lock state" report ("lockdep.irq"): a class
 * used in softirq (or hardirq) context must never be taken with softirqs
 * (or hardirqs) enabled, and the other way round.
 */
#ifndef _MLF_KERNEL_LOCKDEP_H
#define _MLF_KERNEL_LOCKDEP_H

#include "task.h"

enum lock_usage_bit {
	LOCK_USED_IN_HARDIRQ = 1 << 0,
	LOCK_USED_IN_SOFTIRQ = 1 << 1,
	LOCK_ENABLED_HARDIRQ = 1 << 2,
	LOCK_ENABLED_SOFTIRQ = 1 << 3,
};

struct lock_class_key {
	const char *name;
	int usage;	/* enum lock_usage_bit, updated atomically */
	const char *first_usage[4];	/* where each bit was first set */
};

/* Called by the lock implementation around every acquisition. */
void lockdep_acquire(struct lock_class_key *key, const char *where);

/* Forget every class's usage (between fuzz inputs). */
void lockdep_reset(void);

/* Locks held by the current task (for "might sleep" checks). */
#define mlf_locks_held (mlf_current()->locks_held)

#endif
