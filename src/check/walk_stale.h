/* SPDX-License-Identifier: GPL-2.0 */
/*
 * walk.stale_young: a reclaim walk never shrinks the young generation
 * because the seq it read went stale.
 *
 * shrink_many() reads memcg_lru.seq once, locklessly, and walks generation
 * seq % MEMCG_NR_GENS. Others may advance seq meanwhile. The design comment
 * above MEMCG_NR_GENS: "There are only two valid generations: old (seq) and
 * young (seq+1). MEMCG_NR_GENS is set to three so that when reading the
 * generation counter locklessly, a stale value (seq-1) does not wraparound
 * to young." So: when seq has moved on by at most one since the walk began,
 * the generation the walk reads is the old one or the unused one, never the
 * young one, and the walk shrinks no memcg of the young generation, which
 * has just been aged (8aa420617918, "mm/mglru: respect min_ttl_ms with
 * memcgs"). After two advances its generation may be young again by
 * design: the check says nothing then.
 *
 * Judged at each VISIT of a scheduled run (sched_engine.c) from seq as the
 * harness read it before shrink_many() began, seq now, the walk's
 * generation (its START event) and the visited memcg's lrugen.gen.
 */
#ifndef _MLF_CHECK_WALK_STALE_H
#define _MLF_CHECK_WALK_STALE_H

#include "kernel/report.h"
#include "kernel/trace.h"

struct mlf_walk_stale {
	int nid;
	unsigned long seq_begin;	/* seq before shrink_many() began */
	long gen;			/* the walk's generation, -1 before START */
};

/* A walk of node @nid begins; @seq: the node's seq, read before it. */
void mlf_walk_stale_begin(struct mlf_walk_stale *w, int nid,
			  unsigned long seq);

/*
 * Whether a walk of generation @gen that began at @seq_begin, shrinking a
 * memcg whose lrugen.gen is @memcg_gen while the node's seq is @seq_now,
 * shrinks the young generation through a stale seq, with @nr_gens
 * generations. The rule alone, for the unit tests.
 */
bool mlf_walk_stale_young(int nr_gens, unsigned long seq_begin, long gen,
			  unsigned long seq_now, int memcg_gen);

/*
 * One event of the walk: START (@arg: its generation) and VISIT (@slot:
 * the memcg's pool slot, @memcg_gen its lrugen.gen, @seq_now the node's
 * seq). False and @f on a failure.
 */
bool mlf_walk_stale_event(struct mlf_walk_stale *w, enum mlf_walk_event event,
			  long arg, int slot, int memcg_gen,
			  unsigned long seq_now, struct mlf_failure *f);

#endif
