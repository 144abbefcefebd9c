/* SPDX-License-Identifier: GPL-2.0 */
/*
 * READ_ONCE / WRITE_ONCE, barriers and atomics. The kernel's lockless
 * accesses become relaxed __atomic accesses so that ThreadSanitizer sees
 * them as intended races, not bugs; the generated code is the same plain
 * load or store. Each is also a scheduling point (schedule.h), which costs
 * one load and a branch outside a scheduled run.
 */
#ifndef _MLF_KERNEL_COMPILER_H
#define _MLF_KERNEL_COMPILER_H

#include "sanitizer.h"
#include "schedule.h"
#include "types.h"
#include "wmm.h"

/* A scheduling point of @kind on the object at @p, here in the source. */
#ifdef MLF_SHIM_BENCH
#define mlf_point(kind, p) ((void)(p))	/* the bench shim: none */
#else
#define mlf_point(kind, p) mlf_sched_point((kind), (p), MLF_SITE())
#endif

/*
 * Under the weak memory model (wmm.h) a marked access goes through it: a
 * load returns the store the model chose, a store joins the history. The
 * value crosses as the bytes of a u64; a marked load of a pointer orders
 * the loads through it, the address dependency, as an acquire would (more
 * than the LKMM orders: also loads not through it). Outside the bench
 * shim, a scheduled run with the model on; else the plain relaxed access.
 */
#ifdef MLF_SHIM_BENCH
#define mlf_wmm(x) false
#else
#define mlf_wmm(x) mlf_wmm_running()
#endif
#define __mlf_from_u64(x, v)                                          \
	({                                                            \
		union {                                               \
			typeof(x) __v;                                \
			u64 __u;                                      \
		} __c = { .__u = (v) };                               \
		__c.__v;                                              \
	})
#define __mlf_to_u64(x, val)                                          \
	({                                                            \
		union {                                               \
			typeof(x) __v;                                \
			u64 __u;                                      \
		} __c = { .__u = 0 };                                 \
		__c.__v = (val);                                      \
		__c.__u;                                              \
	})
#define __mlf_load_order(x)                                           \
	(__builtin_classify_type(x) == 5 ? MLF_WMM_ACQUIRE : MLF_WMM_RELAXED)
#define __mlf_wmm_load(p, order)                                      \
	__mlf_from_u64(*(p), mlf_wmm_load((p), sizeof(*(p)), (order)))
#define __mlf_wmm_store(p, val, order)                                \
	mlf_wmm_store((p), sizeof(*(p)), __mlf_to_u64(*(p), (val)), (order))

#define READ_ONCE(x)                                                  \
	({                                                            \
		typeof(&(x)) __p = &(x);                              \
		if (mlf_wmm(x) &&                                     \
		    __mlf_load_order(x) == MLF_WMM_RELAXED)           \
			mlf_wmm_promise_point();                      \
		mlf_point(MLF_PT_READ, __p);                          \
		mlf_wmm(x) ? __mlf_wmm_load(__p, __mlf_load_order(x)) :  \
			     __atomic_load_n(__p, __ATOMIC_RELAXED);  \
	})
#define WRITE_ONCE(x, val)                                            \
	({                                                            \
		typeof(&(x)) __p = &(x);                              \
		mlf_point(MLF_PT_WRITE, __p);                         \
		if (mlf_wmm(x))                                       \
			__mlf_wmm_store(__p, (val), MLF_WMM_RELAXED); \
		else                                                  \
			__atomic_store_n(__p, (val), __ATOMIC_RELAXED); \
	})

/*
 * Dependency ordering for ThreadSanitizer (rcu_model.c): in a TSan build's
 * scheduled run, the RCU model notes a WRITE_ONCE_DEP() store and hands
 * a dependent load of it (rcu_dereference*()) what the kernel orders
 * before it; anywhere else they are no-ops.
 */
