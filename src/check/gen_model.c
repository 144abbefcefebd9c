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

#define F(bit) (1UL << (bit))

/* lru_gen_from_seq(), written here */
static int gen_of(unsigned long seq)
{
	return seq % MAX_NR_GENS;
}

static bool on_lru(const struct mlf_reclaim_folio_model *m, long i, int slot,
		   int nid)
{
	return m->used[i] && !m->iso_by[i] && m->memcg[i] == slot &&
	       m->node[i] == nid;
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

	if (fl & F(PG_active))
		m->seq[i] = max_seq;
	else if ((type == LRU_GEN_ANON && !(fl & F(PG_swapcache))) ||
		 ((fl & F(PG_reclaim)) &&
		  (fl & (F(PG_dirty) | F(PG_writeback)))))
		m->seq[i] = max_seq - 1;
	else if (reclaiming || min_seq + MIN_NR_GENS >= max_seq)
		m->seq[i] = min_seq;
	else
		m->seq[i] = min_seq + 1;
	m->flags[i] &= ~F(PG_active);
	m->iso_by[i] = NULL;
}

void gen_model_add(struct mlf_reclaim_folio_model *m, long i)
{
	place(m, i, false);
}

/* inc_min_seq(): the oldest generation of @type folds into the next */
static void fold_oldest(struct mlf_reclaim_folio_model *m, int slot, int nid,
			int type)
{
	unsigned long *min_seq = &m->min_seq[slot][nid][type];
	long i;

	for (i = 0; i < m->nr; i++)
		if (on_lru(m, i, slot, nid) && m->type[i] == type &&
		    m->seq[i] == *min_seq)
			m->seq[i] = *min_seq + 1;
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

static bool seq_empty(const struct mlf_reclaim_folio_model *m, int slot,
		      int nid, int type, unsigned long seq)
{
	long i;

	for (i = 0; i < m->nr; i++)
		if (on_lru(m, i, slot, nid) && m->type[i] == type &&
		    m->seq[i] == seq)
			return false;
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
		       seq_empty(m, slot, nid, type, min_seq[type]))
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

void gen_model_scanned(struct mlf_reclaim_folio_model *m, int slot, int nid,
		       const struct lru_gen_eviction *ev)
{
	const struct folio *folio;
	long i;

	list_for_each_entry(folio, &ev->list, lru)
	{
		i = model_folio(m, folio);
		if (i >= 0)
			m->iso_by[i] = ev;
	}
	/* sort_folio(): on to min_seq + 1, clearing PG_referenced */
	for (i = 0; i < m->nr; i++) {
		unsigned long min_seq;

		if (!on_lru(m, i, slot, nid))
			continue;
		min_seq = m->min_seq[slot][nid][m->type[i]];
		if (m->seq[i] == min_seq &&
		    m->base[i].gen == gen_of(min_seq + 1) + 1) {
			m->seq[i] = min_seq + 1;
			m->flags[i] &= ~F(PG_referenced);
		}
	}
	inc_min_seq_empty(m, slot, nid, ev->swappiness);
}

/*
 * shrink_folio_list() as the port reduces it, on the flags of a folio it
 * kept: under writeback, marked for reclaim; dirty, written out (to swap
 * for anon) and marked; else referenced since isolation, activated
 */
static void kept(struct mlf_reclaim_folio_model *m, long i)
{
	unsigned long *fl = &m->flags[i];

	if (*fl & F(PG_writeback)) {
		*fl |= F(PG_reclaim);
	} else if (*fl & F(PG_dirty)) {
		if (m->type[i] == LRU_GEN_ANON)
			*fl |= F(PG_swapcache);
		*fl &= ~F(PG_dirty);
		*fl |= F(PG_writeback) | F(PG_reclaim);
	} else if (*fl & F(PG_referenced)) {
		*fl &= ~F(PG_referenced);
		*fl |= F(PG_active);
	}
	/*
	 * evict_folios(): one under reclaim and dirty or under writeback
	 * goes back as it is (referenced if in the workingset); any other
	 * not to the oldest generation
	 */
	if ((*fl & F(PG_reclaim)) && (*fl & (F(PG_dirty) | F(PG_writeback)))) {
		if (*fl & F(PG_workingset))
			*fl |= F(PG_referenced);
	} else {
		*fl &= ~F(PG_referenced);
		*fl |= F(PG_active);
	}
}

void gen_model_put_back(struct mlf_reclaim_folio_model *m,
			const struct lru_gen_eviction *ev)
{
	long i;

	for (i = 0; i < m->nr; i++) {
		if (!m->used[i] || m->iso_by[i] != ev)
			continue;
		kept(m, i);
		place(m, i, false);
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
