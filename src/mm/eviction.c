// SPDX-License-Identifier: GPL-2.0
/*
 * The multi-gen LRU's folio side and its eviction, after mm/vmscan.c and
 * include/linux/mm_inline.h of Linux 6.12 (lru_gen_add_folio, the aging,
 * scan_folios, isolate_folios, evict_folios, get_nr_to_scan,
 * try_to_shrink_lruvec, lruvec_is_sizable), with seed 004's isolation
 * accounting (CONFIG_LRU_GEN_ISO_COUNT: patch 1, ported from its diff,
 * which the seed has whole) and throttle (CONFIG_LRU_GEN_ISO_THROTTLE:
 * patch 2, a RECONSTRUCTION: the seed has its commit message and its
 * mmzone.h hunk, not the 156 lines of mm/vmscan.c; see
 * lru_gen_too_many_isolated() and docs/reconstructions.md).
 *
 * Left out: tiers and refault feedback (which type get_type_to_scan()
 * favours is a random draw, so the fuzzer steers it), the page table walk
 * (aging only advances max_seq), the active/inactive split of the LRU size
 * stats (every MGLRU folio counts as inactive of its type: the shadow
 * budget sums all lists, and set_initial_priority() reads them all), and
 * swap space limits.
 */
/*
 * Only the reclaim port (src/mm/reclaim.cmake) defines MLF_EVICTION; a
 * build that compiles every file of src/ gets an empty object here.
 */
#ifdef MLF_EVICTION
#include "eviction.h"

void (*mlf_reclaim_throttle_hook)(struct pglist_data *pgdat,
				  unsigned long timeout_us);
void (*mlf_free_folio_hook)(struct folio *folio);
mlf_evict_probe_t mlf_evict_probe;

static void trace_mlf_evict(enum mlf_evict_event event, struct lruvec *lruvec,
			    const void *arg)
{
	mlf_evict_probe_t probe = __atomic_load_n(&mlf_evict_probe,
						  __ATOMIC_RELAXED);

	if (probe)
		probe(event, lruvec, arg);
}

/******************************************************************************
 *                          folio population
 ******************************************************************************/

static void __update_lru_size(struct lruvec *lruvec, enum lru_list lru,
			      int zid, long nr_pages)
{
	/* MGLRU does not call mem_cgroup_update_lru_size(): no lru_zone_size */
	__mod_lruvec_state(lruvec, NR_LRU_BASE + lru, nr_pages);
}

static void lru_gen_update_size(struct lruvec *lruvec, struct folio *folio,
				int old_gen, int new_gen)
{
	int type = folio_is_file_lru(folio);
	int zone = folio->zone;
	int delta = folio_nr_pages(folio);
	enum lru_list lru = type * LRU_INACTIVE_FILE;
	struct lru_gen_folio *lrugen = &lruvec->lrugen;

	if (old_gen >= 0)
		WRITE_ONCE(lrugen->nr_pages[old_gen][type][zone],
			   lrugen->nr_pages[old_gen][type][zone] - delta);
	if (new_gen >= 0)
		WRITE_ONCE(lrugen->nr_pages[new_gen][type][zone],
			   lrugen->nr_pages[new_gen][type][zone] + delta);

	if (old_gen < 0 && new_gen >= 0)
		__update_lru_size(lruvec, lru, zone, delta);
	else if (old_gen >= 0 && new_gen < 0)
		__update_lru_size(lruvec, lru, zone, -delta);
}

