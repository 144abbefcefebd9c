// SPDX-License-Identifier: GPL-2.0
/*
 * The structure checks of invariants.md. They only read the port's
 * structures, and they never follow a pointer they cannot vouch for: a list
 * entry is dereferenced only if the map of live lrugens (lrugen_map.h)
 * knows it as the lrugen of a live memcg on that node, so a stale or freed
 * entry is reported, not chased. Every walk is bounded by the pool size, so a cycle
 * is reported too.
 *
 * Full checks walk every bin of a node: O(entries + pool). world.c runs
 * them after every op only while the world is small, and otherwise every
 * full_check_interval ops, after every reclaim walk (O(n) like the walk)
 * and at the end of an input. After every other op it runs the per-op
 * checks: check_node_quick() on every node, check_bin() on the bins the op
 * touched and check_memcg() on the memcg it touched. Why that leaves no
 * hole for a bug in an op to slip through until the next full check:
 *
 * Induction: before the op every check held, so every bin equals the
 * model's and every link is right. An op on memcg m writes (a) m's own
 * fields and links; (b) the links of m's old neighbours, which sit in m's
 * bin before the op (the model's source bin: checked); (c) the links of
 * m's new neighbours and the head or tail[] of the bin the port put m in;
 * (d) nr_memcgs[] and seq (checked against the model on every node, O(24)).
 * For (a) and (c): the model's destination bin is walked (links, tail,
 * exact contents and order). If the port put m anywhere else - another bin,
 * behind a stale cached tail that now sits in another bin, behind an
 * interior node - then either m is missing from (or misplaced in) the
 * destination bin (model.order), or the bin's pprev chain is broken at the
 * neighbour it was linked behind or before (list.links), or m's own pprev /
 * next do not point back at it (check_memcg: list.links), or they point at
 * no live lrugen (list.membership). A tail[] left stale in the source or
 * destination bin is tail.cache there. A reclaim walk may touch any bin of
 * its node and release memcgs everywhere: it gets a full check.
 *
 * What escapes the argument is a write with no trace on m, its bins or its
 * neighbours (e.g. a foreign entry's next made to point at m while m's own
 * links stay right): the scheduled and final full checks catch it, later.
 */
#include "checks.h"
#include "model_query.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const seg_names[] = { "default", "head", "tail" };

static const char *seg_name(int seg)
{
	return seg >= 0 && seg < 3 ? seg_names[seg] : "?";
}

static void *grow(void *buf, int *cap, int want, size_t size)
{
	if (want <= *cap)
		return buf;
	buf = realloc(buf, want * size);
	if (!buf)
		abort();
	*cap = want;
	return buf;
}

/* ---- which list nodes are live lrugens of node nid: the map ---- */

static struct lru_gen_folio *slot_lrugen(const struct mlf_check_state *w,
					 int slot, int nid)
{
	return &get_lruvec(w->slots[slot].memcg, nid)->lrugen;
}

/*
 * A world not driven by world_apply() does not keep its map: build one from
 * its slots at each check's start (map_prepare), as the checks once did.
 */
static struct mlf_lrugen_map local_map;
static const struct mlf_lrugen_map *cur_map;

static void map_prepare(const struct mlf_check_state *w)
{
	if (w->map_kept) {
		cur_map = &w->map;
		return;
	}
	mlf_lrugen_map_fill(&local_map, w->slots, w->pool_size, w->nr_nodes);
	cur_map = &local_map;
}

/* The slot whose lrugen on node @nid is @p, or -1. */
static int map_lookup(const struct mlf_check_state *w, int nid,
		      const struct hlist_nulls_node *p)
{
	int at, slot;

	if (w->map_kept)
		cur_map = &w->map;
	slot = mlf_lrugen_map_lookup(cur_map, p, &at);
	return slot >= 0 && at == nid ? slot : -1;
}

/* ---- walking one bin through live lrugens only ---- */

enum scan_end {
	SCAN_NULLS,	/* ended on a nulls marker (value in end_value) */
	SCAN_UNKNOWN,	/* met a pointer that is no live lrugen */
	SCAN_CYCLE,	/* more entries than the pool holds */
};

struct scan {
	enum scan_end end;
	unsigned long end_value;
	const struct hlist_nulls_node *bad;	/* SCAN_UNKNOWN */
	int len;
	int *slots;		/* the slots met, head first */
};

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
 * walks each bin once (one map lookup per entry) and lets them all read
 * that walk. Only the full check opens it; a check called on its own (as
 * the tests do, between corruptions) walks the bins afresh.
 */
static struct {
	const struct mlf_check_state *w;
	int nid;
	struct scan bins[MEMCG_NR_GENS][MEMCG_NR_BINS];
	int *buf;
	int cap;
} view;

static void view_open(const struct mlf_check_state *w, int nid)
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

static void view_close(void)
{
	view.w = NULL;
}

