/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RCU for the port: read-side critical sections, grace periods, call_rcu and
 * pointer publication. Implemented in rcu.c on liburcu; this header does not
 * include liburcu, whose macros would shadow the kernel names.
 */
#ifndef _MLF_KERNEL_RCUPDATE_H
#define _MLF_KERNEL_RCUPDATE_H

#include "compiler.h"

#include "rcu_head.h"

#define rcu_head callback_head

typedef void (*rcu_callback_t)(struct rcu_head *head);

#ifdef MLF_SHIM_BENCH
#include "bench_fast.h"	/* a nesting count; no grace periods */
#else
static inline void rcu_read_lock(void)
{
	mlf_rcu_read_lock();
}

static inline void rcu_read_unlock(void)
{
	mlf_rcu_read_unlock();
}

static inline void synchronize_rcu(void)
{
	mlf_synchronize_rcu();
}

static inline void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	mlf_call_rcu(head, func);
}

static inline void rcu_barrier(void)
{
	mlf_rcu_barrier();
}

static inline int rcu_read_lock_held(void)
{
	return mlf_rcu_read_depth() > 0;
}
#endif /* !MLF_SHIM_BENCH */

/*
 * Publication is a release store and a dereference an acquire load: what the
 * kernel gets from address dependencies, spelled so that ThreadSanitizer
 * understands it. bug-plain-publish turns the release store into a plain one.
 */
#define rcu_dereference(p) __atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#define rcu_dereference_raw(p) __atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#define rcu_dereference_protected(p, c) (p)
#ifdef MLF_BUG_PLAIN_PUBLISH
#define rcu_assign_pointer(p, v) ((p) = (v))
#else
#define rcu_assign_pointer(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
#endif
#define RCU_INIT_POINTER(p, v) WRITE_ONCE(p, v)

#endif
