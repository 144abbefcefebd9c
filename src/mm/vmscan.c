// SPDX-License-Identifier: GPL-2.0
/*
 * The memcg LRU of the multi-gen LRU, ported from mm/vmscan.c of Linux 6.12
 * (section "memcg LRU", shrink_one(), shrink_many(), lru_gen_init_pgdat(),
 * and for the reclaim port lru_gen_shrink_node(), set_initial_priority()
 * and lru_gen_age_node()), with the seed series' patches behind the
 * CONFIG_LRU_GEN_* features of variant.h. shrink_one() and
 * should_abort_scan() are 6.12.118's; what they call below is modelled
 * (shrink_one.h): what reclaim would find in a memcg comes from
 * memcg->shrink, or in the reclaim port from the eviction, the memcg tree,
 * the zones and the shrinkers.
 */
#include "vmscan.h"
#ifdef MLF_EVICTION
#include "eviction.h"
#endif

struct pglist_data *node_data[MAX_NUMNODES];
int nr_node_ids = 1;

/******************************************************************************
 *                          memcg LRU
 ******************************************************************************/

#ifdef CONFIG_LRU_GEN_TAIL_CACHE
/* seed 000, patches 2 and 3: the helpers and the cached tail of each bin */

static void lru_gen_add_memcg(struct lru_gen_memcg *memcg_lru,
			      struct lru_gen_folio *lrugen,
			      int gen, int bin, bool at_head)
{
	struct hlist_nulls_head *head = &memcg_lru->fifo[gen][bin];
	struct hlist_nulls_node *last = memcg_lru->tail[gen][bin];

	lockdep_assert_held(&memcg_lru->lock);

	lrugen->bin = bin;

	if (at_head || !last)
		hlist_nulls_add_head_rcu(&lrugen->list, head);
	else
		hlist_nulls_add_behind_rcu(&lrugen->list, last);

	if (!at_head || !last)
		memcg_lru->tail[gen][bin] = &lrugen->list;
}

static void lru_gen_del_memcg(struct lru_gen_memcg *memcg_lru,
			      struct lru_gen_folio *lrugen,
			      int gen)
{
	const int bin = lrugen->bin;
	struct hlist_nulls_head *head = &memcg_lru->fifo[gen][bin];

	lockdep_assert_held(&memcg_lru->lock);

	/* pprev points to head->first for the only entry, otherwise prev->next. */
	if (memcg_lru->tail[gen][bin] == &lrugen->list)
		memcg_lru->tail[gen][bin] = lrugen->list.pprev == &head->first
			? NULL
			: container_of(lrugen->list.pprev, struct hlist_nulls_node, next);

	/* Keep next intact for readers that still hold this entry. */
	hlist_nulls_del_init_rcu(&lrugen->list);
}

#endif /* CONFIG_LRU_GEN_TAIL_CACHE */

/*
 * With TAIL_CACHE, seed 000's patch 2 as adapted to 6.12, which still has
 * MEMCG_LRU_HEAD (kernel/series/seed-adaptations.json); with LOCKRAND, a
 * reconstruction (kernel/series/lockrand.diff, docs/reconstructions.md).
 */
