/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the reclaim accounting checks read (reclaim_checks.h), beyond the
 * memcg LRU's check state: the evictions parked between isolation and
 * their end, the one in flight, the root memcg, and the event counts the
 * harness attributes itself (stats.reparent). The reclaim target's world
 * (harness/reclaim_world.h) embeds one and keeps it up to date.
 */
#ifndef _MLF_CHECK_RECLAIM_STATE_H
#define _MLF_CHECK_RECLAIM_STATE_H

#include "kernel/bitops.h"
#include "mm/eviction.h"
#include "mm/shrinker.h"

#include "state.h"

#define MLF_RECLAIM_MAX_PARKED 4
/* the parent of a memcg that is a child of the root */
#define MLF_ROOT (-1)
#define MLF_RECLAIM_MAX_POOL 16
/* the folios of a reclaim world (MLF_RECLAIM_MAX_FOLIOS) */
#define MLF_RECLAIM_MODEL_FOLIOS 512
/*
 * the lruvec items that follow a live memcg (stats.h): the refault events,
 * which 6.12 keeps per lruvec; the redirection is seed 001's, reconstructed
 */
#define MLF_NR_EVENT_ITEMS (NR_VM_NODE_STAT_ITEMS - WORKINGSET_REFAULT_ANON)

/*
 * The folio model: what the harness did to each folio, kept by the harness
 * from its own ops (add, refault, drain) and from the frees the port
 * reports, never read from the port's counters. A folio is charged to the
 * (memcg, node) the op that added it named, with the type and size (1 <<
 * order pages) that op gave it; it is isolated while it sits on the list
 * of an eviction the harness holds (parked, or in flight between its
 * probes); it is on the LRU when charged and not isolated, in the
 * generation the model's aging gives it (gen_model.h). The reclaim checks
 * take their expected values from it (reclaim_checks.c).
 */
