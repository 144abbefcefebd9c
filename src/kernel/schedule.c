// SPDX-License-Identifier: GPL-2.0
/*
 * The deterministic scheduler (schedule.h): tasks on fibers, the choice at
 * each scheduling point, blocking and waking, and the record of recent
 * steps for failure reports. Its own bookkeeping is out of ThreadSanitizer's
 * sight (MLF_NO_TSAN): the tasks share it with no happens-before, which is
 * right for the code under test and would be noise here. What it calls on
 * the harness's behalf (the point hook, the exploration's choice, the RCU
 * model's check of an access) runs with the task's accesses ignored
 * (mlf_tsan_ignore_begin()): those are the harness's reads and writes, in
 * other files, made from whichever task reached the point.
 */
#include "schedule.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bug.h"
#include "explore.h"
#include "fiber.h"
#include "report.h"
#include "rcu_model.h"
#include "sanitizer.h"
#include "sched_hb.h"
#include "wmm.h"

#define STACK_SIZE (1UL << 20)
#define DEFAULT_MAX_STEPS 2000000UL
#define RECENT 512
#define SPANS 1024

int mlf_sched_on;

/*
 * What libFuzzer sees of a schedule (its extra counters, which the
 * concurrent fuzz target owns and attaches): code coverage is the same
 * whatever the interleaving, so without this a new interleaving would
 * never be kept. A counter per switch between two source lines (where one
 * task was stopped, where the next goes on): which code met which. Coarse
 * on purpose: every distinct counter is a feature libFuzzer keeps count of
 * for every input. The sequential targets have no schedule: they attach
 * nothing and libFuzzer does not scan 4 KB of counters that never move.
 */
static u8 *feedback;
static size_t feedback_mask;

void mlf_sched_feedback_attach(u8 *counters, size_t size)
{
	BUG_ON(!size || size & (size - 1));
	feedback = counters;
	feedback_mask = size - 1;
}

/*
 * The scheduler's own bookkeeping, like the rest of it: every fiber bumps
 * the counters, which ThreadSanitizer would call a race of each fiber's
 * first switch (the first input of every fuzz-tsan run).
 */
MLF_NO_TSAN static void note_interleaving(const struct mlf_site *mine,
					  const struct mlf_site *other)
{
	u64 h = ((u64)(uintptr_t)mine * 0x9e3779b97f4a7c15ULL) ^
		((u64)(uintptr_t)other * 0xc2b2ae3d27d4eb4fULL);
	u8 *c;

	if (!feedback)
		return;
	c = &feedback[(h >> 40) & feedback_mask];
	if (*c != 0xff)
		(*c)++;
}

/* ... and each line at which a load read an older store (or a store went
 * before a newer one): the weak choice the input made there */
MLF_NO_TSAN static void note_weak(const struct mlf_site *at, int k)
{
	u64 h = ((u64)(uintptr_t)at + (u64)min(k, 3)) * 0xff51afd7ed558ccdULL;

	if (!feedback)
		return;
	if (feedback[(h >> 40) & feedback_mask] != 0xff)
		feedback[(h >> 40) & feedback_mask]++;
}

enum task_state {
	T_RUNNABLE,
	T_BLOCKED,
	T_DONE,
};

struct mlf_sched_task {
	struct mlf_task task;		/* the shim's per-task state */
	int index;			/* MLF_SCHED_RCU_TASK for rcu */
	const char *name;
	enum task_state state;
	enum mlf_sched_wait wait;
	const void *wait_on;
	unsigned long points;
	const struct mlf_site *at;	/* the point it stands at */
	int priority;			/* PCT */
	struct mlf_fiber fiber;
	bool fiber_made;
	/*
	 * Parked at a known place between runs (its work done, or rcu's
	 * waiting for a callback), to be resumed by the next run: a fiber
	 * is never abandoned mid-frame, which would leak ThreadSanitizer's
	 * frames and AddressSanitizer's fake stacks run after run.
	 */
	bool parked;
};

/*
 * The run as spans (mlf_sched_keep_timeline()): a stretch of steps one task
 * ran in one op, and how it ended.
 */
enum span_end {
	SPAN_OP_DONE,		/* the task went on to its next op */
	SPAN_PREEMPTED,		/* another task ran though it could go on */
	SPAN_BLOCKED,		/* it waited (a lock, a grace period) */
	SPAN_IDLE,		/* its work was done; another ran */
	SPAN_LAST,		/* the run ended (or failed) in it */
};

struct span {
	unsigned long from, to;
	long op;
	s8 task;
	u8 end;
	u8 kind;		/* the point of its last step */
	const struct mlf_site *site;
};

struct recent_step {
	unsigned long step;
	s8 task;
	u8 kind;
	const struct mlf_site *site;
	const volatile void *addr;
	long op;
};

