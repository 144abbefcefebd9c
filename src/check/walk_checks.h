/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a reclaim walk (shrink_many()) must do when others change the lists
 * under it, judged from the walk's events (kernel/trace.h) against the
 * linearization model (lin.h), which knows where every memcg was at every
 * step (but for a critical section still open on the node, whose changes
 * it has not seen: there the port's own state is taken):
 *
 *   walk.gen       a walk shrinks only memcgs that were in its generation
 *                  when it met them (at some step since its previous event,
 *                  or, under the weak memory model, in the list the link
 *                  it followed to them put them in), and only for a gen
 *                  value published before the move that brought the
 *                  memcg where the walk read it: the gen store the walk
 *                  read is older than the memcg's join of the list that
 *                  link put it in (its last join before the link was
 *                  stored; under SC, its last join) of another generation
 *   walk.end       a pass over a bin ends on its own generation's nulls
 *                  marker (then the walk goes on to the next bin, or ends
 *                  after the last), on another generation's (then it
 *                  restarts the same bin), or on an entry, by abort (then
 *                  the walk ends, and only if its target was met)
 *   walk.complete  a walk that ends without abort has met (visited, or
 *                  found dying) every memcg that was in its generation when
 *                  it began and that no other task moved (or rotated back
 *                  to where it was) while it went on, but for the
 *                  bins a pass was derailed from: when another task moves
 *                  the entry a walk stands on to another bin of the same
 *                  generation, the walk follows it there, ends that pass
 *                  on a nulls marker of its own generation and goes on to
 *                  the next bin, leaving the rest of the bin unmet. The
 *                  kernel's design accepts that (nulls values tell
 *                  generations apart, not bins); this check does too.
 *                  With a critical section of another task still open on
 *                  the node at the end, the memcgs that section wrote to
 *                  are exempt too (the model has not seen where it put
 *                  them); the others are judged all the same. Under the
 *                  weak memory model so are the bins a pass over which
 *                  read a link older than the newest (wmm.h): it may have
 *                  followed the list as it was before.
 *
 * Under the weak memory model they judge what the walker read (the stores
 * its loads read, wmm.h), which with every load reading the newest store
 * is what they judge under SC.
 */
#ifndef _MLF_CHECK_WALK_CHECKS_H
#define _MLF_CHECK_WALK_CHECKS_H

#include "kernel/trace.h"
#include "lin.h"

struct mlf_walk_check {
	bool active;
	int nid;
	int task;			/* the walker */
	long gen;
	unsigned long start_step, window_start;
	int first_bin, bin;		/* the bin of the open pass, or -1 */
	int bins_done;			/* passes ended on the walk's nulls */
	bool pass_open;			/* a BIN with no NULLS yet */
	long last_nulls;		/* -1: the last pass ended on an entry */
	u64 start_set;			/* slots in gen at the start */
	u64 met;			/* slots visited or found dying */
	u64 pass_met;			/* ... in the open pass */
	unsigned long pass_start;
	u8 derailed;			/* bins a pass left early (below) */
	/*
	 * Under the weak memory model: bins a pass over which read a link
	 * older than the newest (wmm.h), and the walker's count of such
	 * loads when the open pass began
	 */
	u8 stale;
	unsigned long stale_loads;
	/*
	 * The walk's last read of a memcg's gen (shrink_many()'s skip test):
	 * pending from its scheduling point until the walk's next point, when
	 * the load has happened; then the generation that gen was published
	 * with (mlf_lin_published_gen()), or -1.
	 */
	struct {
		bool pending;
		int slot;
		int published;
		/*
		 * its point, the point by which the load was done, the list
		 * join the link it came by goes with, the gen store it read
		 */
		unsigned long step, done_at, joined_at, stored_at;
	} gen_read;
	/* the walk's last events, for a report */
	struct {
		u8 event;
		s8 slot;
		long arg;
		unsigned long step;
	} log[32];
	unsigned int nr_log;
	unsigned long visits;
};

/* A walk of node @nid by @task begins (before shrink_many()). */
void mlf_walk_check_begin(struct mlf_walk_check *w, int nid, int task);
/*
 * One event of the walk at @step. @slot: the pool slot of the event's
 * memcg (VISIT, TRYGET_FAILED), else -1. False and @f on a failure.
 */
bool mlf_walk_check_event(struct mlf_walk_check *w, struct mlf_lin *lin,
			  enum mlf_walk_event event, long arg, int slot,
			  unsigned long step, struct mlf_failure *f);
/*
 * The walk's task reached a scheduling point at @step: a read of a gen it
 * made at its previous point took effect. Then, if this point is a read
 * (READ_ONCE) of @addr outside any lock, note it if @addr is an lrugen's
 * gen field (@read false: not a read).
 */
void mlf_walk_check_point(struct mlf_walk_check *w, struct mlf_lin *lin,
			  bool read, const void *addr, unsigned long step);
/*
 * The walk returned; @aborted: should_abort_scan() held (the target was
 * met). False and @f on a failure.
 */
bool mlf_walk_check_end(struct mlf_walk_check *w, struct mlf_lin *lin,
			bool aborted, struct mlf_failure *f);

#endif
