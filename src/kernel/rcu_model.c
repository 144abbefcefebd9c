// SPDX-License-Identifier: GPL-2.0
/*
 * RCU modelled by the scheduler (rcu_model.h): grace periods, callbacks,
 * the quarantine of freed memory and the checks on them. Like the rest of
 * the scheduler, out of ThreadSanitizer's sight except for the
 * happens-before it hands on deliberately (mlf_tsan_acquire / _release).
 */
#include "rcu_model.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poison.h"
#include "report.h"
#include "sanitizer.h"
#include "wmm.h"

#define MAX_TASKS (MLF_SCHED_MAX_TASKS + 1)

struct grace_period {
	unsigned long start;		/* step it began at */
	unsigned long clock;		/* R.clock when it began */
	/* the tasks inside a section at the start, with their exits then */
	int nr_inside;
	struct mlf_task *inside[MAX_TASKS];
	unsigned long exits_then[MAX_TASKS];
	/* of those, the ones still inside (the model's own bookkeeping) */
	unsigned int waiting;		/* bit i: inside[i] still inside */
	bool done;
	/* call_rcu: the callback, ready once done */
	struct callback_head *head;
	void (*func)(struct callback_head *head);
	bool ran;
	/*
	 * ThreadSanitizer: the grace period's sync object (the caller's
	 * release at the start, each waited-for reader's at its exit), the
	 * other tasks' exits before the start (their last one's token), and
	 * the callback's release when it has run (for rcu_barrier())
	 */
	long token;
	int nr_past;
	struct mlf_task *past[MAX_TASKS];
	unsigned long past_exits[MAX_TASKS];
	long ran_token;
};

struct quarantined {
	char *ptr;
	size_t size;
	unsigned long freed_at;		/* step */
	/* the grace period the free waited for, or none (a direct free) */
	bool after_gp;
	unsigned long gp_start;
	int freed_by;			/* task index */
};

/* A node unlinked from an RCU list and not linked again since. */
struct unlinked {
	const void *node;
	unsigned long clock;		/* R.clock at the unlink */
	unsigned long step;
	int by;				/* task index */
};

static struct {
	/* orders unlinks and grace-period starts within a step */
	unsigned long clock;
	struct unlinked *unl;
	int nr_unl, cap_unl;
	/* each on its own allocation: waiters block on its address */
	struct grace_period **gps;
	int nr_gps, cap_gps, nr_pending;
	int next_ready;			/* callbacks run in call order */
	struct quarantined *q;		/* sorted by ptr */
	int nr_q, cap_q;
	/* rcu's task: the grace period of the callback it runs, or -1 */
	int running_cb;
	unsigned long grace_periods, callbacks;
} R;

#ifdef MLF_TSAN
/* the run of the dependency table's entries (below): a new run, none */
static unsigned long dep_gen;
#endif

#ifdef MLF_SCHED_FEEDBACK
/*
 * What libFuzzer sees of the RCU model (its extra counters, beside the
 * scheduler's interleavings): how many readers a grace period began with,
 * how many it still waited for when one of them left, how many were
 * inside at a free and at a callback. Code coverage is the same whether
 * zero readers or three overlap a grace period; these keep the inputs
 * that make them overlap more.
 */
enum rcu_event { GP_BEGAN, READER_LEFT, FREED, CALLBACK_RAN, NR_RCU_EVENTS };
#define RCU_FEEDBACK_PER_EVENT 16
__attribute__((section("__libfuzzer_extra_counters"), used)) static u8
	rcu_feedback[NR_RCU_EVENTS * RCU_FEEDBACK_PER_EVENT];

MLF_NO_TSAN static void rcu_note(enum rcu_event event, int n)
{
	u8 *c = &rcu_feedback[event * RCU_FEEDBACK_PER_EVENT +
			      min(n, RCU_FEEDBACK_PER_EVENT - 1)];

	if (*c != 0xff)
		(*c)++;
}
#else
#define rcu_note(event, n) ((void)(n))
#endif

/* Tasks inside a read-side critical section now. */
MLF_NO_TSAN static int nr_readers_inside(void)
{
	int i, n = 0;

	for (i = 0; i <= mlf_sched_nr_tasks(); i++)
		n += mlf_sched_task_at(i)->rcu_read_depth > 0;
	return n;
}

