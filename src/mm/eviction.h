/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The eviction of the multi-gen LRU (mm/vmscan.c and mm_inline.h of Linux
 * 6.12) for the reclaim target: folio population, aging, the eviction path
 * that shrink_one() reaches (try_to_shrink_lruvec -> evict_folios ->
 * isolate_folios), isolation accounting and the throttle of seed 004
 * behind the iso variants of variant.h. Built with MLF_EVICTION only.
 */
#ifndef _MLF_MM_EVICTION_H
#define _MLF_MM_EVICTION_H

#include "vmscan.h"
#include "stats.h"

#define BIT(nr) (1UL << (nr))

/* ---- folio flags (atomic: the isolation bench touches folios) ---- */

static inline bool folio_test(const struct folio *folio, int bit)
{
	return __atomic_load_n(&folio->flags, __ATOMIC_RELAXED) & BIT(bit);
}

static inline void folio_set(struct folio *folio, int bit)
{
	__atomic_fetch_or(&folio->flags, BIT(bit), __ATOMIC_RELAXED);
}

static inline void folio_clear(struct folio *folio, int bit)
{
	__atomic_fetch_and(&folio->flags, ~BIT(bit), __ATOMIC_RELAXED);
}

static inline bool folio_test_clear(struct folio *folio, int bit)
{
	return __atomic_fetch_and(&folio->flags, ~BIT(bit), __ATOMIC_RELAXED) &
	       BIT(bit);
}

static inline int folio_is_file_lru(const struct folio *folio)
{
	return !folio_test(folio, PG_swapbacked);
}

static inline long folio_nr_pages(const struct folio *folio)
{
	return 1L << folio->order;
}

static inline int lru_gen_from_seq(unsigned long seq)
{
	return seq % MAX_NR_GENS;
}

static inline int get_nr_gens(struct lruvec *lruvec, int type)
{
	return lruvec->lrugen.max_seq - lruvec->lrugen.min_seq[type] + 1;
}

/*
 * Where the port would sleep or free a page: hooks (none by default), so
 * that the sequential harness does not sleep and the bench can.
 */
/* reclaim_throttle(VMSCAN_THROTTLE_ISOLATED): timeout HZ/50 = 20 ms */
extern void (*mlf_reclaim_throttle_hook)(struct pglist_data *pgdat,
					 unsigned long timeout_us);
/* the last folio_put() of a reclaimed folio; the harness owns its memory */
extern void (*mlf_free_folio_hook)(struct folio *folio);

/* ---- one eviction, split where the isolated folios are in flight ---- */

struct lru_gen_eviction {
	struct lruvec *lruvec;
	/* the isolated folios, from isolation until put back or freed */
	struct list_head list;
	int type;
	/* pages, as scanned below */
	int nr_isolated;
	/* the types the throttle allowed isolation from */
	unsigned int allowed;
	int swappiness;
	int scanned;
};

/*
 * evict_folios() is lru_gen_evict_begin() (throttle, isolate, account)
 * then lru_gen_evict_finish() (shrink_folio_list, put back, retry,
 * unaccount). The harness may park an eviction in between, as a reclaimer
 * waiting on writeback would be; begin returns evict_folios()'s value.
 */
int lru_gen_evict_begin(struct lruvec *lruvec, struct scan_control *sc,
			int swappiness, struct lru_gen_eviction *ev);
void lru_gen_evict_finish(struct lru_gen_eviction *ev, struct scan_control *sc);

/* ---- probes: where the checks look, like trace.h's walk probe ---- */

enum mlf_evict_event {
	MLF_EVICT_THROTTLE,	/* a throttle decision: arg = decision */
	MLF_EVICT_ISOLATED,	/* folios isolated and counted: arg = eviction */
	MLF_EVICT_DONE,		/* put back / freed and uncounted: arg = eviction */
	MLF_EVICT_NR_TO_SCAN,	/* get_nr_to_scan() returned: arg = mlf_nr_to_scan */
	MLF_EVICT_AGING,	/* get_nr_to_scan() about to be asked: arg = NULL */
	MLF_EVICT_BATCH,	/* evict_folios() returned: arg = the scan_control */
	MLF_EVICT_SCAN,		/* isolate_folios() about to scan: arg = NULL */
	MLF_EVICT_SCANNED,	/* isolate_folios() returned: arg = eviction */
};

/* what try_to_shrink_lruvec()'s get_nr_to_scan() said, under which sc */
struct mlf_nr_to_scan {
	const struct scan_control *sc;
	long nr_to_scan;
};

struct mlf_throttle_decision {
	struct lruvec *lruvec;
	int swappiness;
	bool exempt;		/* kswapd */
	bool sleep;		/* about to sleep in reclaim_throttle() */
	unsigned int allowed;	/* the mask isolation will be restricted to */
};

typedef void (*mlf_evict_probe_t)(enum mlf_evict_event event,
				  struct lruvec *lruvec, const void *arg);
extern mlf_evict_probe_t mlf_evict_probe;

/* ---- what lru_gen_shrink_node() calls that the port leaves out ---- */

/* folios go onto the LRU at once here: no per-CPU batches to drain */
static inline void lru_add_drain(void)
{
}

/* the page table walk of the aging is left out (the aging only counts) */
static inline void set_mm_walk(struct pglist_data *pgdat, bool force_alloc)
{
}

static inline void clear_mm_walk(void)
{
}

/* no swap limit: anon is reclaimable wherever swappiness allows */
static inline bool can_reclaim_anon_pages(struct mem_cgroup *memcg, int nid,
					  struct scan_control *sc)
{
	return true;
}

/* ---- entry points ---- */

void lru_gen_init_folios(struct lruvec *lruvec);
/* try_to_shrink_lruvec(): its loop stops on @should_abort_scan (vmscan.c's) */
bool lru_gen_try_to_shrink_lruvec(struct lruvec *lruvec,
				  struct scan_control *sc,
				  bool (*should_abort_scan)(struct lruvec *,
							    struct scan_control *));
bool lru_gen_lruvec_is_sizable(struct lruvec *lruvec, struct scan_control *sc);
int get_swappiness(struct lruvec *lruvec, struct scan_control *sc);
/* the evictable size of @type: its pages from min_seq to max_seq */
unsigned long lru_gen_evictable_size(struct lruvec *lruvec, int type);

/* A new folio (charged, on the LRU): the caller set flags, zone, id. */
void lru_gen_add_new_folio(struct lruvec *lruvec, struct folio *folio);
/* A refault: the folio comes back active, counted as a refault. */
void lru_gen_refault_folio(struct lruvec *lruvec, struct folio *folio);
/* Off the LRU and uncharged (truncation, or the memcg going away). */
void lru_gen_remove_folio(struct folio *folio);
/* The aging: try_to_inc_max_seq() */
bool lru_gen_age(struct lruvec *lruvec);
/* folio_end_writeback() */
void lru_gen_end_writeback(struct folio *folio);

#endif
