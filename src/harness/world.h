/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The world a run acts on: 1 to 4 nodes, a pool of memcg slots (m0, m1, ...)
 * with their life-cycle state, the port, and the reference model beside it.
 * world_apply() runs one op on the port and on the model and then checks
 * (src/check/): after every op the O(1) per-node checks and what the op
 * touched, and everything on a schedule (world.c explains which); a failure
 * goes to mlf_fail() with its check name and the op index.
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

/*
 * Which list nodes are lrugens of live memcgs: &lrugen.list of every
 * (slot, node) whose memcg the world allocated and has not released, kept
 * up to date at online and release, so that a check can vouch for a
 * pointer before it follows it. Open addressing, linear probing.
 */
struct mlf_lrugen_map {
	const struct hlist_nulls_node **keys;	/* NULL: free */
	int *vals;				/* slot * MAX_NUMNODES + nid */
	unsigned int cap;			/* power of two */
	unsigned int nr;
};

/* What one op touched: the bins and memcgs its checks cover. */
struct mlf_touched {
	bool full_node[MAX_NUMNODES];	/* a reclaim walk: all of the node */
	u32 bins[MAX_NUMNODES];		/* bit gen * MEMCG_NR_BINS + bin */
	int memcg;			/* the op's memcg, or MLF_NONE */
	/* memcgs a walk released (their bins: on every node) */
	int nr_released;
	int *released;
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
	/* full check after every op while at most this many lrugens are linked */
	unsigned long full_check_small;
	/* world_finish(): full check at the end of an input */
	bool final_check;
	bool finished;
	struct mlf_lrugen_map map;
	/*
	 * world_apply() keeps the map (set at its first op). A driver that
	 * fills slots[] itself (src/harness/concurrent.c) leaves it unset,
	 * and the checks then build a map of their own per call, O(pool).
	 */
	bool map_kept;
	struct mlf_touched touched;
	long op_index;
	/* the op being checked: its kind and node (after clamping) */
	int cur_op_kind;
	int cur_op_node;
	/* counters */
	unsigned long ops_applied, ops_skipped, walks, restarts;
	unsigned long full_check_runs, touched_check_runs;
};

#define MLF_FULL_CHECK_INTERVAL 64
#define MLF_FULL_CHECK_SMALL 128

/*
 * Set up nodes and an empty pool. nr_nodes 1..4, pool_size 1..MLF_MAX_POOL.
 * Checks default to the schedule (full_checks off, full_check_interval
 * MLF_FULL_CHECK_INTERVAL, full_check_small MLF_FULL_CHECK_SMALL,
 * final_check on); the environment variable MLF_CHECKS overrides it:
 * "full" (everything after every op), "touched" (the per-op checks only:
 * no scheduled, small-world or final full check; to show what they catch
 * alone), or a number N (a full check every N ops).
 */
void world_init(struct mlf_world *w, int nr_nodes, int pool_size);
/*
 * The end of an input: a full check of everything (unless final_check is
 * off, or world_apply() never ran). world_destroy() calls it if the
 * caller did not.
 */
void world_finish(struct mlf_world *w);
/* world_finish(), then release every memcg, wait for the frees, reset. */
void world_destroy(struct mlf_world *w);

/*
 * Apply one op (port and model), then check. Returns true if the op applied,
 * false if it did not apply in the current state (e.g. offline of a memcg
 * that is not online): such ops are skipped, never an error.
 */
bool world_apply(struct mlf_world *w, const struct mlf_op *op);

/* Run every check now; reports through mlf_fail(). */
void world_check_all(struct mlf_world *w);
/* Run the per-op checks of the last op again (tests corrupt, then call). */
void world_check_touched(struct mlf_world *w);

/* The slot whose lrugen on some node is @p (*@nid: which), or -1. */
int world_lrugen_lookup(const struct mlf_world *w,
			const struct hlist_nulls_node *p, int *nid);
/* The same on any map; and (re)fill @map from w->slots, O(pool). */
int mlf_lrugen_map_lookup(const struct mlf_lrugen_map *map,
			  const struct hlist_nulls_node *p, int *nid);
void mlf_lrugen_map_fill(struct mlf_lrugen_map *map,
			 const struct mlf_world *w);

#endif
