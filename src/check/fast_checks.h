/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fast predicates over what the structure and model checks (checks.h)
 * look at: each compares the port with the reference model directly,
 * pointer by pointer, with no map lookup, no copy of a walk and no
 * message, and returns true only if the checks it names would all pass.
 * They name nothing: the driver runs them first and, when one returns
 * false, runs the checks themselves, which find the failure and name its
 * most direct cause in their usual order. A failure is therefore reported
 * exactly as before; a passing op costs a fraction of it.
 */
#ifndef _MLF_CHECK_FAST_CHECKS_H
#define _MLF_CHECK_FAST_CHECKS_H

#include "state.h"

/*
 * fifo[@gen][@bin] of @nid is the model's bin exactly, with every link,
 * the nulls value, the cached tail and each entry's gen / bin / seg right:
 * true implies check_bin() passes. O(bin length).
 */
bool fast_bin_exact(const struct mlf_check_state *w, int nid, int gen,
		    int bin);

/*
 * The same restricted to the ends of the bin and to the entries at model
 * positions @at - 1 .. @at + 1 (@at < 0: the ends only): O(1). Where an
 * op changed the bin (a memcg inserted at @at, or removed from @at, so
 * that @at - 1 and @at are now neighbours), this is every place the op
 * wrote; the rest of the bin held before the op (per_op_checks.c).
 */
bool fast_bin_local(const struct mlf_check_state *w, int nid, int gen,
		    int bin, int at);

/*
 * Everything check_node_full() checks on @nid: true implies it passes.
 * O(bins + linked + live memcgs).
 */
bool fast_node_full(const struct mlf_check_state *w, int nid);
/* fast_node_full() of every node, with one pass over the memcgs */
bool fast_world_full(const struct mlf_check_state *w);

/*
 * Everything check_structure() checks on @nid, for a world with no model
 * (the reclaim world): one walk of each bin through the map, which the
 * driver must keep (map_kept). O(bins + linked + live memcgs).
 */
bool fast_structure(const struct mlf_check_state *w, int nid);

#endif
