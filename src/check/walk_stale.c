// SPDX-License-Identifier: GPL-2.0
/* The check walk.stale_young of a scheduled run (walk_stale.h). */
#include "walk_stale.h"

#include "mm/mmzone.h"

void mlf_walk_stale_begin(struct mlf_walk_stale *w, int nid,
			  unsigned long seq)
{
	w->nid = nid;
	w->seq_begin = seq;
	w->gen = -1;
}

bool mlf_walk_stale_young(int nr_gens, unsigned long seq_begin, long gen,
			  unsigned long seq_now, int memcg_gen)
{
	long young = (long)((seq_now + 1) % nr_gens);

	/*
	 * The walk read some seq s with seq_begin <= s <= seq_now and walks
	 * s % nr_gens. With seq_now - s at most one, that is old or, stale,
	 * (seq_now - 1) % nr_gens: young only if nr_gens is 2 (or 1).
	 */
	return seq_now - seq_begin <= 1 && gen == young && memcg_gen == young;
}

bool mlf_walk_stale_event(struct mlf_walk_stale *w, enum mlf_walk_event event,
			  long arg, int slot, int memcg_gen,
			  unsigned long seq_now, struct mlf_failure *f)
{
	if (event == MLF_WALK_START) {
		w->gen = arg;
		return true;
	}
	if (event != MLF_WALK_VISIT || w->gen < 0 ||
	    !mlf_walk_stale_young(MEMCG_NR_GENS, w->seq_begin, w->gen, seq_now,
				  memcg_gen))
		return true;
	mlf_failure_at(f, "walk.stale_young", w->nid, (int)w->gen, MLF_NONE,
		       slot >= 0 ? slot : MLF_NONE);
	mlf_failure_msg(f,
		"the walk of generation %ld shrank m%d, a memcg of the young generation: seq was %lu when the walk began and is %lu now, and %ld = (%lu + 1) %% %d is young; a walk that read seq since it began walks the old generation or, one advance stale, one no memcg is in, unless the stale seq wraps around to young",
		w->gen, slot, w->seq_begin, seq_now, w->gen, seq_now,
		MEMCG_NR_GENS);
	return false;
}
