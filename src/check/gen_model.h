/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The folio model's multi-gen LRU, and gen.model, the check that the
 * port's is the same.
 *
 * The model keeps each lruvec's max_seq and min_seq[] and each folio's
 * seq and flags (reclaim_state.h) by the rules of mm/vmscan.c and
 * include/linux/mm_inline.h of 6.12, written here: lru_gen_add_folio()'s
 * placement, inc_max_seq() with inc_min_seq()'s fold, try_to_inc_min_seq(),
 * shrink_folio_list() and evict_folios()' put-back, reduced as the port
 * reduces them (mm/eviction.c: no tiers, no page table walk). It follows
 * the harness's ops and the eviction's probes. One step takes the port's
 * word: which folios of the oldest generation sort_folio() moved on and
 * which it left, as scan_folios() stops where its batch ends (reclaim.sort
 * judges each move; a folio found anywhere else stays where the model had
 * it, and gen.model reports it).
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
 * An isolation pass of @ev returned (lru_gen_evict_begin()): its folios
 * isolated, sort_folio()'s moves as the port made them, then
 * try_to_inc_min_seq()
 */
void gen_model_scanned(struct mlf_reclaim_folio_model *m, int slot, int nid,
		       const struct lru_gen_eviction *ev);
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
