// SPDX-License-Identifier: GPL-2.0
/* The walk checks of a scheduled run (walk_checks.h). */
#include "walk_checks.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/*
 * Out of ThreadSanitizer's sight, like the linearization model they read
 * (lin.c): the harness looking on, ordered by the scheduler.
 */
#ifdef __clang__
#pragma clang attribute push(__attribute__((no_sanitize("thread"))), \
			     apply_to = function)
#endif

#define POOL_BITS 64

void mlf_walk_check_begin(struct mlf_walk_check *w, int nid, int task)
{
	memset(w, 0, sizeof(*w));
	w->nid = nid;
	w->task = task;
	w->bin = -1;
	w->last_nulls = -1;
	w->gen_read.slot = -1;
	w->gen_read.published = -1;
}

static const char *const event_names[] = {
	[MLF_WALK_START] = "start",	[MLF_WALK_BIN] = "bin",
	[MLF_WALK_NULLS] = "nulls",	[MLF_WALK_RESTART] = "restart",
	[MLF_WALK_VISIT] = "visit",	[MLF_WALK_TRYGET_FAILED] = "dying",
	[MLF_WALK_END] = "end",
};

/* The failure, with the walk's last events after the message. */
static bool fail(struct mlf_failure *f, const char *check,
		 const struct mlf_walk_check *w, int slot, const char *what)
{
	size_t len;
	unsigned int i, first = w->nr_log > 32 ? w->nr_log - 32 : 0;

	mlf_failure_at(f, check, w->nid, (int)w->gen, w->bin, slot);
	len = snprintf(f->msg, sizeof(f->msg), "%s; the walk:", what);
	for (i = first; i < w->nr_log && len < sizeof(f->msg); i++) {
		const typeof(w->log[0]) *e = &w->log[i % 32];

		if (e->slot >= 0)
			len += snprintf(f->msg + len, sizeof(f->msg) - len,
					" %lu:%s m%d", e->step,
					event_names[e->event], e->slot);
		else
			len += snprintf(f->msg + len, sizeof(f->msg) - len,
					" %lu:%s %ld", e->step,
					event_names[e->event], e->arg);
	}
	return false;
}

/*
 * Whether a critical section still open on the walk's node, which the model
 * has not seen yet, put memcg @slot into the walk's generation: the port
 * has it linked there, or it is between the unlink and the link of a
 * rotation that has already given it the walk's generation (the field a
 * walk compares) and that another task wrote since the walk's last event
 * (under the weak memory model, at any time: the walk may have come by a
 * link older than the unlink).
 */
static bool put_by_open_section(const struct mlf_walk_check *w,
				struct mlf_lin *lin, int slot)
{
	int gen, bin;
	bool linked;

	if (!mlf_lin_section_open(lin, w->nid) ||
	    !mlf_lin_port_where(lin, slot, w->nid, &gen, &bin, &linked) ||
	    gen != w->gen)
		return false;
	return linked || mlf_lin_touched_by_others(lin, slot, w->nid, w->task,
						   w->window_start) ||
	       (mlf_wmm_running() &&
		mlf_lin_touched_by_open_section(lin, slot, w->nid, w->task));
}

/*
 * Whether memcg @i was in the open pass's bin at some step of the pass:
 * met in it, there now, or left it since the pass began (which covers one
 * that was there when it began).
 */
static bool could_be_cursor(const struct mlf_walk_check *w,
			    const struct mlf_lin *lin, int i)
{
	const struct lin_memcg *m = mlf_lin_memcg(lin, i, w->nid);

	return (w->pass_met & (1ULL << i)) ||
	       (m->linked && m->gen == w->gen && m->bin == w->bin) ||
	       m->left_bin_at[w->gen][w->bin] >= w->pass_start;
}

/*
 * The step at which the link by which the walker came to @m was stored:
 * under the weak memory model the store its last load of a pointer to @m
 * read; under SC (or if none is found) the newest, so now.
 */
