/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bench shim: fast paths that cost what the kernel's do, for benchmarks
 * of the port's algorithm (bench/README.md). Only bench/ builds with
 * -DMLF_SHIM_BENCH; under it spinlock.h, random.h, rcupdate.h, sched.h and
 * trace.h take their definitions from here instead of their checked forms,
 * and the port's sources stay the same.
 *
 *   spinlock_t       a test-and-test-and-set spinlock: no sleeping waiter,
 *                    no owner, no lockdep; the benchmark pins one worker per
 *                    core so that, as under spin_lock_irqsave(), a holder is
 *                    not preempted by a waiter of its own benchmark
 *   _irq / _irqsave  no simulated interrupt state (flags is 0)
 *   lockdep_assert_held()        nothing (CONFIG_LOCKDEP=n)
 *   get_random_u32_below()       a per-thread prng.h generator, inlined
 *   rcu_read_lock() / unlock()   a per-thread nesting count and a compiler
 *                    barrier (PREEMPT_RCU's fast path); no grace periods:
 *                    the benchmarks free nothing while they run, and
 *                    synchronize_rcu() / call_rcu() / rcu_barrier() abort
 *   cond_resched()   nothing (no reschedule is ever due)
 *   trace_mlf_walk() nothing (a tracepoint with no probe attached)
 *
 * READ_ONCE / WRITE_ONCE and the atomics stay as compiler.h has them: a
 * relaxed __atomic load or store is the same mov as the kernel's volatile
 * access, and atomic_long_* are the kernel's lock-prefixed operations.
 * VM_WARN_ON_ONCE() stays too (one predictable branch).
 *
 * -DMLF_SHIM_BENCH_STATS adds lock statistics read from the TSC (2 rdtsc per
 * wait, 2 per hold timed, one hold in mlf_bench_stats_period timed) in a
 * build of its own, so that the fast build stays clean;
 * -DMLF_SHIM_BENCH_WORK adds a busy wait per visit (mlf_bench_visit_work
 * cycles, outside the lock) in another.
 */
#ifndef _MLF_KERNEL_BENCH_FAST_H
#define _MLF_KERNEL_BENCH_FAST_H

#include "compiler.h"
#include "prng.h"
#include "rcu_head.h"
#include "types.h"

/* Per-thread state, in bench_fast.c. */
extern __thread struct mlf_rng mlf_bench_rng;
extern __thread int mlf_bench_rcu_depth;

/* Seed the calling thread's generator (0 picks a fixed nonzero seed). */
void mlf_bench_seed(u64 seed);
/* synchronize_rcu() and the rest: the bench shim has no grace periods. */
__attribute__((noreturn)) void mlf_bench_no_grace_period(const char *what);

static inline void mlf_bench_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	barrier();
#endif
}

/* Cycles of the TSC (x86) or nanoseconds (elsewhere), for the statistics. */
u64 mlf_bench_clock_fallback(void);
static inline u64 mlf_bench_cycles(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	return mlf_bench_clock_fallback();
#endif
}

/*
 * Lock statistics of the calling thread (MLF_SHIM_BENCH_STATS builds). Every
 * acquisition is counted; one that finds the lock taken is timed from its
 * first failed try to the lock (a waiter has the time), and the hold of one
 * acquisition in mlf_bench_stats_period is timed, so that the clock reads
 * inside the critical section can be spread thin: the mean hold is the
 * sampled one.
 */
struct mlf_bench_lock_stats {
	unsigned long acquisitions;
	unsigned long contended;	/* acquisitions that found it taken */
	unsigned long sampled;		/* holds timed */
	u64 wait_cycles;		/* from the first failed try to the lock */
	u64 max_wait_cycles;
	u64 hold_cycles;		/* of the timed holds */
	u64 max_hold_cycles;
	u64 hold_start;			/* 0 if this hold is not timed */
	unsigned long countdown;	/* acquisitions to the next timed hold */
};
extern __thread struct mlf_bench_lock_stats mlf_bench_lock_stats;
extern unsigned long mlf_bench_stats_period;	/* 1: time every one */
/* Add the calling thread's statistics into @sum and clear them. */
void mlf_bench_lock_stats_collect(struct mlf_bench_lock_stats *sum);

/******************************************************************************
 *                          spinlock.h
 ******************************************************************************/

typedef struct spinlock {
	int locked;
} spinlock_t;

static inline void mlf_bench_spin_lock_init(spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELAXED);
}