static struct {
	const struct mlf_sched_config *cfg;
	/* the harness's tasks, then rcu's */
	struct mlf_sched_task tasks[MLF_SCHED_MAX_TASKS + 1];
	int nr;
	struct mlf_sched_task *cur;
	struct mlf_fiber main;
	struct mlf_task *main_task;
	unsigned long step, max_steps;
	/* the last point's site, and the task that passed it */
	const struct mlf_site *last_site;
	int last_task;
	/* MLF_SCHED_INPUT: the next decision, and the points until it */
	int next_decision;
	unsigned long countdown;
	/*
	 * MLF_SCHED_PCT, _RANDOM: change points (steps, rising) and the
	 * priority each gives the running task; the next one
	 */
	unsigned long change_at[256];
	int change_priority[256];
	int nr_changes, next_change;
	/*
	 * A task woke, blocked or ended, or a priority changed, since PCT
	 * last chose: until then the task it chose is still the one to run.
	 */
	bool pct_stale;
	/* MLF_SCHED_INPUT under MLF_MM_LKMM: the next weak decision */
	int next_weak;
	unsigned long weak_countdown;
	/* MLF_SCHED_EXPLORE */
	int preemptions;
	/*
	 * The run's happens-before (sched_hb.h), kept while exploring; with
	 * the reduction, mlf_sched_step() is its logical time.
	 */
	bool hb, hb_clock;
	/* the harness's point hook is running: it looks on, at a point */
	bool in_on_point;
	struct mlf_explore_visited *visited;
	struct mlf_explore_stats *explore_stats;
	struct mlf_sched_stats stats;
	/*
	 * ThreadSanitizer: what the caller set up happens before every task
	 * (as pthread_create), and every task before the caller's return (as
	 * pthread_join); nothing else is ordered by the scheduler.
	 */
	long start_token, end_token;
	struct recent_step recent[RECENT];
	unsigned long nr_recent;
	bool keep_timeline;
	struct span spans[SPANS];
	unsigned long nr_spans;
	/* inside a probe of the harness: no point may be reached */
	int looking_on;
} S;

static const char *const point_names[MLF_PT_NR] = {
	[MLF_PT_READ] = "READ_ONCE",
	[MLF_PT_WRITE] = "WRITE_ONCE",
	[MLF_PT_DEREF] = "rcu_dereference",
	[MLF_PT_PUBLISH] = "rcu_assign_pointer",
	[MLF_PT_ATOMIC] = "atomic",
	[MLF_PT_BARRIER] = "smp_mb",
	[MLF_PT_LOCK] = "spin_lock",
	[MLF_PT_UNLOCK] = "spin_unlock",
	[MLF_PT_RCU_LOCK] = "rcu_read_lock",
	[MLF_PT_RCU_UNLOCK] = "rcu_read_unlock",
	[MLF_PT_SYNC_RCU] = "synchronize_rcu",
	[MLF_PT_CALL_RCU] = "call_rcu",
	[MLF_PT_RESCHED] = "cond_resched",
	[MLF_PT_HARNESS] = "harness",
	[MLF_PT_START] = "start",
};

const char *mlf_point_name(enum mlf_point kind)
{
	return kind < MLF_PT_NR ? point_names[kind] : "?";
}

/* rcu's task has a place of its own: its fiber is parked in rcu_main() */
MLF_NO_TSAN static inline struct mlf_sched_task *rcu_task(void)
{
	return &S.tasks[MLF_SCHED_MAX_TASKS];
}

/* All tasks, the harness's in index order, then rcu: @i in 0..S.nr. */
MLF_NO_TSAN static inline struct mlf_sched_task *task_at(int i)
{
	return i == S.nr ? rcu_task() : &S.tasks[i];
}

MLF_NO_TSAN static inline int slot_of(const struct mlf_sched_task *t)
{
	return t == rcu_task() ? S.nr : (int)(t - S.tasks);
}

MLF_NO_TSAN int mlf_sched_nr_tasks(void)
{
	return S.nr;
}

MLF_NO_TSAN struct mlf_task *mlf_sched_task_at(int i)
{
	return &task_at(i)->task;
}

MLF_NO_TSAN int mlf_sched_task_index(void)
{
	return S.cur ? S.cur->index : 0;
}

static void explore_key(u64 key[2]);

MLF_NO_TSAN int mlf_sched_slot(void)
{
	return S.cur ? slot_of(S.cur) : -1;
}

/*
 * The memory model's choice (wmm.h): at a point's load or store, which is
 * the open step of the current task, so the choice is noted in its
 * happens-before (the same trace reads the same stores).
 */
MLF_NO_TSAN int mlf_sched_weak_choice(int nr)
{
	const struct mlf_sched_config *cfg = S.cfg;
	int k = 0;

	if (!S.cur || nr < 2 || mlf_wmm_certifying())
		return 0;
	S.stats.weak_choices++;
	if (cfg->policy == MLF_SCHED_EXPLORE) {
		u64 key[2];

		mlf_tsan_ignore_begin();
		explore_key(key);
		/* not a scheduling choice; nor the step's earlier weak one */
		key[1] ^= 0x5bd1e995ULL;
		key[0] ^= mlf_hb_open_note(slot_of(S.cur)) *
			  0x9e3779b97f4a7c15ULL;
		k = mlf_explore_choose_weak(cfg->explore, S.visited,
					    S.explore_stats, nr, S.preemptions,
					    cfg->explore->weak_spent_now, key);
		mlf_tsan_ignore_end();
	} else if (S.weak_countdown && --S.weak_countdown == 0) {
		/* the input's, whatever chooses the tasks (input, PCT) */
		k = cfg->weak[S.next_weak++].back;
		k = min(k, nr - 1);
		S.weak_countdown = S.next_weak < cfg->nr_weak ?
			max(cfg->weak[S.next_weak].delay, 1) : 0;
		S.stats.weak_decisions++;
		/* a stale read at a new line is new coverage */
		if (k)
			note_weak(S.cur->at, k);
	}
	if (S.hb)
		mlf_hb_step_note(slot_of(S.cur), (u64)k);
	return k;
}

