// SPDX-License-Identifier: GPL-2.0
/*
 * The depth-first enumeration of schedules (explore.h): the choice at each
 * choice point of a run, the visited states, and the next prefix.
 */
#include "explore.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sanitizer.h"

/* Open addressing: state key -> fewest preemptions it was met with. */
struct mlf_explore_visited {
	u64 (*keys)[2];		/* {0, 0}: free (stored as {1, 0}) */
	u8 *spent;
	size_t cap, nr;
	bool shared;		/* in memory a forked run writes too */
};

/* Zeroed memory: the heap's, or pages a forked child shares. */
static void *zalloc(size_t size, bool shared)
{
	void *p;

	if (!shared) {
		p = calloc(1, size);
	} else {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			p = NULL;
	}
	if (!p)
		abort();
	return p;
}

static void zfree(void *p, size_t size, bool shared)
{
	if (!shared)
		free(p);
	else if (p)
		munmap(p, size);
}

static struct mlf_explore_visited *visited_new(bool shared)
{
	struct mlf_explore_visited *v = zalloc(sizeof(*v), shared);

	v->shared = shared;
	v->cap = 1 << 16;
	v->keys = zalloc(v->cap * sizeof(*v->keys), shared);
	v->spent = zalloc(v->cap * sizeof(*v->spent), shared);
	return v;
}

struct mlf_explore_visited *mlf_explore_visited_new(void)
{
	return visited_new(false);
}

struct mlf_explore_visited *mlf_explore_visited_new_shared(void)
{
	return visited_new(true);
}

void mlf_explore_visited_free(struct mlf_explore_visited *v)
{
	bool shared;

	if (!v)
		return;
	shared = v->shared;
	zfree(v->keys, v->cap * sizeof(*v->keys), shared);
	zfree(v->spent, v->cap * sizeof(*v->spent), shared);
	zfree(v, sizeof(*v), shared);
}

static void visited_grow(struct mlf_explore_visited *v)
{
	struct mlf_explore_visited bigger = { 0 };
	size_t i;

	bigger.cap = v->cap * 2;
	bigger.keys = zalloc(bigger.cap * sizeof(*bigger.keys), v->shared);
	bigger.spent = zalloc(bigger.cap * sizeof(*bigger.spent), v->shared);
	for (i = 0; i < v->cap; i++) {
		size_t h;

		if (!v->keys[i][0] && !v->keys[i][1])
			continue;
		for (h = v->keys[i][0] & (bigger.cap - 1);
		     bigger.keys[h][0] || bigger.keys[h][1];
		     h = (h + 1) & (bigger.cap - 1))
			;
		bigger.keys[h][0] = v->keys[i][0];
		bigger.keys[h][1] = v->keys[i][1];
		bigger.spent[h] = v->spent[i];
	}
	zfree(v->keys, v->cap * sizeof(*v->keys), v->shared);
	zfree(v->spent, v->cap * sizeof(*v->spent), v->shared);
	v->keys = bigger.keys;
	v->spent = bigger.spent;
	v->cap = bigger.cap;
}

void mlf_explore_visited_reserve(struct mlf_explore_visited *v, size_t nr)
{
	while (2 * (v->nr + nr) > v->cap)
		visited_grow(v);
}

/*
 * Met @key with @spent (preemptions in the low nibble, weak choices in the
 * high one): true if it was met before with no more of either (the rest
 * is explored from there); records it otherwise.
 */
static inline bool dominated(int old, int now)
{
	return (old & 15) <= (now & 15) && (old >> 4) <= (now >> 4);
}

static bool visited_seen(struct mlf_explore_visited *v, const u64 key_in[2],
			 int spent, struct mlf_explore_stats *stats)
{
	u64 key[2] = { key_in[0], key_in[1] };
	size_t h;

	if (!key[0] && !key[1])
		key[0] = 1;
	if (2 * (v->nr + 1) > v->cap)
		visited_grow(v);
	for (h = key[0] & (v->cap - 1); v->keys[h][0] || v->keys[h][1];
	     h = (h + 1) & (v->cap - 1)) {
		if (v->keys[h][0] != key[0] || v->keys[h][1] != key[1])
			continue;
		if (dominated(v->spent[h], spent))
			return true;
		/* keep the one that covers more */
		if (dominated(spent, v->spent[h]))
			v->spent[h] = (u8)spent;
		return false;
	}
	v->keys[h][0] = key[0];
	v->keys[h][1] = key[1];
	v->spent[h] = (u8)spent;
	v->nr++;
	stats->states++;
	return false;
}

