// SPDX-License-Identifier: GPL-2.0
/*
 * The depth-first enumeration of schedules (explore.h): the choice at each
 * choice point of a run, the visited states, and the next prefix.
 */
#include "explore.h"

#include <stdlib.h>
#include <string.h>

#include "sanitizer.h"

/* Open addressing: state hash -> fewest preemptions it was met with. */
struct mlf_explore_visited {
	u64 *keys;		/* 0: free (a hash of 0 is stored as 1) */
	u8 *spent;
	size_t cap, nr;
};

struct mlf_explore_visited *mlf_explore_visited_new(void)
{
	struct mlf_explore_visited *v = calloc(1, sizeof(*v));

	if (!v)
		abort();
	v->cap = 1 << 16;
	v->keys = calloc(v->cap, sizeof(*v->keys));
	v->spent = calloc(v->cap, sizeof(*v->spent));
	if (!v->keys || !v->spent)
		abort();
	return v;
}

void mlf_explore_visited_free(struct mlf_explore_visited *v)
{
	if (!v)
		return;
	free(v->keys);
	free(v->spent);
	free(v);
}

static void visited_grow(struct mlf_explore_visited *v)
{
	struct mlf_explore_visited bigger = { 0 };
	size_t i;

	bigger.cap = v->cap * 2;
	bigger.keys = calloc(bigger.cap, sizeof(*bigger.keys));
	bigger.spent = calloc(bigger.cap, sizeof(*bigger.spent));
	if (!bigger.keys || !bigger.spent)
		abort();
	for (i = 0; i < v->cap; i++) {
		size_t h;

		if (!v->keys[i])
			continue;
		for (h = v->keys[i] & (bigger.cap - 1); bigger.keys[h];
		     h = (h + 1) & (bigger.cap - 1))
			;
		bigger.keys[h] = v->keys[i];
		bigger.spent[h] = v->spent[i];
	}
	free(v->keys);
	free(v->spent);
	v->keys = bigger.keys;
	v->spent = bigger.spent;
	v->cap = bigger.cap;
}

/*
 * Met @key with @spent preemptions: true if it was met before with no
 * more (the rest is explored from there); records it otherwise.
 */
static bool visited_seen(struct mlf_explore_visited *v, u64 key, int spent,
			 struct mlf_explore_stats *stats)
{
	size_t h;

	if (!key)
		key = 1;
	if (2 * (v->nr + 1) > v->cap)
		visited_grow(v);
	for (h = key & (v->cap - 1); v->keys[h]; h = (h + 1) & (v->cap - 1)) {
		if (v->keys[h] != key)
			continue;
		if (v->spent[h] <= spent)
			return true;
		v->spent[h] = (u8)spent;
		return false;
	}
	v->keys[h] = key;
	v->spent[h] = (u8)spent;
	v->nr++;
	stats->states++;
	return false;
}

void mlf_explore_begin(struct mlf_explore_run *run, int max_preemptions)
{
	run->nr_prefix = 0;
	run->max_preemptions = max_preemptions;
	run->nr_log = 0;
	run->pruned_from = -1;
	run->truncated = false;
}

MLF_NO_TSAN int mlf_explore_choose(struct mlf_explore_run *run,
				   struct mlf_explore_visited *visited,
				   struct mlf_explore_stats *stats,
				   const s8 *options, int nr_options,
				   bool preemptive, int preemptions,
				   u64 sched_hash)
{
	int i = run->nr_log;
	struct mlf_choice *c;

	if (stats)
		stats->choice_points++;
	if (i >= MLF_EXPLORE_MAX_CHOICES) {
		run->truncated = true;
		return 0;
	}
	c = &run->log[run->nr_log++];
	c->nr_options = (u8)nr_options;
	memcpy(c->options, options, nr_options * sizeof(*options));
	c->preemptive = preemptive;
	c->preemptions = (u8)preemptions;
	c->chosen = 0;
	if (i < run->nr_prefix) {
		c->chosen = run->prefix[i] < nr_options ? run->prefix[i] : 0;
		return c->chosen;
	}
	if (run->pruned_from < 0 && visited && stats) {
		u64 key = sched_hash;

		if (run->state_hash)
			key ^= run->state_hash(run->hash_arg) *
			       0x9e3779b97f4a7c15ULL;
		if (visited_seen(visited, key, preemptions, stats) &&
		    !run->count_only) {
			run->pruned_from = i;
			stats->pruned++;
		}
	}
	return 0;
}

bool mlf_explore_next(struct mlf_explore_run *run)
{
	int limit = run->pruned_from >= 0 ? run->pruned_from : run->nr_log;
	int j, k;

	for (j = limit - 1; j >= 0; j--) {
		const struct mlf_choice *c = &run->log[j];
		int next = c->chosen + 1;
		int cost = c->preemptive ? 1 : 0;

		if (next >= c->nr_options)
			continue;
		if (c->preemptions + cost > run->max_preemptions)
			continue;
		for (k = 0; k < j; k++)
			run->prefix[k] = run->log[k].chosen;
		run->prefix[j] = (u8)next;
		run->nr_prefix = j + 1;
		run->nr_log = 0;
		run->pruned_from = -1;
		run->truncated = false;
		return true;
	}
	return false;
}
