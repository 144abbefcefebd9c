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

/*
 * protect.reset: each memcg's memory.min and memory.low are the model's:
 * what the harness wrote, or 0 after css_offline, whose callback resets
 * both (mem_cgroup_css_offline()).
 */
bool check_protect_reset(const struct mlf_reclaim_check_state *rw,
			 struct mlf_failure *f);

/*
 * usage.charged: each memcg's usage (the pages charged to it, which its
 * protection is measured against) is the model's count of the folios
 * charged to it and not yet freed or drained.
 */
bool check_usage_charged(const struct mlf_reclaim_check_state *rw,
			 struct mlf_failure *f);

/*
 * protect.decision: what shrink_one() decided (@op) for the memcg a walk
 * visited honours the protection the model computes at the visit, before
 * shrink_one() ran (memory.min / memory.low as the model has them,
 * against the folios the model has charged to the memcg): below min,
 * YOUNG; else below low and not in the tail segment, TAIL. A memcg the
 * model finds unprotected may be decided anything the eviction makes of
 * it. protect_visit_begin() notes the visit: at the walk's VISIT event.
 */
struct mlf_protect_visit {
	int slot;		/* MLF_NONE: not a pool memcg */
	int nid;
	int seg;		/* the memcg's segment at the visit */
	unsigned long charged, min, low;
};

void protect_visit_begin(const struct mlf_reclaim_check_state *rw,
			 const struct lruvec *lruvec,
			 struct mlf_protect_visit *v);
bool check_protect_decision(const struct mlf_protect_visit *v, int op,
			    struct mlf_failure *f);

/* isolated.nonneg: node NR_ISOLATED_* and lruvec nr_isolated[] >= 0 */
bool check_isolated_nonneg(const struct mlf_reclaim_check_state *rw,
			   struct mlf_failure *f);
/*
 * isolated.exact: each counter equals the folios the model has isolated
 * (on the lists of the parked evictions and the one in flight) from that
 * node / lruvec and type; where the variant keeps the counter.
 */
bool check_isolated_exact(const struct mlf_reclaim_check_state *rw,
			  struct mlf_failure *f);
/* isolated.sum: node counter == the model's lruvecs' isolated, summed */
bool check_isolated_sum(const struct mlf_reclaim_check_state *rw,
			struct mlf_failure *f);
/* isolated.quiescent: all 0 when no eviction is parked or in flight */
bool check_isolated_quiescent(const struct mlf_reclaim_check_state *rw,
			      struct mlf_failure *f);
/*
 * throttle.only_when_all / throttle.allowed at a throttle decision, against
 * lru_gen_too_many_isolated() recomputed on the model's folios (isolated,
 * and on the LRU) with the model's swappiness; notes the types allowed.
 */
bool check_throttle_decision(const struct mlf_reclaim_check_state *rw,
			     const struct mlf_throttle_decision *d,
			     struct mlf_failure *f);
/* throttle.allowed: the eviction isolated only types the model allowed */
bool check_throttle_isolated(const struct mlf_reclaim_check_state *rw,
			     const struct lru_gen_eviction *ev,
			     struct mlf_failure *f);
/* shadow.budget: the budget's page count == the model's folios on the LRU */
bool check_shadow_budget(const struct mlf_reclaim_check_state *rw,
			 struct lruvec *lruvec, int memcg,
			 struct mlf_failure *f);
/* stats.reparent: memcg-local and node event counts == the harness's */
bool check_stats_reparent(const struct mlf_reclaim_check_state *rw,
			  struct mlf_failure *f);

/*
 * The isolated.* checks, and shadow.budget on every live memcg when
 * @shadow, as one fast predicate (fast_checks.h says how such a predicate
 * is used): true implies each would pass. O(nodes * live memcgs).
 */
bool fast_reclaim_accounting(const struct mlf_reclaim_check_state *rw,
			     bool shadow);

#endif
