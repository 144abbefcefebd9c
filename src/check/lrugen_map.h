/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The map of live lrugens: which list nodes are &lrugen.list of a memcg
 * the world allocated and has not released, and of which slot and node,
 * so that a check can vouch for a pointer before it follows it; and which
 * slots are live, in slot order, so that a check over "every memcg" costs
 * the live ones, not the pool. The sequential driver keeps it up to date
 * at online and release, O(nodes) each; a driver that does not can fill it
 * from its slots, O(pool). Open addressing, linear probing; the table
 * grows with the live lrugens (a world of 2048 slots that onlines three
 * memcgs allocates for three).
 */
#ifndef _MLF_CHECK_LRUGEN_MAP_H
#define _MLF_CHECK_LRUGEN_MAP_H

#include "kernel/list_nulls.h"
#include "kernel/nodemask.h"
#include "kernel/types.h"
#include "slot.h"

struct lru_gen_folio;

struct mlf_lrugen_map {
	const struct hlist_nulls_node **keys;	/* NULL: free */
	int *vals;				/* slot * MAX_NUMNODES + nid */
	unsigned int cap;			/* power of two */
	unsigned int nr;
	/* bit i of word i / 64: slot i's lrugens are in the map */
	u64 *live;
	/*
	 * [slot * MAX_NUMNODES + nid]: a live slot's lrugen on each node
	 * (NULL: not live), for the checks that follow the model's ids to
	 * the port's lists (one load, not three through the memcg)
	 */
	struct lru_gen_folio **lrugens;
	int pool_size;
	int live_words;				/* allocated words of live */
};

/* An empty map for the slots 0..@pool_size-1. */
void mlf_lrugen_map_init(struct mlf_lrugen_map *map, int pool_size);
void mlf_lrugen_map_destroy(struct mlf_lrugen_map *map);

/*
 * The lrugens of @memcg on nodes 0..@nr_nodes-1 enter the map as slot
 * @slot's, or leave it. Adding a live one twice or removing one that is
 * not there aborts: the world lost track of its memcgs.
 */
void mlf_lrugen_map_add_memcg(struct mlf_lrugen_map *map,
			      struct mem_cgroup *memcg, int slot,
			      int nr_nodes);
void mlf_lrugen_map_del_memcg(struct mlf_lrugen_map *map,
			      struct mem_cgroup *memcg, int slot,
			      int nr_nodes);

/* The slot whose lrugen on some node is @p (*@nid: which), or -1. */
int mlf_lrugen_map_lookup(const struct mlf_lrugen_map *map,
			  const struct hlist_nulls_node *p, int *nid);

/* The first live slot >= @from, or -1: O(pool / 64) at worst. */
static inline int mlf_lrugen_map_next_live(const struct mlf_lrugen_map *map,
					   int from)
{
	int word = from / 64, words = (map->pool_size + 63) / 64;
	u64 bits;

	if (from < 0 || from >= map->pool_size)
		return -1;
	bits = map->live[word] & (~0ULL << (from % 64));
	while (!bits) {
		if (++word >= words)
			return -1;
		bits = map->live[word];
	}
	return word * 64 + __builtin_ctzll(bits);
}

/* The lrugen of live slot @slot on node @nid; NULL if the slot is not live. */
static inline struct lru_gen_folio *
mlf_lrugen_map_lrugen(const struct mlf_lrugen_map *map, int slot, int nid)
{
	return map->lrugens[slot * MAX_NUMNODES + nid];
}

/* (Re)fill @map from the memcgs of @slots[0..@pool_size-1], O(pool). */
void mlf_lrugen_map_fill(struct mlf_lrugen_map *map,
			 const struct mlf_slot *slots, int pool_size,
			 int nr_nodes);

#endif
