// SPDX-License-Identifier: GPL-2.0
/*
 * Scanning the bins of a node for the checks (bin_scan.h). The checks only read
 * the port's structures, and they never follow a pointer they cannot vouch
 * for: a list entry is dereferenced only if the map of live lrugens
 * (lrugen_map.h) knows it as the lrugen of a live memcg on that node, so a
 * stale or freed entry is reported, not chased. Every scan is bounded by
 * the pool size, so a cycle is reported too. A full check of a node and
 * check_bin() scan each bin once and let every check read that scan.
 */
#include "bin_scan.h"

#include "model_query.h"

/* ---- which list nodes are live lrugens of node nid: the map ---- */

struct lru_gen_folio *slot_lrugen(const struct mlf_check_state *w, int slot,
				  int nid)
{
	return &get_lruvec(w->slots[slot].memcg, nid)->lrugen;
}

/*
 * A world not driven by world_apply() does not keep its map: build one from
 * its slots at each check's start (map_prepare), as the checks once did.
 */
static struct mlf_lrugen_map local_map;
static const struct mlf_lrugen_map *cur_map;

void map_prepare(const struct mlf_check_state *w)
{
	if (w->map_kept) {
		cur_map = &w->map;
		return;
	}
	mlf_lrugen_map_fill(&local_map, w->slots, w->pool_size, w->nr_nodes);
	cur_map = &local_map;
}

/* The slot whose lrugen on node @nid is @p, or -1. */
int map_lookup(const struct mlf_check_state *w, int nid,
	       const struct hlist_nulls_node *p)
{
	int at, slot;

	if (w->map_kept)
		cur_map = &w->map;
	slot = mlf_lrugen_map_lookup(cur_map, p, &at);
	return slot >= 0 && at == nid ? slot : -1;
}

int next_live_slot(const struct mlf_check_state *w, int from)
{
	return mlf_lrugen_map_next_live(w->map_kept ? &w->map : cur_map, from);
}

int next_memcg_slot(const struct mlf_check_state *w, int from)
{
	int port = next_live_slot(w, from);
	int model = model_next_allocated(&w->model, from);

	if (port < 0)
		return model;
	return model < 0 || port < model ? port : model;
}

/* ---- scanning one bin through live lrugens only ---- */

static int *scan_buf;
static int scan_cap;

/* @buf holds pool_size + 2 slots */
static void scan_into(const struct mlf_check_state *w, int nid, int gen,
		      int bin, struct scan *s, int *buf)
{
	const struct hlist_nulls_node *pos =
		w->nodes[nid].memcg_lru.fifo[gen][bin].first;

	s->slots = buf;
	s->len = 0;
	s->bad = NULL;
	while (!is_a_nulls(pos)) {
		int slot;

		if (s->len > w->pool_size) {
			s->end = SCAN_CYCLE;
			return;
		}
		slot = map_lookup(w, nid, pos);
		if (slot < 0) {
			s->end = SCAN_UNKNOWN;
			s->bad = pos;
			return;
		}
		s->slots[s->len++] = slot;
		pos = pos->next;
	}
	s->end = SCAN_NULLS;
	s->end_value = get_nulls_value(pos);
}

/*
 * A full check of a node runs six checks over the same 24 bins: the view
 * scans each bin once (one map lookup per entry) and lets them all read
 * that scan. Only the full check opens it; a check called on its own (as
 * the tests do, between corruptions) scans the bins afresh.
 */
static struct {
	const struct mlf_check_state *w;
	int nid;
	struct scan bins[MEMCG_NR_GENS][MEMCG_NR_BINS];
	int *buf;
	int cap;
} view;

void view_open(const struct mlf_check_state *w, int nid)
{
	int per_bin = w->pool_size + 2, gen, bin;

	view.buf = grow(view.buf, &view.cap,
			MEMCG_NR_GENS * MEMCG_NR_BINS * per_bin,
			sizeof(*view.buf));
	for (gen = 0; gen < MEMCG_NR_GENS; gen++)
		for (bin = 0; bin < MEMCG_NR_BINS; bin++)
			scan_into(w, nid, gen, bin, &view.bins[gen][bin],
				  view.buf + (gen * MEMCG_NR_BINS + bin) *
						     per_bin);
	view.w = w;
	view.nid = nid;
}

void view_close(void)
{
	view.w = NULL;
}

/*
 * The same for the one bin check_bin() looks at after an op: its four
 * checks read one scan of the bin (with 1500 memcgs in 8 bins, scanning it
 * four times was most of the time a big input took).
 */
static struct {
	const struct mlf_check_state *w;
	int nid, gen, bin;
	struct scan s;
	int *buf;
	int cap;
} bin_view;

void bin_view_open(const struct mlf_check_state *w, int nid, int gen, int bin)
{
	bin_view.buf = grow(bin_view.buf, &bin_view.cap, w->pool_size + 2,
			    sizeof(*bin_view.buf));
	scan_into(w, nid, gen, bin, &bin_view.s, bin_view.buf);
	bin_view.w = w;
	bin_view.nid = nid;
	bin_view.gen = gen;
	bin_view.bin = bin;
}

void bin_view_close(void)
{
	bin_view.w = NULL;
}

void scan_bin(const struct mlf_check_state *w, int nid, int gen, int bin,
	      struct scan *s)
{
	if (view.w == w && view.nid == nid) {
		*s = view.bins[gen][bin];
		return;
	}
	if (bin_view.w == w && bin_view.nid == nid && bin_view.gen == gen &&
	    bin_view.bin == bin) {
		*s = bin_view.s;
		return;
	}
	scan_buf = grow(scan_buf, &scan_cap, w->pool_size + 2,
			sizeof(*scan_buf));
	scan_into(w, nid, gen, bin, s, scan_buf);
}

bool bin_empty(const struct mlf_check_state *w, int nid, int gen, int bin)
{
	return is_a_nulls(w->nodes[nid].memcg_lru.fifo[gen][bin].first);
}

bool gen_empty(const struct mlf_check_state *w, int nid, int gen)
{
	int bin;

	for (bin = 0; bin < MEMCG_NR_BINS; bin++)
		if (!bin_empty(w, nid, gen, bin))
			return false;
	return true;
}

/* Entries of @gen, counted by scanning (bounded; only for messages). */
int count_gen_scanned(const struct mlf_check_state *w, int nid, int gen)
{
	struct scan s;
	int bin, n = 0;

	for (bin = 0; bin < MEMCG_NR_BINS; bin++) {
		scan_bin(w, nid, gen, bin, &s);
		n += s.len + (s.end == SCAN_UNKNOWN);
	}
	return n;
}

/* First non-empty bin of @gen, and the memcg at its head (-1 if unknown). */
int first_entry(const struct mlf_check_state *w, int nid, int gen, int *slot)
{
	int bin;

	for (bin = 0; bin < MEMCG_NR_BINS; bin++) {
		if (bin_empty(w, nid, gen, bin))
			continue;
		*slot = map_lookup(w, nid,
				   w->nodes[nid].memcg_lru.fifo[gen][bin].first);
		return bin;
	}
	return -1;
}
