// SPDX-License-Identifier: GPL-2.0
/*
 * The folio model's multi-gen LRU and gen.model (gen_model.h): 6.12's
 * aging and placement rules on the model's seqs and flags.
 */
/*
 * Only the reclaim port (src/mm/reclaim.cmake) defines MLF_EVICTION; a
 * build that compiles every file of src/ gets an empty object here.
 */
#ifdef MLF_EVICTION
#include "gen_model.h"

#include <string.h>

/* lru_gen_from_seq(), written here */
static int gen_of(unsigned long seq)
{
	return seq % MAX_NR_GENS;
}

/*
 * The folios charged to the lruvec an isolation pass is on, gathered once
 * for the pass (gen_model_scanned()): what its steps look through
 */
static struct {
	long n;
	long i[MLF_RECLAIM_MODEL_FOLIOS];
} pass_folios;

static void gather_pass_folios(const struct mlf_reclaim_folio_model *m,
			       int slot, int nid)
{
	long i;

	pass_folios.n = 0;
	for_each_lruvec_folio(m, slot, nid, i)
		pass_folios.i[pass_folios.n++] = i;
}

void gen_model_online(struct mlf_reclaim_folio_model *m, int slot)
{
	int nid;

	for (nid = 0; nid < MAX_NUMNODES; nid++) {
		m->max_seq[slot][nid] = MIN_NR_GENS + 1;
		m->min_seq[slot][nid][LRU_GEN_ANON] = 0;
		m->min_seq[slot][nid][LRU_GEN_FILE] = 0;
	}
}

/*
 * lru_gen_add_folio(): active (hot) to the youngest generation; anon not
 * in the swap cache, or under reclaim and dirty or under writeback, to the
 * second youngest; else the oldest when reclaiming or when only
 * MIN_NR_GENS + 1 are left, the second oldest otherwise
 */
static void place(struct mlf_reclaim_folio_model *m, long i, bool reclaiming)
{
	int slot = m->memcg[i], nid = m->node[i], type = m->type[i];
	unsigned long max_seq = m->max_seq[slot][nid];
	unsigned long min_seq = m->min_seq[slot][nid][type];
	unsigned long fl = m->flags[i];

	if (fl & BIT(PG_active))
		m->seq[i] = max_seq;
	else if ((type == LRU_GEN_ANON && !(fl & BIT(PG_swapcache))) ||
		 ((fl & BIT(PG_reclaim)) &&
		  (fl & (BIT(PG_dirty) | BIT(PG_writeback)))))
		m->seq[i] = max_seq - 1;
	else if (reclaiming || min_seq + MIN_NR_GENS >= max_seq)
		m->seq[i] = min_seq;
	else
		m->seq[i] = min_seq + 1;
	m->flags[i] &= ~BIT(PG_active);
	m->iso_by[i] = NULL;
	/* list_add_tail() when reclaiming, else list_add() */
	m->key[i] = reclaiming ? ++m->tail_key : --m->head_key;
}

void gen_model_add(struct mlf_reclaim_folio_model *m, long i)
{
	place(m, i, false);
}

/* a folio and its rank in an order: lowest first */
struct ranked {
	long rank, i;
};

/* Shell sort: in place (no allocation under ASan), ranks are distinct */
static void rank_sort(struct ranked *r, long n)
{
	long gap, i, j;

	for (gap = n / 2; gap > 0; gap /= 2)
		for (i = gap; i < n; i++) {
			struct ranked t = r[i];

			for (j = i; j >= gap && r[j - gap].rank > t.rank;
			     j -= gap)
				r[j] = r[j - gap];
			r[j] = t;
		}
}

/* a min-heap of ranks: the lowest first, without sorting the rest */
static void rank_sift_down(struct ranked *r, long n, long k)
{
	struct ranked t = r[k];
	long c;

	for (; (c = 2 * k + 1) < n; k = c) {
		if (c + 1 < n && r[c + 1].rank < r[c].rank)
			c++;
		if (t.rank <= r[c].rank)
			break;
		r[k] = r[c];
	}
	r[k] = t;
}

static void rank_heapify(struct ranked *r, long n)
{
	long k;

	for (k = n / 2 - 1; k >= 0; k--)
		rank_sift_down(r, n, k);
}