/* The model's own tables: every task grows them, out of TSan's sight. */
MLF_NO_TSAN static void *grow(void *buf, int *cap, int want, size_t size)
{
	if (want <= *cap)
		return buf;
	*cap = want < 16 ? 16 : want * 2;
	return mlf_realloc_unseen(buf, *cap * size);
}

MLF_NO_TSAN void mlf_rcu_model_begin(void)
{
#ifdef MLF_TSAN
	dep_gen++;		/* every entry of the last run is gone */
#endif
	R.nr_gps = 0;
	R.next_ready = 0;
	R.nr_q = 0;
	R.nr_unl = 0;
	R.clock = 0;
	R.running_cb = -1;
	R.grace_periods = R.callbacks = 0;
}

/*
 * What the future of a run depends on: the grace periods not yet over or
 * whose callback has not run, whom each still waits for, the callback
 * running. (The quarantine follows from the frees, which the harness's
 * share of the hash shows.)
 */
MLF_NO_TSAN u64 mlf_rcu_model_hash(void)
{
	u64 h = 0x9ae16a3b2f90404fULL;
	int i;

#define HASH(v) (h = (h ^ (u64)(v)) * 0x100000001b3ULL)
	for (i = 0; i < R.nr_gps; i++) {
		const struct grace_period *gp = R.gps[i];

		if (gp->done && (!gp->head || gp->ran))
			continue;
		HASH(i);
		HASH(gp->waiting);
		HASH(gp->done);
		HASH(gp->head != NULL);
	}
	HASH(R.nr_pending);
	HASH(R.running_cb);
#undef HASH
	return h;
}

/*
 * rcu.poison: a quarantined block still holds the poison it got at its
 * free, every byte. A write after the free that took no scheduling point
 * (a plain store through a pointer kept too long) changed it, and nothing
 * else would see it without ASan. Like SLUB's "Poison overwritten".
 */
MLF_NO_TSAN static void check_poison(const struct quarantined *q)
{
	size_t i, first, last;
	char by[16];

	for (i = 0; i < q->size; i++)
		if (q->ptr[i] != (char)MLF_FREE_POISON)
			break;
	if (i == q->size)
		return;
	first = last = i;
	for (; i < q->size; i++)
		if (q->ptr[i] != (char)MLF_FREE_POISON)
			last = i;
	if (q->freed_by < 0)
		snprintf(by, sizeof(by), "rcu");
	else
		snprintf(by, sizeof(by), "t%d", q->freed_by);
	mlf_fail_simple("rcu.poison",
			"Poison overwritten: bytes %zu to %zu of a %zu-byte "
			"object at %p, freed at step %lu by %s %s, are no longer "
			"%#x at the end of the run (byte %zu is %#x): a write "
			"after the free that no scheduling point saw",
			first, last, q->size, (void *)q->ptr, q->freed_at, by,
			q->after_gp ? "after a grace period" :
				      "with no grace period",
			MLF_FREE_POISON, first, (u8)q->ptr[first]);
}

MLF_NO_TSAN void mlf_rcu_model_end(struct mlf_sched_stats *stats)
{
	int i;

	for (i = 0; i < R.nr_q; i++) {
		mlf_asan_unpoison(R.q[i].ptr, R.q[i].size);
		check_poison(&R.q[i]);
	}
	for (i = 0; i < R.nr_q; i++)
		free(R.q[i].ptr);
	R.nr_q = 0;
	for (i = 0; i < R.nr_gps; i++)
		free(R.gps[i]);
	R.nr_gps = 0;
	stats->grace_periods = R.grace_periods;
	stats->callbacks = R.callbacks;
}

/* ---- grace periods ---- */

/*
 * rcu.gp: an independent look at a grace period that the model ended:
 * every task inside at its start has left a section since (its own exit
 * count moved on), whatever the waiting set says.
 */
MLF_NO_TSAN static void check_gp_over(const struct grace_period *gp,
				      const char *check, const char *what)
{
	int i;

	for (i = 0; i < gp->nr_inside; i++) {
		const struct mlf_task *t = gp->inside[i];

		if (t->rcu_exits > gp->exits_then[i])
			continue;
		mlf_fail_simple(check,
				"%s the grace period that began at step %lu "
				"ended, but task %lu, inside a read-side "
				"critical section since step %lu, has not left "
				"it",
				what, gp->start, t->id, t->rcu_section_start);
	}
}