static unsigned long came_by(const struct mlf_walk_check *w,
			     const struct lin_memcg *m)
{
	struct mlf_wmm_read r;

	(void)w;
	if (mlf_wmm_last_load_of((uintptr_t)m->lrugen +
				 offsetof(struct lru_gen_folio, list), &r))
		return r.step;
	return ULONG_MAX;
}

/*
 * The pending read of a gen has taken effect (by @step): what was it
 * published with?
 */
static void resolve_gen_read(struct mlf_walk_check *w, struct mlf_lin *lin,
			     unsigned long step)
{
	const struct lin_memcg *m;
	struct mlf_wmm_read r;
	unsigned long link;
	int gen;

	if (!w->gen_read.pending)
		return;
	w->gen_read.pending = false;
	w->gen_read.done_at = step;
	w->gen_read.published = -1;
	m = mlf_lin_memcg(lin, w->gen_read.slot, w->nid);
	/*
	 * The gen store it read: the newest made so far under SC, and the
	 * list the memcg is in now the one to judge it by. Under the weak
	 * memory model the one its load read; if that was older than the
	 * newest, the walker saw an earlier state, in which the link it came
	 * by put the memcg in a list: that one.
	 */
	w->gen_read.stored_at = m->gen_stored_at;
	link = ULONG_MAX;
	if (mlf_wmm_running()) {
		if (!mlf_wmm_last_load((const u8 *)m->lrugen +
				       offsetof(struct lru_gen_folio, gen), &r))
			return;
		w->gen_read.stored_at = r.step;
		if (r.stale)
			link = came_by(w, m);
	}
	/* on no list, or a join older than the model keeps: no verdict */
	if (!mlf_lin_list_at(lin, w->gen_read.slot, w->nid, link, &gen,
			     &w->gen_read.joined_at) || gen < 0)
		return;
	/* stored since it joined: a move under way, gen first */
	if (w->gen_read.stored_at > w->gen_read.joined_at)
		return;
	w->gen_read.published = gen;
}

void mlf_walk_check_point(struct mlf_walk_check *w, struct mlf_lin *lin,
			  bool read, const void *addr, unsigned long step)
{
	size_t off;
	int slot, nid;

	if (!w->active)
		return;
	resolve_gen_read(w, lin, step);
	if (!read || !mlf_lin_lrugen_at(lin, addr, &slot, &nid, &off) ||
	    nid != w->nid || off != offsetof(struct lru_gen_folio, gen))
		return;
	w->gen_read.pending = true;
	w->gen_read.slot = slot;
	w->gen_read.published = -1;
	w->gen_read.step = step;
}

/*
 * Under the weak memory model: the walker came to memcg @slot by a link
 * stored while it sat in a list of the walk's generation (or so long ago
 * that the model no longer knows where it sat: no verdict).
 */
static bool came_in_gen(const struct mlf_walk_check *w,
			const struct mlf_lin *lin, int slot)
{
	unsigned long link, joined;
	int gen;

	if (!mlf_wmm_running())
		return false;
	link = came_by(w, mlf_lin_memcg(lin, slot, w->nid));
	if (link == ULONG_MAX)
		return false;
	return !mlf_lin_list_at(lin, slot, w->nid, link, &gen, &joined) ||
	       gen == w->gen;
}

/*
 * walk.gen's publication order: a visit of memcg @slot for the walk's
 * generation, after a read of its gen that found it linked in a list of
 * another generation with no store to its gen since it joined that list.
 * The kernel stores gen before it moves a memcg (lru_gen_rotate_memcg())
 * and before it links a new one (lru_gen_online_memcg()), so a walk that
 * reaches a memcg through its new links reads the gen that goes with
 * them and skips it; only a gen stored before the move can have matched.
 */
static bool gen_read_stale(const struct mlf_walk_check *w, int slot)
{
	return w->gen_read.slot == slot && w->gen_read.published >= 0 &&
	       w->gen_read.published != w->gen;
}

