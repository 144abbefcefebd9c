/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The structure checks, one function per check name (docs/checks.md
 * defines each: "Lists and tails", "Generations and seq", "Segments, the
 * model and reclaim progress"). Each reads the check state (state.h: the
 * port's nodes, the slots, the model, the notes of the op) and never
 * repairs it; it returns true when the invariant holds, else fills @f
 * (check name, node / gen / bin / memcg, message) and returns false. The
 * harness's world.c calls them after every op; tests call them on
 * structures corrupted by hand.
 */
#ifndef _MLF_CHECK_CHECKS_H
#define _MLF_CHECK_CHECKS_H

#include "kernel/report.h"

#include "op.h"
#include "state.h"

/* list.links: pprev back pointers, the nulls value at the end, no cycle */
bool check_list_links(const struct mlf_check_state *w, int nid,
		      struct mlf_failure *f);
/* list.membership: linked exactly once, in the bin of lrugen.gen (.bin) */
bool check_list_membership(const struct mlf_check_state *w, int nid,
			   struct mlf_failure *f);
/* tail.cache: tail[gen][bin] NULL iff empty, else the last node */
bool check_tail_cache(const struct mlf_check_state *w, int nid,
		      struct mlf_failure *f);
/* nr_memcgs: nr_memcgs[gen] equals the entries of gen's bins */
bool check_nr_memcgs(const struct mlf_check_state *w, int nid,
		     struct mlf_failure *f);
/* seq.monotonic: seq never goes down (against w->seq_before) */
bool check_seq_monotonic(const struct mlf_check_state *w, int nid,
			 struct mlf_failure *f);
/* seq.valid_gens: every generation but old and young ((seq + 2) % 3) is empty */
bool check_seq_valid_gens(const struct mlf_check_state *w, int nid,
			  struct mlf_failure *f);
/* seq.old_nonempty: old is empty only if young is empty too */
bool check_seq_old_nonempty(const struct mlf_check_state *w, int nid,
			    struct mlf_failure *f);
/*
 * seq.advance: an op that empties the old generation advances seq by exactly
 * one; none that leaves it non-empty does (against w->seq_before and
 * w->old_count_before).
 */
bool check_seq_advance(const struct mlf_check_state *w, int nid,
		       struct mlf_failure *f);
/*
 * seg.semantics: where @op (a rotate, soft or offline that applied) left the
 * memcg on node @nid, given the state before the op (@gen_before,
 * @seg_before, @seq_before) and whether the variant may skip YOUNG.
 */
bool check_seg_semantics(const struct mlf_check_state *w,
			 const struct mlf_op *op, int nid, int rotate_op,
			 int gen_before, int seg_before,
			 unsigned long seq_before, struct mlf_failure *f);
/* model.order: every bin's contents and order, seq, and gen / seg match */
bool check_model_order(const struct mlf_check_state *w, int nid,
		       struct mlf_failure *f);
/*
 * reclaim.progress: every memcg whose tryget failed during the walk
 * (@failed, @nr_failed memcg ids) is unlinked on @nid; and after a walk that
 * was not aborted, no dead memcg is left in the generation it covered.
 */
bool check_reclaim_progress(const struct mlf_check_state *w, int nid,
			    int walk_gen, bool aborted, const int *failed,
			    int nr_failed, struct mlf_failure *f);

/* Every per-node structure check above (not seg / progress / advance). */
bool check_structure(const struct mlf_check_state *w, int nid,
		     struct mlf_failure *f);
/* check_structure and check_model_order, sharing one walk of each bin */
bool check_node_full(const struct mlf_check_state *w, int nid,
		     struct mlf_failure *f);

/*
 * The per-op checks (per_op_checks.c explains why they leave no hole).
 * All read the lrugen map of the check state; none is O(pool).
 */
/* nr_memcgs: nr_memcgs[gen] equals the model's count of gen: O(24) */
bool check_nr_memcgs_model(const struct mlf_check_state *w, int nid,
			   struct mlf_failure *f);
/*
 * After every op, per node, O(bins): model.order's seq, nr_memcgs against
 * the model, seq.valid_gens and seq.old_nonempty.
 */
bool check_node_quick(const struct mlf_check_state *w, int nid,
		      struct mlf_failure *f);
/*
 * One bin: list.links, list.membership (no stale entry), tail.cache and
 * model.order restricted to fifo[gen][bin] of @nid: O(bin length).
 */
bool check_bin(const struct mlf_check_state *w, int nid, int gen, int bin,
	       struct mlf_failure *f);
/*
 * One memcg (pool slot @i) on @nid: model.order's per-memcg part (exists,
 * references, linked, gen, seg), and, when linked, its own links (what its
 * pprev points at points back at it; its next is a live lrugen whose pprev
 * points back, or the nulls of its generation) and its lrugen.gen / .bin
 * against the bin it heads and the model's bin: O(1).
 */
bool check_memcg(const struct mlf_check_state *w, int nid, int i,
		 struct mlf_failure *f);

#endif
