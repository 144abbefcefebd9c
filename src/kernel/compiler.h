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

/* A scheduling point of @kind on the object at @p, here in the source. */
#ifdef MLF_SHIM_BENCH
#define mlf_point(kind, p) ((void)(p))	/* the bench shim: none */
#else
#define mlf_point(kind, p) mlf_sched_point((kind), (p), MLF_SITE())
#endif

#define READ_ONCE(x)                                                  \
	({                                                            \
		typeof(&(x)) __p = &(x);                              \
		mlf_point(MLF_PT_READ, __p);                          \
		__atomic_load_n(__p, __ATOMIC_RELAXED);               \
	})
#define WRITE_ONCE(x, val)                                            \
	({                                                            \
		typeof(&(x)) __p = &(x);                              \
		mlf_point(MLF_PT_WRITE, __p);                         \
		__atomic_store_n(__p, (val), __ATOMIC_RELAXED);       \
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
 * OS-scheduled stress engine has no model to do better). A plain publish
 * (no rcu_assign_pointer) still races.
 */
#define WRITE_ONCE_DEP(x, val)                                        \
	({                                                            \
		typeof(&(x)) __p = &(x);                              \
		mlf_point(MLF_PT_WRITE, __p);                         \
		if (mlf_dep_store(__p))                               \
			__atomic_store_n(__p, (val), __ATOMIC_RELAXED); \
		else                                                  \
			__atomic_store_n(__p, (val), __ATOMIC_RELEASE); \
	})

#define barrier() __asm__ __volatile__("" ::: "memory")
#define smp_mb()                                                      \
	({                                                            \
		mlf_point(MLF_PT_BARRIER, NULL);                      \
		__atomic_thread_fence(__ATOMIC_SEQ_CST);              \
	})
#define smp_load_acquire(p)                                           \
	({                                                            \
		typeof(p) __p = (p);                                  \
		mlf_point(MLF_PT_DEREF, __p);                         \
		__atomic_load_n(__p, __ATOMIC_ACQUIRE);               \
	})
#define smp_store_release(p, v)                                       \
	({                                                            \
		typeof(p) __p = (p);                                  \
		mlf_point(MLF_PT_PUBLISH, __p);                       \
		__atomic_store_n(__p, (v), __ATOMIC_RELEASE);         \
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

static inline long __atomic_long_read(const atomic_long_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void __atomic_long_set(atomic_long_t *v, long i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline long __atomic_long_add_return(long i, atomic_long_t *v)
{
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}

static inline void __atomic_long_add(long i, atomic_long_t *v)
{
	__atomic_add_fetch(&v->counter, i, __ATOMIC_RELAXED);
}

static inline long __atomic_long_dec_return(atomic_long_t *v)
{
	return __atomic_sub_fetch(&v->counter, 1, __ATOMIC_SEQ_CST);
}

/* Increment unless the counter is zero; true if it was incremented. */
static inline bool __atomic_long_inc_not_zero(atomic_long_t *v)
{
	long c = __atomic_load_n(&v->counter, __ATOMIC_RELAXED);

	do {
		if (!c)
			return false;
	} while (!__atomic_compare_exchange_n(&v->counter, &c, c + 1, false,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	return true;
}

#endif
