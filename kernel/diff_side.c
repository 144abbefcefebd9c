// SPDX-License-Identifier: GPL-2.0
/*
 * One side of kernel_diff (diff_side.h): a world, and a snapshot of what
 * the memcg LRU holds after each op, read through the world's map of live
 * lrugens so that a corrupted list is cut short instead of followed, with
 * what the op did on the way: the draws it consumed, and for a walk each
 * shrink_one() decision in order and the scan_control's counts.
 */
#include "diff_side.h"

#include <string.h>

#include "harness/world.h"

static struct mlf_world world;
static int nr_visits;
static struct mlf_diff_visit visits[MLF_DIFF_MAX_VISITS];

static void note_visit(void *lruvec_ptr, int op)
{
	struct lruvec *lruvec = lruvec_ptr;

	if (nr_visits < MLF_DIFF_MAX_VISITS)
		visits[nr_visits] = (struct mlf_diff_visit){
			.memcg = lruvec_memcg(lruvec)->id,
			.node = lruvec_pgdat(lruvec)->node_id,
			.op = op,
		};
	nr_visits++;
}

const char *mlf_diff_side_name(void)
{
	return MLF_VARIANT_NAME;
}

void mlf_diff_side_init(int nr_nodes, int pool_size)
{
	world_init(&world, nr_nodes, pool_size);
}

bool mlf_diff_side_apply(const struct mlf_op *op)
{
	bool applied;

	nr_visits = 0;
	mlf_walk_result_probe = note_visit;
	applied = world_apply(&world, op);
	mlf_walk_result_probe = NULL;
	return applied;
}

/* Where an unlinked lrugen's next points, as diff_side.h encodes it. */
static int link_of(const struct hlist_nulls_node *next)
{
	int owner, slot;

	if (!next)
		return MLF_DIFF_LINK_NULL;
	if (is_a_nulls(next))
		return MLF_DIFF_LINK_NULLS + (int)get_nulls_value(next);
	slot = world_lrugen_lookup(&world, next, &owner);
	return slot < 0 ? MLF_DIFF_LINK_UNKNOWN : slot;
}

static void snapshot_bin(struct mlf_diff_snapshot *s, int nid, int gen,
			 int bin)
{
	const struct hlist_nulls_node *pos =
		world.cs.nodes[nid].memcg_lru.fifo[gen][bin].first;
	int *ids = s->ids[nid][gen][bin];
	int len = 0, owner;

	while (!is_a_nulls(pos) && len <= world.cs.pool_size) {
		int slot = world_lrugen_lookup(&world, pos, &owner);

		ids[len++] = slot;
		if (slot < 0 || owner != nid)
			break;	/* not a live lrugen of this node: stop here */
		pos = pos->next;
	}
	s->len[nid][gen][bin] = len;
}

void mlf_diff_side_snapshot(struct mlf_diff_snapshot *s)
{
	int nid, gen, bin, i;

	s->nr_nodes = world.cs.nr_nodes;
	s->pool_size = world.cs.pool_size;
	for (nid = 0; nid < world.cs.nr_nodes; nid++) {
		const struct lru_gen_memcg *lru =
			&world.cs.nodes[nid].memcg_lru;

		s->seq[nid] = lru->seq;
		for (gen = 0; gen < MLF_DIFF_GENS; gen++) {
			s->nr_memcgs[nid][gen] = lru->nr_memcgs[gen];
			for (bin = 0; bin < MLF_DIFF_BINS; bin++)
				snapshot_bin(s, nid, gen, bin);
		}
	}
	for (i = 0; i < world.cs.pool_size; i++) {
		const struct mlf_slot *slot = &world.cs.slots[i];

		s->state[i] = slot->state;
		for (nid = 0; nid < world.cs.nr_nodes; nid++) {
			const struct lru_gen_folio *lrugen;

			s->unlinked[i][nid] = false;
			s->unlinked_next[i][nid] = 0;
			s->unlinked_pprev_null[i][nid] = false;
			if (!slot->memcg) {
				s->gen[i][nid] = s->seg[i][nid] = 0;
				continue;
			}
			lrugen = &get_lruvec(slot->memcg, nid)->lrugen;
			s->gen[i][nid] = lrugen->gen;
			s->seg[i][nid] = lrugen->seg;
			if (hlist_nulls_unhashed(&lrugen->list)) {
				s->unlinked[i][nid] = true;
				s->unlinked_next[i][nid] = link_of(lrugen->list.next);
				s->unlinked_pprev_null[i][nid] = !lrugen->list.pprev;
			}
		}
	}
	s->draws = world.last_draws;
	s->nr_reclaimed = world.last_nr_reclaimed;
	s->nr_scanned = world.last_nr_scanned;
	s->nr_visits = nr_visits;
	memcpy(s->visits, visits,
	       min(nr_visits, MLF_DIFF_MAX_VISITS) * sizeof(visits[0]));
}

void mlf_diff_side_finish(void)
{
	world_finish(&world);
}

void mlf_diff_side_destroy(void)
{
	world_destroy(&world);
	memset(&world, 0, sizeof(world));
}