static void lru_gen_add_folio(struct lruvec *lruvec, struct folio *folio,
			      bool reclaiming)
{
	unsigned long seq;
	int gen;
	int type = folio_is_file_lru(folio);
	struct lru_gen_folio *lrugen = &lruvec->lrugen;

	lockdep_assert_held(&lruvec->lru_lock);
	VM_WARN_ON_ONCE(folio->gen);

	/* see the comment on MIN_NR_GENS in the kernel */
	if (folio_test(folio, PG_active))
		seq = lrugen->max_seq;
	else if ((type == LRU_GEN_ANON && !folio_test(folio, PG_swapcache)) ||
		 (folio_test(folio, PG_reclaim) &&
		  (folio_test(folio, PG_dirty) ||
		   folio_test(folio, PG_writeback))))
		seq = lrugen->max_seq - 1;
	else if (reclaiming ||
		 lrugen->min_seq[type] + MIN_NR_GENS >= lrugen->max_seq)
		seq = lrugen->min_seq[type];
	else
		seq = lrugen->min_seq[type] + 1;

	gen = lru_gen_from_seq(seq);
	folio_clear(folio, PG_active);
	folio->gen = gen + 1;
	folio->lruvec = lruvec;
	lru_gen_update_size(lruvec, folio, -1, gen);
	if (reclaiming)
		list_add_tail(&folio->lru, &lrugen->folios[gen][type][folio->zone]);
	else
		list_add(&folio->lru, &lrugen->folios[gen][type][folio->zone]);
}

static void lru_gen_del_folio(struct lruvec *lruvec, struct folio *folio)
{
	int gen = folio->gen - 1;

	lockdep_assert_held(&lruvec->lru_lock);
	VM_WARN_ON_ONCE(gen < 0);

	folio->gen = 0;
	lru_gen_update_size(lruvec, folio, gen, -1);
	list_del(&folio->lru);
}

void lru_gen_add_new_folio(struct lruvec *lruvec, struct folio *folio)
{
	struct mem_cgroup *memcg = lruvec_memcg(lruvec);

	/* mem_cgroup_charge(): hierarchically, memory.min/low's usage too */
	page_counter_charge(&memcg->memory, folio_nr_pages(folio));
	spin_lock_irq(&lruvec->lru_lock);
	folio_set(folio, PG_lru);
	lru_gen_add_folio(lruvec, folio, false);
	spin_unlock_irq(&lruvec->lru_lock);
}

void lru_gen_refault_folio(struct lruvec *lruvec, struct folio *folio)
{
	int type = folio_is_file_lru(folio);

	folio_set(folio, PG_active);
	folio_set(folio, PG_workingset);
	lru_gen_add_new_folio(lruvec, folio);
	mod_lruvec_state(lruvec, WORKINGSET_REFAULT_ANON + type,
			 folio_nr_pages(folio));
}

void lru_gen_remove_folio(struct folio *folio)
{
	struct lruvec *lruvec = folio->lruvec;

	spin_lock_irq(&lruvec->lru_lock);
	if (folio_test_clear(folio, PG_lru))
		lru_gen_del_folio(lruvec, folio);
	spin_unlock_irq(&lruvec->lru_lock);
	/* mem_cgroup_uncharge(), and the pages go back to their zone */
	page_counter_uncharge(&lruvec_memcg(lruvec)->memory,
			      folio_nr_pages(folio));
	zone_free_pages(&lruvec_pgdat(lruvec)->node_zones[folio->zone],
			folio_nr_pages(folio));
}

void lru_gen_end_writeback(struct folio *folio)
{
	folio_clear(folio, PG_writeback);
}

/******************************************************************************
 *                          the aging
 ******************************************************************************/

/* Forced: fold the oldest generation of @type into the next one. */
static void inc_min_seq(struct lruvec *lruvec, int type)
{
	int zone;
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int old_gen = lru_gen_from_seq(lrugen->min_seq[type]);
	int new_gen = lru_gen_from_seq(lrugen->min_seq[type] + 1);

	for (zone = 0; zone < MAX_NR_ZONES; zone++) {
		struct list_head *head = &lrugen->folios[old_gen][type][zone];

		while (!list_empty(head)) {
			struct folio *folio =
				list_last_entry(head, struct folio, lru);

			folio->gen = new_gen + 1;
			lru_gen_update_size(lruvec, folio, old_gen, new_gen);
			list_move_tail(&folio->lru,
				       &lrugen->folios[new_gen][type][zone]);
		}
	}
	WRITE_ONCE(lrugen->min_seq[type], lrugen->min_seq[type] + 1);
}

