// SPDX-License-Identifier: GPL-2.0
/* The walk's events (trace.h): the probe, and the hooks that raise them. */
#include "trace.h"

mlf_walk_probe_t mlf_walk_probe;
mlf_walk_result_probe_t mlf_walk_result_probe;

void mlf_walk_begin(struct mlf_walk *walk)
{
	walk->started = false;
	walk->gen = -1;
	mlf_current()->walk = walk;
}

void mlf_walk_end(void)
{
	struct mlf_walk *walk = mlf_current()->walk;

	mlf_current()->walk = NULL;
	if (walk)
		trace_mlf_walk(MLF_WALK_END, walk->pgdat, 0);
}

void __mlf_walk_pass(const void *head)
{
	struct mlf_walk *walk = mlf_current()->walk;
	long idx = ((const char *)head - (const char *)walk->heads) /
		   (long)walk->head_size;

	if (idx < 0 || idx >= walk->nr_gens * walk->nr_bins)
		return;		/* not one of this node's bins */
	/* a rotation inside the walk, under the node lock: no pass */
	if (mlf_current()->locks_held)
		return;
	if (!walk->started) {
		walk->started = true;
		walk->gen = idx / walk->nr_bins;
		trace_mlf_walk(MLF_WALK_START, walk->pgdat, walk->gen);
	}
	trace_mlf_walk(MLF_WALK_BIN, walk->pgdat, idx % walk->nr_bins);
}

void __mlf_walk_nulls(unsigned long value)
{
	struct mlf_walk *walk = mlf_current()->walk;

	/* not the walk's own pass: a rotation's, under the node lock */
	if (!walk->started || mlf_current()->locks_held)
		return;
	trace_mlf_walk(MLF_WALK_NULLS, walk->pgdat, (long)value);
	if ((long)value != walk->gen)
		trace_mlf_walk(MLF_WALK_RESTART, walk->pgdat, (long)value);
}