MLF_NO_TSAN static void gp_complete(struct grace_period *gp)
{
	gp->done = true;
	R.nr_pending--;
	R.grace_periods++;
	{
		char when[32];

		snprintf(when, sizeof(when), "at step %lu", mlf_sched_step());
		check_gp_over(gp, "rcu.gp", when);
	}
	if (gp->func)
		mlf_sched_callback_ready();
	else
		mlf_sched_wake(gp);
}

/* A new grace period from now, for the current task. */
MLF_NO_TSAN static struct grace_period *gp_start(bool strong)
{
	struct mlf_task *self = mlf_current();
	struct grace_period *gp;
	int i, n = mlf_sched_nr_tasks();

	R.gps = grow(R.gps, &R.cap_gps, R.nr_gps + 1, sizeof(*R.gps));
	gp = calloc(1, sizeof(*gp));
	if (!gp)
		abort();
	mlf_sched_rcu_step(true);
	R.gps[R.nr_gps++] = gp;
	R.nr_pending++;
	gp->start = mlf_sched_step();
	gp->clock = ++R.clock;
	for (i = 0; i <= n; i++) {
		struct mlf_task *t = mlf_sched_task_at(i);

		if (t->rcu_read_depth > 0) {
			gp->waiting |= 1u << gp->nr_inside;
			gp->exits_then[gp->nr_inside] = t->rcu_exits;
			gp->inside[gp->nr_inside++] = t;
		} else if (t != self && t->rcu_exits) {
			/*
			 * Its sections so far are over: they happen before
			 * the grace period's end, so before the waiter's
			 * return and the callback, which acquire them then
			 * (gp_acquire()); not before what the caller of
			 * call_rcu() does next, which the kernel leaves
			 * unordered with them.
			 */
			gp->past_exits[gp->nr_past] = t->rcu_exits;
			gp->past[gp->nr_past++] = t;
		}
	}
	rcu_note(GP_BEGAN, gp->nr_inside);
	/*
	 * What the caller did so far happens before the grace period's end
	 * (for call_rcu(), before the callback: the kernel's call_rcu()
	 * comment on the memory barriers of both sides)
	 */
	mlf_tsan_release(&gp->token);
	mlf_wmm_gp_begin(gp, strong);
	return gp;
}

/*
 * The happens-before the end of @gp gives its waiter (after
 * synchronize_rcu()) or its callback, and only that: the caller's code
 * before the grace period began, the exits of the readers it waited for,
 * and every section the other tasks had left when it began. A task that
 * left more than MLF_TSAN_RING sections since has its token of then
 * reused by a later exit, whose release covers it (and more: this can
 * only hide a race, never report one).
 */
MLF_NO_TSAN static void gp_acquire(const struct grace_period *gp)
{
	int i;

	mlf_tsan_acquire(&gp->token);
	for (i = 0; i < gp->nr_past; i++)
		mlf_tsan_acquire(&gp->past[i]->rcu_exit_tokens
					[gp->past_exits[i] % MLF_TSAN_RING]);
}

MLF_NO_TSAN void mlf_rcu_model_read_lock(void)
{
	struct mlf_task *t = mlf_current();

	if (!t->rcu_read_depth++) {
		t->rcu_section_start = mlf_sched_step();
		mlf_wmm_rcu_read_lock();
	}
}

MLF_NO_TSAN void mlf_rcu_model_read_unlock(void)
{
	struct mlf_task *t = mlf_current();
	int g, i;

	if (--t->rcu_read_depth)
		return;
	/* a grace period under way may wait for this exit */
	if (R.nr_pending)
		mlf_sched_rcu_step(true);
	t->rcu_exits++;
	mlf_wmm_rcu_read_unlock();
	/* this exit, for the grace periods that begin after it */
	mlf_tsan_release(&t->rcu_exit_tokens[t->rcu_exits % MLF_TSAN_RING]);
	for (g = 0; g < R.nr_gps && R.nr_pending; g++) {
		struct grace_period *gp = R.gps[g];

		if (gp->done)
			continue;
		for (i = 0; i < gp->nr_inside; i++) {
			if (gp->inside[i] != t || !(gp->waiting & (1u << i)))
				continue;
			gp->waiting &= ~(1u << i);
			mlf_tsan_release(&gp->token);
			mlf_wmm_gp_reader_left(gp);
			rcu_note(READER_LEFT, __builtin_popcount(gp->waiting));
		}
		if (!gp->waiting)
			gp_complete(gp);
	}
}

