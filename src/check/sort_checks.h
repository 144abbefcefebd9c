/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reclaim.sort: one isolation pass (scan_folios() over the oldest
 * generation of a type) sorts each folio it reaches as sort_folio() says
 * and reaches zones in scan_folios()'s order.
 *
 * The specification, mm/vmscan.c of 6.12: sort_folio() moves a folio that
 * was referenced (protected) or lies in a zone above sc->reclaim_idx
 * (ineligible) to the next generation, and scan_folios() isolates the
 * rest; scan_folios() takes the zones from reclaim_idx down to 0, then the
 * ones above it ("(sc->reclaim_idx + i) % MAX_NR_ZONES" for i from
 * MAX_NR_ZONES down to 1), each from its list's tail until the batch is
 * done, and stops there.
 *
 * The check takes a picture of the model's oldest generations of the
 * lruvec (its folios, and which were referenced) as the pass begins, and
 * judges where each folio is when it returns: isolated only if it was
 * neither referenced nor ineligible, moved one generation on only if it
 * was one of them, and no folio left in a zone the pass had not finished
 * while it went on to a later one. An isolated ineligible folio is
 * reclaim.zone's. That names the rule a pass broke; gen_model_scanned()
 * (gen_model.h) then checks the pass whole against the model's own run.
 */
#ifndef _MLF_CHECK_SORT_CHECKS_H
#define _MLF_CHECK_SORT_CHECKS_H

#include "reclaim_state.h"

struct mlf_sort_picture {
	const struct lruvec *lruvec; /* NULL: no pass begun */
	unsigned long min_seq[ANON_AND_FILE];
	/* folio i: in its type's oldest generation, and referenced, then */
	bool oldest[MLF_RECLAIM_MODEL_FOLIOS];
	bool referenced[MLF_RECLAIM_MODEL_FOLIOS];
};

/* an isolation pass of @lruvec begins: the picture of it */
void sort_picture(struct mlf_sort_picture *p,
		  const struct mlf_reclaim_check_state *rw,
		  const struct lruvec *lruvec);

/* the pass returned, having isolated @ev's list: judge it */
bool check_sort(const struct mlf_sort_picture *p,
		const struct mlf_reclaim_check_state *rw,
		const struct lru_gen_eviction *ev, struct mlf_failure *f);

#endif
