/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sequential driver of the reclaim target: the memcg LRU world (nodes,
 * memcg slots, structure checks) plus what lies below it: a memcg tree
 * (online under a parent), folios charged in it, zones, shrinker objects,
 * protections and sysctls; reclaim runs that enter the real eviction
 * (MLF_EVICTION) as global reclaim and kswapd do, with other kswapd runs
 * while one yields (others=); evictions parked mid-flight (a reclaimer
 * waiting on writeback holds its isolated folios); and the reclaim checks
 * (src/check/reclaim_checks.h) after every op and at the probes of the
 * eviction, the walk and the shrinkers.
 *
 * model.order does not apply here: the reference model knows shrink_one()'s
 * outcome only when it is given (memcg->shrink), and here it comes from
 * folio state, so the model is not fed and only the structure checks run.
 */
#ifndef _MLF_HARNESS_RECLAIM_WORLD_H
#define _MLF_HARNESS_RECLAIM_WORLD_H

#include "check/kswapd_checks.h"
#include "check/reclaim_state.h"
#include "mm/eviction.h"
#include "mm/workingset.h"

#include "world.h"

#define MLF_RECLAIM_MAX_FOLIOS MLF_RECLAIM_MODEL_FOLIOS
/* the largest folio order (and sc->order) an op names: 8 pages */
#define MLF_RECLAIM_MAX_ORDER 3
#define MLF_RECLAIM_MAX_DRAWS 32

enum mlf_reclaim_op_kind {
	RECLAIM_OP_ONLINE,	/* online m parent (1 draw: the bin) */
	RECLAIM_OP_OFFLINE,	/* offline m (not while a child is online) */
	RECLAIM_OP_RELEASE,	/* release m: drain its folios, css_released */
	RECLAIM_OP_ADD,		/* add m n: count new folios of order */
	RECLAIM_OP_REFAULT,	/* refault m n: count folios of order come
				   back active */
	RECLAIM_OP_TOUCH,	/* touch f: the folio is referenced */
	RECLAIM_OP_WBDONE,	/* wbdone m: its writeback completes */
	RECLAIM_OP_AGE,		/* age m n: try_to_inc_max_seq */
	RECLAIM_OP_PROTECT,	/* protect m min low (pages) */
	RECLAIM_OP_SWAPPINESS,	/* swappiness m v */
	RECLAIM_OP_RECLAIM,	/* reclaim n target prio [kswapd] [dying] order
				   zones others */
	RECLAIM_OP_PARK,	/* park m n: an eviction stops after isolation */
	RECLAIM_OP_UNPARK,	/* unpark k: the parked eviction k finishes */
	RECLAIM_OP_SHADOW,	/* shadow m n nodes: count_shadow_nodes */
	RECLAIM_OP_SOFT,	/* soft m n: lru_gen_soft_reclaim (softirq) */
	RECLAIM_OP_ZONE,	/* zone n z managed min gap boost reserve free */
	RECLAIM_OP_SLAB,	/* slab m n s objects: list_lru_add */
	RECLAIM_OP_SYSCTL,	/* sysctl recursiveprot tiering */
	RECLAIM_OP_FREE,	/* free m n: truncate / unmap its folios there */
	RECLAIM_OP_NR,
};

struct mlf_reclaim_op {
	u8 kind;
	u8 memcg;
	u8 node;
	u8 type;		/* LRU_GEN_ANON / LRU_GEN_FILE */
	u8 zone;
	u8 dirty, writeback, referenced;
	u8 count;		/* add / refault: folios, 1.. */
	u16 folio;		/* touch */
	u16 min, low;		/* protect */
	u8 swappiness;		/* 0..MAX_SWAPPINESS */
	u16 target;		/* reclaim: pages; 0: never enough */
	u8 priority;		/* 0..DEF_PRIORITY */
	u8 kswapd, dying;	/* reclaim / park: who reclaims */
	u8 slot;		/* unpark */
	u16 nodes;		/* shadow */
	u8 order;		/* reclaim: sc->order; add / refault: the
				   folios' order; 0..MLF_RECLAIM_MAX_ORDER */
	u8 zones;		/* reclaim: sc->reclaim_idx + 1 (0: all zones) */
	u8 others;		/* reclaim: kswapd runs while it yields, 0..3 */
	u8 parent;		/* online: 0 the root, k slot k - 1 */
	u8 zone_managed, zone_min, zone_gap, zone_boost, zone_reserve,
		zone_free;	/* zone */
	u8 shrinker;		/* slab */
	u16 objects;		/* slab: 1..256 */
	u8 recursiveprot, tiering;	/* sysctl */
	u8 nr_draws;
	u8 draws[MLF_RECLAIM_MAX_DRAWS];
};

