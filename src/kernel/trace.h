/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints, as the kernel has them: the port marks events of its walk
 * (start, restart, a failed tryget, a visit, the end) and the harness may
 * attach a probe to count them or to check what the walk passed.
 */
#ifndef _MLF_KERNEL_TRACE_H
#define _MLF_KERNEL_TRACE_H

enum mlf_walk_event {
	MLF_WALK_START,		/* shrink_many() begins: arg = gen */
	MLF_WALK_BIN,		/* a bin walk begins: arg = bin */
	MLF_WALK_RESTART,	/* nulls mismatch: arg = nulls value met */
	MLF_WALK_VISIT,		/* shrink_one() on @obj (a lruvec) */
	MLF_WALK_TRYGET_FAILED,	/* tryget failed on @obj (a memcg) */
	MLF_WALK_END,		/* shrink_many() returns */
};

typedef void (*mlf_walk_probe_t)(enum mlf_walk_event event, void *obj,
				 long arg);
extern mlf_walk_probe_t mlf_walk_probe;

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

#endif
