/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RCU for the port: read-side critical sections, grace periods, call_rcu and
 * pointer publication. Implemented in rcu.c on liburcu, or, in a scheduled
 * run, by the scheduler's model (rcu_model.h); this header does not include
 * liburcu, whose macros would shadow the kernel names. Each is a scheduling
 * point (schedule.h).
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
#define rcu_read_lock()                                               \
	({                                                            \
		mlf_point(MLF_PT_RCU_LOCK, NULL);                     \
		mlf_rcu_read_lock();                                  \
	})
#define rcu_read_unlock()                                             \
	({                                                            \
		mlf_point(MLF_PT_RCU_UNLOCK, NULL);                   \
		mlf_rcu_read_unlock();                                \
	})
#define synchronize_rcu()                                             \
	({                                                            \
		mlf_point(MLF_PT_SYNC_RCU, NULL);                     \
		mlf_synchronize_rcu();                                \
	})
#define call_rcu(head, func)                                          \
	({                                                            \
		mlf_point(MLF_PT_CALL_RCU, (head));                   \
		mlf_call_rcu((head), (func));                         \
	})
#define rcu_barrier()                                                 \
	({                                                            \
		mlf_point(MLF_PT_SYNC_RCU, NULL);                     \
		mlf_rcu_barrier();                                    \
	})

static inline int rcu_read_lock_held(void)
{
	return mlf_rcu_read_depth() > 0;
}
#endif /* !MLF_SHIM_BENCH */

/*
 * Publication is a release store and a dereference an acquire load: what the
 * kernel gets from address dependencies, spelled so that ThreadSanitizer
 * understands it. bug-plain-publish turns the release store into a plain one.
 *
 * The checked forms follow the kernel's rules (include/linux/rcupdate.h):
 * rcu_dereference() is rcu_dereference_check(p, 0), which requires its
 * condition or rcu_read_lock_held(); rcu_dereference_protected(p, c), the
 * update side's, requires c (typically lockdep_is_held() of the lock that
 * keeps p from changing); rcu_dereference_raw() requires nothing. Otherwise
 * lockdep-RCU's "suspicious RCU usage" (lockdep.rcu_suspicious).
 */
#ifdef MLF_SHIM_BENCH
#define mlf_rcu_lockdep_check(c, what) ((void)0)
#else
#define mlf_rcu_lockdep_check(c, what)                                \
	do {                                                          \
		if (unlikely(!(c)))                                   \
			mlf_rcu_suspicious((what), __FILE__, __LINE__); \
	} while (0)
#endif

/*
 * An rcu_dereference() loads with acquire under the weak memory model
 * (compiler.h): the address dependency of what follows, and more.
 */
#define __mlf_rcu_load(p)                                             \
	(mlf_wmm(*(p)) ? __mlf_wmm_load((p), MLF_WMM_ACQUIRE) :        \
			 __atomic_load_n((p), __ATOMIC_ACQUIRE))
#define rcu_dereference_raw(p)                                        \
	({                                                            \
		typeof(&(p)) __p = &(p);                              \
		mlf_point(MLF_PT_DEREF, __p);                         \
		typeof(__atomic_load_n(__p, __ATOMIC_ACQUIRE)) __v =  \
			__mlf_rcu_load(__p);                          \
		mlf_dep_load(__p);                                    \
		__v;                                                  \
	})
#define rcu_dereference_check(p, c)                                   \
	({                                                            \
		typeof(&(p)) __p = &(p);                              \
		mlf_point(MLF_PT_DEREF, __p);                         \
		mlf_rcu_lockdep_check((c) || rcu_read_lock_held(),    \
				      "rcu_dereference_check");       \
		typeof(__atomic_load_n(__p, __ATOMIC_ACQUIRE)) __v =  \
			__mlf_rcu_load(__p);                          \
		mlf_dep_load(__p);                                    \
		__v;                                                  \
	})
#define rcu_dereference(p) rcu_dereference_check(p, 0)
#define rcu_dereference_protected(p, c)                               \
	({                                                            \
		mlf_rcu_lockdep_check(c, "rcu_dereference_protected"); \
		(p);                                                  \
	})
#define rcu_assign_pointer(p, v)                                      \
	({                                                            \
		typeof(&(p)) __p = &(p);                              \
		mlf_point(MLF_PT_PUBLISH, __p);                       \
		mlf_dep_publish(__p);                                 \
		if (mlf_wmm(p))                                       \
			__mlf_wmm_store(__p, (v), MLF_WMM_RELEASE);   \
		else                                                  \
			__atomic_store_n(__p, (v), __ATOMIC_RELEASE); \
	})
#define RCU_INIT_POINTER(p, v) WRITE_ONCE(p, v)

#endif