static struct ranked rank_pop(struct ranked *r, long *n)
{
	struct ranked low = r[0];

	r[0] = r[--*n];
	rank_sift_down(r, *n, 0);
	return low;
}

/*
 * The folios on (@slot, @nid)'s LRU of @type at @seq into @out, tail
 * first (the greatest key); how many
 */
static long in_gen(const struct mlf_reclaim_folio_model *m, int slot, int nid,
		   int type, unsigned long seq, struct ranked *out)
{
	long i, n = 0;

	for_each_lruvec_folio(m, slot, nid, i)
		if (!m->iso_by[i] && m->type[i] == type && m->seq[i] == seq)
			out[n++] = (struct ranked){ -m->key[i], i };
	rank_sort(out, n);
	return n;
}

/* list_move_tail() to @seq's list */
static void move_tail(struct mlf_reclaim_folio_model *m, long i,
		      unsigned long seq)
{
	m->seq[i] = seq;
	m->key[i] = ++m->tail_key;
}

/* inc_min_seq(): the oldest generation of @type folds into the next */
static void fold_oldest(struct mlf_reclaim_folio_model *m, int slot, int nid,
			int type)
{
	unsigned long *min_seq = &m->min_seq[slot][nid][type];
	static struct ranked order[MLF_RECLAIM_MODEL_FOLIOS];
	long n, k;

	/* each zone's list from its tail on, to the next one's tail */
	n = in_gen(m, slot, nid, type, *min_seq, order);
	for (k = 0; k < n; k++)
		move_tail(m, order[k].i, *min_seq + 1);
	(*min_seq)++;
}

void gen_model_age(struct mlf_reclaim_folio_model *m, int slot, int nid)
{
	int type;

	/* inc_max_seq(): a type with MAX_NR_GENS generations folds first */
	for (type = 0; type < ANON_AND_FILE; type++)
		if (m->max_seq[slot][nid] - m->min_seq[slot][nid][type] + 1 ==
		    MAX_NR_GENS)
			fold_oldest(m, slot, nid, type);
	m->max_seq[slot][nid]++;
}

/* no folio of the pass's lruvec on its LRU at @seq of @type */
static bool seq_empty(const struct mlf_reclaim_folio_model *m, int type,
		      unsigned long seq)
{
	long k;

	for (k = 0; k < pass_folios.n; k++) {
		long i = pass_folios.i[k];

		if (!m->iso_by[i] && m->type[i] == type && m->seq[i] == seq)
			return false;
	}
	return true;
}

/*
 * try_to_inc_min_seq(): past the empty oldest generations of the types it
 * may evict, while MIN_NR_GENS + 1 stay; anon never older than file
 */
static void inc_min_seq_empty(struct mlf_reclaim_folio_model *m, int slot,
			      int nid, bool can_swap)
{
	unsigned long *cur = m->min_seq[slot][nid];
	unsigned long min_seq[ANON_AND_FILE] = { cur[0], cur[1] };
	unsigned long max_seq = m->max_seq[slot][nid];
	int type;

	for (type = !can_swap; type < ANON_AND_FILE; type++)
		while (min_seq[type] + MIN_NR_GENS <= max_seq &&
		       seq_empty(m, type, min_seq[type]))
			min_seq[type]++;
	if (can_swap) {
		min_seq[LRU_GEN_ANON] =
			min(min_seq[LRU_GEN_ANON], min_seq[LRU_GEN_FILE]);
		min_seq[LRU_GEN_FILE] =
			max(min_seq[LRU_GEN_ANON], cur[LRU_GEN_FILE]);
	}
	for (type = !can_swap; type < ANON_AND_FILE; type++)
		cur[type] = min_seq[type];
}

/* where scan_folios() takes @zone: 0 first */
static int zone_turn(int zone, int reclaim_idx)
{
	return (reclaim_idx - zone + MAX_NR_ZONES) % MAX_NR_ZONES;
}

/*
 * scan_folios() of @type: the oldest generation's lists, zone by zone in
 * its order, each from its tail: sort_folio() moves a referenced
 * (clearing it) or ineligible folio on to min_seq + 1, the rest are
 * isolated, until MAX_LRU_BATCH folios or MIN_LRU_BATCH pages isolated;
 * what it scanned if it isolated any or used up the batch, else 0
 */
