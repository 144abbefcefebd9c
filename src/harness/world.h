/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The world a run acts on: 1 to 4 nodes, a pool of memcg slots (m0, m1, ...)
 * with their life-cycle state, the port, and the reference model beside it.
 * world_apply() runs one op on the port and on the model and then checks
 * every structure invariant and the model (src/check/); a failure goes to
 * mlf_fail() with its check name and the op index.
 */
#ifndef _MLF_HARNESS_WORLD_H
#define _MLF_HARNESS_WORLD_H

#include "../mm/vmscan.h"
#include "../check/model.h"
#include "op.h"

#define MLF_MAX_POOL 4096

enum mlf_slot_state {
	SLOT_EMPTY,	/* never onlined, or freed: may be onlined (again) */
	SLOT_ONLINE,	/* onlined, holds the base reference */
	SLOT_OFFLINE,	/* offlined, other references remain */
	SLOT_DEAD,	/* last reference gone: tryget fails, release pending */
};

struct mlf_slot {
	struct mem_cgroup *memcg;	/* NULL when SLOT_EMPTY */
	enum mlf_slot_state state;
	long refs;			/* references held by the harness */
};

struct mlf_world {
	int nr_nodes;
	int pool_size;
	struct pglist_data nodes[MAX_NUMNODES];
	struct mlf_slot *slots;
	struct mlf_model model;
	/* seq of each node before the current op (seq.monotonic/advance) */
	unsigned long seq_before[MAX_NUMNODES];
	unsigned long old_count_before[MAX_NUMNODES];
	/* check everything after every op (else: what the op touched) */
	bool full_checks;
	/* full check every N ops when full_checks is off (0: never) */
	unsigned long full_check_interval;
	long op_index;
	/* the op being checked: its kind and node (after clamping) */
	int cur_op_kind;
	int cur_op_node;
	/* counters */
	unsigned long ops_applied, ops_skipped, walks, restarts;
};

/* Set up nodes and an empty pool. nr_nodes 1..4, pool_size 1..MLF_MAX_POOL. */
void world_init(struct mlf_world *w, int nr_nodes, int pool_size);
/* Release every memcg, wait for the frees, and reset the shim's state. */
void world_destroy(struct mlf_world *w);

/*
 * Apply one op (port and model), then check. Returns true if the op applied,
 * false if it did not apply in the current state (e.g. offline of a memcg
 * that is not online): such ops are skipped, never an error.
 */
bool world_apply(struct mlf_world *w, const struct mlf_op *op);

/* Run every check now; reports through mlf_fail(). */
void world_check_all(struct mlf_world *w);

#endif