/* Where the current task stands: its points so far, and the last one. */
MLF_NO_TSAN unsigned long mlf_sched_task_points(void)
{
	return S.cur ? S.cur->points : 0;
}

MLF_NO_TSAN const struct mlf_site *mlf_sched_task_site(void)
{
	return S.cur ? S.cur->at : NULL;
}

MLF_NO_TSAN unsigned long mlf_sched_weak_points(void)
{
	return S.stats.weak_choices;
}

MLF_NO_TSAN unsigned long mlf_sched_step(void)
{
	if (S.hb_clock && S.cur)
		return mlf_hb_clock(slot_of(S.cur));
	return S.step;
}

MLF_NO_TSAN static void hb_mark(unsigned int marks)
{
	if (S.hb && S.cur)
		mlf_hb_step_mark(slot_of(S.cur), marks);
}

MLF_NO_TSAN void mlf_sched_observe(void)
{
	hb_mark(MLF_HB_ALL);
}

MLF_NO_TSAN void mlf_sched_look(void)
{
	hb_mark(MLF_HB_LOOK);
}

MLF_NO_TSAN void mlf_sched_note_write(void)
{
	hb_mark(MLF_HB_PORT_WRITE);
}

MLF_NO_TSAN void mlf_sched_rcu_step(bool write)
{
	hb_mark(write ? MLF_HB_RCU_WRITE : MLF_HB_RCU_READ);
}

MLF_NO_TSAN void mlf_sched_note_fence(void)
{
	hb_mark(MLF_HB_FENCE);
}


/*
 * A step of the current task starts, standing for @access of @addr and
 * @marks: a task that holds a lock may write more than its access says.
 */
MLF_NO_TSAN static void hb_step(enum mlf_hb_access access,
				const volatile void *addr, unsigned int marks)
{
	if (S.cur->task.locks_held)
		marks |= MLF_HB_PORT_WRITE;
	mlf_hb_step_begin(slot_of(S.cur), access, addr, marks);
}

/* What the step a task goes on with at a point stands for (sched_hb.h). */
MLF_NO_TSAN static void hb_step_at_point(enum mlf_point kind,
					 const volatile void *addr)
{
	switch (kind) {
	case MLF_PT_READ:
	case MLF_PT_DEREF:
		hb_step(MLF_HB_READ, addr, 0);
		break;
	case MLF_PT_WRITE:
	case MLF_PT_PUBLISH:
	case MLF_PT_ATOMIC:	/* reads too, as a write: the conservative side */
	case MLF_PT_LOCK:
	case MLF_PT_UNLOCK:
		hb_step(MLF_HB_WRITE, addr, 0);
		break;
	case MLF_PT_RCU_LOCK:
	case MLF_PT_RCU_UNLOCK:
		/* the model marks it RCU_WRITE where it moves a grace period */
		hb_step(MLF_HB_NONE, NULL, MLF_HB_RCU_READ);
		break;
	case MLF_PT_SYNC_RCU:
	case MLF_PT_CALL_RCU:
		hb_step(MLF_HB_NONE, NULL, MLF_HB_RCU_WRITE);
		break;
	case MLF_PT_BARRIER:	/* no effect on memory that is SC */
	case MLF_PT_RESCHED:
		hb_step(MLF_HB_NONE, NULL, 0);
		break;
	case MLF_PT_HARNESS:
		/*
		 * The harness's bookkeeping of an op: it reads the slots'
		 * states and references other tasks' steps write, and writes
		 * them; what else it shares is marked where it is done
		 * (set_alloc(), the allocator).
		 */
		hb_step(MLF_HB_NONE, NULL, MLF_HB_LOOK | MLF_HB_PORT_WRITE);
		break;
	case MLF_PT_START:
		/* to the op's first point: the task's own state, the input */
		hb_step(MLF_HB_NONE, NULL, 0);
		break;
	default:
		hb_step(MLF_HB_NONE, NULL, MLF_HB_ALL);
		break;
	}
}

/* ... and the one a task woken from a block goes on with. */
MLF_NO_TSAN static void hb_step_after_block(enum mlf_sched_wait why,
					    const void *on)
{
	switch (why) {
	case MLF_WAIT_LOCK:
		hb_step(MLF_HB_WRITE, on, 0);
		break;
	case MLF_WAIT_GP:
	case MLF_WAIT_BARRIER:
		hb_step(MLF_HB_NONE, NULL, MLF_HB_RCU_WRITE);
		break;
	case MLF_WAIT_CALLBACK:
	default:
		hb_step(MLF_HB_NONE, NULL, MLF_HB_ALL);
		break;
	}
}

/*
 * The harness looking on: no scheduling point (checked at each), and its
 * reads and writes out of ThreadSanitizer's sight, for they are made from
 * whichever task reached the probe. Never across a switch.
 */