static long scan(struct mlf_reclaim_folio_model *m, int slot, int nid, int type,
		 int reclaim_idx, const struct lru_gen_eviction *ev)
{
	unsigned long min_seq = m->min_seq[slot][nid][type];
	static struct ranked order[MLF_RECLAIM_MODEL_FOLIOS];
	long n, k, scanned = 0, isolated = 0;
	int remaining = MAX_LRU_BATCH;

	if (m->max_seq[slot][nid] - min_seq + 1 == MIN_NR_GENS)
		return 0;
	for (k = n = 0; k < pass_folios.n; k++) {
		long i = pass_folios.i[k];

		/* zone by zone, each list from its tail (keys stay < 2^47) */
		if (!m->iso_by[i] && m->type[i] == type && m->seq[i] == min_seq)
			order[n++] = (struct ranked){
				((long)zone_turn(m->zone_of[i], reclaim_idx)
				 << 48) -
					m->key[i],
				i
			};
	}
	/* a pass stops after a batch: take its folios off a heap */
	rank_heapify(order, n);
	while (n) {
		long i = rank_pop(order, &n).i;

		scanned += model_pages(m, i);
		if (m->flags[i] & BIT(PG_referenced)) {
			m->flags[i] &= ~BIT(PG_referenced);
			move_tail(m, i, min_seq + 1);
		} else if (m->zone_of[i] > reclaim_idx) {
			move_tail(m, i, min_seq + 1);
		} else {
			m->iso_by[i] = ev;
			m->iso_order[i] = ++m->iso_key;
			isolated += model_pages(m, i);
		}
		if (!--remaining || isolated >= MIN_LRU_BATCH)
			break;
	}
	return isolated || !remaining ? scanned : 0;
}

/*
 * isolate_folios() beginning with @type: each type it may evict in turn
 * (in iso-throttle, only those the throttle allowed) until one scans some
 */
static void isolate(struct mlf_reclaim_folio_model *m, int slot, int nid,
		    int type, int reclaim_idx,
		    const struct lru_gen_eviction *ev)
{
	int i;

#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
	if (!(ev->allowed & BIT(type)))
		type = !type;
#endif
	for (i = !ev->swappiness; i < ANON_AND_FILE; i++) {
#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
		if (ev->allowed & BIT(type))
#endif
			if (scan(m, slot, nid, type, reclaim_idx, ev))
				break;
		type = !type;
	}
}

/* the model's state of the pass's folios, to try another first type */
static struct pass_state {
	unsigned long seq, flags;
	const struct lru_gen_eviction *iso_by;
	long key, iso_order;
} saved[MLF_RECLAIM_MODEL_FOLIOS];
static long saved_tail_key, saved_iso_key;

static void pass_save(const struct mlf_reclaim_folio_model *m)
{
	long k;

	for (k = 0; k < pass_folios.n; k++) {
		long i = pass_folios.i[k];

		saved[k] = (struct pass_state){ m->seq[i], m->flags[i],
						m->iso_by[i], m->key[i],
						m->iso_order[i] };
	}
	saved_tail_key = m->tail_key;
	saved_iso_key = m->iso_key;
}

static void pass_restore(struct mlf_reclaim_folio_model *m)
{
	long k;

	for (k = 0; k < pass_folios.n; k++) {
		long i = pass_folios.i[k];

		m->seq[i] = saved[k].seq;
		m->flags[i] = saved[k].flags;
		m->iso_by[i] = saved[k].iso_by;
		m->key[i] = saved[k].key;
		m->iso_order[i] = saved[k].iso_order;
	}
	m->tail_key = saved_tail_key;
	m->iso_key = saved_iso_key;
}

/* the folios on the pass's eviction list: those stamped with the pass */
static unsigned long on_ev_list[MLF_RECLAIM_MODEL_FOLIOS], pass_stamp;

/*
 * The first folio of the pass's lruvec where the port's pass and the
 * model's differ (isolated by @ev in one and not the other, or on the LRU
 * in another generation), or -1
 */