bool mlf_walk_check_event(struct mlf_walk_check *w, struct mlf_lin *lin,
			  enum mlf_walk_event event, long arg, int slot,
			  unsigned long step, struct mlf_failure *f)
{
	char what[480];
	int i;

	if (w->active || event == MLF_WALK_START) {
		typeof(w->log[0]) *e = &w->log[w->nr_log++ % 32];

		e->event = event;
		e->slot = (s8)slot;
		e->arg = arg;
		e->step = step;
	}
	switch (event) {
	case MLF_WALK_START:
		w->active = true;
		w->gen = arg;
		w->start_step = w->window_start = step;
		for (i = 0; i < lin->pool_size && i < POOL_BITS; i++) {
			const struct lin_memcg *m = mlf_lin_memcg(lin, i, w->nid);

			if (m->linked && m->gen == arg)
				w->start_set |= 1ULL << i;
		}
		return true;
	case MLF_WALK_BIN:
		if (!w->active)
			return true;
		w->stale_loads = mlf_wmm_stale_pointer_loads();
		if (w->pass_open)
			return fail(f, "walk.end", w, MLF_NONE,
				    "a pass over a bin began while the one before had not ended on a nulls marker (an abort that did not end the walk)");
		if (w->bin < 0) {
			w->first_bin = (int)arg;
		} else if (w->last_nulls != w->gen) {
			if (arg != w->bin) {
				snprintf(what, sizeof(what),
					 "the pass over bin %d ended on nulls %ld, not its generation %ld, but the walk went on to bin %ld instead of restarting",
					 w->bin, w->last_nulls, w->gen, arg);
				return fail(f, "walk.end", w, MLF_NONE, what);
			}
		} else if (arg != (w->bin + 1) % LIN_NR_BINS ||
			   arg == w->first_bin) {
			snprintf(what, sizeof(what),
				 "after bin %d (%d of %d done) the walk went on to bin %ld, not the next bin of its generation",
				 w->bin, w->bins_done, LIN_NR_BINS, arg);
			return fail(f, "walk.end", w, MLF_NONE, what);
		}
		w->bin = (int)arg;
		w->pass_open = true;
		w->window_start = w->pass_start = step;
		w->pass_met = 0;
		return true;
	case MLF_WALK_NULLS:
		if (!w->active)
			return true;
		/*
		 * The walk's cursor is any memcg that was in the pass's bin
		 * while the pass went on, met or skipped (another
		 * generation's: no event): if another task moved one, even
		 * to another bin of the same generation or to the tail of
		 * this one, the walk may have followed it and ended the pass
		 * on that list's nulls marker, which carries the generation
		 * only, not the bin.
		 */
		for (i = 0; i < lin->pool_size && i < POOL_BITS; i++)
			if (could_be_cursor(w, lin, i) &&
			    mlf_lin_touched_by_others(lin, i, w->nid, w->task,
						      w->pass_start))
				w->derailed |= 1u << w->bin;
		if (mlf_wmm_stale_pointer_loads() != w->stale_loads)
			w->stale |= 1u << w->bin;
		w->pass_open = false;
		w->last_nulls = arg;
		if (arg == w->gen)
			w->bins_done++;
		w->window_start = step;
		return true;
	case MLF_WALK_VISIT:
	case MLF_WALK_TRYGET_FAILED:
		if (!w->active)
			return true;
		/*
		 * A dying memcg that was released while the walk held it:
		 * another task moved it (out of every bin), and the walk may
		 * have followed it off the bin.
		 */
		if (slot < 0) {
			if (w->bin >= 0)
				w->derailed |= 1u << w->bin;
			return true;
		}
		if (event == MLF_WALK_VISIT) {
			const struct lin_memcg *m =
				mlf_lin_memcg(lin, slot, w->nid);

			w->visits++;
			resolve_gen_read(w, lin, step);
			if (gen_read_stale(w, slot)) {
				char last[40] = "one from before the run";

				if (w->gen_read.stored_at)
					snprintf(last, sizeof(last),
						 "the store of step %lu",
						 w->gen_read.stored_at);
				snprintf(what, sizeof(what),
					 "the walk of generation %ld shrank m%d, whose gen it read (its READ_ONCE at step %lu, loaded by step %lu: %s) by a link that put m%d in a list of generation %d, which it joined at step %lu, after that store: it went by a gen published before the move that brought m%d there",
					 w->gen, slot, w->gen_read.step,
					 w->gen_read.done_at, last, slot,
					 w->gen_read.published,
					 w->gen_read.joined_at, slot);
				return fail(f, "walk.gen", w, slot, what);
			}

			/*
			 * In the walk's generation now, or left it lately,
			 * or put there by a section still open, or (under
			 * the weak memory model) in the list the link the
			 * walker came by put it in.
			 */
			if (!(m->linked && m->gen == w->gen) &&
			    m->left_at[w->gen] < w->window_start &&
			    !put_by_open_section(w, lin, slot) &&
			    !came_in_gen(w, lin, slot)) {
				snprintf(what, sizeof(what),
					 "the walk of generation %ld shrank m%d, which is %s and left generation %ld at step %lu, before the walk met it (since step %lu)",
					 w->gen, slot,
					 m->linked ? "in another generation" :
						     "unlinked",
					 w->gen, m->left_at[w->gen],
					 w->window_start);
				return fail(f, "walk.gen", w, slot, what);
			}
		}
		if (slot < POOL_BITS) {
			w->met |= 1ULL << slot;
			w->pass_met |= 1ULL << slot;
		}
		w->window_start = step;
		return true;
	case MLF_WALK_RESTART:
	case MLF_WALK_END:
		return true;
	}
	return true;
}

