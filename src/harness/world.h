/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The world a run acts on: 1 to 4 nodes, a pool of memcg slots (m0, m1, ...)
 * with their life-cycle state, the port, and the reference model beside it.
 * world_apply() runs one op on the port and on the model and then hands it
 * to the observers (world_observers.h), whose checks (src/check/) cover
 * after every op the O(1) per-node checks and what the op touched, and
 * everything on a schedule (world_observers.c explains which); a failure
 * goes to mlf_fail() with its check name and the op index.
 */
#ifndef _MLF_HARNESS_WORLD_H
#define _MLF_HARNESS_WORLD_H

#include "check/op.h"
#include "check/state.h"

#define MLF_MAX_POOL 4096

#define MLF_TOUCHED_SEAMS 6

/* What one op touched: the bins and memcgs its checks cover. */
struct mlf_touched {
	bool full_node[MAX_NUMNODES];	/* a reclaim walk: all of the node */
	u32 bins[MAX_NUMNODES];		/* bit gen * MEMCG_NR_BINS + bin */
	/*
	 * Where in those bins the op wrote, as the model has it: the position
	 * a memcg left (its old neighbours now meet there) or took. More than
	 * MLF_TOUCHED_SEAMS on a node: its touched bins are compared whole.
	 */
	struct {
		u8 bin;			/* gen * MEMCG_NR_BINS + bin */
		int at;
	} seams[MAX_NUMNODES][MLF_TOUCHED_SEAMS];
	int nr_seams[MAX_NUMNODES];
	int memcg;			/* the op's memcg, or MLF_NONE */
	/* memcgs a walk released (their bins: on every node) */
	int nr_released;
	int *released;
};

struct mlf_world {
	/*
	 * What the checks read (check/state.h): nodes, slots, model, the map
	 * of live lrugens (world_apply() keeps it, from its first op on) and
	 * the notes of the current op.
	 */
	struct mlf_check_state cs;
	/* check everything after every op (else: what the op touched) */
	bool full_checks;
	/* full check every N ops when full_checks is off (0: never) */
	unsigned long full_check_interval;
	/* full check after every op while at most this many lrugens are linked */
	unsigned long full_check_small;
	/* world_finish(): full check at the end of an input */
	bool final_check;
	bool finished;
	/* the state after the last op passed a full check (no op since) */
	bool checked_in_full;
	struct mlf_touched touched;
	int storage_cap;	/* the slots the storage of cs.slots holds */
	long op_index;
	/*
	 * the last applied op: the draws it consumed, and (a reclaim) what its
	 * walk's scan_control counted
	 */
	unsigned long last_draws, last_nr_reclaimed, last_nr_scanned;
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

/*
 * State coverage (states.h): note the cells of the ops of every world from
 * now on, counted for MLF_STATES=file and handed to @feedback (@size
 * bytes; NULL: none), the engine's extra coverage.
 */
void world_states_attach(unsigned char *feedback, size_t size);

/* The slot whose lrugen on some node is @p (*@nid: which), or -1. */
int world_lrugen_lookup(const struct mlf_world *w,
			const struct hlist_nulls_node *p, int *nid);

#endif
