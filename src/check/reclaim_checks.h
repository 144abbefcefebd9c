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
 * shrink_one() ran (protect_visit_begin(), at the walk's VISIT event):
 * the effective memory.min and memory.low of the memcg by the hierarchical
 * rules of mm/page_counter.c, recomputed here on the model's tree and
 * charges, against the model's charge of the memcg and its descendants:
 * below min, YOUNG; else below low and not in the tail segment, TAIL. A
 * memcg the model finds unprotected may be decided anything the eviction
 * makes of it.
 */
void protect_visit_begin(const struct mlf_reclaim_check_state *rw,
			 const struct lruvec *lruvec,
			 struct mlf_protect_visit *v);
bool check_protect_decision(const struct mlf_protect_visit *v, int op,
			    struct mlf_failure *f);

/*
 * reclaim.decision: what shrink_one() decided (@op) for a memcg it evicted
 * from is 6.12's rule on the model's numbers: the aging asked for a
 * rotation (the visit's last get_nr_to_scan() was -1) and the memcg is
 * online: YOUNG; else no rotation if it is still sizable (its evictable
 * folios on the LRU, >> priority if online); else TAIL, or YOUNG if it
 * is in the tail segment already (the model's segment now, as
 * shrink_one() reads it at the end).
 */
bool check_shrink_decision(const struct mlf_reclaim_check_state *rw,
			   const struct mlf_protect_visit *v, int op,
			   struct mlf_failure *f);

/*
 * tree.links: the port's memcg tree is the model's: each memcg's parent
 * (and its page counter's) is the one it was onlined under, and each
 * parent's children list holds exactly its children not yet released.
 */
bool check_tree_links(const struct mlf_reclaim_check_state *rw,
		      struct mlf_failure *f);

/*
 * reclaim.zone: an eviction of a run isolates only folios of the zones
 * the run may reclaim from (up to its reclaim_idx), the folios' zones
 * being the model's.
 */
bool check_isolated_zones(const struct mlf_reclaim_check_state *rw,
			  const struct lru_gen_eviction *ev,
			  struct mlf_failure *f);

/*
 * The model's effective protection of every live memcg now: kswapd's pass
 * over the tree (lru_gen_age_node()), into rw->model.kswapd_emin/elow.
 */
void model_kswapd_protection(struct mlf_reclaim_check_state *rw);

/*
 * The priority a root reclaim of @nid asked at @priority for
 * @nr_to_reclaim pages must run at: set_initial_priority()'s estimate on
 * the model's folios of the node on the LRU, clamped to [DEF_PRIORITY / 2,
 * DEF_PRIORITY], when it applies; else @priority.
 */
int model_initial_priority(const struct mlf_reclaim_check_state *rw, int nid,
			   int priority, unsigned long nr_to_reclaim);

/*
 * get_nr_to_scan() is about to be asked for @lruvec in the run's visit:
 * its generations (the visit's min_seq, max_seq, young and old).
 */
void aging_picture(struct mlf_reclaim_check_state *rw, struct lruvec *lruvec);
/*
 * get_nr_to_scan() returned @p for @lruvec: whether it aged it (its -1 is
 * try_to_inc_max_seq()'s, not mem_cgroup_below_min()'s, by the model's
 * protection of the visit), for the model's aging (gen_model.h)
 */
bool nr_to_scan_aged(const struct mlf_reclaim_check_state *rw,
		     struct lruvec *lruvec, const struct mlf_nr_to_scan *p);

/*
 * reclaim.priority and reclaim.nr_to_scan, at each get_nr_to_scan() of a
 * run's eviction: the run goes at the model's priority, and the scan
 * target is get_nr_to_scan()'s on the model's numbers (below the effective
 * memory.min: -1, rotate; out of cold folios: none to scan; an offline
 * memcg: all its evictable folios; with the aging not due by
 * should_run_aging()'s rule on the model's generations, or at
 * DEF_PRIORITY: those >> priority; else the aging's -1).
 */
bool check_nr_to_scan(const struct mlf_reclaim_check_state *rw,
		      struct lruvec *lruvec, const struct mlf_nr_to_scan *p,
		      struct mlf_failure *f);

/*
 * reclaim.abort: should_abort_scan()'s condition on the model's numbers
 * (the pages the run freed against max(nr_to_reclaim, compact_gap(order));
 * for kswapd at order 0, every managed zone up to reclaim_idx with its
 * free pages above its high (or promo) watermark plus MIN_LRU_BATCH and
 * the reserve): check_abort_batch() at the end of each eviction batch (no
 * batch after one that ended with the condition met), check_abort_end()
 * when the walk returns (a walk that stopped on an entry had it met).
 */
bool check_abort_batch(struct mlf_reclaim_check_state *rw,
		       struct mlf_failure *f);
bool check_abort_end(const struct mlf_reclaim_check_state *rw, bool aborted,
		     struct mlf_failure *f);

/*
 * seg.semantics (reclaim): each memcg on the memcg LRU is in the segment
 * the model's record of its rotations gives (reclaim_state.h), after every
 * op, on every node.
 */
bool check_seg_model(const struct mlf_reclaim_check_state *rw,
		     struct mlf_failure *f);

/*
 * zone.free at an allocation: the page allocator gave @nr pages of zone
 * @z (@got) exactly when the model has that many free there
 */
bool check_zone_alloc(const struct mlf_reclaim_check_state *rw, int nid,
		      int z, long nr, bool got, struct mlf_failure *f);

/*
 * zone.free: each zone's NR_FREE_PAGES is what the model leaves free: its
 * managed pages less those others hold and the folios charged in it.
 */
bool check_zone_free(const struct mlf_reclaim_check_state *rw,
		     struct mlf_failure *f);

/*
 * slab.scan: each call of a shrinker for a memcg scans, frees and defers
 * what do_shrink_slab()'s formula gives on the model's objects and
 * deferred work at the run's priority (the model then takes the result),
 * and a visit that got past the protection calls every shrinker once.
 */
bool check_slab_call(struct mlf_reclaim_check_state *rw,
		     const struct mlf_slab_call *call, struct mlf_failure *f);
bool check_slab_visit(const struct mlf_protect_visit *v, int op,
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