static bool try_to_inc_min_seq(struct lruvec *lruvec, bool can_swap)
{
	int gen, type, zone;
	bool success = false;
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	unsigned long min_seq[ANON_AND_FILE] = { lrugen->min_seq[0],
						 lrugen->min_seq[1] };

	/* find the oldest populated generation */
	for (type = !can_swap; type < ANON_AND_FILE; type++) {
		while (min_seq[type] + MIN_NR_GENS <= lrugen->max_seq) {
			gen = lru_gen_from_seq(min_seq[type]);

			for (zone = 0; zone < MAX_NR_ZONES; zone++) {
				if (!list_empty(&lrugen->folios[gen][type][zone]))
					goto next;
			}

			min_seq[type]++;
		}
next:
		;
	}

	/* anon never older than file: see the comment on lru_gen_folio */
	if (can_swap) {
		min_seq[LRU_GEN_ANON] = min(min_seq[LRU_GEN_ANON],
					    min_seq[LRU_GEN_FILE]);
		min_seq[LRU_GEN_FILE] = max(min_seq[LRU_GEN_ANON],
					    lrugen->min_seq[LRU_GEN_FILE]);
	}

	for (type = !can_swap; type < ANON_AND_FILE; type++) {
		if (min_seq[type] == lrugen->min_seq[type])
			continue;
		WRITE_ONCE(lrugen->min_seq[type], min_seq[type]);
		success = true;
	}

	return success;
}

static void inc_max_seq(struct lruvec *lruvec)
{
	int type;
	struct lru_gen_folio *lrugen = &lruvec->lrugen;

	lockdep_assert_held(&lruvec->lru_lock);

	for (type = 0; type < ANON_AND_FILE; type++) {
		if (get_nr_gens(lruvec, type) != MAX_NR_GENS)
			continue;
		inc_min_seq(lruvec, type);
	}

	/* the generation that max_seq + 1 reuses was emptied above */
	WRITE_ONCE(lrugen->max_seq, lrugen->max_seq + 1);
}

static bool try_to_inc_max_seq(struct lruvec *lruvec, unsigned long max_seq)
{
	bool success = false;

	spin_lock_irq(&lruvec->lru_lock);
	/* another reclaimer aged it meanwhile */
	if (max_seq == lruvec->lrugen.max_seq) {
		inc_max_seq(lruvec);
		success = true;
	}
	spin_unlock_irq(&lruvec->lru_lock);
	return success;
}

bool lru_gen_age(struct lruvec *lruvec)
{
	return try_to_inc_max_seq(lruvec, READ_ONCE(lruvec->lrugen.max_seq));
}

/******************************************************************************
 *                          the eviction
 ******************************************************************************/

int get_swappiness(struct lruvec *lruvec, struct scan_control *sc)
{
	return READ_ONCE(lruvec_memcg(lruvec)->swappiness);
}

unsigned long lru_gen_evictable_size(struct lruvec *lruvec, int type)
{
	unsigned long seq, total = 0;
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	unsigned long max_seq = READ_ONCE(lrugen->max_seq);
	int zone;

	for (seq = READ_ONCE(lrugen->min_seq[type]); seq <= max_seq; seq++)
		for (zone = 0; zone < MAX_NR_ZONES; zone++)
			total += max(READ_ONCE(lrugen->nr_pages[lru_gen_from_seq(seq)][type][zone]),
				     0L);
	return total;
}

/*
 * sort_folio(): a folio referenced since isolation last passed it is
 * protected, one gen younger; one in a zone above the reclaim's
 * (ineligible) moves on likewise.
 */
