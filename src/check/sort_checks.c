// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim.sort (sort_checks.h): sort_folio()'s rule and scan_folios()'s
 * zone order, judged on a picture of the oldest generations taken as an
 * isolation pass begins.
 */
/*
 * Only the reclaim port (src/mm/reclaim.cmake) defines MLF_EVICTION; a
 * build that compiles every file of src/ gets an empty object here.
 */
#ifdef MLF_EVICTION
#include "sort_checks.h"

#include <string.h>

void sort_picture(struct mlf_sort_picture *p,
		  const struct mlf_reclaim_check_state *rw,
		  const struct lruvec *lruvec)
{
	const struct mlf_reclaim_folio_model *m = &rw->model;
	int slot = lruvec_memcg((struct lruvec *)lruvec)->id;
	int nid = lruvec->pgdat->node_id, type;
	long i;

	memset(p, 0, sizeof(*p));
	p->lruvec = lruvec;
	if (slot < 0 || slot >= rw->w->pool_size ||
	    slot >= MLF_RECLAIM_MAX_POOL)
		return;
	for (type = 0; type < ANON_AND_FILE; type++)
		p->min_seq[type] = m->min_seq[slot][nid][type];
	/* the model's folios on the LRU in their type's oldest generation */
	for_each_lruvec_folio(m, slot, nid, i) {
		if (m->iso_by[i] || m->seq[i] != p->min_seq[m->type[i]])
			continue;
		p->oldest[i] = true;
		p->referenced[i] = m->flags[i] & BIT(PG_referenced);
	}
}

/* where scan_folios() takes @zone: 0 first */
static int zone_turn(int zone, int reclaim_idx)
{
	int i;

	for (i = MAX_NR_ZONES; i > 0; i--)
		if ((reclaim_idx + i) % MAX_NR_ZONES == zone)
			return MAX_NR_ZONES - i;
	return MAX_NR_ZONES;
}

static bool sort_failed(const struct mlf_reclaim_check_state *rw,
			const struct lru_gen_eviction *ev,
			struct mlf_failure *f)
{
	mlf_failure_at(f, "reclaim.sort", rw->run->nid, MLF_NONE, MLF_NONE,
		       lruvec_memcg(ev->lruvec)->id);
	return false;
}

bool check_sort(const struct mlf_sort_picture *p,
		const struct mlf_reclaim_check_state *rw,
		const struct lru_gen_eviction *ev, struct mlf_failure *f)
{
	static bool isolated[MLF_RECLAIM_MODEL_FOLIOS];
	/* per type: the latest zone turn reached, the earliest one left */
	int reached[ANON_AND_FILE], left[ANON_AND_FILE],
		left_folio[ANON_AND_FILE];
	int idx, type, slot = lruvec_memcg(ev->lruvec)->id;
	int nid = ev->lruvec->pgdat->node_id;
	const struct folio *folio;
	long i, n = 0;

	if (!rw->run || p->lruvec != ev->lruvec || slot < 0 ||
	    slot >= MLF_RECLAIM_MAX_POOL)
		return true;
	idx = rw->run->reclaim_idx;
	memset(isolated, 0, sizeof(isolated));
	list_for_each_entry(folio, &ev->list, lru)
	{
		if (++n > MLF_RECLAIM_MODEL_FOLIOS)
			return true;
		i = model_folio(&rw->model, folio);
		if (i >= 0)
			isolated[i] = true;
	}
	for (type = 0; type < ANON_AND_FILE; type++) {
		reached[type] = -1;
		left[type] = MAX_NR_ZONES;
		left_folio[type] = -1;
	}
	/* the pass frees nothing: the picture's folios are the lruvec's still */
	for_each_lruvec_folio(&rw->model, slot, nid, i) {
		int zone = rw->model.zone_of[i], turn = zone_turn(zone, idx);
		bool sorted_out = p->referenced[i] || zone > idx;
		const struct folio *fo = rw->model.base + i;

		if (!p->oldest[i])
			continue;
		type = rw->model.type[i];
		if (isolated[i]) {
			if (p->referenced[i]) {
				mlf_failure_msg(
					f,
					"isolated f%ld, which was referenced: sort_folio() protects it",
					i);
				return sort_failed(rw, ev, f);
			}
		} else if (fo->gen &&
			   fo->gen - 1 ==
				   (int)((p->min_seq[type] + 1) % MAX_NR_GENS)) {
			if (!sorted_out) {
				mlf_failure_msg(
					f,
					"moved f%ld (zone %d, not referenced) on a generation; the run reclaims zones 0 to %d, so sort_folio() leaves it to be isolated",
					i, zone, idx);
				return sort_failed(rw, ev, f);
			}
		} else if (fo->gen &&
			   fo->gen - 1 == (int)(p->min_seq[type] % MAX_NR_GENS)) {
			/* not reached */
			if (turn < left[type]) {
				left[type] = turn;
				left_folio[type] = i;
			}
			continue;
		} else {
			continue;
		}
		if (turn > reached[type])
			reached[type] = turn;
	}
	for (type = 0; type < ANON_AND_FILE; type++) {
		if (reached[type] <= left[type])
			continue;
		mlf_failure_msg(
			f,
			"left f%d of zone %d in the oldest generation, yet went on to a zone scan_folios() takes after it (reclaim_idx %d)",
			left_folio[type], rw->model.zone_of[left_folio[type]],
			idx);
		return sort_failed(rw, ev, f);
	}
	return true;
}

#endif /* MLF_EVICTION */