struct mlf_reclaim_folio_model {
	const struct folio *base;	/* folio i is base + i */
	int nr;
	/* no folio below this one is unused: where a new one is looked for */
	int first_free;
	bool used[MLF_RECLAIM_MODEL_FOLIOS];
	u8 memcg[MLF_RECLAIM_MODEL_FOLIOS];
	u8 node[MLF_RECLAIM_MODEL_FOLIOS];
	u8 type[MLF_RECLAIM_MODEL_FOLIOS];
	u8 order[MLF_RECLAIM_MODEL_FOLIOS];
	/*
	 * the folios charged to each memcg on each node, a bit each: the
	 * model's steps on one lruvec go through these (lowest first, as
	 * through every folio) rather than through the world's
	 */
	DECLARE_BITMAP(lruvec_folios[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES],
		       MLF_RECLAIM_MODEL_FOLIOS);
	/* pages charged and not yet freed or drained */
	long charged[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES][ANON_AND_FILE];
	/* each memcg's swappiness, as the harness set it */
	int swappiness[MLF_RECLAIM_MAX_POOL];
	/*
	 * each memcg's memory.min and memory.low: what the harness wrote
	 * while it was online, and 0 once css_offline ran (the callback
	 * resets both)
	 */
	unsigned long min[MLF_RECLAIM_MAX_POOL], low[MLF_RECLAIM_MAX_POOL];
	/* each memcg's parent: a slot, or MLF_ROOT */
	int parent[MLF_RECLAIM_MAX_POOL];
	/*
	 * cgroup2's memory_recursiveprot and numa_balancing's memory
	 * tiering, as the harness set them
	 */
	bool recursive, tiering;
	/*
	 * the effective protection of each memcg as kswapd's pass over the
	 * tree computed it at the start of the current kswapd run
	 * (reclaim_checks.c computes it; shrink_one() reads it for kswapd)
	 */
	unsigned long kswapd_emin[MLF_RECLAIM_MAX_POOL];
	unsigned long kswapd_elow[MLF_RECLAIM_MAX_POOL];
	/*
	 * the zones: managed pages, the watermarks and the reserve as the
	 * harness set them, and the pages others hold (the free pages are
	 * what the folios of the zone and those leave)
	 */
	struct mlf_zone_model {
		long managed, used;
		unsigned long wmark[NR_WMARK], boost;
		long reserve[MAX_NR_ZONES];
	} zone[MAX_NUMNODES][MAX_NR_ZONES];
	/* the zone of each folio, and the pages charged in each zone */
	u8 zone_of[MLF_RECLAIM_MODEL_FOLIOS];
	long zone_pages[MAX_NUMNODES][MAX_NR_ZONES];
	/*
	 * the shrinkers' objects and deferred work per memcg (slot + 1; 0:
	 * the root) and node, as the harness added them and do_shrink_slab()'s
	 * formula, recomputed by the check, scanned and deferred them
	 */
	long objects[MLF_NR_SHRINKERS][MLF_RECLAIM_MAX_POOL + 1][MAX_NUMNODES];
	long deferred[MLF_NR_SHRINKERS][MLF_RECLAIM_MAX_POOL + 1][MAX_NUMNODES];
	/*
	 * each memcg's segment of the memcg LRU on each node, by
	 * lru_gen_rotate_memcg()'s rule (HEAD and TAIL set their segment,
	 * OLD and YOUNG the default one) applied to the rotations the
	 * harness asked or saw asked: the default at online, OLD at
	 * offline, HEAD by a soft reclaim, and each op shrink_one()
	 * returned once shrink_many() applies it (reclaim_world.c)
	 */
	u8 seg[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES];
	/*
	 * the multi-gen LRU as the model ages it (gen_model.h): each
	 * lruvec's max_seq and min_seq[] by slot and node; each folio's
	 * seq while on the LRU, the flags the kernel's rules read as the
	 * model sets them, and the eviction that holds it isolated (NULL:
	 * on the LRU)
	 */
	unsigned long max_seq[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES];
	unsigned long min_seq[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES][ANON_AND_FILE];
	unsigned long seq[MLF_RECLAIM_MODEL_FOLIOS];
	unsigned long flags[MLF_RECLAIM_MODEL_FOLIOS];
	const struct lru_gen_eviction *iso_by[MLF_RECLAIM_MODEL_FOLIOS];
	/*
	 * each folio's place in its list (greater: nearer the tail, where
	 * scan_folios() takes from) and in its eviction's (the order it was
	 * isolated in), from counters that only grow (or, at the head, fall)
	 */
	long key[MLF_RECLAIM_MODEL_FOLIOS], iso_order[MLF_RECLAIM_MODEL_FOLIOS];
	long head_key, tail_key, iso_key;
	/* the op's reclaimer is kswapd (exempt from the throttle) */
	bool kswapd;
	/* the types the model allowed at the last throttle decision */
	unsigned int allowed;
};

/* @folio's index in the model, or -1 if it is none of the model's */
static inline long model_folio(const struct mlf_reclaim_folio_model *m,
			       const struct folio *folio)
{
	long i = folio - m->base;

	return i >= 0 && i < m->nr && m->used[i] ? i : -1;
}

/* zone @z of @nid's free pages: managed, less others' and the folios' */
static inline long model_zone_free(const struct mlf_reclaim_folio_model *m,
				   int nid, int z)
{
	return m->zone[nid][z].managed - m->zone[nid][z].used -
	       m->zone_pages[nid][z];
}

/* where for_each_lruvec_folio() is: a word of the bitmap, its bits left */
struct lruvec_folio_cursor {
	long k;
	unsigned long word;
};

/* the next folio of @map past @c, or @nr */
static inline long lruvec_folio_next(const unsigned long *map, long nr,
				     struct lruvec_folio_cursor *c)
{
	long i;

	while (!c->word) {
		if (++c->k >= (long)BITS_TO_LONGS(nr))
			return nr;
		c->word = map[c->k];
	}
	i = c->k * BITS_PER_LONG + __builtin_ctzl(c->word);
	c->word &= c->word - 1;
	return i < nr ? i : nr;
}

/*
 * Each folio @i charged to (@slot, @nid), lowest first. It reads the
 * bitmap a word at a time, where for_each_set_bit()'s find_next_bit()
 * masks the word again for every bit (a fifth of a reclaim campaign's
 * time went there). So the body may uncharge folio @i, but a change to
 * the rest of the word it is in goes unseen.
 */
