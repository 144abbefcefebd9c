// SPDX-License-Identifier: GPL-2.0
/*
 * The concurrent engine's checks at quiescence, when the threads have
 * stopped: conservation (every live memcg linked exactly once per node,
 * nothing else linked, no reference leaked), then seq.monotonic and every
 * structure check of src/check/ on the world the slots describe.
 */
#include "stress_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/checks.h"

static const char *const state_names[] = {
	[CS_EMPTY] = "empty",	     [CS_ONLINING] = "onlining",
	[CS_ONLINE] = "online",	     [CS_OFFLINING] = "offlining",
	[CS_OFFLINE] = "offline",    [CS_RELEASING] = "releasing",
};

void stress_fail_conservation(int nid, int gen, int bin, int memcg,
			    const char *fmt, ...)
{
	struct mlf_failure f;
	va_list ap;

	mlf_failure_at(&f, "conservation", nid, gen, bin, memcg);
	va_start(ap, fmt);
	vsnprintf(f.msg, sizeof(f.msg), fmt, ap);
	va_end(ap);
	mlf_fail(&f);
}

static int *seen_count;
static int seen_cap;

static int slot_of_node(int nid, const struct hlist_nulls_node *pos)
{
	const struct lruvec *lruvec =
		container_of(pos, struct lruvec, lrugen.list);
	int i;

	/* compare addresses only: @pos may be anything */
	for (i = 0; i < stress_cfg.pool_size; i++)
		if (stress_slots[i].memcg &&
		    get_lruvec(stress_slots[i].memcg, nid) == lruvec)
			return i;
	return -1;
}

/*
 * Count in seen_count[] the slots whose lrugens fifo[@gen][@bin] of @nid
 * holds; false (after the failure) at a cycle or at a node no live memcg
 * owns.
 */
static bool count_bin(int nid, int gen, int bin)
{
	const struct hlist_nulls_node *pos =
		stress_lru_world.cs.nodes[nid].memcg_lru.fifo[gen][bin].first;
	int k = 0;

	for (; !is_a_nulls(pos); pos = pos->next, k++) {
		int slot;

		if (k > stress_cfg.pool_size) {
			stress_fail_conservation(nid, gen, bin, MLF_NONE,
					       "fifo[%d][%d] has more entries than the pool (%d): a cycle",
					       gen, bin, stress_cfg.pool_size);
			return false;
		}
		slot = slot_of_node(nid, pos);
		if (slot < 0) {
			stress_fail_conservation(nid, gen, bin, MLF_NONE,
					       "fifo[%d][%d] entry %d (%p) is the lrugen of no live memcg: a released or freed memcg is still linked",
					       gen, bin, k, (void *)pos);
			return false;
		}
		seen_count[slot]++;
	}
	return true;
}

/* Each live memcg sits exactly once on every node; nothing else does. */
static void check_conservation(void)
{
	int nid, gen, bin, i;

	if (stress_cfg.pool_size > seen_cap) {
		free(seen_count);
		seen_count = calloc(stress_cfg.pool_size, sizeof(*seen_count));
		if (!seen_count)
			abort();
		seen_cap = stress_cfg.pool_size;
	}
	for (i = 0; i < stress_cfg.pool_size; i++) {
		struct mem_cgroup *memcg = stress_slots[i].memcg;
		int state = stress_slots[i].state;
		long refs;

		if (state != CS_ONLINE && state != CS_EMPTY)
			stress_fail_conservation(MLF_NONE, MLF_NONE, MLF_NONE, i,
					       "m%d is %s at quiescence with %ld references (a reference was leaked)",
					       i, state_names[state],
					       memcg ? stress_memcg_refs(memcg) :
						       0);
		if (!memcg)
			continue;
		refs = stress_memcg_refs(memcg);
		if (refs != 1)
			stress_fail_conservation(MLF_NONE, MLF_NONE, MLF_NONE, i,
					       "online m%d holds %ld references at quiescence, not 1",
					       i, refs);
	}

	for (nid = 0; nid < stress_cfg.nr_nodes; nid++) {
		memset(seen_count, 0, stress_cfg.pool_size * sizeof(*seen_count));
		for (gen = 0; gen < MEMCG_NR_GENS; gen++)
			for (bin = 0; bin < MEMCG_NR_BINS; bin++)
				if (!count_bin(nid, gen, bin))
					return;
		for (i = 0; i < stress_cfg.pool_size; i++) {
			if (!stress_slots[i].memcg || seen_count[i] == 1)
				continue;
			stress_fail_conservation(nid, MLF_NONE, MLF_NONE, i,
					       "live m%d is linked %d times on node %d, not once",
					       i, seen_count[i], nid);
		}
	}
}

void stress_check(void)
{
	struct mlf_check_state *cs = &stress_lru_world.cs;
	struct mlf_failure f;
	int i, nid;

	mlf_current_op = MLF_NONE;
	/* what died and was not claimed yet: the quiescent cleanup claims it */
	for (i = 0; i < stress_cfg.pool_size; i++)
		stress_try_release(i);
	stress_stats_flush();

	check_conservation();

	for (i = 0; i < stress_cfg.pool_size; i++) {
		cs->slots[i].memcg = stress_slots[i].memcg;
		cs->slots[i].state =
			stress_slots[i].memcg ? SLOT_ONLINE : SLOT_EMPTY;
		cs->slots[i].refs = 0;
	}
	mlf_lrugen_map_fill(&cs->map, cs->slots, cs->pool_size, cs->nr_nodes);
	for (nid = 0; nid < stress_cfg.nr_nodes; nid++) {
		cs->seq_before[nid] = stress_seq_start[nid];
		if (!check_seq_monotonic(cs, nid, &f) ||
		    !check_structure(cs, nid, &f))
			mlf_fail(&f);
		stress_seq_start[nid] = cs->nodes[nid].memcg_lru.seq;
	}
}
