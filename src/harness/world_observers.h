/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What runs around an op of the sequential driver besides the op itself:
 * world.c applies an op to the port and to the model; the observers
 * (world_observers.c: state coverage, the map of live lrugens, the touched
 * bins, the checks) note what they need before it, what a reclaim walk
 * meets during it, and check after it. A new concern is one more entry in
 * their table, not one more line in world_apply().
 */
#ifndef _MLF_HARNESS_WORLD_OBSERVERS_H
#define _MLF_HARNESS_WORLD_OBSERVERS_H

#include "world.h"

/* What a reclaim walk met, from its probe. */
struct walk_record {
	int failed[MLF_MAX_POOL];	/* memcgs whose tryget failed */
	int nr_failed;
	unsigned long restarts;
};

/* One applied op as its observers share it. */
struct world_op {
	const struct mlf_op *op;	/* memcg and node in range */
	/* a reclaim: what its walk met (else NULL), and if it met its target */
	const struct walk_record *walk;
	bool aborted;
	/*
	 * seg.semantics: the rotation the op makes (on rotate_node, or on
	 * every node: MLF_NONE), and where the model had the memcg before
	 */
	bool rotates;
	int rotate_op, rotate_node;
	struct {
		int gen, seg;
	} before[MAX_NUMNODES];
};

struct world_observer {
	const char *name;
	/* the op applies; neither the port nor the model has it yet */
	void (*before)(struct mlf_world *w, struct world_op *o);
	/* the port's reclaim walk met @obj (trace.h's events) */
	void (*walk)(struct mlf_world *w, struct world_op *o,
		     enum mlf_walk_event event, void *obj);
	/* the port and the model have it */
	void (*after)(struct mlf_world *w, struct world_op *o);
};

/* in the order they run */
extern const struct world_observer world_observers[];
extern const int world_nr_observers;

/* Add the memcg in @slot to the map of live lrugens, or take it out. */
void world_map_memcg(struct mlf_world *w, int slot, bool add);

#endif