static bool sort_folio(struct lruvec *lruvec, struct folio *folio,
		       struct scan_control *sc, int type)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int old_gen = folio->gen - 1;
	int new_gen = lru_gen_from_seq(lrugen->min_seq[type] + 1);
	int zone = folio->zone;

	/* protected */
	if (folio_test_clear(folio, PG_referenced))
		goto inc_gen;

	/* ineligible */
	if (zone > sc->reclaim_idx)
		goto inc_gen;

	return false;
inc_gen:
	folio->gen = new_gen + 1;
	lru_gen_update_size(lruvec, folio, old_gen, new_gen);
	list_move_tail(&folio->lru, &lrugen->folios[new_gen][type][zone]);
	return true;
}

static bool isolate_folio(struct lruvec *lruvec, struct folio *folio)
{
	/* raced with another isolation */
	if (!folio_test_clear(folio, PG_lru))
		return false;

	lru_gen_del_folio(lruvec, folio);
	return true;
}

static int scan_folios(struct lruvec *lruvec, struct scan_control *sc,
		       int type, struct list_head *list, int *isolatedp)
{
	int i;
	int gen;
	int scanned = 0;
	int isolated = 0;
	int remaining = MAX_LRU_BATCH;
	struct lru_gen_folio *lrugen = &lruvec->lrugen;

	VM_WARN_ON_ONCE(!list_empty(list));

	if (get_nr_gens(lruvec, type) == MIN_NR_GENS)
		return 0;

	gen = lru_gen_from_seq(lrugen->min_seq[type]);

	for (i = MAX_NR_ZONES; i > 0; i--) {
		int zone = (sc->reclaim_idx + i) % MAX_NR_ZONES;
		struct list_head *head = &lrugen->folios[gen][type][zone];

		while (!list_empty(head)) {
			struct folio *folio =
				list_last_entry(head, struct folio, lru);
			int delta = folio_nr_pages(folio);

			VM_WARN_ON_ONCE(folio_is_file_lru(folio) != type);
			VM_WARN_ON_ONCE(folio->zone != zone);

			scanned += delta;

			if (sort_folio(lruvec, folio, sc, type))
				;
			else if (isolate_folio(lruvec, folio)) {
				list_add(&folio->lru, list);
				isolated += delta;
			}

			if (!--remaining || isolated >= MIN_LRU_BATCH)
				break;
		}

		if (!remaining || isolated >= MIN_LRU_BATCH)
			break;
	}

	*isolatedp = isolated;
	/*
	 * There might not be eligible folios due to reclaim_idx. Check the
	 * remaining to prevent livelock if it's not making progress.
	 */
	return isolated || !remaining ? scanned : 0;
}

static int isolate_folios(struct lruvec *lruvec, struct scan_control *sc,
			  int swappiness, int *type_scanned,
			  struct list_head *list, unsigned int allowed,
			  int *isolated)
{
	int i;
	int type;
	int scanned = 0;
	struct lru_gen_folio *lrugen = &lruvec->lrugen;

	/* the obvious choice first; else refault feedback (drawn here) */
	if (!swappiness)
		type = LRU_GEN_FILE;
	else if (lrugen->min_seq[LRU_GEN_ANON] < lrugen->min_seq[LRU_GEN_FILE])
		type = LRU_GEN_ANON;
	else if (swappiness == 1)
		type = LRU_GEN_FILE;
	else if (swappiness == MAX_SWAPPINESS)
		type = LRU_GEN_ANON;
	else
		type = get_random_u32_below(ANON_AND_FILE);

#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
	/* never start on a throttled or empty type */
	if (!(allowed & BIT(type)))
		type = !type;
#endif

	*isolated = 0;
	for (i = !swappiness; i < ANON_AND_FILE; i++) {
#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
		/* nor fall back to one */
		if (allowed & BIT(type))
#endif
		{
			scanned = scan_folios(lruvec, sc, type, list, isolated);
			if (scanned)
				break;
		}

		type = !type;
	}

	*type_scanned = type;

	return scanned;
}

#ifdef CONFIG_LRU_GEN_ISO_THROTTLE

#define THROTTLE_GIVE_UP (-1)
#define THROTTLE_DYING (-2)

