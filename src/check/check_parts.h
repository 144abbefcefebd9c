/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of the checks that check_bin() and check_memcg() (the per-op
 * checks) reuse on one bin or one memcg: list.links of a bin
 * (structure_checks.c), tail.cache of a bin, and model.order's seq, bin and
 * memcg (model_checks.c). Each is true when its part holds, else fills @f.
 * For the check files of src/check/ only.
 */
#ifndef _MLF_CHECK_CHECK_PARTS_H
#define _MLF_CHECK_CHECK_PARTS_H

#include "kernel/report.h"

#include "state.h"

/* list.links: fifo[@gen][@bin]'s pprev chain and nulls value */
bool list_links_bin(const struct mlf_check_state *w, int nid, int gen,
		    int bin, struct mlf_failure *f);
/* tail.cache: tail[@gen][@bin] (true where the variant has no tail) */
bool tail_cache_bin(const struct mlf_check_state *w, int nid, int gen,
		    int bin, struct mlf_failure *f);
/* model.order: the node's seq */
bool model_order_seq(const struct mlf_check_state *w, int nid,
		     struct mlf_failure *f);
/* model.order: fifo[@gen][@bin]'s contents and order */
bool model_order_bin(const struct mlf_check_state *w, int nid, int gen,
		     int bin, struct mlf_failure *f);
/* model.order: memcg @i exists, its references, linked, gen / seg on @nid */
bool model_order_memcg(const struct mlf_check_state *w, int nid, int i,
		       struct mlf_failure *f);

#endif