#define for_each_lruvec_folio(m, slot, nid, i)                                \
	for (struct lruvec_folio_cursor __c = { -1, 0 };                      \
	     ((i) = lruvec_folio_next((m)->lruvec_folios[slot][nid], (m)->nr, \
				      &__c)) < (m)->nr;)

/* the pages of folio @i, as the op that added it sized it */
static inline long model_pages(const struct mlf_reclaim_folio_model *m, long i)
{
	return 1L << m->order[i];
}

/*
 * The memcg a reclaim walk visits, as the model has it when shrink_one()
 * is about to run: its charge (the folios charged to it and its
 * descendants, which the kernel's usage counts), its effective protection
 * (recomputed along its path for direct reclaim; kswapd's pass for
 * kswapd) and the segment it is in.
 */
struct mlf_protect_visit {
	int slot;		/* MLF_NONE: not a pool memcg */
	int nid;
	int seg;		/* the memcg's segment at the visit (the model's) */
	long usage;
	unsigned long emin, elow;
	unsigned long min, low;	/* memory.min and memory.low */
	bool online;
	/* shrink_slab() calls of this visit, one per shrinker */
	int slab_calls;
	/* its eviction began (get_nr_to_scan() was asked), and the last answer */
	bool evicting;
	long last_nr_to_scan;
	/*
	 * the lruvec's generations as get_nr_to_scan() was last asked: the
	 * model's seqs, and its pages on the LRU in the youngest
	 * generation and in the one MIN_NR_GENS older, of the types it may
	 * evict
	 */
	unsigned long min_seq[ANON_AND_FILE], max_seq;
	long young, old;
};

/*
 * One reclaim run (the reclaim op: kswapd's age pass and
 * lru_gen_shrink_node(), or a nested run while another reclaimer yields)
 * as the model expects it to go: what it was asked, the priority it must
 * run at, the pages it freed, and whether should_abort_scan()'s condition
 * held when its last eviction batch ended.
 */
struct mlf_reclaim_run {
	struct mlf_reclaim_run *outer;	/* the run that yielded to this one */
	int nid;
	bool kswapd;
	int order;
	int reclaim_idx;
	unsigned long nr_to_reclaim;
	/* the priority asked, and the one the run must go at:
	 * set_initial_priority() on the model's folios, or the one asked */
	int asked_priority, priority;
	/* pages this run freed (those of the folios the harness saw go) */
	long freed;
	/* an eviction batch ended with the abort condition met, and why */
	bool abort_due;
	const char *abort_why;
	/* the visit in progress */
	struct mlf_protect_visit visit;
	/*
	 * the rotation shrink_many() applies before the walk's next event:
	 * what shrink_one() returned for a memcg (op 0: none pending)
	 */
	struct {
		int slot, nid, op;
	} rotation;
	/* the walk: its last pass is open (no nulls marker yet) */
	bool pass_open;
	/* memcgs whose tryget failed in the walk (reclaim.progress) */
	int failed[MLF_RECLAIM_MAX_POOL * 4];
	int nr_failed;
};

struct mlf_reclaim_parked {
	bool used;
	int memcg;		/* pool slot; holds a css reference */
	struct lru_gen_eviction ev;
};

struct mlf_reclaim_check_state {
	/* the memcg LRU's check state: nodes, pool, slots */
	const struct mlf_check_state *w;
	struct mem_cgroup *root;
	struct mlf_reclaim_parked parked[MLF_RECLAIM_MAX_PARKED];
	/* the eviction of the current reclaim op between its probes */
	const struct lru_gen_eviction *in_flight;
	/* the reclaim run in progress (the innermost), or NULL */
	struct mlf_reclaim_run *run;
	struct mlf_reclaim_folio_model model;
	/*
	 * stats.reparent: the memcg-local event counts each lruvec should
	 * hold, attributed by the harness itself to the nearest memcg that
	 * is online (or the root), and the node totals.
	 */
	long expect[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES][MLF_NR_EVENT_ITEMS];
	long expect_root[MAX_NUMNODES][MLF_NR_EVENT_ITEMS];
	long expect_node[MAX_NUMNODES][MLF_NR_EVENT_ITEMS];
};

#endif