MLF_NO_TSAN void mlf_rcu_model_synchronize(void)
{
	struct grace_period *gp = gp_start(true);

	if (!gp->waiting)
		gp_complete(gp);
	while (!gp->done)
		mlf_sched_block(MLF_WAIT_GP, gp);
	gp_acquire(gp);
	mlf_wmm_gp_over(gp);
}

MLF_NO_TSAN void mlf_rcu_model_call(struct callback_head *head,
				    void (*func)(struct callback_head *head))
{
	struct grace_period *gp = gp_start(false);

	gp->head = head;
	gp->func = func;
	if (!gp->waiting)
		gp_complete(gp);
}

/* Runs in rcu's task: the oldest callback whose grace period is over. */
MLF_NO_TSAN bool mlf_rcu_model_run_callback(void)
{
	int g;

	for (g = 0; g < R.nr_gps; g++) {
		struct grace_period *gp = R.gps[g];

		if (!gp->func || gp->ran || !gp->done)
			continue;
		gp->ran = true;
		R.callbacks++;
		rcu_note(CALLBACK_RAN, nr_readers_inside());
		check_gp_over(gp, "rcu.cb_early", "a call_rcu callback ran:");
		gp_acquire(gp);
		mlf_wmm_gp_over(gp);
		R.running_cb = g;
		gp->func(gp->head);
		R.running_cb = -1;
		/*
		 * What the callback did happens before the return of an
		 * rcu_barrier() that waited for it, and nothing else: not
		 * before later grace periods' callers.
		 */
		mlf_tsan_release(&gp->ran_token);
		mlf_sched_wake(&gp->ran);
		return true;
	}
	return false;
}

/* rcu_barrier(): wait until every callback queued so far has run. */
MLF_NO_TSAN void mlf_rcu_model_barrier(void)
{
	int last = R.nr_gps, g;

	for (g = 0; g < last; g++) {
		struct grace_period *gp = R.gps[g];

		while (gp->func && !gp->ran)
			mlf_sched_block(MLF_WAIT_BARRIER, &gp->ran);
		if (gp->func)
			mlf_tsan_acquire(&gp->ran_token);
	}
}

MLF_NO_TSAN void mlf_rcu_model_task_done(void)
{
	struct mlf_task *t = mlf_current();

	if (t->rcu_read_depth)
		mlf_fail_simple("rcu.unbalanced",
				"a task ended inside a read-side critical "
				"section (depth %d)",
				t->rcu_read_depth);
}

/* ---- dependency ordering, for ThreadSanitizer ---- */

/*
 * A reader standing on a node that a writer moves follows the node's new
 * ->next, stored with WRITE_ONCE() under the node lock, into a node the
 * reader never acquired the publication of (maybe onlined a moment ago).
 * The kernel orders that by the LKMM's acq-po ; rfe ; addr: what happened
 * before the writer took its lock happens before the reader's loads that
 * depend on the pointer. ThreadSanitizer knows no dependencies; a release
 * store would give it the writer's whole clock at the store, the
 * section's own plain accesses before the store included, which the
 * kernel does not order. So a locked WRITE_ONCE_DEP() store notes the
 * writer's clock when it took the lock (a sync object per acquisition,
 * mlf_task.lock_snapshots), and a dependent load of that location
 * acquires it. A table per run, by address; an rcu_assign_pointer() to
 * a location ends its entry (the release carries the ordering itself).
 */
#ifdef MLF_TSAN
#define DEP_TABLE 8192		/* a power of two: a run's next pointers */

static struct dep_entry {
	const volatile void *addr;
	long *token;		/* the writer's lock snapshot, or NULL */
	unsigned long gen;	/* valid in run R.dep_gen only */
} dep_table[DEP_TABLE];