bool mlf_walk_check_end(struct mlf_walk_check *w, struct mlf_lin *lin,
			bool aborted, struct mlf_failure *f)
{
	char what[300];
	int i;

	if (!w->active)
		return true;
	w->active = false;
	if (w->pass_open) {
		/* the last pass ended on an entry: an abort */
		if (aborted)
			return true;
		return fail(f, "walk.end", w, MLF_NONE,
			    "the walk ended in the middle of a pass although its target was not met");
	}
	if (w->last_nulls != w->gen) {
		snprintf(what, sizeof(what),
			 "the walk ended after a pass that ended on nulls %ld, not its generation %ld, without restarting",
			 w->last_nulls, w->gen);
		return fail(f, "walk.end", w, MLF_NONE, what);
	}
	if ((w->bin + 1) % LIN_NR_BINS != w->first_bin) {
		snprintf(what, sizeof(what),
			 "the walk ended after bin %d, not the bin before its first (%d)",
			 w->bin, w->first_bin);
		return fail(f, "walk.end", w, MLF_NONE, what);
	}
	/*
	 * A section still open on the node, which the model has not seen,
	 * moved only memcgs it wrote to (unlinking one writes its links, and
	 * so does moving a neighbour's): those are exempt, the others stayed
	 * where the model has them.
	 */
	for (i = 0; i < lin->pool_size && i < POOL_BITS; i++) {
		const struct lin_memcg *m = mlf_lin_memcg(lin, i, w->nid);


		if (!(w->start_set & (1ULL << i)) || (w->met & (1ULL << i)))
			continue;
		/* moved, or unlinked for a while by another's rotation */
		if (m->moved_at >= w->start_step ||
		    mlf_lin_touched_by_others(lin, i, w->nid, w->task,
					      w->start_step) ||
		    mlf_lin_touched_by_open_section(lin, i, w->nid, w->task))
			continue;
		if ((w->derailed | w->stale) & (1u << m->bin))
			continue;
		snprintf(what, sizeof(what),
			 "the walk of generation %ld ended without abort but never met m%d, which sat in fifo[%d][%d] for the whole walk (steps %lu to now)",
			 w->gen, i, m->gen, m->bin, w->start_step);
		return fail(f, "walk.complete", w, i, what);
	}
	return true;
}

#ifdef __clang__
#pragma clang attribute pop
#endif