static void lru_gen_rotate_memcg(struct lruvec *lruvec, int op)
{
	int seg;
	int old, new;
	unsigned long flags;
#ifdef CONFIG_LRU_GEN_LOCKRAND
	int bin;
#else
	int bin = get_random_u32_below(MEMCG_NR_BINS);
#endif
	struct pglist_data *pgdat = lruvec_pgdat(lruvec);

	spin_lock_irqsave(&pgdat->memcg_lru.lock, flags);

	VM_WARN_ON_ONCE(hlist_nulls_unhashed(&lruvec->lrugen.list));

	seg = 0;
	new = old = lruvec->lrugen.gen;

	/* see the comment on MEMCG_NR_GENS */
	if (op == MEMCG_LRU_HEAD)
		seg = MEMCG_LRU_HEAD;
	else if (op == MEMCG_LRU_TAIL)
		seg = MEMCG_LRU_TAIL;
	else if (op == MEMCG_LRU_OLD)
		new = get_memcg_gen(pgdat->memcg_lru.seq);
	else if (op == MEMCG_LRU_YOUNG)
		new = get_memcg_gen(pgdat->memcg_lru.seq + 1);
	else
		VM_WARN_ON_ONCE(true);

#ifdef CONFIG_LRU_GEN_YOUNG_SKIP
	if (op == MEMCG_LRU_YOUNG && old == new && lruvec->lrugen.seg == seg)
		/*
		 * This memcg is already in the young generation and
		 * reshuffling it again cannot help the scan of the
		 * old generation.
		 */
		goto unlock;
#endif

#ifdef CONFIG_LRU_GEN_LOCKRAND
	/* drawn only when needed, at the price of a longer critical section */
	bin = get_random_u32_below(MEMCG_NR_BINS);
#endif

	WRITE_ONCE(lruvec->lrugen.seg, seg);
	WRITE_ONCE(lruvec->lrugen.gen, new);

#ifdef CONFIG_LRU_GEN_TAIL_CACHE
	lru_gen_del_memcg(&pgdat->memcg_lru, &lruvec->lrugen, old);
	lru_gen_add_memcg(&pgdat->memcg_lru, &lruvec->lrugen, new, bin,
			  op == MEMCG_LRU_HEAD || op == MEMCG_LRU_OLD);
#else
	hlist_nulls_del_rcu(&lruvec->lrugen.list);

	if (op == MEMCG_LRU_HEAD || op == MEMCG_LRU_OLD)
		hlist_nulls_add_head_rcu(&lruvec->lrugen.list, &pgdat->memcg_lru.fifo[new][bin]);
	else
		hlist_nulls_add_tail_rcu(&lruvec->lrugen.list, &pgdat->memcg_lru.fifo[new][bin]);
#endif

	pgdat->memcg_lru.nr_memcgs[old]--;
	pgdat->memcg_lru.nr_memcgs[new]++;

	if (!pgdat->memcg_lru.nr_memcgs[old] && old == get_memcg_gen(pgdat->memcg_lru.seq))
		WRITE_ONCE(pgdat->memcg_lru.seq, pgdat->memcg_lru.seq + 1);

#ifdef CONFIG_LRU_GEN_YOUNG_SKIP
unlock:
#endif
	spin_unlock_irqrestore(&pgdat->memcg_lru.lock, flags);
}

void lru_gen_online_memcg(struct mem_cgroup *memcg)
{
	int gen;
	int nid;
	int bin = get_random_u32_below(MEMCG_NR_BINS);

	for_each_node(nid) {
		struct pglist_data *pgdat = NODE_DATA(nid);
		struct lruvec *lruvec = get_lruvec(memcg, nid);

		spin_lock_irq(&pgdat->memcg_lru.lock);

		VM_WARN_ON_ONCE(!hlist_nulls_unhashed(&lruvec->lrugen.list));

		gen = get_memcg_gen(pgdat->memcg_lru.seq);

		lruvec->lrugen.gen = gen;

#ifdef CONFIG_LRU_GEN_TAIL_CACHE
		lru_gen_add_memcg(&pgdat->memcg_lru, &lruvec->lrugen, gen, bin, false);
#else
		hlist_nulls_add_tail_rcu(&lruvec->lrugen.list, &pgdat->memcg_lru.fifo[gen][bin]);
#endif
		pgdat->memcg_lru.nr_memcgs[gen]++;

		spin_unlock_irq(&pgdat->memcg_lru.lock);
	}
}

void lru_gen_offline_memcg(struct mem_cgroup *memcg)
{
	int nid;

	for_each_node(nid) {
		struct lruvec *lruvec = get_lruvec(memcg, nid);

		lru_gen_rotate_memcg(lruvec, MEMCG_LRU_OLD);
	}
}

void lru_gen_release_memcg(struct mem_cgroup *memcg)
{
	int gen;
	int nid;

	for_each_node(nid) {
		struct pglist_data *pgdat = NODE_DATA(nid);
		struct lruvec *lruvec = get_lruvec(memcg, nid);

		spin_lock_irq(&pgdat->memcg_lru.lock);

		if (hlist_nulls_unhashed(&lruvec->lrugen.list))
			goto unlock;

		gen = lruvec->lrugen.gen;

#ifdef CONFIG_LRU_GEN_TAIL_CACHE
		lru_gen_del_memcg(&pgdat->memcg_lru, &lruvec->lrugen, gen);
#else
		hlist_nulls_del_init_rcu(&lruvec->lrugen.list);
#endif
		pgdat->memcg_lru.nr_memcgs[gen]--;

		if (!pgdat->memcg_lru.nr_memcgs[gen] && gen == get_memcg_gen(pgdat->memcg_lru.seq))
			WRITE_ONCE(pgdat->memcg_lru.seq, pgdat->memcg_lru.seq + 1);
unlock:
		spin_unlock_irq(&pgdat->memcg_lru.lock);
	}
}

