/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The walk's events, as tracepoints would give them, without a line in the
 * port's copy of the kernel's code: the harness marks a walk in progress on
 * the current task (mlf_walk_begin(), around shrink_many()), and the shim's
 * own primitives that the walk uses report what it does:
 *
 *   hlist_nulls_for_each_entry_rcu()  a pass over a bin begins: the first
 *                                     one is the walk's START (with its
 *                                     generation), each one a BIN
 *   get_nulls_value()                 the pass ended on a nulls marker:
 *                                     NULLS, and RESTART if the value is
 *                                     not the walk's generation
 *   mem_cgroup_tryget() (memcontrol.h)  a failed tryget: TRYGET_FAILED
 *   shrink_one() (shrink_one.h)       a VISIT
 *   mlf_walk_end()                    the walk returned: END
 *
 * A pass that ends on an entry (an abort) calls no get_nulls_value(): the
 * END comes without a NULLS. Events go to the probe the harness attached.
 */
#ifndef _MLF_KERNEL_TRACE_H
#define _MLF_KERNEL_TRACE_H

#include "task.h"

enum mlf_walk_event {
	MLF_WALK_START,		/* shrink_many() begins: arg = gen */
	MLF_WALK_BIN,		/* a bin walk begins: arg = bin */
	MLF_WALK_NULLS,		/* a bin walk ended on a nulls: arg = value */
	MLF_WALK_RESTART,	/* ... of another generation: arg = value */
	MLF_WALK_VISIT,		/* shrink_one() on @obj (a lruvec) */
	MLF_WALK_TRYGET_FAILED,	/* tryget failed on @obj (a memcg) */
	MLF_WALK_END,		/* shrink_many() returns */
};

typedef void (*mlf_walk_probe_t)(enum mlf_walk_event event, void *obj,
				 long arg);
extern mlf_walk_probe_t mlf_walk_probe;

/*
 * What shrink_one() decided for the lruvec it visited: the rotation
 * shrink_many() will apply (0: none). A probe of its own, beside the walk's
 * events: the harness wraps each call of shrink_one() in shrink_many()
 * (src/mm/shrink_one.h), so neither the port's text nor a kernel tree's
 * carries a line for it.
 */
typedef void (*mlf_walk_result_probe_t)(void *lruvec, int op);
extern mlf_walk_result_probe_t mlf_walk_result_probe;

static inline int mlf_walk_visit_result(void *lruvec, int op)
{
#ifndef MLF_SHIM_BENCH
	mlf_walk_result_probe_t probe =
		__atomic_load_n(&mlf_walk_result_probe, __ATOMIC_RELAXED);

	if (probe)
		probe(lruvec, op);
#else
	(void)lruvec;
#endif
	return op;
}

/* A walk of one node's bins: where its heads are, and what it met. */
struct mlf_walk {
	void *pgdat;
	const void *heads;	/* &fifo[0][0]: gen * nr_bins + bin */
	size_t head_size;
	int nr_gens, nr_bins;
	bool started;
	long gen;
};

#ifdef MLF_SHIM_BENCH
#include "bench_fast.h"	/* no probe: the hooks compile to nothing */
#else
static inline void trace_mlf_walk(enum mlf_walk_event event, void *obj,
				  long arg)
{
	mlf_walk_probe_t probe = __atomic_load_n(&mlf_walk_probe,
						 __ATOMIC_RELAXED);

	if (probe)
		probe(event, obj, arg);
}
#endif

#ifdef MLF_SHIM_BENCH
/* the bench shim: no walk is ever watched */
static inline void mlf_walk_begin(struct mlf_walk *walk)
{
	(void)walk;
}

static inline void mlf_walk_end(void)
{
}

#define mlf_walk_active() 0
#define mlf_walk_pass(head) (head)
#define mlf_walk_nulls(value) (value)
#else
/* Around a walk: mark it in progress on the current task, then END. */
void mlf_walk_begin(struct mlf_walk *walk);
void mlf_walk_end(void);

/* The shim's hooks: a pass begins at @head; a pass ended on @value. */
void __mlf_walk_pass(const void *head);
void __mlf_walk_nulls(unsigned long value);

/* Whether a walk is in progress on the current task. */
#define mlf_walk_active() unlikely(mlf_current()->walk != NULL)

static inline const void *mlf_walk_pass(const void *head)
{
	if (mlf_walk_active())
		__mlf_walk_pass(head);
	return head;
}

static inline unsigned long mlf_walk_nulls(unsigned long value)
{
	if (mlf_walk_active())
		__mlf_walk_nulls(value);
	return value;
}
#endif

#endif
