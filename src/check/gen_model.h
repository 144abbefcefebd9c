/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The folio model's multi-gen LRU, and gen.model, the check that the
 * port's is the same.
 *
 * The model keeps each lruvec's max_seq and min_seq[] and each folio's
 * seq and flags (reclaim_state.h) by the rules of mm/vmscan.c and
 * include/linux/mm_inline.h of 6.12, written here: lru_gen_add_folio()'s
 * placement, inc_max_seq() with inc_min_seq()'s fold, try_to_inc_min_seq(),
 * isolate_folios(), scan_folios() and sort_folio() on each list's order,
 * shrink_folio_list() and evict_folios()' put-back, reduced as the port
 * reduces them (mm/eviction.c: no tiers, no page table walk). It follows
 * the harness's ops and the eviction's probes.
 */
#ifndef _MLF_CHECK_GEN_MODEL_H
#define _MLF_CHECK_GEN_MODEL_H

#include "reclaim_state.h"

/* lru_gen_init_folios(): a new memcg's lruvecs, none of its folios */
void gen_model_online(struct mlf_reclaim_folio_model *m, int slot);
/*
 * lru_gen_add_folio() of new folio @i, its flags set: in the generation
 * its flags give
 */
void gen_model_add(struct mlf_reclaim_folio_model *m, long i);
/* try_to_inc_max_seq() of (@slot, @nid) succeeded: inc_max_seq() */
void gen_model_age(struct mlf_reclaim_folio_model *m, int slot, int nid);
/*
 * An isolation pass of @ev returned (lru_gen_evict_begin(), reclaiming
 * zones up to @reclaim_idx): the model runs isolate_folios() and
 * scan_folios() on its own lists, then try_to_inc_min_seq(); reclaim.sort
 * if the port's pass isolated or moved other folios (the first type is a
 * random draw where refault feedback would choose: either will do)
 */
bool gen_model_scanned(struct mlf_reclaim_folio_model *m, int slot, int nid,
		       int reclaim_idx, const struct lru_gen_eviction *ev,
		       struct mlf_failure *f);
/* @ev finished (lru_gen_evict_finish()): the folios it did not free, back */
void gen_model_put_back(struct mlf_reclaim_folio_model *m,
			const struct lru_gen_eviction *ev);

/*
 * gen.model: every live lruvec's max_seq and min_seq[] are the model's,
 * and every folio on its LRU is in the generation of the model's seq (and
 * an isolated one in none)
 */
bool check_gen_model(const struct mlf_reclaim_check_state *rw,
		     struct mlf_failure *f);

#endif