void mlf_explore_begin(struct mlf_explore_run *run, int max_preemptions)
{
	run->nr_prefix = 0;
	run->max_preemptions = max_preemptions;
	if (run->max_weak < 0)
		run->max_weak = 0;
	run->nr_log = 0;
	run->pruned_from = -1;
	run->truncated = false;
	run->weak_spent_now = 0;
}

/* Log a choice point; the choice replayed, else the default, 0. */
MLF_NO_TSAN static int choose(struct mlf_explore_run *run,
			      struct mlf_explore_visited *visited,
			      struct mlf_explore_stats *stats,
			      const s8 *options, int nr_options, bool preemptive,
			      bool weak, int preemptions, int weak_spent,
			      const u64 key[2])
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
	if (options)
		memcpy(c->options, options, nr_options * sizeof(*options));
	c->preemptive = preemptive;
	c->weak = weak;
	c->preemptions = (u8)preemptions;
	c->weak_spent = (u8)weak_spent;
	c->chosen = 0;
	if (i < run->nr_prefix) {
		c->chosen = run->prefix[i] < nr_options ? run->prefix[i] : 0;
		return c->chosen;
	}
	if (run->pruned_from < 0 && visited && stats &&
	    visited_seen(visited, key,
			 min(preemptions, 15) | min(weak_spent, 15) << 4, stats) &&
	    run->mode != MLF_EXPLORE_COMPLETE) {
		run->pruned_from = i;
		stats->pruned++;
	}
	return 0;
}

MLF_NO_TSAN int mlf_explore_choose(struct mlf_explore_run *run,
				   struct mlf_explore_visited *visited,
				   struct mlf_explore_stats *stats,
				   const s8 *options, int nr_options,
				   bool preemptive, int preemptions,
				   const u64 key[2])
{
	return choose(run, visited, stats, options, nr_options, preemptive,
		      false, preemptions, run->weak_spent_now, key);
}

MLF_NO_TSAN int mlf_explore_choose_weak(struct mlf_explore_run *run,
					struct mlf_explore_visited *visited,
					struct mlf_explore_stats *stats,
					int nr, int preemptions,
					int weak_spent, const u64 key[2])
{
	int k;

	if (nr > MLF_EXPLORE_MAX_WEAK_OPTIONS)
		nr = MLF_EXPLORE_MAX_WEAK_OPTIONS;
	k = choose(run, visited, stats, NULL, nr, false, true, preemptions,
		   weak_spent, key);
	if (k)
		run->weak_spent_now = weak_spent + 1;
	return k;
}

const char *mlf_explore_mode_name(enum mlf_explore_mode mode)
{
	switch (mode) {
	case MLF_EXPLORE_REDUCED:
		return "reduced";
	case MLF_EXPLORE_COMPLETE:
		return "complete";
	case MLF_EXPLORE_HEURISTIC:
		return "heuristic";
	}
	return "?";
}

bool mlf_explore_next(struct mlf_explore_run *run)
{
	int limit = run->pruned_from >= 0 ? run->pruned_from : run->nr_log;
	int j, k;

	for (j = limit - 1; j >= 0; j--) {
		const struct mlf_choice *c = &run->log[j];
		int next = c->chosen + 1;

		if (next >= c->nr_options)
			continue;
		if (c->weak ? c->weak_spent + 1 > run->max_weak :
			      c->preemptions + c->preemptive > run->max_preemptions)
			continue;
		for (k = 0; k < j; k++)
			run->prefix[k] = run->log[k].chosen;
		run->prefix[j] = (u8)next;
		run->nr_prefix = j + 1;
		run->nr_log = 0;
		run->pruned_from = -1;
		run->truncated = false;
		run->weak_spent_now = 0;
		return true;
	}
	return false;
}