MLF_NO_TSAN void mlf_sched_look_on_begin(void)
{
	mlf_tsan_ignore_begin();
	S.looking_on++;
	/* a probe of the harness, outside the point hook: it looks on */
	if (!S.in_on_point)
		mlf_sched_look();
}

MLF_NO_TSAN void mlf_sched_look_on_end(void)
{
	S.looking_on--;
	mlf_tsan_ignore_end();
}

/* ---- the record of recent steps ---- */

MLF_NO_TSAN static void record(enum mlf_point kind, const volatile void *addr,
			       const struct mlf_site *site)
{
	struct recent_step *r = &S.recent[S.nr_recent++ % RECENT];

	r->step = S.step;
	r->task = (s8)S.cur->index;
	r->kind = kind;
	r->site = site;
	r->addr = addr;
	r->op = S.cur->task.op;
	if (S.keep_timeline) {
		struct span *sp = S.nr_spans ?
			&S.spans[(S.nr_spans - 1) % SPANS] : NULL;

		if (!sp || sp->task != r->task || sp->op != r->op ||
		    sp->end != SPAN_LAST) {
			if (sp && sp->end == SPAN_LAST)
				sp->end = SPAN_OP_DONE;
			sp = &S.spans[S.nr_spans++ % SPANS];
			sp->from = S.step;
			sp->task = r->task;
			sp->op = r->op;
		}
		sp->to = S.step;
		sp->end = SPAN_LAST;
		sp->kind = kind;
		sp->site = site;
	}
}

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path ? path : "?";
}

static const char *task_label(int index, char *buf, size_t size)
{
	if (index == MLF_SCHED_RCU_TASK)
		return "rcu";
	snprintf(buf, size, "t%d", index);
	return buf;
}

MLF_NO_TSAN void mlf_sched_print_recent(int nr_steps)
{
	unsigned long first, i;

	if (!S.nr_recent)
		return;
	if ((unsigned long)nr_steps > RECENT)
		nr_steps = RECENT;
	first = S.nr_recent > (unsigned long)nr_steps ?
			S.nr_recent - nr_steps : 0;
	if (S.nr_recent > RECENT && first < S.nr_recent - RECENT)
		first = S.nr_recent - RECENT;
	fprintf(stderr, "  the schedule's last %lu steps (of %lu):\n",
		S.nr_recent - first, S.step);
	for (i = first; i < S.nr_recent; i++) {
		const struct recent_step *r = &S.recent[i % RECENT];
		char label[16];

		fprintf(stderr, "  %s step %-6lu %-4s op %-3ld %-18s %s:%d %s()\n",
			i + 1 == S.nr_recent ? ">" : " ", r->step,
			task_label(r->task, label, sizeof(label)), r->op,
			mlf_point_name(r->kind),
			base_name(r->site ? r->site->file : NULL),
			r->site ? r->site->line : 0,
			r->site && r->site->func ? r->site->func : "?");
	}
}

void mlf_sched_keep_timeline(bool on)
{
	S.keep_timeline = on;
}

MLF_NO_TSAN void mlf_sched_print_timeline(void (*op_text)(FILE *f, int task,
							  long op))
{
	static const char *const ends[] = {
		[SPAN_OP_DONE] = "op done",
		[SPAN_PREEMPTED] = "preempted",
		[SPAN_BLOCKED] = "blocks",
		[SPAN_IDLE] = "its ops done",
		[SPAN_LAST] = "<- the run ends here",
	};
	unsigned long first, i;

	if (!S.keep_timeline || !S.nr_spans)
		return;
	first = S.nr_spans > SPANS ? S.nr_spans - SPANS : 0;
	fprintf(stderr, "  timeline of %lu steps, a span per stretch one task ran in one op%s:\n",
		S.step, first ? " (the last ones)" : "");
	for (i = first; i < S.nr_spans; i++) {
		const struct span *sp = &S.spans[i % SPANS];
		char label[16], steps[32];

		if (sp->kind == MLF_PT_START && sp->from == sp->to &&
		    sp->task != MLF_SCHED_RCU_TASK)
			continue;
		snprintf(steps, sizeof(steps), "%lu-%lu", sp->from, sp->to);
		fprintf(stderr, "  span %-11s %-4s ", steps,
			task_label(sp->task, label, sizeof(label)));
		if (op_text)
			op_text(stderr, sp->task, sp->op);
		else
			fprintf(stderr, "op %ld", sp->op);
		fprintf(stderr, " | %s at %s in %s()\n", ends[sp->end],
			mlf_point_name(sp->kind),
			sp->site && sp->site->func ? sp->site->func : "?");
	}
}

/* ---- choosing ---- */

MLF_NO_TSAN static bool runnable(const struct mlf_sched_task *t)
{
	return t->state == T_RUNNABLE;
}

/* The first runnable task from slot @from on, cyclically; NULL if none. */
MLF_NO_TSAN static struct mlf_sched_task *runnable_from(int from)
{
	int n = S.nr + 1, k;

	for (k = 0; k < n; k++) {
		struct mlf_sched_task *t = task_at((from + k) % n);

		if (runnable(t))
			return t;
	}
	return NULL;
}

