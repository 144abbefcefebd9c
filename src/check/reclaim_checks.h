/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reclaim accounting checks (docs/checks.md, "Reclaim accounting"):
 * isolated.*, throttle.*, shadow.budget and stats.reparent. Each reads the
 * reclaim check state (reclaim_state.h) and never repairs it; true when
 * the invariant holds, else @f is filled.
 */
#ifndef _MLF_CHECK_RECLAIM_CHECKS_H
#define _MLF_CHECK_RECLAIM_CHECKS_H

#include "kernel/report.h"
#include "mm/workingset.h"

#include "reclaim_state.h"

/* isolated.nonneg: node NR_ISOLATED_* and lruvec nr_isolated[] >= 0 */
bool check_isolated_nonneg(const struct mlf_reclaim_check_state *rw,
			   struct mlf_failure *f);
/*
 * isolated.exact: each counter equals the folios the harness knows are
 * isolated (parked evictions and the one in flight) from that node /
 * lruvec and type; where the variant keeps the counter.
 */
bool check_isolated_exact(const struct mlf_reclaim_check_state *rw,
			  struct mlf_failure *f);
/* isolated.sum: node counter == sum of its lruvecs' (iso-throttle) */
bool check_isolated_sum(const struct mlf_reclaim_check_state *rw,
			struct mlf_failure *f);
/* isolated.quiescent: all 0 when no eviction is parked or in flight */
bool check_isolated_quiescent(const struct mlf_reclaim_check_state *rw,
			      struct mlf_failure *f);
/*
 * throttle.only_when_all / throttle.allowed at a throttle decision, against
 * the lruvec's own state (folios counted on its lists, nr_isolated).
 */
bool check_throttle_decision(const struct mlf_throttle_decision *d,
			     struct mlf_failure *f);
/* throttle.allowed: the eviction isolated only from an allowed type */
bool check_throttle_isolated(const struct lru_gen_eviction *ev,
			     struct mlf_failure *f);
/* shadow.budget: the budget's page count == folios on the MGLRU lists */
bool check_shadow_budget(struct lruvec *lruvec, int memcg,
			 struct mlf_failure *f);
/* stats.reparent: memcg-local and node event counts == the harness's */
bool check_stats_reparent(const struct mlf_reclaim_check_state *rw,
			  struct mlf_failure *f);

/* the folios on @lruvec's lists of @type (walked, not nr_pages) */
unsigned long mlf_lruvec_count_folios(struct lruvec *lruvec, int type);

#endif