void lru_gen_soft_reclaim(struct mem_cgroup *memcg, int nid)
{
	struct lruvec *lruvec = get_lruvec(memcg, nid);

	/* see the comment on MEMCG_NR_GENS */
	if (READ_ONCE(lruvec->lrugen.seg) != MEMCG_LRU_HEAD)
		lru_gen_rotate_memcg(lruvec, MEMCG_LRU_HEAD);
}

/******************************************************************************
 *                          the eviction
 ******************************************************************************/

/* what lies below: modelled, or eviction.c (MLF_EVICTION); stubs */
#include "shrink_one.h"

static bool should_abort_scan(struct lruvec *lruvec, struct scan_control *sc)
{
	int i;
	enum zone_watermarks mark;

	if (sc->nr_reclaimed >= max(sc->nr_to_reclaim, compact_gap(sc->order)))
		return true;

	/* check the order to exclude compaction-induced reclaim */
	if (!current_is_kswapd() || sc->order)
		return false;

	mark = sysctl_numa_balancing_mode & NUMA_BALANCING_MEMORY_TIERING ?
	       WMARK_PROMO : WMARK_HIGH;

	for (i = 0; i <= sc->reclaim_idx; i++) {
		struct zone *zone = lruvec_pgdat(lruvec)->node_zones + i;
		unsigned long size = wmark_pages(zone, mark) + MIN_LRU_BATCH;

		if (managed_zone(zone) && !zone_watermark_ok(zone, 0, size, sc->reclaim_idx, 0))
			return false;
	}

	/* kswapd should abort if all eligible zones are safe */
	return true;
}

static int shrink_one(struct lruvec *lruvec, struct scan_control *sc)
{
	bool success;
	unsigned long scanned = sc->nr_scanned;
	unsigned long reclaimed = sc->nr_reclaimed;
	struct mem_cgroup *memcg = lruvec_memcg(lruvec);
	struct pglist_data *pgdat = lruvec_pgdat(lruvec);

	/*
	 * For kswapd, mem_cgroup_calculate_protection() has already
	 * been called during the top-down cgroup traversal.
	 */
	if (!current_is_kswapd())
		mem_cgroup_calculate_protection_path(NULL, memcg);

	if (mem_cgroup_below_min(NULL, memcg))
		return MEMCG_LRU_YOUNG;

	if (mem_cgroup_below_low(NULL, memcg)) {
		/* see the comment on MEMCG_NR_GENS */
		if (READ_ONCE(lruvec->lrugen.seg) != MEMCG_LRU_TAIL)
			return MEMCG_LRU_TAIL;

		memcg_memory_event(memcg, MEMCG_LOW);
	}

	success = try_to_shrink_lruvec(lruvec, sc);

	shrink_slab(sc->gfp_mask, pgdat->node_id, memcg, sc->priority);

	if (!sc->proactive)
		vmpressure(sc->gfp_mask, memcg, false, sc->nr_scanned - scanned,
			   sc->nr_reclaimed - reclaimed);

	flush_reclaim_state(sc);

	if (success && mem_cgroup_online(memcg))
		return MEMCG_LRU_YOUNG;

	if (!success && lruvec_is_sizable(lruvec, sc))
		return 0;

	/* one retry if offlined or too small */
	return READ_ONCE(lruvec->lrugen.seg) != MEMCG_LRU_TAIL ?
	       MEMCG_LRU_TAIL : MEMCG_LRU_YOUNG;
}

/* each call of shrink_one() reports its VISIT and decision */
#include "shrink_one_hook.h"