#if defined(MLF_TSAN) && !defined(MLF_SHIM_BENCH)
bool mlf_rcu_model_dep_store(const volatile void *p);
void mlf_rcu_model_dep_load(const volatile void *p);
void mlf_rcu_model_dep_publish(const volatile void *p);
#define mlf_dep_store(p) (mlf_sched_running() && mlf_rcu_model_dep_store(p))
#define mlf_dep_note(p) ((void)mlf_rcu_model_dep_store(p))
#define mlf_dep_load(p)                                               \
	do {                                                          \
		if (mlf_sched_running())                              \
			mlf_rcu_model_dep_load(p);                    \
	} while (0)
#define mlf_dep_publish(p)                                            \
	do {                                                          \
		if (mlf_sched_running())                              \
			mlf_rcu_model_dep_publish(p);                 \
	} while (0)
#else
#define mlf_dep_store(p) ((void)(p), false)
#define mlf_dep_note(p) ((void)(p))
#define mlf_dep_load(p) ((void)(p))
#define mlf_dep_publish(p) ((void)(p))
#endif

/*
 * A WRITE_ONCE() of a pointer that a lockless reader may follow from an
 * object it already stands on (a moved node's ->next, an unlinked node's
 * predecessor link). The kernel relies on the LKMM's acq-po ; rfe ; addr:
 * the writer holds the lock under which the pointee was published, and
 * the reader's later loads depend on the pointer it read, so what
 * happened before the writer took the lock happens before them, not the
 * writer's own accesses in the section. ThreadSanitizer does not model
 * dependencies: in a scheduled run of a TSan build the store is relaxed
 * and the RCU model gives the dependent load that ordering, no more
 * (mlf_dep_store()); elsewhere it is a release store, the same
 * instruction on x86, which orders more than the kernel does (the
 * OS-scheduled stress engine has no model to do better). Under the weak
 * memory model the store carries that view to the model (wmm.h), and to
 * ThreadSanitizer as above. A plain publish (no rcu_assign_pointer)
 * still races.
 */
#define WRITE_ONCE_DEP(x, val)                                        \
	({                                                            \
		typeof(&(x)) __p = &(x);                              \
		mlf_point(MLF_PT_WRITE, __p);                         \
		if (mlf_wmm(x)) {                                     \
			mlf_dep_note(__p);                            \
			mlf_wmm_store_dep(__p, sizeof(*__p),          \
					  __mlf_to_u64(*__p, (val))); \
		} else if (mlf_dep_store(__p))                        \
			__atomic_store_n(__p, (val), __ATOMIC_RELAXED); \
		else                                                  \
			__atomic_store_n(__p, (val), __ATOMIC_RELEASE); \
	})

#define barrier() __asm__ __volatile__("" ::: "memory")
#define __mlf_fence(kind)                                             \
	({                                                            \
		mlf_point(MLF_PT_BARRIER, NULL);                      \
		if (mlf_wmm(0))                                       \
			mlf_wmm_fence(kind);                          \
		__atomic_thread_fence(__ATOMIC_SEQ_CST);              \
	})
#define smp_mb() __mlf_fence(MLF_WMM_MB)
#define smp_rmb() __mlf_fence(MLF_WMM_RMB)
#define smp_wmb() __mlf_fence(MLF_WMM_WMB)
/* the atomics here are fully ordered or relaxed: these are smp_mb() */
#define smp_mb__before_atomic() smp_mb()
#define smp_mb__after_atomic() smp_mb()
#define smp_load_acquire(p)                                           \
	({                                                            \
		typeof(p) __p = (p);                                  \
		mlf_point(MLF_PT_DEREF, __p);                         \
		mlf_wmm(*__p) ? __mlf_wmm_load(__p, MLF_WMM_ACQUIRE) : \
				__atomic_load_n(__p, __ATOMIC_ACQUIRE); \
	})
#define smp_store_release(p, v)                                       \
	({                                                            \
		typeof(p) __p = (p);                                  \
		mlf_point(MLF_PT_PUBLISH, __p);                       \
		if (mlf_wmm(*__p))                                    \
			__mlf_wmm_store(__p, (v), MLF_WMM_RELEASE);   \
		else                                                  \
			__atomic_store_n(__p, (v), __ATOMIC_RELEASE); \
	})

