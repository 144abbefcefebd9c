/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The map of live lrugens: which list nodes are &lrugen.list of a memcg
 * the world allocated and has not released, and of which slot and node,
 * so that a check can vouch for a pointer before it follows it. The
 * sequential driver keeps it up to date at online and release, O(nodes)
 * each; a driver that does not can fill it from its slots, O(pool).
 * Open addressing, linear probing.
 */
#ifndef _MLF_CHECK_LRUGEN_MAP_H
#define _MLF_CHECK_LRUGEN_MAP_H

#include "kernel/list_nulls.h"
#include "slot.h"

struct mlf_lrugen_map {
	const struct hlist_nulls_node **keys;	/* NULL: free */
	int *vals;				/* slot * MAX_NUMNODES + nid */
	unsigned int cap;			/* power of two */
	unsigned int nr;
};

/* Room for @entries lrugens (at most half full); an empty map. */
void mlf_lrugen_map_init(struct mlf_lrugen_map *map, int entries);
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
			      struct mem_cgroup *memcg, int nr_nodes);

/* The slot whose lrugen on some node is @p (*@nid: which), or -1. */
int mlf_lrugen_map_lookup(const struct mlf_lrugen_map *map,
			  const struct hlist_nulls_node *p, int *nid);

/* (Re)fill @map from the memcgs of @slots[0..@pool_size-1], O(pool). */
void mlf_lrugen_map_fill(struct mlf_lrugen_map *map,
			 const struct mlf_slot *slots, int pool_size,
			 int nr_nodes);

#endif
