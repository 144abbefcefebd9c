// SPDX-License-Identifier: GPL-2.0
/*
 * The map of live lrugens (lrugen_map.h): a hash of list node pointers to
 * (slot, node), with linear probing and backward-shift deletion.
 */
#include "lrugen_map.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mm/memcontrol.h"

static unsigned int map_hash(const void *p, unsigned int cap)
{
	uint64_t v = (uintptr_t)p >> 3;

	return (unsigned int)((v * 0x9e3779b97f4a7c15ULL) >> 32) & (cap - 1);
}

void mlf_lrugen_map_init(struct mlf_lrugen_map *map, int entries)
{
	unsigned int cap = 64;

	/* at most half full, so that probe runs stay short */
	while (cap < 2u * entries)
		cap *= 2;
	map->keys = calloc(cap, sizeof(*map->keys));
	map->vals = calloc(cap, sizeof(*map->vals));
	if (!map->keys || !map->vals)
		abort();
	map->cap = cap;
	map->nr = 0;
}

void mlf_lrugen_map_destroy(struct mlf_lrugen_map *map)
{
	free(map->keys);
	free(map->vals);
	memset(map, 0, sizeof(*map));
}

static void map_add(struct mlf_lrugen_map *map,
		    const struct hlist_nulls_node *key, int val)
{
	unsigned int h = map_hash(key, map->cap);

	while (map->keys[h]) {
		if (map->keys[h] == key)
			abort();	/* the allocator handed out a live one */
		h = (h + 1) & (map->cap - 1);
	}
	map->keys[h] = key;
	map->vals[h] = val;
	map->nr++;
}

/* Linear probing: close the gap by moving later entries of the run back. */
static void map_del(struct mlf_lrugen_map *map,
		    const struct hlist_nulls_node *key)
{
	unsigned int mask = map->cap - 1, h = map_hash(key, map->cap), j;

	while (map->keys[h] != key) {
		if (!map->keys[h])
			abort();	/* not there: the world lost track */
		h = (h + 1) & mask;
	}
	map->keys[h] = NULL;
	map->nr--;
	for (j = (h + 1) & mask; map->keys[j]; j = (j + 1) & mask) {
		unsigned int home = map_hash(map->keys[j], map->cap);

		/* stays if its home lies cyclically in (h, j] */
		if (((j - home) & mask) < ((j - h) & mask))
			continue;
		map->keys[h] = map->keys[j];
		map->vals[h] = map->vals[j];
		map->keys[j] = NULL;
		h = j;
	}
}

void mlf_lrugen_map_add_memcg(struct mlf_lrugen_map *map,
			      struct mem_cgroup *memcg, int slot,
			      int nr_nodes)
{
	int nid;

	for (nid = 0; nid < nr_nodes; nid++)
		map_add(map, &get_lruvec(memcg, nid)->lrugen.list,
			slot * MAX_NUMNODES + nid);
}

void mlf_lrugen_map_del_memcg(struct mlf_lrugen_map *map,
			      struct mem_cgroup *memcg, int nr_nodes)
{
	int nid;

	for (nid = 0; nid < nr_nodes; nid++)
		map_del(map, &get_lruvec(memcg, nid)->lrugen.list);
}

int mlf_lrugen_map_lookup(const struct mlf_lrugen_map *map,
			  const struct hlist_nulls_node *p, int *nid)
{
	unsigned int h;

	if (!p || !map->cap)
		return -1;
	for (h = map_hash(p, map->cap); map->keys[h];
	     h = (h + 1) & (map->cap - 1)) {
		if (map->keys[h] == p) {
			*nid = map->vals[h] % MAX_NUMNODES;
			return map->vals[h] / MAX_NUMNODES;
		}
	}
	return -1;
}

void mlf_lrugen_map_fill(struct mlf_lrugen_map *map,
			 const struct mlf_slot *slots, int pool_size,
			 int nr_nodes)
{
	unsigned int want = 64;
	int i;

	while (want < 2u * pool_size * nr_nodes)
		want *= 2;
	if (map->cap < want) {
		mlf_lrugen_map_destroy(map);
		mlf_lrugen_map_init(map, pool_size * nr_nodes);
	} else {
		memset(map->keys, 0, map->cap * sizeof(*map->keys));
		map->nr = 0;
	}
	for (i = 0; i < pool_size; i++)
		if (slots[i].memcg)
			mlf_lrugen_map_add_memcg(map, slots[i].memcg, i,
						 nr_nodes);
}