/* The atomics: one scheduling point each, named by the caller's line. */
#define atomic_long_read(v) \
	({ mlf_point(MLF_PT_ATOMIC, (v)); __atomic_long_read(v); })
#define atomic_long_set(v, i) \
	({ mlf_point(MLF_PT_ATOMIC, (v)); __atomic_long_set((v), (i)); })
#define atomic_long_add_return(i, v) \
	({ mlf_point(MLF_PT_ATOMIC, (v)); __atomic_long_add_return((i), (v)); })
#define atomic_long_add(i, v) \
	({ mlf_point(MLF_PT_ATOMIC, (v)); __atomic_long_add((i), (v)); })
#define atomic_long_dec_return(v) \
	({ mlf_point(MLF_PT_ATOMIC, (v)); __atomic_long_dec_return(v); })
#define atomic_long_inc_not_zero(v) \
	({ mlf_point(MLF_PT_ATOMIC, (v)); __atomic_long_inc_not_zero(v); })

/* The memory model's read-modify-writes: @new from @old (wmm.h). */
static inline bool __mlf_rmw_add(u64 old, u64 i, u64 unused, u64 *new)
{
	(void)unused;
	*new = old + i;
	return true;
}

static inline bool __mlf_rmw_inc_not_zero(u64 old, u64 unused, u64 unused2,
					  u64 *new)
{
	(void)unused;
	(void)unused2;
	*new = old + 1;
	return old != 0;
}

#ifdef MLF_SHIM_BENCH
#define mlf_wmm_atomics() false
#else
#define mlf_wmm_atomics() mlf_wmm_running()
#endif

static inline long __atomic_long_read(const atomic_long_t *v)
{
	if (mlf_wmm_atomics())
		return (long)mlf_wmm_load(&v->counter, sizeof(long),
					  MLF_WMM_RELAXED);
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void __atomic_long_set(atomic_long_t *v, long i)
{
	if (mlf_wmm_atomics()) {
		mlf_wmm_store(&v->counter, sizeof(long), (u64)i,
			      MLF_WMM_RELAXED);
		return;
	}
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

/* value-returning atomics are fully ordered; the others relaxed */
static inline long __atomic_long_add_return(long i, atomic_long_t *v)
{
	if (mlf_wmm_atomics())
		return (long)mlf_wmm_rmw(&v->counter, sizeof(long),
					 __mlf_rmw_add, (u64)i, 0, true) + i;
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}

static inline void __atomic_long_add(long i, atomic_long_t *v)
{
	if (mlf_wmm_atomics()) {
		mlf_wmm_rmw(&v->counter, sizeof(long), __mlf_rmw_add, (u64)i,
			    0, false);
		return;
	}
	__atomic_add_fetch(&v->counter, i, __ATOMIC_RELAXED);
}

static inline long __atomic_long_dec_return(atomic_long_t *v)
{
	if (mlf_wmm_atomics())
		return (long)mlf_wmm_rmw(&v->counter, sizeof(long),
					 __mlf_rmw_add, (u64)-1, 0, true) - 1;
	return __atomic_sub_fetch(&v->counter, 1, __ATOMIC_SEQ_CST);
}

/* Increment unless the counter is zero; true if it was incremented. */
static inline bool __atomic_long_inc_not_zero(atomic_long_t *v)
{
	long c;

	if (mlf_wmm_atomics())
		/* fully ordered when it succeeds; a failed one orders little */
		return mlf_wmm_rmw(&v->counter, sizeof(long),
				   __mlf_rmw_inc_not_zero, 0, 0, true) != 0;
	c = __atomic_load_n(&v->counter, __ATOMIC_RELAXED);

	do {
		if (!c)
			return false;
	} while (!__atomic_compare_exchange_n(&v->counter, &c, c + 1, false,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	return true;
}

#endif