static void reclaim_throttle(struct pglist_data *pgdat)
{
	void (*hook)(struct pglist_data *, unsigned long) =
		READ_ONCE(mlf_reclaim_throttle_hook);

	atomic_long_add(1, &pgdat->nr_throttled_isolated);
	/* VMSCAN_THROTTLE_ISOLATED: a transient condition, HZ/50 */
	if (hook)
		hook(pgdat, 20000);
}

/*
 * Seed 004 patch 2, RECONSTRUCTED from its commit message (its vmscan.c
 * hunks are not in the seed, nor in any public copy found): the function
 * names, "the check is per lruvec rather than node-wide", "the threshold
 * is the evictable size of the type divided by MIN_NR_GENS" and
 * "kswapd ... [is] exempt" are the message's; the strict ">" is inferred
 * from the legacy too_many_isolated() ("isolated > inactive"), which the
 * message says it mirrors. Writeback throttling is always sane here
 * (cgroup v2), and GFP_NOIO/NOFS callers (the message: "the threshold is
 * raised") are not modelled.
 */
static bool lru_gen_too_many_isolated(struct lruvec *lruvec, int type,
				      struct scan_control *sc)
{
	if (current_is_kswapd())
		return false;

	return atomic_long_read(&lruvec->lrugen.nr_isolated[type]) >
	       lru_gen_evictable_size(lruvec, type) / MIN_NR_GENS;
}

/*
 * The types isolation may take from: evictable and not over-isolated. Sleep
 * only when every evictable type is over (isolate_folios() may fall back
 * to the other one, so one over-isolated type must not block the other);
 * give up after one sleep, and let a dying task go with faked progress.
 *
 * RECONSTRUCTED (seed 004 patch 2): from the message, "collects the types
 * that are not over-isolated and have evictable folios, and sleeps only
 * when all of them are over-isolated", "the mask is passed to
 * isolate_folios()", "a dying task fakes progress to exit reclaim
 * quickly". Inferred from the legacy shrink_inactive_list() loop the
 * message says it mirrors: one reclaim_throttle() and then give up ("if
 * (stalled) return 0"), and the dying check right after the sleep; the
 * faked progress is MIN_LRU_BATCH here (the legacy returns
 * SWAP_CLUSTER_MAX).
 */
static int throttle_evictable_types(struct lruvec *lruvec,
				    struct scan_control *sc, int swappiness)
{
	bool stalled = false;
	int type;

	for (;;) {
		struct mlf_throttle_decision d = {
			.lruvec = lruvec,
			.swappiness = swappiness,
			.exempt = current_is_kswapd(),
		};
		unsigned int evictable = 0;

		for (type = !swappiness; type < ANON_AND_FILE; type++) {
			if (!lru_gen_evictable_size(lruvec, type))
				continue;
			evictable |= BIT(type);
			if (!lru_gen_too_many_isolated(lruvec, type, sc))
				d.allowed |= BIT(type);
		}

		d.sleep = evictable && !d.allowed && !stalled;
		trace_mlf_evict(MLF_EVICT_THROTTLE, lruvec, &d);

		if (!d.sleep)
			return stalled && !d.allowed ? THROTTLE_GIVE_UP :
						       (int)d.allowed;

		stalled = true;
		reclaim_throttle(lruvec_pgdat(lruvec));

		/* about to die and free its memory: return now */
		if (task_is_dying())
			return THROTTLE_DYING;
	}
}

#endif /* CONFIG_LRU_GEN_ISO_THROTTLE */