MLF_NO_TSAN static struct dep_entry *dep_find(const volatile void *p,
					      bool insert)
{
	size_t h = (size_t)(((uintptr_t)p >> 3) * 0x9e3779b97f4a7c15ULL >> 51);
	int n;

	for (n = 0; n < DEP_TABLE; n++, h = (h + 1) & (DEP_TABLE - 1)) {
		struct dep_entry *e = &dep_table[h];

		if (e->gen != dep_gen) {
			if (!insert)
				return NULL;
			e->gen = dep_gen;
			e->addr = p;
			e->token = NULL;
			return e;
		}
		if (e->addr == p)
			return e;
	}
	return NULL;
}

MLF_NO_TSAN void mlf_rcu_model_lock_acquired(void)
{
	struct mlf_task *t = mlf_current();

	t->lock_acquisitions++;
	mlf_tsan_release(&t->lock_snapshots[t->lock_acquisitions %
					    MLF_TSAN_RING]);
}

MLF_NO_TSAN bool mlf_rcu_model_dep_store(const volatile void *p)
{
	struct mlf_task *t = mlf_current();
	struct dep_entry *e = dep_find(p, true);

	if (!e)
		return false;
	/* no lock held: nothing is ordered before the store */
	e->token = t->locks_held ?
		&t->lock_snapshots[t->lock_acquisitions % MLF_TSAN_RING] :
		NULL;
	return true;
}

MLF_NO_TSAN const void *mlf_rcu_model_dep_token(void)
{
	struct mlf_task *t = mlf_current();

	return t->locks_held ?
		&t->lock_snapshots[t->lock_acquisitions % MLF_TSAN_RING] :
		NULL;
}

MLF_NO_TSAN void mlf_rcu_model_dep_load(const volatile void *p)
{
	struct dep_entry *e = dep_find(p, false);

	if (e && e->token)
		mlf_tsan_acquire(e->token);
}

MLF_NO_TSAN void mlf_rcu_model_dep_publish(const volatile void *p)
{
	struct dep_entry *e = dep_find(p, false);

	if (e)
		e->token = NULL;
}
#else
void mlf_rcu_model_lock_acquired(void)
{
}

bool mlf_rcu_model_dep_store(const volatile void *p)
{
	(void)p;
	return false;
}

void mlf_rcu_model_dep_load(const volatile void *p)
{
	(void)p;
}

const void *mlf_rcu_model_dep_token(void)
{
	return NULL;
}

void mlf_rcu_model_dep_publish(const volatile void *p)
{
	(void)p;
}
#endif

/* ---- the quarantine ---- */