struct mlf_reclaim_world {
	struct mlf_world w;
	/*
	 * What the reclaim checks read (check/reclaim_state.h): the root
	 * memcg, the parked evictions and the one in flight, the event counts
	 * each lruvec should hold; and, through rcs.w, w.cs.
	 */
	struct mlf_reclaim_check_state rcs;
	/* what kswapd.failures expects of each node */
	struct mlf_kswapd_check kswapd;
	/*
	 * Charged folios keep an offline memcg alive (a css reference per
	 * charge in the kernel): the harness holds one reference for all of
	 * them from offline until the last is uncharged.
	 */
	bool charge_ref[MLF_RECLAIM_MAX_POOL];
	/* the nested runs the current reclaim op still runs at its next yield */
	int others_due;
	/*
	 * Of the last reclaim op, the bin of its walk's generation with the
	 * most memcgs once the others had run in its yield (-1: none ran, or
	 * that generation is empty)
	 */
	int crowded_bin;
	/* counters */
	unsigned long ops_applied, ops_skipped, evictions, throttle_sleeps;
	unsigned long folios_freed;
	/*
	 * The folios, last: reclaim_world_init() clears what comes before
	 * and leaves a folio to be set up when it is first used (which ones
	 * are, and where, is rcs.model's)
	 */
	struct folio folios[MLF_RECLAIM_MAX_FOLIOS];
};

void reclaim_world_init(struct mlf_reclaim_world *rw, int nr_nodes,
			int pool_size);
/* applies one op and checks; false if the op did not apply (skipped) */
bool reclaim_world_apply(struct mlf_reclaim_world *rw,
			 const struct mlf_reclaim_op *op);
/* all reclaim and structure checks now */
void reclaim_world_check(struct mlf_reclaim_world *rw);
/* finish parked evictions, release everything, free folios */
void reclaim_world_destroy(struct mlf_reclaim_world *rw);

const char *mlf_reclaim_op_name(int kind);

/* State coverage (states.h) of every reclaim world from now on. */
void reclaim_world_states_attach(unsigned char *feedback, size_t size);

struct mlf_state_cell;

/* the most online memcgs below a memcg's @up that a stand lists */
#define RECLAIM_STAND_MAX_BELOW 4

/*
 * Where a memcg stands on a node (reclaim_world_stands()): its cell
 * (states.h; kind 0) and, for the ops that reach a memcg through them, its
 * nearest online ancestor (@up; -1: the root), one of its folios on that
 * node and a parked eviction of it there (-1: none), the nodes it has
 * folios on (bit n: node n), its parked evictions (bit k: slot k) and
 * their nodes; the slot the next park takes and a parked eviction of
 * another memcg (-1: none); the bin of its generation it is in, its index
 * there and the bin's length, and the nearest online memcg ahead of it in
 * the bin (-1: off the memcg LRU, none ahead); a slot no memcg is in (-1:
 * none), where an online would put a new memcg on the old generation
 */
struct reclaim_stand {
	int slot, nid;
	const struct mlf_state_cell *c;
	int up, folio, parked;
	int folio_nodes, parked_slots, parked_nodes;
	int free_park, other_parked;
	int bin, index, bin_len, ahead;
	int empty;
	/* a bin of the node's old generation with no memcg in it (-1: none) */
	int old_empty;
	/* the node's zone with the most free pages, if one has any (-1: none) */
	int room_zone;
	/* the folio the next charge makes (-1: the model has none left) */
	int next_folio;
	/*
	 * The online memcgs below @up, in an order rmdir takes them (each
	 * before its parent), if there are at most RECLAIM_STAND_MAX_BELOW
	 * (@nr_below -1: more)
	 */
	int below[RECLAIM_STAND_MAX_BELOW], nr_below;
};

/*
 * Where each memcg (@only >= 0: that one) stands now, on each node; the
 * fields past its cell only with @handles (-1 or no bits without: they
 * cost a pass over the folio model, a walk up the tree and along the
 * bins). For a mutator that puts an op where a memcg stands, and the
 * places as coverage (fuzz/reclaim.c); nothing without a state table
 * attached.
 */
typedef void (*reclaim_stand_fn)(void *arg, const struct reclaim_stand *s);
void reclaim_world_stands(const struct mlf_reclaim_world *rw, int only,
			  bool handles, reclaim_stand_fn fn, void *arg);

#endif