int lru_gen_evict_begin(struct lruvec *lruvec, struct scan_control *sc,
			int swappiness, struct lru_gen_eviction *ev)
{
	int type = 0;
	int scanned;
	int isolated;
	unsigned int allowed = BIT(LRU_GEN_ANON) | BIT(LRU_GEN_FILE);
	struct pglist_data *pgdat = lruvec_pgdat(lruvec);

	INIT_LIST_HEAD(&ev->list);
	ev->lruvec = lruvec;
	ev->type = 0;
	ev->nr_isolated = 0;
	ev->swappiness = swappiness;
	ev->scanned = 0;

#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
	/* before the lruvec lock: throttling sleeps */
	{
		int ret = throttle_evictable_types(lruvec, sc, swappiness);

		if (ret == THROTTLE_GIVE_UP) {
			ev->allowed = 0;
			return 0;
		}
		if (ret == THROTTLE_DYING) {
			ev->allowed = 0;
			ev->scanned = MIN_LRU_BATCH;
			return ev->scanned;
		}
		allowed = ret;
	}
#endif
	ev->allowed = allowed;

	spin_lock_irq(&lruvec->lru_lock);

	trace_mlf_evict(MLF_EVICT_SCAN, lruvec, NULL);
	scanned = isolate_folios(lruvec, sc, swappiness, &type, &ev->list,
				 allowed, &isolated);
	trace_mlf_evict(MLF_EVICT_SCANNED, lruvec, ev);

	scanned += try_to_inc_min_seq(lruvec, swappiness);

	if (get_nr_gens(lruvec, !swappiness) == MIN_NR_GENS)
		scanned = 0;

	ev->type = type;
	ev->nr_isolated = isolated;
#ifdef CONFIG_LRU_GEN_ISO_COUNT
	if (isolated)
		__mod_node_page_state(pgdat, NR_ISOLATED_ANON + type, isolated);
#endif
#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
	if (isolated)
		atomic_long_add(isolated, &lruvec->lrugen.nr_isolated[type]);
#endif
	(void)pgdat;

	spin_unlock_irq(&lruvec->lru_lock);

	ev->scanned = scanned;
	if (isolated)
		trace_mlf_evict(MLF_EVICT_ISOLATED, lruvec, ev);
	return scanned;
}

static void free_folio(struct lruvec *lruvec, struct folio *folio)
{
	void (*hook)(struct folio *) = READ_ONCE(mlf_free_folio_hook);
	int type = folio_is_file_lru(folio);
	long nr = folio_nr_pages(folio);

	/* the last folio_put(): mem_cgroup_uncharge(), the pages freed */
	page_counter_uncharge(&lruvec_memcg(lruvec)->memory, nr);
	zone_free_pages(&lruvec_pgdat(lruvec)->node_zones[folio->zone], nr);
	/* evict_folios(): __count_vm_events(PGSTEAL_ANON + type, reclaimed) */
	__count_vm_events(PGSTEAL_ANON + type, nr);
	if (hook)
		hook(folio);
}

/*
 * shrink_folio_list(), reduced: a folio under writeback stays; a dirty one
 * is written out (swap for anon) and stays; one referenced since it was
 * isolated is activated and stays; a clean one is freed.
 */
static unsigned int shrink_folio_list(struct list_head *folio_list,
				      struct lruvec *lruvec)
{
	unsigned int nr_reclaimed = 0;
	struct folio *folio, *next;

	list_for_each_entry_safe(folio, next, folio_list, lru) {
		if (folio_test(folio, PG_writeback)) {
			folio_set(folio, PG_reclaim);
			continue;
		}
		if (folio_test(folio, PG_dirty)) {
			/* pageout() */
			if (!folio_is_file_lru(folio))
				folio_set(folio, PG_swapcache);
			folio_clear(folio, PG_dirty);
			folio_set(folio, PG_writeback);
			folio_set(folio, PG_reclaim);
			continue;
		}
		if (folio_test_clear(folio, PG_referenced)) {
			folio_set(folio, PG_active);
			continue;
		}
		list_del(&folio->lru);
		/* before the hook gives the folio back to the harness */
		nr_reclaimed += folio_nr_pages(folio);
		free_folio(lruvec, folio);
	}
	return nr_reclaimed;
}