static inline void mlf_bench_spin_lock(spinlock_t *lock)
{
#ifdef MLF_SHIM_BENCH_STATS
	struct mlf_bench_lock_stats *s = &mlf_bench_lock_stats;
	u64 start = 0, now = 0;
#endif

	while (unlikely(__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))) {
#ifdef MLF_SHIM_BENCH_STATS
		if (!start)
			start = mlf_bench_cycles();
#endif
		while (__atomic_load_n(&lock->locked, __ATOMIC_RELAXED))
			mlf_bench_cpu_relax();
	}
#ifdef MLF_SHIM_BENCH_STATS
	s->acquisitions++;
	if (start) {
		now = mlf_bench_cycles();
		s->contended++;
		s->wait_cycles += now - start;
		if (now - start > s->max_wait_cycles)
			s->max_wait_cycles = now - start;
	}
	s->hold_start = 0;
	if (s->countdown--)
		return;
	s->countdown = mlf_bench_stats_period - 1;
	s->sampled++;
	s->hold_start = now ? now : mlf_bench_cycles();
#endif
}

static inline void mlf_bench_spin_unlock(spinlock_t *lock)
{
#ifdef MLF_SHIM_BENCH_STATS
	struct mlf_bench_lock_stats *s = &mlf_bench_lock_stats;

	if (s->hold_start) {
		u64 held = mlf_bench_cycles() - s->hold_start;

		s->hold_cycles += held;
		if (held > s->max_hold_cycles)
			s->max_hold_cycles = held;
	}
#endif
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

#define spin_lock_init(l) mlf_bench_spin_lock_init(l)
#define spin_lock(l) mlf_bench_spin_lock(l)
#define spin_unlock(l) mlf_bench_spin_unlock(l)
#define spin_lock_irq(l) mlf_bench_spin_lock(l)
#define spin_unlock_irq(l) mlf_bench_spin_unlock(l)

#define spin_lock_irqsave(l, flags)      \
	do {                             \
		(flags) = 0;             \
		mlf_bench_spin_lock(l);  \
	} while (0)

#define spin_unlock_irqrestore(l, flags)  \
	do {                              \
		(void)(flags);            \
		mlf_bench_spin_unlock(l); \
	} while (0)

#define lockdep_assert_held(l) ((void)(l))

/******************************************************************************
 *                          random.h
 ******************************************************************************/

static inline u32 get_random_u32(void)
{
	return mlf_rng_next(&mlf_bench_rng);
}

static inline u32 get_random_u32_below(u32 ceil)
{
	return mlf_rng_below(&mlf_bench_rng, ceil);
}

/******************************************************************************
 *                          rcupdate.h
 ******************************************************************************/

static inline void rcu_read_lock(void)
{
	mlf_bench_rcu_depth++;
	barrier();
}

static inline void rcu_read_unlock(void)
{
	barrier();
	mlf_bench_rcu_depth--;
}

static inline int rcu_read_lock_held(void)
{
	return mlf_bench_rcu_depth > 0;
}

static inline void synchronize_rcu(void)
{
	mlf_bench_no_grace_period("synchronize_rcu");
}

static inline void call_rcu(struct callback_head *head,
			    void (*func)(struct callback_head *head))
{
	(void)head;
	(void)func;
	mlf_bench_no_grace_period("call_rcu");
}

static inline void rcu_barrier(void)
{
	mlf_bench_no_grace_period("rcu_barrier");
}

/******************************************************************************
 *                          sched.h, trace.h
 ******************************************************************************/

#define cond_resched() barrier()
#define cond_resched_tasks_rcu_qs() barrier()

#ifdef MLF_SHIM_BENCH_WORK
/*
 * A busy wait of mlf_bench_visit_work cycles at each shrink_one(), outside
 * the lock: the page and slab work a kernel visit does and the port
 * leaves out, for measuring how it dilutes the rotation's share.
 */
extern u64 mlf_bench_visit_work;
static inline void mlf_bench_do_visit_work(void)
{
	u64 end = mlf_bench_cycles() + mlf_bench_visit_work;

	while (mlf_bench_cycles() < end)
		;
}
#define trace_mlf_walk(event, obj, arg)                                   \
	do {                                                              \
		if ((event) == MLF_WALK_VISIT && mlf_bench_visit_work)    \
			mlf_bench_do_visit_work();                        \
	} while (0)
#else
static inline void trace_mlf_walk(int event, void *obj, long arg)
{
	(void)event;
	(void)obj;
	(void)arg;
}
#endif

#endif