static long pass_differs(const struct mlf_reclaim_folio_model *m,
			 const struct lru_gen_eviction *ev)
{
	long k;

	for (k = 0; k < pass_folios.n; k++) {
		long i = pass_folios.i[k];
		bool port_isolated = on_ev_list[i] == pass_stamp;

		if (m->iso_by[i] && m->iso_by[i] != ev)
			continue;
		if (port_isolated != (m->iso_by[i] == ev))
			return i;
		if (!port_isolated && m->base[i].gen != gen_of(m->seq[i]) + 1)
			return i;
	}
	return -1;
}

bool gen_model_scanned(struct mlf_reclaim_folio_model *m, int slot, int nid,
		       int reclaim_idx, const struct lru_gen_eviction *ev,
		       struct mlf_failure *f)
{
	const unsigned long *min_seq = m->min_seq[slot][nid];
	const struct folio *folio;
	int firsts[ANON_AND_FILE], nr_firsts = 1, k;
	long i = -1;

	gather_pass_folios(m, slot, nid);
	pass_stamp++;
	list_for_each_entry(folio, &ev->list, lru)
	{
		i = model_folio(m, folio);
		if (i >= 0)
			on_ev_list[i] = pass_stamp;
	}
	/*
	 * isolate_folios()'s first type: the obvious one, else refault
	 * feedback, which the port draws at random (either may be it)
	 */
	if (!ev->swappiness)
		firsts[0] = LRU_GEN_FILE;
	else if (min_seq[LRU_GEN_ANON] < min_seq[LRU_GEN_FILE])
		firsts[0] = LRU_GEN_ANON;
	else if (ev->swappiness == 1)
		firsts[0] = LRU_GEN_FILE;
	else if (ev->swappiness == MAX_SWAPPINESS)
		firsts[0] = LRU_GEN_ANON;
	else {
		firsts[0] = LRU_GEN_ANON;
		firsts[1] = LRU_GEN_FILE;
		nr_firsts = 2;
	}
	if (nr_firsts > 1)
		pass_save(m);
	for (k = 0; k < nr_firsts; k++) {
		if (k)
			pass_restore(m);
		isolate(m, slot, nid, firsts[k], reclaim_idx, ev);
		i = pass_differs(m, ev);
		if (i < 0)
			break;
	}
	if (i >= 0) {
		/* the model's pass with the first type it could begin with */
		long got = m->base[i].gen - 1;

		if (nr_firsts > 1) {
			pass_restore(m);
			isolate(m, slot, nid, firsts[0], reclaim_idx, ev);
		}
		mlf_failure_at(f, "reclaim.sort", nid, MLF_NONE, MLF_NONE,
			       slot);
		mlf_failure_msg(
			f,
			"scan_folios() (reclaim_idx %d, %s first) left f%ld (%s, zone %d) %s %ld; the model's pass leaves it %s %d",
			reclaim_idx,
			nr_firsts > 1 ? "either type" :
			firsts[0]     ? "file" :
					"anon",
			i, m->type[i] ? "file" : "anon", m->zone_of[i],
			on_ev_list[i] == pass_stamp ? "isolated, generation" :
						      "in generation",
			got, m->iso_by[i] == ev ? "isolated, in" : "in",
			m->iso_by[i] == ev ? -1 : gen_of(m->seq[i]));
	}
	/* then try_to_inc_min_seq() */
	inc_min_seq_empty(m, slot, nid, ev->swappiness);
	return i < 0;
}

/*
 * shrink_folio_list() as the port reduces it, on the flags of a folio it
 * kept: under writeback, marked for reclaim; dirty, written out (to swap
 * for anon) and marked; else referenced since isolation, activated
 */