/* The slot of a decision's task: 0..nr-1 the harness's, nr rcu. */
static int decision_slot(u8 task)
{
	return task % (S.nr + 1);
}

MLF_NO_TSAN static struct mlf_sched_task *choose_input(bool at_point)
{
	const struct mlf_sched_config *cfg = S.cfg;

	if (at_point && S.countdown && --S.countdown == 0) {
		const struct mlf_sched_decision *d =
			&cfg->decisions[S.next_decision++];

		S.stats.decisions++;
		S.countdown = S.next_decision < cfg->nr_decisions ?
			max(cfg->decisions[S.next_decision].delay, 1) : 0;
		return runnable_from(decision_slot(d->task));
	}
	if (runnable(S.cur))
		return S.cur;
	return runnable_from(slot_of(S.cur) + 1);
}

MLF_NO_TSAN static struct mlf_sched_task *choose_pct(bool at_point)
{
	struct mlf_sched_task *best = NULL;
	int i;

	while (at_point && S.next_change < S.nr_changes &&
	       S.step >= S.change_at[S.next_change]) {
		S.cur->priority = S.change_priority[S.next_change++];
		S.stats.decisions++;
		S.pct_stale = true;
	}
	/* at a point, the running task is the one PCT chose last */
	if (at_point && !S.pct_stale)
		return S.cur;
	S.pct_stale = false;
	for (i = 0; i <= S.nr; i++) {
		struct mlf_sched_task *t = task_at(i);

		if (runnable(t) && (!best || t->priority > best->priority))
			best = t;
	}
	return best;
}

/* The scheduler's share of a state hash: where each task is, RCU. */
MLF_NO_TSAN static u64 sched_hash(void)
{
	u64 h = 0xcbf29ce484222325ULL;
	int i;

	for (i = 0; i <= S.nr; i++) {
		const struct mlf_sched_task *t = task_at(i);
		u64 v[] = { t->state, t->wait, t->points, t->task.op,
			    (u64)t->task.rcu_read_depth, t->task.locks_held,
			    (u64)(uintptr_t)t->at };
		size_t k;

		for (k = 0; k < ARRAY_SIZE(v); k++)
			h = (h ^ v[k]) * 0x100000001b3ULL;
	}
	/* who runs: going on is free for it, a preemption for the others */
	h = (h ^ (u64)slot_of(S.cur)) * 0x100000001b3ULL;
	return h ^ mlf_rcu_model_hash();
}

/*
 * The state at a choice point, as the exploration's mode sees it: the trace
 * so far and who runs (going on is free for it, a preemption for the
 * others), or the heuristic's hash.
 */
MLF_NO_TSAN static void explore_key(u64 key[2])
{
	const struct mlf_explore_run *run = S.cfg->explore;
	u64 who = (u64)slot_of(S.cur) + 1;

	if (run->mode == MLF_EXPLORE_HEURISTIC) {
		key[0] = sched_hash();
		if (run->state_hash)
			key[0] ^= run->state_hash(run->hash_arg) *
				  0x9e3779b97f4a7c15ULL;
		key[1] = 0;
		return;
	}
	mlf_hb_key(key);
	key[0] ^= who * 0xd6e8feb86659fd93ULL;
	key[1] += who;
}

MLF_NO_TSAN static struct mlf_sched_task *choose_explore(bool free_switch)
{
	s8 options[MLF_SCHED_MAX_TASKS + 1];
	int nr = 0, i, pick;
	bool preemptive = runnable(S.cur) && !free_switch;
	u64 key[2];

	if (runnable(S.cur))
		options[nr++] = (s8)slot_of(S.cur);
	for (i = 0; i <= S.nr; i++)
		if (runnable(task_at(i)) && task_at(i) != S.cur)
			options[nr++] = (s8)i;
	if (!nr)
		return NULL;
	if (nr == 1)
		return task_at(options[0]);
	explore_key(key);
	pick = mlf_explore_choose(S.cfg->explore, S.visited, S.explore_stats,
				  options, nr, preemptive, S.preemptions, key);
	if (preemptive && pick)
		S.preemptions++;
	return task_at(options[pick]);
}

/*
 * At a point (@at_point) or because the current task cannot go on. A task's
 * first point (@free_switch) is no preemption: it has not started yet.
 */
MLF_NO_TSAN static struct mlf_sched_task *choose(bool at_point,
						 bool free_switch)
{
	struct mlf_sched_task *next;

	mlf_tsan_ignore_begin();
	switch (S.cfg->policy) {
	case MLF_SCHED_PCT:
	case MLF_SCHED_PCT_RANDOM:
		next = choose_pct(at_point);
		break;
	case MLF_SCHED_EXPLORE:
		next = choose_explore(free_switch);
		break;
	case MLF_SCHED_INPUT:
	default:
		next = choose_input(at_point);
		break;
	}
	mlf_tsan_ignore_end();
	return next;
}

/* ---- switching ---- */

MLF_NO_TSAN static void enter(struct mlf_sched_task *t)
{
	S.cur = t;
	mlf_current_task = &t->task;
}