/* Index of the first block whose end is above @p (binary search). */
MLF_NO_TSAN static int q_search(const char *p)
{
	int lo = 0, hi = R.nr_q;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (R.q[mid].ptr + R.q[mid].size <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ---- nodes that left an RCU list ---- */

MLF_NO_TSAN static int unl_find(const void *node)
{
	int i;

	for (i = 0; i < R.nr_unl; i++)
		if (R.unl[i].node == node)
			return i;
	return -1;
}

MLF_NO_TSAN void mlf_rcu_model_unlinked(const void *node)
{
	int i = unl_find(node);

	/* its order against grace periods is what rcu.no_grace judges */
	mlf_sched_rcu_step(false);
	if (i < 0) {
		R.unl = grow(R.unl, &R.cap_unl, R.nr_unl + 1, sizeof(*R.unl));
		i = R.nr_unl++;
	}
	R.unl[i].node = node;
	R.unl[i].clock = ++R.clock;
	R.unl[i].step = mlf_sched_step();
	R.unl[i].by = mlf_sched_task_index();
}

MLF_NO_TSAN void mlf_rcu_model_linked(const void *node)
{
	int i = unl_find(node);

	mlf_sched_rcu_step(false);
	if (i >= 0)
		R.unl[i] = R.unl[--R.nr_unl];
}

/* Whether a grace period that began after @clock has ended. */
MLF_NO_TSAN static bool gp_since(unsigned long clock)
{
	int i;

	for (i = R.nr_gps - 1; i >= 0; i--)
		if (R.gps[i]->clock > clock && R.gps[i]->done)
			return true;
	return false;
}

/*
 * rcu.no_grace at the free: a node that left an RCU list may be where a
 * reader stands until a grace period that began after the unlink has
 * ended (Documentation/RCU/whatisRCU.rst, "removal" then "reclamation");
 * the object holding it is freed only then, whether or not a reader is
 * there this time.
 */
MLF_NO_TSAN static void check_unlinked_free(const char *ptr, size_t size)
{
	int i = 0;

	while (i < R.nr_unl) {
		const struct unlinked *u = &R.unl[i];
		const char *node = u->node;

		if (node < ptr || node >= ptr + size) {
			i++;
			continue;
		}
		if (!gp_since(u->clock))
			mlf_fail_simple("rcu.no_grace",
					"a %zu-byte object freed at step %lu by t%d: "
					"its node %p left an RCU list at step %lu "
					"(t%d) and no grace period has ended since",
					size, mlf_sched_step(),
					mlf_sched_task_index(), (const void *)node,
					u->step, u->by);
		R.unl[i] = R.unl[--R.nr_unl];
	}
}

MLF_NO_TSAN void mlf_rcu_model_free(void *ptr, size_t size)
{
	struct quarantined *q;
	size_t i;
	int at;

	if (!ptr)
		return;
	rcu_note(FREED, nr_readers_inside());
	check_unlinked_free(ptr, size);
	/*
	 * Poison byte by byte, not with memset(): ThreadSanitizer sees
	 * through the interceptor even here, and a reader that touches the
	 * object later is reported by its rcu.* check, by name, first.
	 */
	for (i = 0; i < size; i++)
		((volatile u8 *)ptr)[i] = MLF_FREE_POISON;
	/* and for ASan: any access from now on is reported where it is made */
	mlf_asan_poison(ptr, size);
	R.q = grow(R.q, &R.cap_q, R.nr_q + 1, sizeof(*R.q));
	at = q_search(ptr);
	memmove(&R.q[at + 1], &R.q[at], (R.nr_q - at) * sizeof(*R.q));
	R.nr_q++;
	q = &R.q[at];
	q->ptr = ptr;
	q->size = size;
	q->freed_at = mlf_sched_step();
	q->freed_by = mlf_sched_task_index();
	q->after_gp = R.running_cb >= 0;
	q->gp_start = q->after_gp ? R.gps[R.running_cb]->start : 0;
}

MLF_NO_TSAN bool mlf_rcu_model_freed(const void *p)
{
	int at;

	if (!R.nr_q)
		return false;
	at = q_search(p);
	return at < R.nr_q && (const char *)p >= R.q[at].ptr;
}

MLF_NO_TSAN void mlf_rcu_model_access(const volatile void *addr,
				      enum mlf_point kind)
{
	const char *p = (const char *)addr;
	const struct mlf_task *t = mlf_current();
	const struct quarantined *q;
	unsigned long since = t->rcu_section_start;
	const char *check;
	char by[16];
	int at;

	if (!R.nr_q)
		return;
	at = q_search(p);
	if (at >= R.nr_q || p < R.q[at].ptr)
		return;
	q = &R.q[at];
	if (!t->rcu_read_depth)
		/* a pointer kept past its section's end, or a plain misuse */
		check = q->after_gp ? "rcu.stale" : "rcu.uaf";
	else if (!q->after_gp)
		check = since <= q->freed_at ? "rcu.no_grace" : "rcu.stale";
	else
		check = since <= q->gp_start ? "rcu.gp_early" : "rcu.stale";
	if (q->freed_by < 0)
		snprintf(by, sizeof(by), "rcu");
	else
		snprintf(by, sizeof(by), "t%d", q->freed_by);
	mlf_fail_simple(check,
			"%s at step %lu on %p, inside a %zu-byte object freed "
			"at step %lu by %s %s; this task's read-side critical "
			"section %s",
			mlf_point_name(kind), mlf_sched_step(), addr, q->size,
			q->freed_at, by,
			q->after_gp ? "after a grace period" :
				      "with no grace period",
			!t->rcu_read_depth ? "is not open" :
			since <= (q->after_gp ? q->gp_start : q->freed_at) ?
					     "began before it" :
					     "began after it");
	/*
	 * A handler that returns (a test's) lets the task go on to the
	 * access its check just named: not ASan's to report again.
	 */
	mlf_asan_unpoison(q->ptr, q->size);
}
