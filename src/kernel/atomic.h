/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atomic_t and the generic cmpxchg() / xchg(), with the kernel's ordering
 * (Documentation/atomic_t.txt): the value-returning read-modify-writes are
 * fully ordered, a failed cmpxchg() and the void ones are not. Each is one
 * scheduling point; under the weak memory model they go through it
 * (wmm.h), else they are the compiler's atomics, sequentially consistent.
 */
#ifndef _MLF_KERNEL_ATOMIC_H
#define _MLF_KERNEL_ATOMIC_H

#include "compiler.h"

typedef struct {
	int counter;
} atomic_t;

#define ATOMIC_INIT(i) { (i) }

static inline bool __mlf_rmw_cmpxchg(u64 old, u64 expect, u64 val, u64 *new)
{
	*new = val;
	return old == expect;
}

static inline bool __mlf_rmw_xchg(u64 old, u64 val, u64 unused, u64 *new)
{
	(void)old;
	(void)unused;
	*new = val;
	return true;
}

/* the int add of atomic_t: the history holds 4-byte values */
static inline bool __mlf_rmw_add_int(u64 old, u64 i, u64 unused, u64 *new)
{
	(void)unused;
	*new = (u32)((u32)old + (u32)i);
	return true;
}

static inline bool __mlf_rmw_add_unless(u64 old, u64 i, u64 u, u64 *new)
{
	if ((u32)old == (u32)u)
		return false;
	*new = (u32)((u32)old + (u32)i);
	return true;
}

#define __mlf_rmw(p, fn, a, b, full)                                  \
	__mlf_from_u64(*(p), mlf_wmm_rmw((p), sizeof(*(p)), (fn),     \
					 __mlf_to_u64(*(p), (a)),     \
					 __mlf_to_u64(*(p), (b)), (full)))

#define cmpxchg(ptr, o, n)                                            \
	({                                                            \
		typeof(ptr) __p = (ptr);                              \
		typeof(*__p) __o = (o), __n = (n);                    \
		mlf_point(MLF_PT_ATOMIC, __p);                        \
		if (mlf_wmm_atomics())                                \
			__o = __mlf_rmw(__p, __mlf_rmw_cmpxchg, __o,  \
					__n, true);                   \
		else                                                  \
			__atomic_compare_exchange_n(                  \
				__p, &__o, __n, false,                \
				__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);  \
		__o;                                                  \
	})

#define xchg(ptr, v)                                                  \
	({                                                            \
		typeof(ptr) __p = (ptr);                              \
		typeof(*__p) __v = (v);                               \
		mlf_point(MLF_PT_ATOMIC, __p);                        \
		mlf_wmm_atomics() ?                                   \
			__mlf_rmw(__p, __mlf_rmw_xchg, __v, 0, true) : \
			__atomic_exchange_n(__p, __v, __ATOMIC_SEQ_CST); \
	})

#define atomic_read(v) READ_ONCE((v)->counter)
#define atomic_set(v, i) WRITE_ONCE((v)->counter, (i))

static inline int __atomic_add_return_int(int i, atomic_t *v, bool full)
{
	if (mlf_wmm_atomics())
		return (int)(u32)mlf_wmm_rmw(&v->counter, sizeof(int),
					     __mlf_rmw_add_int, (u32)i, 0,
					     full) + i;
	return __atomic_add_fetch(&v->counter, i,
				  full ? __ATOMIC_SEQ_CST : __ATOMIC_RELAXED);
}

#define atomic_add_return(i, v)                                       \
	({                                                            \
		mlf_point(MLF_PT_ATOMIC, (v));                        \
		__atomic_add_return_int((i), (v), true);              \
	})
#define atomic_add(i, v)                                              \
	({                                                            \
		mlf_point(MLF_PT_ATOMIC, (v));                        \
		(void)__atomic_add_return_int((i), (v), false);       \
	})
#define atomic_inc_return(v) atomic_add_return(1, (v))
#define atomic_dec_return(v) atomic_add_return(-1, (v))
#define atomic_inc(v) atomic_add(1, (v))
#define atomic_dec(v) atomic_add(-1, (v))

/* Add @a unless the counter is @u; true if it added (fully ordered then). */
static inline bool __atomic_add_unless_int(atomic_t *v, int a, int u)
{
	int c;

	if (mlf_wmm_atomics())
		return (int)(u32)mlf_wmm_rmw(&v->counter, sizeof(int),
					     __mlf_rmw_add_unless, (u32)a,
					     (u32)u, true) != u;
	c = __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
	do {
		if (c == u)
			return false;
	} while (!__atomic_compare_exchange_n(&v->counter, &c, c + a, false,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	return true;
}

#define atomic_add_unless(v, a, u)                                    \
	({                                                            \
		mlf_point(MLF_PT_ATOMIC, (v));                        \
		__atomic_add_unless_int((v), (a), (u));               \
	})

#endif