/* Switch from the current task to @next (which may be it). */
MLF_NO_TSAN static void switch_to(struct mlf_sched_task *next, bool could_go_on)
{
	struct mlf_sched_task *prev = S.cur;

	if (next == prev)
		return;
	if (S.keep_timeline && S.nr_spans) {
		struct span *sp = &S.spans[(S.nr_spans - 1) % SPANS];

		if (sp->task == prev->index && sp->end == SPAN_LAST)
			sp->end = could_go_on ? SPAN_PREEMPTED :
				  prev->state == T_BLOCKED ? SPAN_BLOCKED :
							     SPAN_IDLE;
	}
	S.stats.switches++;
	if (could_go_on)
		S.stats.preemptions++;
	enter(next);
	mlf_fiber_switch(&prev->fiber, &next->fiber);
	/* back: whoever switched to us has set S.cur and current */
}

MLF_NO_TSAN static void fail_deadlock(void)
{
	char what[512];
	size_t len = 0;
	int i;

	for (i = 0; i <= S.nr; i++) {
		const struct mlf_sched_task *t = task_at(i);
		char label[16];

		if (t->state != T_BLOCKED || t->wait == MLF_WAIT_CALLBACK)
			continue;
		len += snprintf(what + len, len < sizeof(what) ?
				sizeof(what) - len : 0, " %s (%s) waits on %s %p;",
				task_label(t->index, label, sizeof(label)),
				t->name,
				t->wait == MLF_WAIT_LOCK ? "a lock" :
				t->wait == MLF_WAIT_GP ? "a grace period" :
				"rcu_barrier",
				t->wait_on);
		if (len >= sizeof(what))
			break;
	}
	mlf_fail_simple("sched.deadlock", "no task can run:%s", what);
}

/*
 * The current task cannot go on (blocked, or its work is done): run another.
 * Returns once the current task runs again: a blocked task when it is
 * woken, a done one in the next run, with new work. When nothing can run
 * and every task is done, the run is over: back to mlf_sched_run()'s
 * caller.
 */
MLF_NO_TSAN static void run_another(void)
{
	struct mlf_sched_task *prev = S.cur, *next = choose(false, true);
	int i;

	if (next) {
		switch_to(next, false);
		return;
	}
	for (i = 0; i < S.nr; i++)
		if (task_at(i)->state != T_DONE)
			fail_deadlock();
	S.cur = NULL;
	mlf_current_task = S.main_task;
	mlf_fiber_switch(&prev->fiber, &S.main);
	/* the next run chose us */
}

MLF_NO_TSAN void mlf_sched_block(enum mlf_sched_wait why, const void *on)
{
	struct mlf_sched_task *t = S.cur;

	if (mlf_wmm_certifying())
		mlf_wmm_certify_stop();
	if (S.hb)
		mlf_hb_step_end(slot_of(t));
	t->state = T_BLOCKED;
	t->wait = why;
	t->wait_on = on;
	S.pct_stale = true;
	run_another();
	if (S.hb)
		hb_step_after_block(why, on);
}

MLF_NO_TSAN void mlf_sched_wake(const void *on)
{
	int i;

	for (i = 0; i <= S.nr; i++) {
		struct mlf_sched_task *t = task_at(i);

		if (t->state == T_BLOCKED && t->wait_on == on) {
			t->state = T_RUNNABLE;
			t->wait_on = NULL;
			S.pct_stale = true;
		}
	}
}

MLF_NO_TSAN static void fail_livelock(void)
{
	mlf_fail_simple("sched.livelock",
			"the run passed %lu scheduling points and its tasks "
			"are not done: an endless loop or chase",
			S.max_steps);
}

MLF_NO_TSAN void __mlf_sched_point(enum mlf_point kind,
				   const volatile void *addr,
				   const struct mlf_site *site)
{
	struct mlf_sched_task *cur = S.cur, *next;

	if (!cur)
		return;		/* the harness's set-up, between tasks */
	/*
	 * A promise's certification runs the task alone (wmm.h), across the
	 * harness's points between its ops (no ordering of the kernel's), to
	 * the first of its own orderings.
	 */
	if (mlf_wmm_certifying()) {
		mlf_wmm_certify_point(kind == MLF_PT_READ ||
				      kind == MLF_PT_WRITE ||
				      kind == MLF_PT_BARRIER ||
				      kind == MLF_PT_HARNESS ||
				      kind == MLF_PT_START);
		return;
	}
	if (S.looking_on)
		mlf_fail_simple("harness",
				"a check of the harness reached a scheduling point (%s at %s:%d %s()): it would let other tasks run in the middle of the check",
				point_names[kind], site ? site->file : "?",
				site ? site->line : 0, site ? site->func : "?");
	S.step++;
	cur->points++;
	cur->at = site;
	record(kind, addr, site);
	if (S.last_task != cur->index) {
		/* a switch happened before this point */
		note_interleaving(site, S.last_site);
		S.last_task = cur->index;
	}
	S.last_site = site;
	if (S.step > S.max_steps)
		fail_livelock();
	if (S.cfg->on_point) {
		S.in_on_point = true;
		mlf_sched_look_on_begin();
		S.cfg->on_point(kind, addr, S.cfg->arg);
		mlf_sched_look_on_end();
		S.in_on_point = false;
	}
	/* the step that led here ends with the hook's look at it */
	if (S.hb)
		mlf_hb_step_end(slot_of(cur));
	/*
	 * Exploring, a task's own first point is no choice: it was just
	 * chosen to run (and switching back would repeat a schedule), except
	 * the run's very first point, which chooses who starts.
	 */
	if (kind == MLF_PT_START && S.step > 1 &&
	    S.cfg->policy == MLF_SCHED_EXPLORE) {
		hb_step_at_point(kind, addr);
		return;
	}
	next = choose(true, kind == MLF_PT_START);
	if (next && next != cur)
		switch_to(next, kind != MLF_PT_START);
	if (S.hb)
		hb_step_at_point(kind, addr);
	/*
	 * Back to run the access: if what it touches was freed, by now or
	 * by whoever ran meanwhile, it fails here, named by how it happened.
	 * One through a NULL pointer (a load that read a pointer from before
	 * its object was set up, under the weak memory model) is the
	 * kernel's oops, named here rather than by the crash.
	 */
	if (addr && ((uintptr_t)addr < 4096 ||
		     (uintptr_t)addr > UINTPTR_MAX - 4096))
		mlf_fail_simple("vm.null",
				"%s at %s:%d %s() of %p: a NULL pointer dereference",
				point_names[kind],
				base_name(site ? site->file : NULL),
				site ? site->line : 0,
				site && site->func ? site->func : "?", addr);
	if (addr) {
		mlf_tsan_ignore_begin();
		mlf_rcu_model_access(addr, kind);
		mlf_tsan_ignore_end();
	}
}