static void move_folios_to_lru(struct lruvec *lruvec, struct list_head *list)
{
	while (!list_empty(list)) {
		struct folio *folio = list_first_entry(list, struct folio, lru);

		list_del(&folio->lru);
		folio_set(folio, PG_lru);
		lru_gen_add_folio(lruvec, folio, false);
	}
}

void lru_gen_evict_finish(struct lru_gen_eviction *ev, struct scan_control *sc)
{
	unsigned int reclaimed;
	LIST_HEAD(clean);
	struct folio *folio;
	struct folio *next;
	bool skip_retry = false;
	struct lruvec *lruvec = ev->lruvec;
	struct pglist_data *pgdat = lruvec_pgdat(lruvec);

	if (list_empty(&ev->list))
		return;
retry:
	reclaimed = shrink_folio_list(&ev->list, lruvec);
	sc->nr_reclaimed += reclaimed;

	list_for_each_entry_safe_reverse(folio, next, &ev->list, lru) {
		if (folio_test(folio, PG_reclaim) &&
		    (folio_test(folio, PG_dirty) ||
		     folio_test(folio, PG_writeback))) {
			if (folio_test(folio, PG_workingset))
				folio_set(folio, PG_referenced);
			continue;
		}

		if (skip_retry || folio_test(folio, PG_active) ||
		    folio_test(folio, PG_referenced) ||
		    folio_test(folio, PG_dirty) ||
		    folio_test(folio, PG_writeback)) {
			/* don't add rejected folios to the oldest generation */
			folio_clear(folio, PG_referenced);
			folio_set(folio, PG_active);
			continue;
		}

		/* retry folios that may have missed folio_rotate_reclaimable() */
		list_move(&folio->lru, &clean);
	}

	spin_lock_irq(&lruvec->lru_lock);
	move_folios_to_lru(lruvec, &ev->list);
	spin_unlock_irq(&lruvec->lru_lock);

	list_splice_init(&clean, &ev->list);

	if (!list_empty(&ev->list)) {
		skip_retry = true;
		goto retry;
	}

#ifdef CONFIG_LRU_GEN_ISO_COUNT
	mod_node_page_state(pgdat, NR_ISOLATED_ANON + ev->type,
			    -ev->nr_isolated);
#endif
#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
	atomic_long_add(-ev->nr_isolated,
			&lruvec->lrugen.nr_isolated[ev->type]);
#endif
	(void)pgdat;
	trace_mlf_evict(MLF_EVICT_DONE, lruvec, ev);
	ev->nr_isolated = 0;
}

static int evict_folios(struct lruvec *lruvec, struct scan_control *sc,
			int swappiness)
{
	struct lru_gen_eviction ev;
	int scanned = lru_gen_evict_begin(lruvec, sc, swappiness, &ev);

	lru_gen_evict_finish(&ev, sc);
	trace_mlf_evict(MLF_EVICT_BATCH, lruvec, sc);
	return scanned;
}

static bool should_run_aging(struct lruvec *lruvec, unsigned long max_seq,
			     bool can_swap, unsigned long *nr_to_scan)
{
	int gen, type, zone;
	unsigned long old = 0;
	unsigned long young = 0;
	unsigned long total = 0;
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	unsigned long min_seq[ANON_AND_FILE] = {
		READ_ONCE(lrugen->min_seq[0]), READ_ONCE(lrugen->min_seq[1])
	};

	/* whether this lruvec is completely out of cold folios */
	if (min_seq[!can_swap] + MIN_NR_GENS > max_seq) {
		*nr_to_scan = 0;
		return true;
	}

	for (type = !can_swap; type < ANON_AND_FILE; type++) {
		unsigned long seq;

		for (seq = min_seq[type]; seq <= max_seq; seq++) {
			unsigned long size = 0;

			gen = lru_gen_from_seq(seq);

			for (zone = 0; zone < MAX_NR_ZONES; zone++)
				size += max(READ_ONCE(lrugen->nr_pages[gen][type][zone]), 0L);

			total += size;
			if (seq == max_seq)
				young += size;
			else if (seq + MIN_NR_GENS == max_seq)
				old += size;
		}
	}

	*nr_to_scan = total;

	/* the ideal number of generations is MIN_NR_GENS + 1 */
	if (min_seq[!can_swap] + MIN_NR_GENS < max_seq)
		return false;

	/* spread evenly: [1/MIN_NR_GENS, 1/(MIN_NR_GENS + 2)] per generation */
	if (young * MIN_NR_GENS > total)
		return true;
	if (old * (MIN_NR_GENS + 2) < total)
		return true;

	return false;
}