/*
 * The same for the one bin check_bin() looks at after an op: its four
 * checks read one walk of the bin (with 1500 memcgs in 8 bins, walking it
 * four times was most of the time a big input took).
 */
static struct {
	const struct mlf_check_state *w;
	int nid, gen, bin;
	struct scan s;
	int *buf;
	int cap;
} bin_view;

static void scan_bin(const struct mlf_check_state *w, int nid, int gen, int bin,
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

static bool bin_empty(const struct mlf_check_state *w, int nid, int gen,
		      int bin)
{
	return is_a_nulls(w->nodes[nid].memcg_lru.fifo[gen][bin].first);
}

static bool gen_empty(const struct mlf_check_state *w, int nid, int gen)
{
	int bin;

	for (bin = 0; bin < MEMCG_NR_BINS; bin++)
		if (!bin_empty(w, nid, gen, bin))
			return false;
	return true;
}

/* Entries of @gen, counted by walking (bounded; only for messages). */
static int count_gen_walked(const struct mlf_check_state *w, int nid, int gen)
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
static int first_entry(const struct mlf_check_state *w, int nid, int gen,
		       int *slot)
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

/* ---- list.links ---- */

static bool links_bin(const struct mlf_check_state *w, int nid, int gen,
		      int bin, struct mlf_failure *f)
{
	const struct hlist_nulls_head *head =
		&w->nodes[nid].memcg_lru.fifo[gen][bin];
	struct hlist_nulls_node *const *want = &head->first;
	int prev = -1, k;
	struct scan s;

	scan_bin(w, nid, gen, bin, &s);
	for (k = 0; k < s.len; k++) {
		const struct hlist_nulls_node *pos =
			&slot_lrugen(w, s.slots[k], nid)->list;
		int slot = s.slots[k];

		if (pos->pprev != want) {
			mlf_failure_at(f, "list.links", nid, gen, bin, slot);
			if (prev < 0)
				mlf_failure_msg(f,
					"fifo[%d][%d]: entry 0 (m%d)'s pprev points at %p instead of the head's first (%p)",
					gen, bin, slot, (void *)pos->pprev,
					(void *)want);
			else
				mlf_failure_msg(f,
					"fifo[%d][%d]: entry %d (m%d)'s pprev points at %p instead of m%d's next (%p)",
					gen, bin, k, slot, (void *)pos->pprev,
					prev, (void *)want);
			return false;
		}
		want = &pos->next;
		prev = slot;
	}
	if (s.end == SCAN_CYCLE) {
		mlf_failure_at(f, "list.links", nid, gen, bin, MLF_NONE);
		mlf_failure_msg(f,
			"fifo[%d][%d]: no nulls marker after %d entries: the list has a cycle",
			gen, bin, s.len);
		return false;
	}
	/* list.membership reports what it cannot vouch for */
	if (s.end == SCAN_UNKNOWN || s.end_value == (unsigned long)gen)
		return true;
	mlf_failure_at(f, "list.links", nid, gen, bin,
		       prev < 0 ? MLF_NONE : prev);
	if (prev < 0)
		mlf_failure_msg(f,
			"fifo[%d][%d]: the empty head holds nulls value %lu instead of its generation %d",
			gen, bin, s.end_value, gen);
	else
		mlf_failure_msg(f,
			"fifo[%d][%d]: ends after m%d on nulls value %lu instead of its generation %d",
			gen, bin, prev, s.end_value, gen);
	return false;
}

bool check_list_links(const struct mlf_check_state *w, int nid,
		      struct mlf_failure *f)
{
	int gen, bin;

	map_prepare(w);
	for (gen = 0; gen < MEMCG_NR_GENS; gen++)
		for (bin = 0; bin < MEMCG_NR_BINS; bin++)
			if (!links_bin(w, nid, gen, bin, f))
				return false;
	return true;
}

/* ---- list.membership ---- */

static struct {
	int *count, *gen, *bin;
	int cap;
} where;

bool check_list_membership(const struct mlf_check_state *w, int nid,
			   struct mlf_failure *f)
{
	int gen, bin, i;
	struct scan s;

	map_prepare(w);
	if (w->pool_size > where.cap) {
		int cap = where.cap;

		where.count = grow(where.count, &cap, w->pool_size, sizeof(int));
		where.gen = realloc(where.gen, cap * sizeof(int));
		where.bin = realloc(where.bin, cap * sizeof(int));
		if (!where.gen || !where.bin)
			abort();
		where.cap = cap;
	}
	memset(where.count, 0, w->pool_size * sizeof(int));

	for (gen = 0; gen < MEMCG_NR_GENS; gen++) {
		for (bin = 0; bin < MEMCG_NR_BINS; bin++) {
			scan_bin(w, nid, gen, bin, &s);
			for (i = 0; i < s.len; i++) {
				int slot = s.slots[i];

				if (where.count[slot]++) {
					mlf_failure_at(f, "list.membership",
						       nid, gen, bin, slot);
					mlf_failure_msg(f,
						"m%d is in fifo[%d][%d] (entry %d) and already in fifo[%d][%d]",
						slot, gen, bin, i,
						where.gen[slot],
						where.bin[slot]);
					return false;
				}
				where.gen[slot] = gen;
				where.bin[slot] = bin;
			}
			if (s.end == SCAN_UNKNOWN) {
				mlf_failure_at(f, "list.membership", nid, gen,
					       bin, MLF_NONE);
				mlf_failure_msg(f,
					"fifo[%d][%d]: entry %d is %p, the lrugen of no live memcg on node %d (stale or freed pointer)",
					gen, bin, s.len, (void *)s.bad, nid);
				return false;
			}
		}
	}

	for (i = 0; i < w->pool_size; i++) {
		const struct mlf_slot *slot = &w->slots[i];
		const struct lru_gen_folio *lrugen;
		bool hashed;

		if (!slot->memcg)
			continue;
		lrugen = slot_lrugen(w, i, nid);
		hashed = !hlist_nulls_unhashed(&lrugen->list);
		if (!where.count[i]) {
			if (slot->state != SLOT_DEAD) {
				mlf_failure_at(f, "list.membership", nid,
					       MLF_NONE, MLF_NONE, i);
				mlf_failure_msg(f,
					"m%d is %s but in no bin of node %d",
					i, mlf_slot_state_name(slot->state), nid);
				return false;
			}
			if (hashed) {
				mlf_failure_at(f, "list.membership", nid,
					       lrugen->gen, MLF_NONE, i);
				mlf_failure_msg(f,
					"m%d is in no bin of node %d but hashed (pprev %p)",
					i, nid, (void *)lrugen->list.pprev);
				return false;
			}
			continue;
		}
		gen = where.gen[i];
		bin = where.bin[i];
		if (!hashed) {
			mlf_failure_at(f, "list.membership", nid, gen, bin, i);
			mlf_failure_msg(f,
				"m%d sits in fifo[%d][%d] but is unhashed (pprev NULL)",
				i, gen, bin);
			return false;
		}
		if (lrugen->gen != gen) {
			mlf_failure_at(f, "list.membership", nid, gen, bin, i);
			mlf_failure_msg(f,
				"m%d sits in fifo[%d][%d] but its lrugen.gen is %d",
				i, gen, bin, lrugen->gen);
			return false;
		}
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
		if (lrugen->bin != bin) {
			mlf_failure_at(f, "list.membership", nid, gen, bin, i);
			mlf_failure_msg(f,
				"m%d sits in fifo[%d][%d] but its lrugen.bin is %d",
				i, gen, bin, lrugen->bin);
			return false;
		}
#endif
	}
	return true;
}

/* ---- tail.cache ---- */

#ifdef CONFIG_LRU_GEN_TAIL_CACHE
static bool tail_bin(const struct mlf_check_state *w, int nid, int gen, int bin,
		     struct mlf_failure *f)
{
	const struct hlist_nulls_node *tail =
		w->nodes[nid].memcg_lru.tail[gen][bin];
	const struct hlist_nulls_node *last;
	int tail_slot, last_slot;
	char what[48];
	struct scan s;

	scan_bin(w, nid, gen, bin, &s);
	/* the list checks report a bin that cannot be walked */
	if (s.end != SCAN_NULLS)
		return true;
	last_slot = s.len ? s.slots[s.len - 1] : -1;
	last = s.len ? &slot_lrugen(w, last_slot, nid)->list : NULL;
	if (tail == last)
		return true;
	tail_slot = tail ? map_lookup(w, nid, tail) : -1;
	if (tail_slot >= 0)
		snprintf(what, sizeof(what), "m%d", tail_slot);
	else
		snprintf(what, sizeof(what), "no live lrugen of node %d", nid);
	mlf_failure_at(f, "tail.cache", nid, gen, bin,
		       tail_slot >= 0 ? tail_slot : last_slot);
	if (!tail)
		mlf_failure_msg(f,
			"tail[%d][%d] is NULL but the bin holds %d entries (last m%d)",
			gen, bin, s.len, last_slot);
	else if (!last)
		mlf_failure_msg(f,
			"tail[%d][%d] points at %p (%s) but the bin is empty",
			gen, bin, (void *)tail, what);
	else
		mlf_failure_msg(f,
			"tail[%d][%d] points at %p (%s) instead of the last entry m%d (%p)",
			gen, bin, (void *)tail, what, last_slot, (void *)last);
	return false;
}
#else
static bool tail_bin(const struct mlf_check_state *w, int nid, int gen, int bin,
		     struct mlf_failure *f)
{
	return true;
}
#endif

bool check_tail_cache(const struct mlf_check_state *w, int nid,
		      struct mlf_failure *f)
{
	int gen, bin;

	map_prepare(w);
	for (gen = 0; gen < MEMCG_NR_GENS; gen++)
		for (bin = 0; bin < MEMCG_NR_BINS; bin++)
			if (!tail_bin(w, nid, gen, bin, f))
				return false;
	return true;
}

/* ---- nr_memcgs ---- */

bool check_nr_memcgs(const struct mlf_check_state *w, int nid,
		     struct mlf_failure *f)
{
	const struct lru_gen_memcg *lru = &w->nodes[nid].memcg_lru;
	int gen, bin;
	struct scan s;

	map_prepare(w);
	for (gen = 0; gen < MEMCG_NR_GENS; gen++) {
		unsigned long n = 0;
		bool whole = true;

		for (bin = 0; bin < MEMCG_NR_BINS; bin++) {
			scan_bin(w, nid, gen, bin, &s);
			whole &= s.end == SCAN_NULLS;
			n += s.len;
		}
		/* a count over a broken list would blame the wrong thing */
		if (!whole)
			continue;
		if (lru->nr_memcgs[gen] != n) {
			mlf_failure_at(f, "nr_memcgs", nid, gen, MLF_NONE,
				       MLF_NONE);
			mlf_failure_msg(f,
				"nr_memcgs[%d] is %lu but its bins hold %lu entries",
				gen, lru->nr_memcgs[gen], n);
			return false;
		}
	}
	return true;
}

/* ---- seq.* ---- */

bool check_seq_monotonic(const struct mlf_check_state *w, int nid,
			 struct mlf_failure *f)
{
	unsigned long seq = w->nodes[nid].memcg_lru.seq;

	if (seq >= w->seq_before[nid])
		return true;
	mlf_failure_at(f, "seq.monotonic", nid, MLF_NONE, MLF_NONE, MLF_NONE);
	mlf_failure_msg(f, "seq went down from %lu to %lu", w->seq_before[nid],
			seq);
	return false;
}

bool check_seq_valid_gens(const struct mlf_check_state *w, int nid,
			  struct mlf_failure *f)
{
	unsigned long seq = w->nodes[nid].memcg_lru.seq;
	int gen = get_memcg_gen(seq + 2);
	int slot = -1, bin;

	map_prepare(w);
	bin = first_entry(w, nid, gen, &slot);
	if (bin < 0)
		return true;
	mlf_failure_at(f, "seq.valid_gens", nid, gen, bin,
		       slot >= 0 ? slot : MLF_NONE);
	mlf_failure_msg(f,
		"seq %lu: generation %d is neither old nor young but fifo[%d][%d] holds %s%d",
		seq, gen, gen, bin, slot >= 0 ? "m" : "an unknown entry ", slot);
	return false;
}

bool check_seq_old_nonempty(const struct mlf_check_state *w, int nid,
			    struct mlf_failure *f)
{
	unsigned long seq = w->nodes[nid].memcg_lru.seq;
	int old = get_memcg_gen(seq), young = get_memcg_gen(seq + 1);
	int slot = -1, bin;

	map_prepare(w);
	if (!gen_empty(w, nid, old))
		return true;
	bin = first_entry(w, nid, young, &slot);
	if (bin < 0)
		return true;
	mlf_failure_at(f, "seq.old_nonempty", nid, young, bin,
		       slot >= 0 ? slot : MLF_NONE);
	mlf_failure_msg(f,
		"seq %lu: the old generation %d is empty but the young one %d is not (fifo[%d][%d] holds %s%d)",
		seq, old, young, young, bin, slot >= 0 ? "m" : "an unknown entry ",
		slot);
	return false;
}

/*
 * A reclaim walk on one node releases the dead memcgs it meets on every
 * node, so on the other nodes one op may empty the old generation, then
 * the young one: seq moves twice there.
 */
static bool released_elsewhere(const struct mlf_check_state *w, int nid)
{
	return w->cur_op_kind == MLF_OP_RECLAIM && w->cur_op_node != nid;
}

static bool node_empty(const struct mlf_check_state *w, int nid)
{
	int gen;

	for (gen = 0; gen < MEMCG_NR_GENS; gen++)
		if (!gen_empty(w, nid, gen))
			return false;
	return true;
}

bool check_seq_advance(const struct mlf_check_state *w, int nid,
		       struct mlf_failure *f)
{
	unsigned long before = w->seq_before[nid];
	unsigned long after = w->nodes[nid].memcg_lru.seq;
	unsigned long count_before = w->old_count_before[nid];
	int old_before = get_memcg_gen(before);
	bool emptied = gen_empty(w, nid, old_before);

	map_prepare(w);
	/* twice: old emptied, then young (now old); nothing can be left */
	if (after == before + 2 && released_elsewhere(w, nid) &&
	    node_empty(w, nid))
		return true;
	if (after != before && after != before + 1) {
		mlf_failure_at(f, "seq.advance", nid, old_before, MLF_NONE,
			       MLF_NONE);
		mlf_failure_msg(f,
			"seq went from %lu to %lu in one op: it moves by at most one",
			before, after);
		return false;
	}
	if (after == before && count_before && emptied) {
		mlf_failure_at(f, "seq.advance", nid, old_before, MLF_NONE,
			       MLF_NONE);
		mlf_failure_msg(f,
			"the op emptied the old generation %d (%lu entries before, 0 now) but seq stayed at %lu",
			old_before, count_before, after);
		return false;
	}
	if (after == before + 1 && !emptied) {
		mlf_failure_at(f, "seq.advance", nid, old_before, MLF_NONE,
			       MLF_NONE);
		mlf_failure_msg(f,
			"seq advanced from %lu to %lu but the old generation %d still holds %d entries",
			before, after, old_before,
			count_gen_walked(w, nid, old_before));
		return false;
	}
	return true;
}

/* ---- seg.semantics ---- */

bool check_seg_semantics(const struct mlf_check_state *w,
			 const struct mlf_op *op, int nid, int rotate_op,
			 int gen_before, int seg_before,
			 unsigned long seq_before, struct mlf_failure *f)
{
	int id = op->memcg % w->pool_size;
	const struct mem_cgroup *memcg = w->slots[id].memcg;
	const struct lru_gen_folio *lrugen;
	const char *name;
	int gen, seg, bin = -1, b;
	int want_gen = gen_before, want_seg = MEMCG_LRU_HEAD;
	bool first, last, want_first = true;

	if (rotate_op < MEMCG_LRU_HEAD || rotate_op > MEMCG_LRU_YOUNG) {
		mlf_failure_at(f, "seg.semantics", nid, MLF_NONE, MLF_NONE, id);
		mlf_failure_msg(f, "m%d: no such rotation %d", id, rotate_op);
		return false;
	}
	name = mlf_rotate_op_name(rotate_op);
	if (!memcg) {
		mlf_failure_at(f, "seg.semantics", nid, MLF_NONE, MLF_NONE, id);
		mlf_failure_msg(f, "m%d is gone after %s", id, name);
		return false;
	}
	lrugen = &get_lruvec((struct mem_cgroup *)memcg, nid)->lrugen;
	if (hlist_nulls_unhashed(&lrugen->list)) {
		mlf_failure_at(f, "seg.semantics", nid, MLF_NONE, MLF_NONE, id);
		mlf_failure_msg(f, "m%d is not linked on node %d after %s", id,
				nid, name);
		return false;
	}
	gen = lrugen->gen;
	seg = lrugen->seg;
	for (b = 0; b < MEMCG_NR_BINS && gen < MEMCG_NR_GENS; b++)
		if (lrugen->list.pprev ==
		    &w->nodes[nid].memcg_lru.fifo[gen][b].first)
			bin = b;
	first = bin >= 0;
	last = is_a_nulls(lrugen->list.next);

	switch (rotate_op) {
	case MEMCG_LRU_HEAD:
		break;
	case MEMCG_LRU_TAIL:
		want_seg = MEMCG_LRU_TAIL;
		want_first = false;
		break;
	case MEMCG_LRU_OLD:
		want_gen = get_memcg_gen(seq_before);
		want_seg = 0;
		break;
	case MEMCG_LRU_YOUNG:
		want_gen = get_memcg_gen(seq_before + 1);
		want_seg = 0;
		want_first = false;
#ifdef CONFIG_LRU_GEN_YOUNG_SKIP
		/* skipped: allowed only from young's default segment */
		if (gen == gen_before && seg == seg_before &&
		    gen_before == want_gen && seg_before == 0)
			return true;
#endif
		break;
	}

	if (gen == want_gen && seg == want_seg &&
	    (want_first ? first : last))
		return true;

	mlf_failure_at(f, "seg.semantics", nid, gen, bin >= 0 ? bin : MLF_NONE,
		       id);
	mlf_failure_msg(f,
		"after %s (before: gen %d seg %s, seq %lu) m%d is in gen %d seg %s, %s its bin; want gen %d seg %s, %s",
		name, gen_before, seg_name(seg_before), seq_before, id, gen,
		seg_name(seg),
		first && last ? "alone in" :
		first	      ? "first in" :
		last	      ? "last in" :
				"inside",
		want_gen, seg_name(want_seg),
		want_first ? "first" : "last");
	return false;
}

/* ---- model.order ---- */

static bool model_seq(const struct mlf_check_state *w, int nid,
		      struct mlf_failure *f)
{
	unsigned long seq = w->nodes[nid].memcg_lru.seq;

	if (seq == w->model.nodes[nid].seq)
		return true;
	mlf_failure_at(f, "model.order", nid, MLF_NONE, MLF_NONE, MLF_NONE);
	mlf_failure_msg(f, "seq is %lu, the model's %lu", seq,
			w->model.nodes[nid].seq);
	return false;
}

static bool model_bin(const struct mlf_check_state *w, int nid, int gen,
		      int bin, struct mlf_failure *f)
{
	const struct mlf_model_bin *mb = &w->model.nodes[nid].bins[gen][bin];
	struct scan s;
	int i;

	scan_bin(w, nid, gen, bin, &s);
	if (s.end != SCAN_NULLS) {
		mlf_failure_at(f, "model.order", nid, gen, bin, MLF_NONE);
		mlf_failure_msg(f,
			"fifo[%d][%d] cannot be walked past entry %d (%s)",
			gen, bin, s.len,
			s.end == SCAN_CYCLE ? "a cycle" : "a stale pointer");
		return false;
	}
	for (i = 0; i < s.len || i < mb->len; i++) {
		int port = i < s.len ? w->slots[s.slots[i]].memcg->id : -1;
		int model = i < mb->len ? mb->ids[i] : -1;

		if (port == model)
			continue;
		mlf_failure_at(f, "model.order", nid, gen, bin,
			       port >= 0 ? port : model);
		if (port < 0)
			mlf_failure_msg(f,
				"fifo[%d][%d] position %d: the port's bin ends (%d entries), the model has m%d",
				gen, bin, i, s.len, model);
		else if (model < 0)
			mlf_failure_msg(f,
				"fifo[%d][%d] position %d: the port has m%d, the model's bin ends (%d entries)",
				gen, bin, i, port, mb->len);
		else
			mlf_failure_msg(f,
				"fifo[%d][%d] position %d: the port has m%d, the model m%d",
				gen, bin, i, port, model);
		return false;
	}
	return true;
}

/* Existence, references, and where it is linked (gen / seg) on @nid. */
static bool model_memcg(const struct mlf_check_state *w, int nid, int i,
			struct mlf_failure *f)
{
	const struct mlf_model_memcg *mc = &w->model.memcgs[i];
	struct mem_cgroup *memcg = w->slots[i].memcg;
	const struct lru_gen_folio *lrugen;
	bool linked;
	long refs;

	if (!memcg != !mc->allocated) {
		mlf_failure_at(f, "model.order", nid, MLF_NONE, MLF_NONE, i);
		mlf_failure_msg(f, "m%d %s in the port, %s in the model", i,
				memcg ? "exists" : "does not exist",
				mc->allocated ? "exists" : "does not exist");
		return false;
	}
	if (!memcg)
		return true;
	lrugen = slot_lrugen(w, i, nid);
	linked = !hlist_nulls_unhashed(&lrugen->list);
	refs = atomic_long_read(&memcg->refcnt);
	if (refs != mc->refs) {
		mlf_failure_at(f, "model.order", nid, MLF_NONE, MLF_NONE, i);
		mlf_failure_msg(f, "m%d holds %ld references, %ld in the model",
				i, refs, mc->refs);
		return false;
	}
	if (linked != mc->linked[nid]) {
		mlf_failure_at(f, "model.order", nid, MLF_NONE, MLF_NONE, i);
		mlf_failure_msg(f, "m%d is %s in the port, %s in the model", i,
				linked ? "linked" : "unlinked",
				mc->linked[nid] ? "linked" : "unlinked");
		return false;
	}
	if (linked && (lrugen->gen != mc->gen[nid] ||
		       lrugen->seg != mc->seg[nid])) {
		mlf_failure_at(f, "model.order", nid, lrugen->gen, MLF_NONE, i);
		mlf_failure_msg(f,
			"m%d has gen %d seg %s in the port, gen %d seg %s in the model",
			i, lrugen->gen, seg_name(lrugen->seg), mc->gen[nid],
			seg_name(mc->seg[nid]));
		return false;
	}
	return true;
}

bool check_model_order(const struct mlf_check_state *w, int nid,
		       struct mlf_failure *f)
{
	int gen, bin, i;

	map_prepare(w);
	if (!model_seq(w, nid, f))
		return false;
	for (gen = 0; gen < MEMCG_NR_GENS; gen++)
		for (bin = 0; bin < MEMCG_NR_BINS; bin++)
			if (!model_bin(w, nid, gen, bin, f))
				return false;
	for (i = 0; i < w->pool_size; i++)
		if (!model_memcg(w, nid, i, f))
			return false;
	return true;
}

/* ---- reclaim.progress ---- */

bool check_reclaim_progress(const struct mlf_check_state *w, int nid,
			    int walk_gen, bool aborted, const int *failed,
			    int nr_failed, struct mlf_failure *f)
{
	int i;


	for (i = 0; i < nr_failed; i++) {
		int id = failed[i];
		struct mem_cgroup *memcg;

		if (id < 0 || id >= w->pool_size)
			continue;
		memcg = w->slots[id].memcg;
		/* released and gone since: nothing left to be linked */
		if (!memcg || memcg->id != id)
			continue;
		if (!hlist_nulls_unhashed(&slot_lrugen(w, id, nid)->list)) {
			mlf_failure_at(f, "reclaim.progress", nid,
				       slot_lrugen(w, id, nid)->gen, MLF_NONE,
				       id);
			mlf_failure_msg(f,
				"the walk found m%d dead (tryget failed) but left it linked in gen %d",
				id, slot_lrugen(w, id, nid)->gen);
			return false;
		}
	}
	if (aborted)
		return true;
	for (i = 0; i < w->pool_size; i++) {
		const struct lru_gen_folio *lrugen;

		if (w->slots[i].state != SLOT_DEAD || !w->slots[i].memcg)
			continue;
		lrugen = slot_lrugen(w, i, nid);
		if (hlist_nulls_unhashed(&lrugen->list) ||
		    lrugen->gen != walk_gen)
			continue;
		mlf_failure_at(f, "reclaim.progress", nid, walk_gen, MLF_NONE,
			       i);
		mlf_failure_msg(f,
			"a whole walk of gen %d left dead m%d linked in it",
			walk_gen, i);
		return false;
	}
	return true;
}

/* ---- what one op touched ---- */

bool check_nr_memcgs_model(const struct mlf_check_state *w, int nid,
			   struct mlf_failure *f)
{
	const struct lru_gen_memcg *lru = &w->nodes[nid].memcg_lru;
	int gen;

	for (gen = 0; gen < MEMCG_NR_GENS; gen++) {
		unsigned long n = model_gen_count(&w->model, nid, gen);

		if (lru->nr_memcgs[gen] == n)
			continue;
		mlf_failure_at(f, "nr_memcgs", nid, gen, MLF_NONE, MLF_NONE);
		mlf_failure_msg(f,
			"nr_memcgs[%d] is %lu but the model's gen %d holds %lu entries",
			gen, lru->nr_memcgs[gen], gen, n);
		return false;
	}
	return true;
}

bool check_node_quick(const struct mlf_check_state *w, int nid,
		      struct mlf_failure *f)
{
	return model_seq(w, nid, f) && check_nr_memcgs_model(w, nid, f) &&
	       check_seq_valid_gens(w, nid, f) &&
	       check_seq_old_nonempty(w, nid, f);
}

/* A pointer in the bin that is no live lrugen of the node. */
static bool membership_bin(const struct mlf_check_state *w, int nid, int gen,
			   int bin, struct mlf_failure *f)
{
	struct scan s;

	scan_bin(w, nid, gen, bin, &s);
	if (s.end != SCAN_UNKNOWN)
		return true;
	mlf_failure_at(f, "list.membership", nid, gen, bin, MLF_NONE);
	mlf_failure_msg(f,
		"fifo[%d][%d]: entry %d is %p, the lrugen of no live memcg on node %d (stale or freed pointer)",
		gen, bin, s.len, (void *)s.bad, nid);
	return false;
}

bool check_bin(const struct mlf_check_state *w, int nid, int gen, int bin,
	       struct mlf_failure *f)
{
	bool ok;

	map_prepare(w);
	bin_view.buf = grow(bin_view.buf, &bin_view.cap, w->pool_size + 2,
			    sizeof(*bin_view.buf));
	scan_into(w, nid, gen, bin, &bin_view.s, bin_view.buf);
	bin_view.w = w;
	bin_view.nid = nid;
	bin_view.gen = gen;
	bin_view.bin = bin;
	ok = links_bin(w, nid, gen, bin, f) &&
	     membership_bin(w, nid, gen, bin, f) &&
	     tail_bin(w, nid, gen, bin, f) && model_bin(w, nid, gen, bin, f);
	bin_view.w = NULL;
	return ok;
}

/* The bin whose head's first @pprev is, as gen * MEMCG_NR_BINS + bin, or -1. */
static int head_of(const struct mlf_check_state *w, int nid,
		   struct hlist_nulls_node *const *pprev)
{
	const struct lru_gen_memcg *lru = &w->nodes[nid].memcg_lru;
	int gen, bin;

	for (gen = 0; gen < MEMCG_NR_GENS; gen++)
		for (bin = 0; bin < MEMCG_NR_BINS; bin++)
			if (pprev == &lru->fifo[gen][bin].first)
				return gen * MEMCG_NR_BINS + bin;
	return -1;
}

bool check_memcg(const struct mlf_check_state *w, int nid, int i,
		 struct mlf_failure *f)
{
	const struct lru_gen_folio *lrugen;
	struct hlist_nulls_node *const *pprev;
	const struct hlist_nulls_node *next;
	int head, prev = -1, after;

	map_prepare(w);
	if (i < 0 || i >= w->pool_size)
		return true;
	if (!model_memcg(w, nid, i, f))
		return false;
	if (!w->slots[i].memcg)
		return true;
	lrugen = slot_lrugen(w, i, nid);
	if (hlist_nulls_unhashed(&lrugen->list))
		return true;

	/* backwards: a head's first, or the next of a live lrugen */
	pprev = lrugen->list.pprev;
	head = head_of(w, nid, pprev);
	if (head < 0) {
		prev = map_lookup(w, nid,
				  container_of(pprev, struct hlist_nulls_node,
					       next));
		if (prev < 0) {
			mlf_failure_at(f, "list.membership", nid, lrugen->gen,
				       MLF_NONE, i);
			mlf_failure_msg(f,
				"m%d's pprev %p is no bin head's first and no live lrugen's next on node %d",
				i, (void *)pprev, nid);
			return false;
		}
	}
	if (*pprev != &lrugen->list) {
		mlf_failure_at(f, "list.links", nid, lrugen->gen, MLF_NONE, i);
		if (prev >= 0)
			mlf_failure_msg(f,
				"m%d's pprev is m%d's next, which points at %p, not at m%d",
				i, prev, (void *)*pprev, i);
		else
			mlf_failure_msg(f,
				"m%d's pprev is fifo[%d][%d]'s first, which points at %p, not at m%d",
				i, head / MEMCG_NR_BINS, head % MEMCG_NR_BINS,
				(void *)*pprev, i);
		return false;
	}
	if (head >= 0 && head / MEMCG_NR_BINS != lrugen->gen) {
		mlf_failure_at(f, "list.membership", nid, head / MEMCG_NR_BINS,
			       head % MEMCG_NR_BINS, i);
		mlf_failure_msg(f,
			"m%d heads fifo[%d][%d] but its lrugen.gen is %d", i,
			head / MEMCG_NR_BINS, head % MEMCG_NR_BINS, lrugen->gen);
		return false;
	}
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
	if (lrugen->bin != w->model.memcgs[i].bin[nid] ||
	    (head >= 0 && head % MEMCG_NR_BINS != lrugen->bin)) {
		mlf_failure_at(f, "list.membership", nid, lrugen->gen,
			       lrugen->bin, i);
		mlf_failure_msg(f,
			"m%d's lrugen.bin is %d; it sits in bin %d in the model%s",
			i, lrugen->bin, w->model.memcgs[i].bin[nid],
			head >= 0 ? " and heads a bin of another number" : "");
		return false;
	}
#endif

	/* forwards: a live lrugen that points back, or the gen's nulls */
	next = lrugen->list.next;
	if (is_a_nulls(next)) {
		if (get_nulls_value(next) == lrugen->gen)
			return true;
		mlf_failure_at(f, "list.membership", nid, lrugen->gen, MLF_NONE,
			       i);
		mlf_failure_msg(f,
			"m%d ends a list on nulls value %lu but its lrugen.gen is %d",
			i, get_nulls_value(next), lrugen->gen);
		return false;
	}
	after = map_lookup(w, nid, next);
	if (after < 0) {
		mlf_failure_at(f, "list.membership", nid, lrugen->gen, MLF_NONE,
			       i);
		mlf_failure_msg(f,
			"m%d's next %p is the lrugen of no live memcg on node %d",
			i, (void *)next, nid);
		return false;
	}
	if (next->pprev != &lrugen->list.next) {
		mlf_failure_at(f, "list.links", nid, lrugen->gen, MLF_NONE,
			       after);
		mlf_failure_msg(f,
			"m%d follows m%d but its pprev points at %p instead of m%d's next (%p)",
			after, i, (void *)next->pprev, i,
			(void *)&lrugen->list.next);
		return false;
	}
	return true;
}

/* ---- all of a node ---- */

bool check_node_full(const struct mlf_check_state *w, int nid,
		     struct mlf_failure *f)
{
	bool ok;

	map_prepare(w);
	view_open(w, nid);
	ok = check_structure(w, nid, f) && check_model_order(w, nid, f);
	view_close();
	return ok;
}

/* ---- all of the structure ---- */

bool check_structure(const struct mlf_check_state *w, int nid,
		     struct mlf_failure *f)
{
	/*
	 * The others would follow the pointers that list.links found bad.
	 * tail.cache before list.membership: a stale cached tail links the
	 * next memcg behind an unlinked node, so the memcg is "in no bin" as
	 * a consequence; name the cause.
	 */
	return check_list_links(w, nid, f) && check_tail_cache(w, nid, f) &&
	       check_list_membership(w, nid, f) && check_nr_memcgs(w, nid, f) &&
	       check_seq_valid_gens(w, nid, f) &&
	       check_seq_old_nonempty(w, nid, f);
}