/* ---- tasks ---- */

/* A task's fiber: one run's work at a time, parked in between. */
MLF_NO_TSAN static void task_main(void *arg)
{
	struct mlf_sched_task *t = arg;

	for (;;) {
		mlf_tsan_acquire(&S.start_token);
		__mlf_sched_point(MLF_PT_START, NULL, NULL);
		S.cfg->fn(t->index, S.cfg->arg);
		mlf_wmm_task_done();
		mlf_rcu_model_task_done();
		mlf_tsan_release(&S.end_token);
		if (S.hb) {
			/* the harness's last bookkeeping */
			mlf_hb_step_mark(slot_of(t), MLF_HB_ALL);
			mlf_hb_step_end(slot_of(t));
		}
		t->state = T_DONE;
		S.pct_stale = true;
		run_another();
	}
}

/* The call_rcu callbacks' task: runs each ready callback, else sleeps. */
MLF_NO_TSAN static void rcu_main(void *arg)
{
	(void)arg;
	/* first chosen: its step starts here, not in mlf_sched_block() */
	if (S.hb)
		mlf_hb_step_begin(slot_of(rcu_task()), MLF_HB_NONE, NULL,
				  MLF_HB_ALL);
	for (;;) {
		mlf_tsan_acquire(&S.start_token);
		mlf_tsan_release(&S.end_token);
		if (!mlf_rcu_model_run_callback())
			mlf_sched_block(MLF_WAIT_CALLBACK, rcu_task());
	}
}

/* Wake rcu's task: a callback's grace period has ended. */
MLF_NO_TSAN void mlf_sched_callback_ready(void)
{
	mlf_sched_wake(rcu_task());
}

static u64 splitmix64(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* PCT: distinct priorities above every change point's, from the seed. */
MLF_NO_TSAN static void pct_setup(const struct mlf_sched_config *cfg)
{
	int n = S.nr + 1, order[MLF_SCHED_MAX_TASKS + 1], i;
	unsigned long at = 0;
	u64 state = cfg->seed;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) {
		int j = (int)(splitmix64(&state) % (u64)(i + 1));
		int tmp = order[i];

		order[i] = order[j];
		order[j] = tmp;
	}
	S.nr_changes = 0;
	if (cfg->policy == MLF_SCHED_PCT_RANDOM) {
		/*
		 * As published: change point i (1..d-1) at a step drawn
		 * uniformly from 1..k, where it gives priority i.
		 */
		unsigned long k = max(cfg->pct_steps, 1UL);
		int d = clamp(cfg->pct_depth, 1, (int)ARRAY_SIZE(S.change_at));

		for (i = 1; i < d; i++) {
			unsigned long step = 1 + splitmix64(&state) % k;
			int j = S.nr_changes++;

			/* insertion, keeping the steps in order */
			for (; j > 0 && S.change_at[j - 1] > step; j--) {
				S.change_at[j] = S.change_at[j - 1];
				S.change_priority[j] = S.change_priority[j - 1];
			}
			S.change_at[j] = step;
			S.change_priority[j] = i;
		}
	} else {
		/* the input's: after the decisions' delays, d - 1 .. 1 */
		for (i = 0; i < cfg->nr_decisions &&
			    i < (int)ARRAY_SIZE(S.change_at);
		     i++) {
			at += max(cfg->decisions[i].delay, 1);
			S.change_at[S.nr_changes++] = at;
		}
		for (i = 0; i < S.nr_changes; i++)
			S.change_priority[i] = S.nr_changes - i;
	}
	/* priorities d .. d + n - 1, above every change point's */
	for (i = 0; i < n; i++)
		task_at(order[i])->priority = S.nr_changes + 1 + i;
	S.next_change = 0;
}