static long get_nr_to_scan(struct lruvec *lruvec, struct scan_control *sc,
			   bool can_swap)
{
	bool success;
	unsigned long nr_to_scan;
	struct mem_cgroup *memcg = lruvec_memcg(lruvec);
	unsigned long max_seq = READ_ONCE(lruvec->lrugen.max_seq);

	if (mem_cgroup_below_min(NULL, memcg))
		return -1;

	success = should_run_aging(lruvec, max_seq, can_swap, &nr_to_scan);

	/* try to scrape all its memory if this memcg was deleted */
	if (nr_to_scan && !mem_cgroup_online(memcg))
		return nr_to_scan;

	/* try to get away with not aging at the default priority */
	if (!success || sc->priority == DEF_PRIORITY)
		return nr_to_scan >> sc->priority;

	/* stop scanning this lruvec as it's low on cold folios */
	return try_to_inc_max_seq(lruvec, max_seq) ? -1 : 0;
}

bool lru_gen_try_to_shrink_lruvec(struct lruvec *lruvec,
				  struct scan_control *sc,
				  bool (*should_abort_scan)(struct lruvec *,
							    struct scan_control *))
{
	long nr_to_scan;
	unsigned long scanned = 0;
	int swappiness = get_swappiness(lruvec, sc);

	while (true) {
		int delta;
		struct mlf_nr_to_scan probe = { .sc = sc };

		trace_mlf_evict(MLF_EVICT_AGING, lruvec, NULL);
		nr_to_scan = get_nr_to_scan(lruvec, sc, swappiness);
		probe.nr_to_scan = nr_to_scan;
		trace_mlf_evict(MLF_EVICT_NR_TO_SCAN, lruvec, &probe);
		if (nr_to_scan <= 0)
			break;

		delta = evict_folios(lruvec, sc, swappiness);
		if (!delta)
			break;

		scanned += delta;
		sc->nr_scanned += delta;
		if (scanned >= nr_to_scan)
			break;

		if (should_abort_scan(lruvec, sc))
			break;

		cond_resched();
	}

	/* whether this lruvec should be rotated */
	return nr_to_scan < 0;
}

bool lru_gen_lruvec_is_sizable(struct lruvec *lruvec, struct scan_control *sc)
{
	int type;
	unsigned long total = 0;
	bool can_swap = get_swappiness(lruvec, sc);
	struct mem_cgroup *memcg = lruvec_memcg(lruvec);

	for (type = !can_swap; type < ANON_AND_FILE; type++)
		total += lru_gen_evictable_size(lruvec, type);

	/* whether the size is big enough to be helpful */
	return mem_cgroup_online(memcg) ? (total >> sc->priority) : total;
}

/******************************************************************************
 *                          initialization
 ******************************************************************************/

void lru_gen_init_folios(struct lruvec *lruvec)
{
	int gen, type, zone;
	struct lru_gen_folio *lrugen = &lruvec->lrugen;

	spin_lock_init(&lruvec->lru_lock);
	lrugen->max_seq = MIN_NR_GENS + 1;
	for (gen = 0; gen < MAX_NR_GENS; gen++)
		for (type = 0; type < ANON_AND_FILE; type++)
			for (zone = 0; zone < MAX_NR_ZONES; zone++)
				INIT_LIST_HEAD(&lrugen->folios[gen][type][zone]);
}

#endif /* MLF_EVICTION */
