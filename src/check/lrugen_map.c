// SPDX-License-Identifier: GPL-2.0
/*
 * The map of live lrugens (lrugen_map.h): a hash of list node pointers to
 * (slot, node), with linear probing and backward-shift deletion, grown by
 * rehashing before it is half full; and a bitmap of the live slots.
 */
#include "lrugen_map.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mm/memcontrol.h"

#define MAP_MIN_CAP 64

static unsigned int map_hash(const void *p, unsigned int cap)
{
	uint64_t v = (uintptr_t)p >> 3;

	return (unsigned int)((v * 0x9e3779b97f4a7c15ULL) >> 32) & (cap - 1);
}

/*
 * The storage of the last map destroyed empty, for the next one: a fuzzer
 * builds one per input (a table grown by one input serves the next).
 */
static struct mlf_lrugen_map spare;

static void table_alloc(struct mlf_lrugen_map *map, unsigned int cap)
{
	map->keys = calloc(cap, sizeof(*map->keys));
	map->vals = calloc(cap, sizeof(*map->vals));
	if (!map->keys || !map->vals)
		abort();
	map->cap = cap;
	map->nr = 0;
}

static int live_words(int pool_size)
{
	return (pool_size + 63) / 64;
}

void mlf_lrugen_map_init(struct mlf_lrugen_map *map, int pool_size)
{
	if (pool_size < 1)
		pool_size = 1;
	if (spare.cap && spare.live_words >= live_words(pool_size)) {
		*map = spare;
		map->pool_size = pool_size;
		memset(&spare, 0, sizeof(spare));
		return;
	}
	table_alloc(map, MAP_MIN_CAP);
	map->pool_size = pool_size;
	map->live_words = live_words(pool_size);
	map->live = calloc(map->live_words, sizeof(*map->live));
	map->lrugens = calloc(map->live_words * 64 * MAX_NUMNODES,
			      sizeof(*map->lrugens));
	if (!map->live || !map->lrugens)
		abort();
}

static void map_free(struct mlf_lrugen_map *map)
{
	free(map->keys);
	free(map->vals);
	free(map->live);
	free(map->lrugens);
	memset(map, 0, sizeof(*map));
}

void mlf_lrugen_map_destroy(struct mlf_lrugen_map *map)
{
	/*
	 * Emptied (every memcg released): keys all NULL, no live bit: keep
	 * it, unless the spare is bigger.
	 */
	if (map->cap && !map->nr &&
	    (!spare.cap || spare.live_words < map->live_words)) {
		if (spare.cap)
			map_free(&spare);
		spare = *map;
		memset(map, 0, sizeof(*map));
		return;
	}
	map_free(map);
}

static void map_put(struct mlf_lrugen_map *map,
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

/* Room for @more keys with the table at most half full (short probe runs). */
static void map_reserve(struct mlf_lrugen_map *map, unsigned int more)
{
	const struct hlist_nulls_node **keys = map->keys;
	unsigned int old_cap = map->cap, cap = map->cap, i;
	int *vals = map->vals;

	if (2 * (map->nr + more) <= cap)
		return;
	while (2 * (map->nr + more) > cap)
		cap *= 2;
	table_alloc(map, cap);
	for (i = 0; i < old_cap; i++)
		if (keys[i])
			map_put(map, keys[i], vals[i]);
	free(keys);
	free(vals);
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

	if (slot < 0 || slot >= map->pool_size)
		abort();
	map_reserve(map, nr_nodes);
	for (nid = 0; nid < nr_nodes; nid++) {
		struct lru_gen_folio *lrugen = &get_lruvec(memcg, nid)->lrugen;

		map_put(map, &lrugen->list, slot * MAX_NUMNODES + nid);
		map->lrugens[slot * MAX_NUMNODES + nid] = lrugen;
	}
	map->live[slot / 64] |= 1ULL << (slot % 64);
}

void mlf_lrugen_map_del_memcg(struct mlf_lrugen_map *map,
			      struct mem_cgroup *memcg, int slot,
			      int nr_nodes)
{
	int nid;

	if (slot < 0 || slot >= map->pool_size)
		abort();
	for (nid = 0; nid < nr_nodes; nid++) {
		map_del(map, &get_lruvec(memcg, nid)->lrugen.list);
		map->lrugens[slot * MAX_NUMNODES + nid] = NULL;
	}
	map->live[slot / 64] &= ~(1ULL << (slot % 64));
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
	int i;

	if (!map->cap || map->live_words < live_words(pool_size)) {
		map_free(map);
		mlf_lrugen_map_init(map, pool_size);
	} else {
		memset(map->keys, 0, map->cap * sizeof(*map->keys));
		for (i = mlf_lrugen_map_next_live(map, 0); i >= 0;
		     i = mlf_lrugen_map_next_live(map, i + 1))
			memset(&map->lrugens[i * MAX_NUMNODES], 0,
			       MAX_NUMNODES * sizeof(*map->lrugens));
		memset(map->live, 0, map->live_words * sizeof(*map->live));
		map->nr = 0;
		map->pool_size = pool_size;
	}
	for (i = 0; i < pool_size; i++)
		if (slots[i].memcg)
			mlf_lrugen_map_add_memcg(map, slots[i].memcg, i,
						 nr_nodes);
}