MLF_NO_TSAN static void setup_task(struct mlf_sched_task *t, int index,
				   const char *name, void (*fn)(void *arg))
{
	mlf_task_init(&t->task);
	t->task.sched = t;
	t->index = index;
	t->name = name;
	t->state = T_RUNNABLE;
	t->wait_on = NULL;
	t->points = 0;
	t->at = NULL;
	t->priority = 0;
	if (!t->fiber_made) {
		if (mlf_fiber_create(&t->fiber, STACK_SIZE, fn, t))
			mlf_fail_simple("harness", "cannot map a fiber stack");
		t->fiber_made = true;
	} else if (!t->parked) {
		/* left mid-frame by a failure a test caught: start afresh */
		mlf_fiber_reset(&t->fiber, fn, t);
	}
	t->parked = false;
}

MLF_NO_TSAN void mlf_sched_run(const struct mlf_sched_config *cfg,
			       struct mlf_sched_stats *stats)
{
	struct mlf_sched_task *first;
	int i;

	if (cfg->nr_tasks < 1 || cfg->nr_tasks > MLF_SCHED_MAX_TASKS)
		mlf_fail_simple("harness", "a scheduled run of %d tasks",
				cfg->nr_tasks);
	S.cfg = cfg;
	S.nr = cfg->nr_tasks;
	S.step = 0;
	S.last_site = NULL;
	S.last_task = -2;
	S.max_steps = cfg->max_steps ? cfg->max_steps : DEFAULT_MAX_STEPS;
	S.nr_recent = 0;
	S.nr_spans = 0;
	S.preemptions = 0;
	S.looking_on = 0;
	S.in_on_point = false;
	S.hb = cfg->policy == MLF_SCHED_EXPLORE;
	S.hb_clock = S.hb && cfg->explore->mode == MLF_EXPLORE_REDUCED;
	if (S.hb)
		mlf_hb_begin(S.nr);
	memset(&S.stats, 0, sizeof(S.stats));
	for (i = 0; i < S.nr; i++)
		setup_task(task_at(i), i,
			   cfg->names && cfg->names[i] ? cfg->names[i] : "task",
			   task_main);
	setup_task(rcu_task(), MLF_SCHED_RCU_TASK, "rcu", rcu_main);
	/* idle until a callback is ready */
	rcu_task()->state = T_BLOCKED;
	rcu_task()->wait = MLF_WAIT_CALLBACK;
	rcu_task()->wait_on = rcu_task();
	rcu_task()->task.softirq_depth = 1;	/* callbacks run in softirq */

	S.next_decision = 0;
	S.countdown = cfg->nr_decisions ? max(cfg->decisions[0].delay, 1) : 0;
	S.next_weak = 0;
	S.weak_countdown = cfg->memory_model == MLF_MM_LKMM &&
				   cfg->policy != MLF_SCHED_EXPLORE &&
				   cfg->nr_weak ?
		max(cfg->weak[0].delay, 1) : 0;
	if (cfg->policy == MLF_SCHED_PCT || cfg->policy == MLF_SCHED_PCT_RANDOM)
		pct_setup(cfg);

	S.main_task = mlf_current();
	mlf_fiber_init_main(&S.main);
	mlf_rcu_model_begin();
	if (cfg->memory_model == MLF_MM_LKMM)
		mlf_wmm_begin(S.nr, cfg->policy == MLF_SCHED_EXPLORE ?
					    cfg->promises : 0);
	__atomic_store_n(&mlf_sched_on, 1, __ATOMIC_RELAXED);

	/*
	 * The first task: PCT's highest priority, else t0; every task's
	 * first point is a choice of who starts, which no preemption costs.
	 */
	S.cur = task_at(0);
	first = cfg->policy == MLF_SCHED_PCT ||
			cfg->policy == MLF_SCHED_PCT_RANDOM ?
			choose_pct(false) : task_at(0);
	enter(first);
	mlf_tsan_release(&S.start_token);
	mlf_fiber_switch(&S.main, &first->fiber);
	mlf_tsan_acquire(&S.end_token);

	/*
	 * Every task is done. Each fiber waits in run_another() (done) or
	 * in mlf_sched_block() (rcu's, for a callback): the next run resumes
	 * it there. One left anywhere else (a failure a test's handler
	 * caught) starts afresh.
	 */
	for (i = 0; i < S.nr; i++)
		task_at(i)->parked = task_at(i)->state == T_DONE;
	rcu_task()->parked = rcu_task()->state == T_BLOCKED &&
			     rcu_task()->wait == MLF_WAIT_CALLBACK;
	__atomic_store_n(&mlf_sched_on, 0, __ATOMIC_RELAXED);
	if (cfg->memory_model == MLF_MM_LKMM) {
		S.stats.stale_reads = mlf_wmm_stale_reads();
		mlf_wmm_end(&S.stats);
	}
	mlf_current_task = S.main_task;
	S.stats.steps = S.step;
	S.hb = S.hb_clock = false;
	mlf_rcu_model_end(&S.stats);
	if (stats)
		*stats = S.stats;
}

MLF_NO_TSAN void mlf_explore_use(struct mlf_explore_visited *visited,
				 struct mlf_explore_stats *stats)
{
	S.visited = visited;
	S.explore_stats = stats;
}