static void kept(struct mlf_reclaim_folio_model *m, long i)
{
	unsigned long *fl = &m->flags[i];

	if (*fl & BIT(PG_writeback)) {
		*fl |= BIT(PG_reclaim);
	} else if (*fl & BIT(PG_dirty)) {
		if (m->type[i] == LRU_GEN_ANON)
			*fl |= BIT(PG_swapcache);
		*fl &= ~BIT(PG_dirty);
		*fl |= BIT(PG_writeback) | BIT(PG_reclaim);
	} else if (*fl & BIT(PG_referenced)) {
		*fl &= ~BIT(PG_referenced);
		*fl |= BIT(PG_active);
	}
	/*
	 * evict_folios(): one under reclaim and dirty or under writeback
	 * goes back as it is (referenced if in the workingset); any other
	 * not to the oldest generation
	 */
	if ((*fl & BIT(PG_reclaim)) &&
	    (*fl & (BIT(PG_dirty) | BIT(PG_writeback)))) {
		if (*fl & BIT(PG_workingset))
			*fl |= BIT(PG_referenced);
	} else {
		*fl &= ~BIT(PG_referenced);
		*fl |= BIT(PG_active);
	}
}

void gen_model_put_back(struct mlf_reclaim_folio_model *m,
			const struct lru_gen_eviction *ev)
{
	static struct ranked order[MLF_RECLAIM_MODEL_FOLIOS];
	int slot = lruvec_memcg(ev->lruvec)->id;
	int nid = ev->lruvec->pgdat->node_id;
	long n = 0, i;

	/* an eviction isolates folios of its own lruvec only */
	if (slot < 0 || slot >= MLF_RECLAIM_MAX_POOL)
		return;
	for_each_lruvec_folio(m, slot, nid, i)
		if (m->iso_by[i] == ev)
			order[n++] = (struct ranked){ -m->iso_order[i], i };
	/*
	 * move_folios_to_lru() takes its list from the head, where
	 * scan_folios() put the last folio it isolated
	 */
	rank_sort(order, n);
	for (i = 0; i < n; i++) {
		kept(m, order[i].i);
		place(m, order[i].i, false);
	}
}

static bool gen_failed(struct mlf_failure *f, int nid, int gen, int slot)
{
	mlf_failure_at(f, "gen.model", nid, gen, MLF_NONE, slot);
	return false;
}

bool check_gen_model(const struct mlf_reclaim_check_state *rw,
		     struct mlf_failure *f)
{
	const struct mlf_reclaim_folio_model *m = &rw->model;
	int slot, nid, type;
	long i;

	for (slot = 0; slot < rw->w->pool_size && slot < MLF_RECLAIM_MAX_POOL;
	     slot++) {
		struct mem_cgroup *memcg = rw->w->slots[slot].memcg;

		if (!memcg)
			continue;
		for (nid = 0; nid < rw->w->nr_nodes; nid++) {
			const struct lru_gen_folio *lrugen =
				&get_lruvec(memcg, nid)->lrugen;

			if (lrugen->max_seq != m->max_seq[slot][nid]) {
				mlf_failure_msg(
					f,
					"m%d's max_seq is %lu; the model's aging gives %lu",
					slot, lrugen->max_seq,
					m->max_seq[slot][nid]);
				return gen_failed(f, nid, MLF_NONE, slot);
			}
			for (type = 0; type < ANON_AND_FILE; type++) {
				if (lrugen->min_seq[type] ==
				    m->min_seq[slot][nid][type])
					continue;
				mlf_failure_msg(
					f,
					"m%d's min_seq[%s] is %lu; the model's aging gives %lu",
					slot, type ? "file" : "anon",
					lrugen->min_seq[type],
					m->min_seq[slot][nid][type]);
				return gen_failed(f, nid, MLF_NONE, slot);
			}
		}
	}
	for (i = 0; i < m->nr; i++) {
		int want, got = m->base[i].gen - 1;

		if (!m->used[i])
			continue;
		want = m->iso_by[i] ? -1 : gen_of(m->seq[i]);
		if (got == want)
			continue;
		mlf_failure_msg(
			f,
			"f%ld (%s, m%d) is in generation %d; the model has it %s %d (seq %lu; seqs %lu-%lu)",
			i, m->type[i] ? "file" : "anon", m->memcg[i], got,
			want < 0 ? "isolated, in none:" : "in", want, m->seq[i],
			m->min_seq[m->memcg[i]][m->node[i]][m->type[i]],
			m->max_seq[m->memcg[i]][m->node[i]]);
		return gen_failed(f, m->node[i], got >= 0 ? got : MLF_NONE,
				  m->memcg[i]);
	}
	return true;
}

#endif /* MLF_EVICTION */