static void shrink_many(struct pglist_data *pgdat, struct scan_control *sc)
{
	int op;
	int gen;
	int bin;
	int first_bin;
	struct lruvec *lruvec;
	struct lru_gen_folio *lrugen;
	struct mem_cgroup *memcg;
	struct hlist_nulls_node *pos;

	gen = get_memcg_gen(READ_ONCE(pgdat->memcg_lru.seq));
	bin = first_bin = get_random_u32_below(MEMCG_NR_BINS);
restart:
#ifdef CONFIG_LRU_GEN_RESCHED
	/* Yield between bins/retries that contain only skipped entries. */
	cond_resched_tasks_rcu_qs();

#endif
	op = 0;
	memcg = NULL;

	rcu_read_lock();

	hlist_nulls_for_each_entry_rcu(lrugen, pos, &pgdat->memcg_lru.fifo[gen][bin], list) {
		if (op) {
			lru_gen_rotate_memcg(lruvec, op);
			op = 0;
		}

		mem_cgroup_put(memcg);
		memcg = NULL;

		if (gen != READ_ONCE(lrugen->gen))
			continue;

		lruvec = container_of(lrugen, struct lruvec, lrugen);
		memcg = lruvec_memcg(lruvec);

		if (!mem_cgroup_tryget(memcg)) {
			lru_gen_release_memcg(memcg);
			memcg = NULL;
			continue;
		}

		rcu_read_unlock();

		op = shrink_one(lruvec, sc);

#ifdef CONFIG_LRU_GEN_RESCHED
		/*
		 * Empty or protected memcgs can bypass the
		 * rescheduling points in page reclaim.  The memcg
		 * reference pins our cursor while we yield outside
		 * the RCU read-side critical section.
		 */
		cond_resched_tasks_rcu_qs();

#endif
		rcu_read_lock();

		if (should_abort_scan(lruvec, sc))
			break;
	}

	rcu_read_unlock();

	if (op)
		lru_gen_rotate_memcg(lruvec, op);

	mem_cgroup_put(memcg);

	if (!is_a_nulls(pos))
		return;

	/* restart if raced with lru_gen_rotate_memcg() */
	if (gen != get_nulls_value(pos))
		goto restart;

	/* try the rest of the bins of the current generation */
	bin = get_memcg_bin(bin + 1);
	if (bin != first_bin)
		goto restart;
}

/******************************************************************************
 *                          initialization
 ******************************************************************************/

void lru_gen_init_lruvec(struct lruvec *lruvec)
{
	/* unhashed until lru_gen_online_memcg() */
	lruvec->lrugen.list.next = NULL;
	lruvec->lrugen.list.pprev = NULL;
	lruvec->lrugen.gen = 0;
	lruvec->lrugen.seg = 0;
#ifdef MLF_EVICTION
	lru_gen_init_folios(lruvec);
#endif
}

void lru_gen_exit_memcg(struct mem_cgroup *memcg)
{
	int nid;

	for_each_node(nid) {
		struct lruvec *lruvec = get_lruvec(memcg, nid);

		lruvec->lrugen.list.next = LIST_POISON1;
	}
}

void lru_gen_init_pgdat(struct pglist_data *pgdat)
{
	int i, j;

	spin_lock_init(&pgdat->memcg_lru.lock);

	for (i = 0; i < MEMCG_NR_GENS; i++) {
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
		for (j = 0; j < MEMCG_NR_BINS; j++) {
			INIT_HLIST_NULLS_HEAD(&pgdat->memcg_lru.fifo[i][j], i);
			pgdat->memcg_lru.tail[i][j] = NULL;
		}
#else
		for (j = 0; j < MEMCG_NR_BINS; j++)
			INIT_HLIST_NULLS_HEAD(&pgdat->memcg_lru.fifo[i][j], i);
#endif
	}
}

#ifdef MLF_EVICTION
/******************************************************************************
 *                          a node's global reclaim (the reclaim port)
 ******************************************************************************/

static void set_initial_priority(struct pglist_data *pgdat, struct scan_control *sc)
{
	int priority;
	unsigned long reclaimable;

	if (sc->priority != DEF_PRIORITY || sc->nr_to_reclaim < MIN_LRU_BATCH)
		return;
	/*
	 * Determine the initial priority based on
	 * (total >> priority) * reclaimed_to_scanned_ratio = nr_to_reclaim,
	 * where reclaimed_to_scanned_ratio = inactive / total.
	 */
	reclaimable = node_page_state(pgdat, NR_INACTIVE_FILE);
	if (can_reclaim_anon_pages(NULL, pgdat->node_id, sc))
		reclaimable += node_page_state(pgdat, NR_INACTIVE_ANON);

	/* round down reclaimable and round up sc->nr_to_reclaim */
	priority = fls_long(reclaimable) - 1 - fls_long(sc->nr_to_reclaim - 1);

	/*
	 * The estimation is based on LRU pages only, so cap it to prevent
	 * overshoots of shrinker objects by large margins.
	 */
	sc->priority = clamp(priority, DEF_PRIORITY / 2, DEF_PRIORITY);
}

