/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The floor: the kernel APIs the code under test uses, in their plainest
 * form, with nothing of src/kernel/. bench/CMakeLists.txt force-includes
 * this header (-include) before the tree's cut, its glue, memcontrol.c and
 * the benchmark driver, so that the same code and the same loop run with
 * no shim at all: what a visit costs when only the algorithm is left.
 *
 * The definitions follow the kernel's for x86-64 (CONFIG_DEBUG_VM=n,
 * CONFIG_LOCKDEP=n, CONFIG_PREEMPT_NONE's RCU read side, no tracepoints);
 * the lists are the tree's own headers. The lock is a spinning exchange,
 * the cost of an uncontended qspinlock; draws come from a per-thread
 * xorshift64.
 */
#ifndef _MLF_BENCH_FLOOR_KERNEL_H
#define _MLF_BENCH_FLOOR_KERNEL_H

/* The shim's umbrella header must not come in: mmzone.h includes it. */
#define _MLF_KERNEL_KERNEL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned int gfp_t;
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define __rcu
#define __force
#define __maybe_unused __attribute__((unused))

#define barrier() __asm__ __volatile__("" ::: "memory")
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)                                  \
	do {                                                \
		*(volatile __typeof__(x) *)&(x) = (val);    \
	} while (0)
/* x86: a release store is a compiler barrier and a plain store */
#define smp_store_release(p, v)     \
	do {                        \
		barrier();          \
		WRITE_ONCE(*(p), v); \
	} while (0)

/* include/linux/bug.h and mmdebug.h with CONFIG_DEBUG_VM=n */
#define VM_WARN_ON_ONCE(cond) ((void)sizeof(cond))
#define VM_BUG_ON(cond) ((void)sizeof(cond))

/* atomic_long_t: the lock-prefixed operations of arch/x86 */
typedef struct {
	long counter;
} atomic_long_t;

static inline long atomic_long_read(const atomic_long_t *v)
{
	return READ_ONCE(v->counter);
}

static inline void atomic_long_set(atomic_long_t *v, long i)
{
	WRITE_ONCE(v->counter, i);
}

static inline void atomic_long_add(long i, atomic_long_t *v)
{
	__atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}

static inline long atomic_long_dec_return(atomic_long_t *v)
{
	return __atomic_sub_fetch(&v->counter, 1, __ATOMIC_SEQ_CST);
}

static inline bool atomic_long_inc_not_zero(atomic_long_t *v)
{
	long c = READ_ONCE(v->counter);

	do {
		if (!c)
			return false;
	} while (!__atomic_compare_exchange_n(&v->counter, &c, c + 1, false,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	return true;
}

/* nodes, poison, allocation */
#define MAX_NUMNODES 4
extern int nr_node_ids;
#define for_each_node(nid) for ((nid) = 0; (nid) < nr_node_ids; (nid)++)

#define LIST_POISON1 ((void *)0x100)
#define LIST_POISON2 ((void *)0x122)

#define GFP_KERNEL 0
static inline void *kzalloc(size_t size, int gfp)
{
	(void)gfp;
	return calloc(1, size);
}

static inline void kfree_poisoned(void *ptr, size_t size)
{
	(void)size;
	free(ptr);
}

/*
 * RCU: CONFIG_PREEMPT_NONE's read side; nothing is freed in the floor. The
 * head is as large as the shim's (rcu_head.h), so that struct mem_cgroup,
 * and with it where malloc puts each lruvec, is the same as in the other
 * builds: v6.12's walk is a pointer chase that feels the layout.
 */
struct callback_head {
	void *urcu_storage[4];
	void (*func)(struct callback_head *head);
};
#define rcu_head callback_head

#define rcu_read_lock() barrier()
#define rcu_read_unlock() barrier()
#define rcu_dereference_raw(p) READ_ONCE(p)
#define rcu_assign_pointer(p, v) smp_store_release(&(p), v)

static inline void call_rcu(struct rcu_head *head,
			    void (*func)(struct rcu_head *head))
{
	(void)head;
	(void)func;
	abort();	/* the floor frees nothing */
}

/* the lock: an uncontended qspinlock costs one locked RMW and a store */
typedef struct {
	int locked;
} spinlock_t;

static inline void floor_spin_lock(spinlock_t *lock)
{
	while (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))
		while (READ_ONCE(lock->locked))
#if defined(__x86_64__) || defined(__i386__)
			__builtin_ia32_pause();
#else
			barrier();
#endif
}

static inline void floor_spin_unlock(spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

#define spin_lock_init(l) ((l)->locked = 0)
#define spin_lock_irq(l) floor_spin_lock(l)
#define spin_unlock_irq(l) floor_spin_unlock(l)
#define spin_lock(l) floor_spin_lock(l)
#define spin_unlock(l) floor_spin_unlock(l)
#define spin_lock_irqsave(l, flags)   \
	do {                          \
		(flags) = 0;          \
		floor_spin_lock(l);   \
	} while (0)
#define spin_unlock_irqrestore(l, flags) \
	do {                             \
		(void)(flags);           \
		floor_spin_unlock(l);    \
	} while (0)
#define lockdep_assert_held(l) ((void)(l))

/* scheduling points and tracepoints: nothing */
#define cond_resched() barrier()
#define cond_resched_tasks_rcu_qs() barrier()
#define current_is_kswapd() false
#define trace_mlf_walk(event, obj, arg) ((void)(obj))
#define mlf_walk_visit_result(lruvec, op) ((void)(lruvec), (op))
/* the walk's events (src/kernel/trace.h): no walk is ever watched */
struct mlf_walk {
	void *pgdat;
	const void *heads;
	size_t head_size;
	int nr_gens, nr_bins;
};
#define mlf_walk_begin(walk) ((void)(walk))
#define mlf_walk_end() do { } while (0)
#define mlf_walk_active() 0

/* draws: a per-thread xorshift64 (floor.c) */
extern __thread u64 mlf_floor_rng;
void mlf_floor_seed(u64 seed);

static inline u32 get_random_u32_below(u32 ceil)
{
	u64 x = mlf_floor_rng;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	mlf_floor_rng = x;
	return (u32)(((x >> 32) * ceil) >> 32);
}

/* the walk's events (src/kernel/trace.h), for the tree's glue: none */
#define mlf_walk_pass(head) (head)
#define mlf_walk_nulls(value) (value)

/*
 * The tree's own <linux/list_nulls.h> and <linux/rculist_nulls.h> (cut
 * into the build directory), on floor/include/'s empty <linux/poison.h>,
 * <linux/const.h> and <linux/rcupdate.h>: what they use is above.
 */
#ifndef __KERNEL__
#define __KERNEL__
#endif
#include <linux/rculist_nulls.h>

/* the configuration of the tree's code (as kernel/mlf_tree.h has it) */
#define CONFIG_MEMCG 1
#define CONFIG_LRU_GEN 1

#endif