/*
 * kswapd's pass over the memcg tree before it shrinks the node
 * (kswapd_age_node()): the effective protection of every memcg, computed
 * top-down, which shrink_one() then reads for kswapd. 6.12 also judges
 * there whether every memcg's oldest generation is younger than
 * min_ttl_ms and OOM-kills if so; lru_gen_min_ttl is 0 here, the sysctl's
 * default, so nothing is judged (no generation timestamps, no OOM kill).
 */
static void lru_gen_age_node(struct pglist_data *pgdat, struct scan_control *sc)
{
	struct mem_cgroup *memcg;

	VM_WARN_ON_ONCE(!current_is_kswapd());

	set_initial_priority(pgdat, sc);

	memcg = mem_cgroup_iter(NULL, NULL, NULL);
	do {
		mem_cgroup_calculate_protection(NULL, memcg);
	} while ((memcg = mem_cgroup_iter(NULL, memcg, NULL)));
}

static void lru_gen_shrink_node(struct pglist_data *pgdat, struct scan_control *sc)
{
	struct blk_plug plug;
	unsigned long reclaimed = sc->nr_reclaimed;

	VM_WARN_ON_ONCE(!root_reclaim(sc));

	/*
	 * Unmapped clean folios are already prioritized. Scanning for more of
	 * them is likely futile and can cause high reclaim latency when there
	 * is a large number of memcgs.
	 */
	if (!sc->may_writepage || !sc->may_unmap)
		goto done;

	lru_add_drain();

	blk_start_plug(&plug);

	set_mm_walk(pgdat, sc->proactive);

	set_initial_priority(pgdat, sc);

	if (current_is_kswapd())
		sc->nr_reclaimed = 0;

	if (mem_cgroup_disabled())
		shrink_one(mem_cgroup_lruvec(NULL, pgdat), sc);
	else
		shrink_many(pgdat, sc);

	if (current_is_kswapd())
		sc->nr_reclaimed += reclaimed;

	clear_mm_walk();

	blk_finish_plug(&plug);
done:
	if (sc->nr_reclaimed > reclaimed)
		pgdat->kswapd_failures = 0;
}
#endif /* MLF_EVICTION */

/******************************************************************************
 *                          entry points for the harness
 ******************************************************************************/

void mlf_shrink_many(struct pglist_data *pgdat, struct scan_control *sc)
{
	struct mlf_walk walk = {
		.pgdat = pgdat,
		.heads = &pgdat->memcg_lru.fifo[0][0],
		.head_size = sizeof(pgdat->memcg_lru.fifo[0][0]),
		.nr_gens = MEMCG_NR_GENS,
		.nr_bins = MEMCG_NR_BINS,
	};

	/* the walk's events, from the shim (trace.h) */
	mlf_walk_begin(&walk);
	shrink_many(pgdat, sc);
	mlf_walk_end();
}

void mlf_rotate_memcg(struct lruvec *lruvec, int op)
{
	lru_gen_rotate_memcg(lruvec, op);
}

#ifdef MLF_EVICTION
void mlf_shrink_node(struct pglist_data *pgdat, struct scan_control *sc)
{
	struct mlf_walk walk = {
		.pgdat = pgdat,
		.heads = &pgdat->memcg_lru.fifo[0][0],
		.head_size = sizeof(pgdat->memcg_lru.fifo[0][0]),
		.nr_gens = MEMCG_NR_GENS,
		.nr_bins = MEMCG_NR_BINS,
	};

	mlf_walk_begin(&walk);
	lru_gen_shrink_node(pgdat, sc);
	mlf_walk_end();
}

void mlf_age_node(struct pglist_data *pgdat, struct scan_control *sc)
{
	lru_gen_age_node(pgdat, sc);
}
#endif
