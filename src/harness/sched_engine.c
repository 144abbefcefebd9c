// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduled concurrent engine (sched_engine.h): the tasks' ops, the
 * slots' life cycle, the probes that check each step, and the checks at
 * quiescence.
 */
#include "sched_engine.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/checks.h"
#include "check/fast_checks.h"
#include "check/lin.h"
#include "check/slot.h"
#include "check/walk_checks.h"
#include "check/walk_stale.h"
#include "kernel/rcu_model.h"
#include "kernel/sanitizer.h"
#include "world.h"

#define MAX_TASKS (SCHED_MAX_WRITERS + SCHED_MAX_READERS)
#define MAX_HELD 16

struct slot {
	struct mem_cgroup *memcg;	/* published: rcu_assign_pointer */
	int state;			/* enum mlf_slot_state, relaxed atomics */
	/* the memcg allocated for the slot until its release returned */
	struct mem_cgroup *alloc;
};

struct task_state {
	struct mlf_walk_check walk;
	struct mlf_walk_stale stale;
	struct scan_control *sc;
	struct mem_cgroup *held[MAX_HELD];
	int nr_held;
};

static struct {
	const struct sched_input *in;
	struct mlf_world world;
	struct slot slots[SCHED_MAX_POOL];
	struct task_state tasks[MAX_TASKS];
	struct mlf_lin lin;
	int nr_tasks;
	bool hash;
	struct sched_stats *stats;
} E;

static const char *const op_names[SOP_NR] = {
	[SOP_ONLINE] = "online",   [SOP_OFFLINE] = "offline",
	[SOP_RELEASE] = "release", [SOP_ROTATE] = "rotate",
	[SOP_SOFT] = "soft",	   [SOP_SET] = "set",
	[SOP_HOLD] = "hold",	   [SOP_DROP] = "drop",
	[SOP_RECLAIM] = "reclaim",
};

const char *sched_op_name(int kind)
{
	return kind >= 0 && kind < SOP_NR ? op_names[kind] : "?";
}

/* ---- the harness's own state: relaxed atomics, no ordering ---- */

static int state_of(struct slot *s)
{
	return __atomic_load_n(&s->state, __ATOMIC_RELAXED);
}

/*
 * The harness's writes of its own state, from a task: a slot's state is
 * read by other tasks' harness steps (each after a harness point, which
 * depends on every step) and by the probes, which look on; its memcg by
 * the checks at any step. So for the exploration's reduction a step that
 * sets a state is a write the looks depend on, one that sets the memcg
 * depends on every step (schedule.h).
 */
static void set_state(struct slot *s, int state)
{
	mlf_sched_note_write();
	/* the cgroup core's order between a memcg's steps, to the model */
	mlf_wmm_handover_release(s);
	__atomic_store_n(&s->state, state, __ATOMIC_RELAXED);
}

/* ... which the next step of the slot's life cycle takes up */
static void take_over(struct slot *s)
{
	mlf_wmm_handover_acquire(s);
}

static struct mem_cgroup *alloc_of(int i)
{
	return __atomic_load_n(&E.slots[i].alloc, __ATOMIC_RELAXED);
}

/*
 * The memcg offline and release act on: the cgroup core hands it to them
 * under cgroup_mutex, after its online, in whichever task; an acquire of
 * set_alloc()'s release stands for that (relaxed, ThreadSanitizer saw the
 * port's offline of a memcg another task allocated race with calloc()).
 */
static struct mem_cgroup *handed_over(int i)
{
	return __atomic_load_n(&E.slots[i].alloc, __ATOMIC_ACQUIRE);
}

static void set_alloc(int i, struct mem_cgroup *memcg)
{
	mlf_sched_observe();
	__atomic_store_n(&E.slots[i].alloc, memcg, __ATOMIC_RELEASE);
	mlf_lin_memcgs_changed(&E.lin);
}

static long refs_of(struct mem_cgroup *memcg)
{
	return __atomic_load_n(&memcg->refcnt.counter, __ATOMIC_RELAXED);
}

/*
 * The checks' view of slot @i: its memcg, unless a bug freed it already
 * (then its lrugens are poison the checks must not follow).
 */
MLF_NO_TSAN static struct mem_cgroup *lin_memcg_of(void *arg, int i)
{
	struct mem_cgroup *memcg = alloc_of(i);

	(void)arg;
	if (memcg && mlf_sched_running() &&
	    mlf_rcu_model_freed(memcg))
		return NULL;
	return memcg;
}

/* A step of the harness's bookkeeping: a scheduling point of its own. */
#define harness_point(p) mlf_point(MLF_PT_HARNESS, (p))

static void fail_with(struct mlf_failure *f)
{
	mlf_fail(f);
}

/*
 * What the current task's op asks of the nodes from now on (lin.step
 * judges its sections by it): @kind (LIN_EXPECT_*), the rotation @op, on
 * node @nid (-1: every node), of the memcg in @slot (-1: none of the
 * slots'), its first move into @bin if the input chose it (else -1).
 */
MLF_NO_TSAN static void expect(int kind, int op, int nid, int slot, int bin)
{
	struct lin_expect e = {
		.kind = (u8)kind,
		.op = (u8)op,
		.nid = (s8)nid,
		.slot = slot,
		/* the memcg there now, which another may replace before */
		.memcg = slot >= 0 ? alloc_of(slot) : NULL,
		.bin = bin,
	};

	mlf_lin_expect(&E.lin, mlf_sched_task_index(), &e);
}

/* The bin an op's first draw gives, if the input chose it (sched_op.bin). */
static int first_bin(const struct sched_op *op)
{
	return op->bin ? (int)mlf_draw_from_byte(op->bin - 1, MEMCG_NR_BINS) :
			 -1;
}

/* ---- pinning, the kernel's way ---- */

static struct mem_cgroup *pin(int i)
{
	struct slot *s = &E.slots[i];
	struct mem_cgroup *memcg;

	rcu_read_lock();
	memcg = rcu_dereference(s->memcg);
	if (memcg && !mem_cgroup_tryget(memcg))
		memcg = NULL;
	rcu_read_unlock();
	return memcg;
}

static void set_shrink(struct mem_cgroup *memcg, u8 flags)
{
	WRITE_ONCE(memcg->shrink.below_min, !!(flags & SOP_SHRINK_BELOW_MIN));
	WRITE_ONCE(memcg->shrink.below_low, !!(flags & SOP_SHRINK_BELOW_LOW));
	WRITE_ONCE(memcg->shrink.success, !!(flags & SOP_SHRINK_SUCCESS));
	WRITE_ONCE(memcg->shrink.sizable, !!(flags & SOP_SHRINK_SIZABLE));
	WRITE_ONCE(memcg->shrink.nr_reclaimed, flags >> 4);
}

/* ---- ops ---- */

/* @bin: the bin the online's draw gives, if the input chose it, else -1 */
static bool do_online(int i, u8 flags, int bin)
{
	struct slot *s = &E.slots[i];
	struct mem_cgroup *memcg;

	harness_point(s);
	if (state_of(s) != SLOT_EMPTY)
		return false;
	take_over(s);
	set_state(s, SLOT_ONLINING);
	memcg = mem_cgroup_alloc(i);
	set_alloc(i, memcg);
	if (mlf_sched_running())
		expect(LIN_EXPECT_ONLINE, 0, -1, i, bin);
	set_shrink(memcg, flags);
	mem_cgroup_css_online(memcg);
	rcu_assign_pointer(s->memcg, memcg);
	set_state(s, SLOT_ONLINE);
	return true;
}

/* @bin: the bin of the first node's rotation, if the input chose it */
static bool do_offline(int i, int bin)
{
	struct slot *s = &E.slots[i];
	struct mem_cgroup *memcg;

	/* nothing of the slot is read before its point: others may change it */
	harness_point(s);
	if (state_of(s) != SLOT_ONLINE)
		return false;
	take_over(s);
	memcg = handed_over(i);
#ifdef MLF_TREE_HAS_OFFLINE_OLD
	/* css_offline(): OLD on every node */
	expect(LIN_EXPECT_ROTATE, MEMCG_LRU_OLD, -1, i, bin);
#endif
	set_state(s, SLOT_OFFLINING);
	css_offline(memcg);
	set_state(s, SLOT_OFFLINE);
	/* the base reference: maybe the last, then the memcg is dead */
	mem_cgroup_put(memcg);
	return true;
}

static bool try_release(int i)
{
	struct slot *s = &E.slots[i];
	struct mem_cgroup *memcg;

	harness_point(s);
	if (state_of(s) != SLOT_OFFLINE || refs_of(handed_over(i)))
		return false;
	take_over(s);
	memcg = handed_over(i);
	/* css_release's work runs after the last put of a reference */
	mlf_wmm_acquire_newest(&memcg->refcnt.counter,
			       sizeof(memcg->refcnt.counter));
	set_state(s, SLOT_RELEASING);
	expect(LIN_EXPECT_RELEASE, 0, -1, i, -1);
	rcu_assign_pointer(s->memcg, NULL);
	/* mem_cgroup_css_released(), then the free after a grace period */
	css_release(memcg);
	set_alloc(i, NULL);
	set_state(s, SLOT_EMPTY);
	return true;
}

static bool do_release(int from)
{
	int k;

	for (k = 0; k < E.in->pool_size; k++)
		if (try_release((from + k) % E.in->pool_size))
			return true;
	return false;
}

static void drop_held(struct task_state *ts)
{
	mem_cgroup_put(ts->held[0]);
	memmove(&ts->held[0], &ts->held[1], --ts->nr_held * sizeof(ts->held[0]));
}

/* The node's seq as the harness looks on (walk.stale_young). */
MLF_NO_TSAN static unsigned long node_seq(int nid)
{
	return E.world.cs.nodes[nid].memcg_lru.seq;
}

static struct lru_gen_memcg *node_lru(int nid)
{
	return &E.world.cs.nodes[nid].memcg_lru;
}

static bool do_reclaim(struct task_state *ts, int nid, u16 target)
{
	struct scan_control sc = {
		.nr_to_reclaim = mlf_nr_to_reclaim(target),
		.priority = 12,
		.proactive = 1,
	};
	struct mlf_failure *f = mlf_failure_scratch();
	bool aborted, ok;

	/* the walk checks start from the node as the harness sees it */
	mlf_sched_look();
	mlf_walk_check_begin(&ts->walk, nid, mlf_sched_task_index());
	mlf_walk_stale_begin(&ts->stale, nid, node_seq(nid));
	/* its sections: the rotations its visits decide, the releases */
	expect(LIN_EXPECT_NONE, 0, nid, -1, -1);
	ts->sc = &sc;
	mlf_shrink_many(NODE_DATA(nid), &sc);
	ts->sc = NULL;
	aborted = mlf_reclaim_met(&sc);
	mlf_sched_look_on_begin();
	ok = mlf_walk_check_end(&ts->walk, &E.lin, aborted, f);
	mlf_sched_look_on_end();
	if (!ok)
		fail_with(f);
	/* every reader counts: relaxed atomics, like ops and skipped */
	__atomic_fetch_add(&E.stats->walks, 1, __ATOMIC_RELAXED);
	return true;
}

/* whether the tree has what @op runs: its rotation, soft reclaim */
bool sched_op_in_tree(const struct sched_op *op)
{
	switch (op->kind % SOP_RECLAIM) {
	case SOP_ROTATE:
		return mlf_tree_has_rotation(mlf_rotation(op->arg % MLF_NR_ROTATIONS));
	case SOP_SOFT:
#ifdef MLF_TREE_HAS_SOFT_RECLAIM
		return true;
#else
		return false;
#endif
	default:
		return true;
	}
}

static bool apply(int t, const struct sched_op *op)
{
	struct task_state *ts = &E.tasks[t];
	int i = op->slot % E.in->pool_size;
	int nid = op->node % E.in->nr_nodes;
	struct mem_cgroup *memcg;

	if (t >= E.in->nr_writers)
		return do_reclaim(ts, nid, op->target);
	/*
	 * What the op asks of the nodes, for lin.step: nothing until it knows
	 * which memcg it acts on (after its own points: another task may
	 * change the slot before).
	 */
	expect(LIN_EXPECT_NONE, 0, -1, -1, -1);
	switch (op->kind % SOP_RECLAIM) {
	case SOP_ONLINE:
		return do_online(i, op->arg, first_bin(op));
	case SOP_OFFLINE:
		return do_offline(i, first_bin(op));
	case SOP_RELEASE:
		return do_release(i);
	case SOP_HOLD:
		if (ts->nr_held == MAX_HELD)
			return false;
		memcg = pin(i);
		if (!memcg)
			return false;
		ts->held[ts->nr_held++] = memcg;
		return true;
	case SOP_DROP:
		if (!ts->nr_held)
			return false;
		drop_held(ts);
		return true;
	}
	/* a rotation, or soft reclaim, the tree does not have: skipped */
	if (!sched_op_in_tree(op))
		return false;
	memcg = pin(i);
	if (!memcg)
		return false;
	switch (op->kind % SOP_RECLAIM) {
	case SOP_ROTATE:
		expect(LIN_EXPECT_ROTATE, mlf_rotation(op->arg % MLF_NR_ROTATIONS), nid,
		       i, first_bin(op));
		mlf_rotate_memcg(get_lruvec(memcg, nid),
				 mlf_rotation(op->arg % MLF_NR_ROTATIONS));
		break;
#ifdef MLF_TREE_HAS_SOFT_RECLAIM
	case SOP_SOFT:
		/* HEAD, or no section when already in the head segment */
		expect(LIN_EXPECT_ROTATE, MEMCG_LRU_HEAD, nid, i, first_bin(op));
		if (op->arg & 1)
			mlf_softirq_enter();
		lru_gen_soft_reclaim(memcg, nid);
		if (op->arg & 1)
			mlf_softirq_exit();
		break;
#endif
	case SOP_SET:
		set_shrink(memcg, op->arg);
		break;
	}
	mem_cgroup_put(memcg);
	return true;
}

static u64 mix(u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static void task_fn(int t, void *arg)
{
	const struct sched_input *in = arg;
	struct task_state *ts = &E.tasks[t];
	int i;

	for (i = 0; i < in->nr_ops; i++) {
		u8 first;

		if (in->ops[i].task % E.nr_tasks != t)
			continue;
		mlf_current_op = i;
		/*
		 * The op's draws: its own, whoever runs before it; the first
		 * chosen by the input where it says so.
		 */
		first = in->ops[i].bin ? in->ops[i].bin - 1 : 0;
		mlf_entropy_seed_after(&first, in->ops[i].bin ? 1 : 0,
				       mix(((u64)in->seed << 16) ^ (u64)i));
		if (apply(t, &in->ops[i]))
			__atomic_fetch_add(&E.stats->ops, 1, __ATOMIC_RELAXED);
		else
			__atomic_fetch_add(&E.stats->skipped, 1,
					   __ATOMIC_RELAXED);
	}
	mlf_current_op = MLF_NONE;
	expect(LIN_EXPECT_NONE, 0, -1, -1, -1);
	while (ts->nr_held)
		drop_held(ts);
	/* its last store took effect: it passes no point after it */
	mlf_lin_commit(&E.lin, t, mlf_sched_step());
}

/* ---- the probes: every step, every walk event ---- */

/*
 * fast_structure() (fast_checks.h) of node @nid through the map
 * fill_world() made. The world keeps no map otherwise: the checks one by
 * one fill one of their own, and world_destroy() must not take it for the
 * sequential driver's.
 */
static bool fast_structure_quiescent(int nid)
{
	bool ok;

	E.world.cs.map_kept = true;
	ok = fast_structure(&E.world.cs, nid);
	E.world.cs.map_kept = false;
	return ok;
}

/*
 * At the end of a critical section of node @nid, the node's lists as the
 * lock leaves them for the next writer: every link and nulls value, the
 * cached tails, the counts. A writer relies on them when it takes the lock
 * (lru_gen_add_memcg() links behind the cached tail), so they hold at each
 * release, not only at quiescence. Membership and seq wait for quiescence:
 * they depend on ops that span several sections.
 *
 * After mlf_lin_step(), whose walk of the node's lists (read_port()) also
 * found whether list.links, tail.cache and nr_memcgs hold: only when they
 * may not do those checks run, one by one, to name what is wrong.
 */
MLF_NO_TSAN static void section_structure(int nid)
{
	struct mlf_failure *f;
	bool ok;
	int i;

	if (E.lin.port_links_ok)
		return;
	f = mlf_failure_scratch();
	/* not a memcg a bug freed already: its lrugens are poison */
	for (i = 0; i < E.in->pool_size; i++)
		E.world.cs.slots[i].memcg = lin_memcg_of(NULL, i);
	ok = check_list_links(&E.world.cs, nid, f) &&
	     check_tail_cache(&E.world.cs, nid, f) &&
	     check_nr_memcgs(&E.world.cs, nid, f);
	if (!ok)
		fail_with(f);
}

MLF_NO_TSAN static void on_point(enum mlf_point kind, const volatile void *addr,
				 void *arg)
{
	int t = mlf_sched_task_index();
	unsigned long step = mlf_sched_step();
	struct mlf_failure *f;
	int nid;

	(void)arg;
	/*
	 * The task's store (or a walk's read) at its previous point has
	 * taken effect: it ran from there to here with no other task.
	 */
	mlf_lin_commit(&E.lin, t, step);
	/*
	 * A walk's gen read is judged here against the lists and the stores
	 * other tasks made: for the exploration's reduction, the step looks.
	 */
	if (t >= 0 && t < E.nr_tasks && E.tasks[t].walk.active &&
	    E.tasks[t].walk.gen_read.pending)
		mlf_sched_look();
	if (t >= 0 && t < E.nr_tasks)
		mlf_walk_check_point(&E.tasks[t].walk, &E.lin,
				     kind == MLF_PT_READ && !mlf_locks_held,
				     (const void *)addr, step);
	if (kind == MLF_PT_WRITE || kind == MLF_PT_PUBLISH) {
		/* who touched which lrugen when: the walk checks need it */
		mlf_sched_note_write();
		mlf_lin_touch(&E.lin, (const void *)addr, step, t);
		return;
	}
	if (kind != MLF_PT_UNLOCK)
		return;
	nid = mlf_lin_node_of_lock(&E.lin, (const void *)addr);
	if (nid < 0)
		return;
	/* the end of a critical section of node nid: one operation */
	mlf_sched_look();
	f = mlf_failure_scratch();
	if (!mlf_lin_step(&E.lin, nid, step, t, f))
		fail_with(f);
	section_structure(nid);
	E.stats->sections++;
}

/* The pool slot of a memcg the walk met (read as the harness looks on). */
MLF_NO_TSAN static int slot_of_memcg(struct mem_cgroup *memcg)
{
	int i;

	for (i = 0; i < E.in->pool_size; i++)
		if (alloc_of(i) == memcg)
			return i;
	return -1;
}

MLF_NO_TSAN static void walk_probe_checks(enum mlf_walk_event event,
					  void *obj, long arg)
{
	int t = mlf_sched_task_index();
	struct task_state *ts;
	struct mlf_failure *f = mlf_failure_scratch();
	int slot = -1;

	if (t < 0 || t >= E.nr_tasks)
		return;
	ts = &E.tasks[t];
	switch (event) {
	case MLF_WALK_START:
		if ((unsigned long)arg >= MEMCG_NR_GENS)
			mlf_fail_simple("reader.nulls",
					"shrink_many() starts on generation %ld",
					arg);
		break;
	case MLF_WALK_NULLS:
		if ((unsigned long)arg >= MEMCG_NR_GENS)
			mlf_fail_simple("reader.nulls",
					"a pass ended on nulls value %#lx, not a generation (0..%d)",
					(unsigned long)arg, MEMCG_NR_GENS - 1);
		break;
	case MLF_WALK_RESTART:
		E.stats->restarts++;
		break;
	case MLF_WALK_VISIT:
		E.stats->visits++;
		slot = slot_of_memcg(lruvec_memcg(obj));
		if (slot < 0)
			mlf_fail_simple("rcu.uaf",
					"shrink_one() on lruvec %p, of no live memcg",
					obj);
		break;
	case MLF_WALK_TRYGET_FAILED:
		slot = slot_of_memcg(obj);
		/* lru_gen_release_memcg() of it on every node follows */
		expect(LIN_EXPECT_RELEASE, 0, -1, slot, -1);
		break;
	case MLF_WALK_BIN:
	case MLF_WALK_END:
		break;
	}
	if (!mlf_walk_check_event(&ts->walk, &E.lin, event, arg, slot,
				  mlf_sched_step(), f))
		fail_with(f);
	if (event == MLF_WALK_START || event == MLF_WALK_VISIT) {
		/* a visit of no live memcg failed as rcu.uaf above */
		int memcg_gen = event == MLF_WALK_VISIT && slot >= 0 ?
			((struct lruvec *)obj)->lrugen.gen : -1;
		struct mlf_wmm_read r;

		/*
		 * Under the weak memory model, the seq and the gen the
		 * walker read, which may be older than memory's
		 */
		if (event == MLF_WALK_START &&
		    mlf_wmm_last_load(&node_lru(ts->stale.nid)->seq, &r))
			ts->stale.seq_begin = r.value;
		if (memcg_gen >= 0 &&
		    mlf_wmm_last_load(&((struct lruvec *)obj)->lrugen.gen, &r))
			memcg_gen = (int)r.value;

		if (!mlf_walk_stale_event(&ts->stale, event, arg, slot,
					  memcg_gen, node_seq(ts->stale.nid),
					  f))
			fail_with(f);
	}
}

/*
 * What shrink_one() decided: the rotation the walk applies next (lin.step
 * judges it by that), and a YOUNG in an offline's window, counted.
 */
MLF_NO_TSAN static void result_probe(void *lruvec, int op)
{
	struct mem_cgroup *memcg = lruvec_memcg(lruvec);
	int t = mlf_sched_task_index();
	int slot;

	mlf_sched_look();
	slot = slot_of_memcg(memcg);
	if (t >= 0 && t < E.nr_tasks)
		expect(op ? LIN_EXPECT_ROTATE : LIN_EXPECT_NONE, op,
		       E.tasks[t].walk.nid, op ? slot : -1, -1);

	if (op == MEMCG_LRU_YOUNG && slot >= 0 &&
	    state_of(&E.slots[slot]) == SLOT_OFFLINING &&
	    /* the harness looks on: no scheduling point */
	    __atomic_load_n(&memcg->online, __ATOMIC_RELAXED))
		E.stats->young_in_offline_window++;
}

/*
 * The checks judge the step the event came at: nothing they call may be a
 * scheduling point (the shim's accessors are), or another task would run
 * in the middle of a check.
 */
MLF_NO_TSAN static void walk_probe(enum mlf_walk_event event, void *obj,
				   long arg)
{
	mlf_sched_look_on_begin();
	walk_probe_checks(event, obj, arg);
	mlf_sched_look_on_end();
}

/*
 * The port's state, by slot ids, and what each task carries: the state
 * the heuristic mode of the exploration hashes (not all of it: the
 * lrugens' fields, the cached tails, the RCU model's unlinked nodes and
 * the checks' histories are left out), and at quiescence the final state
 * the modes are compared by.
 */
MLF_NO_TSAN static u64 state_hash(void *arg)
{
	u64 h = 0x84222325cbf29ce4ULL;
	int nid, g, b, i;

	(void)arg;
#define HASH(v) (h = (h ^ (u64)(v)) * 0x100000001b3ULL)
	for (nid = 0; nid < E.in->nr_nodes; nid++) {
		const struct lru_gen_memcg *lru = &E.world.cs.nodes[nid].memcg_lru;

		HASH(lru->seq);
		for (g = 0; g < MEMCG_NR_GENS; g++) {
			HASH(lru->nr_memcgs[g]);
			for (b = 0; b < MEMCG_NR_BINS; b++) {
				const struct hlist_nulls_node *pos =
					lru->fifo[g][b].first;
				int n = 0;

				for (; !is_a_nulls(pos) && n <= E.in->pool_size;
				     pos = pos->next, n++) {
					const struct lruvec *lv = container_of(
						pos, struct lruvec, lrugen.list);

					HASH(lruvec_memcg((struct lruvec *)lv)->id);
					HASH(lv->lrugen.seg);
				}
				HASH(n);
			}
		}
	}
	for (i = 0; i < E.in->pool_size; i++) {
		struct mem_cgroup *memcg = alloc_of(i);

		HASH(E.slots[i].state);
		HASH(memcg ? refs_of(memcg) + 1 : 0);
	}
	/*
	 * What a task carries that the structures do not show: a walk's
	 * generation, pass and the memcgs it met (the last one is where it
	 * stands), what reclaim found so far, the references it holds.
	 */
	for (i = 0; i < E.nr_tasks; i++) {
		const struct task_state *ts = &E.tasks[i];
		const struct mlf_walk_check *w = &ts->walk;
		int k;

		HASH(w->active);
		HASH(w->gen);
		HASH(w->bin);
		HASH(w->bins_done);
		HASH(w->pass_open);
		HASH(w->last_nulls);
		HASH(w->met);
		HASH(w->pass_met);
		HASH(w->derailed);
		HASH(w->nr_log ? w->log[(w->nr_log - 1) % ARRAY_SIZE(w->log)].slot : -2);
		HASH(ts->stale.seq_begin);
		HASH(ts->sc ? ts->sc->nr_reclaimed + 1 : 0);
		HASH(ts->nr_held);
		for (k = 0; k < ts->nr_held; k++)
			HASH(ts->held[k]->id);
	}
#undef HASH
	return h;
}

/* ---- set-up, quiescence, tear-down ---- */

static void (*print_input)(void);

void sched_engine_context(void (*printer)(void))
{
	print_input = printer;
}

/*
 * After a failure: the input around the op, then the schedule's last
 * steps: 60, or MLF_SCHED_STEPS (up to 512).
 */
static void print_schedule(void)
{
	const char *env = getenv("MLF_SCHED_STEPS");
	int n = env ? atoi(env) : 60;

	if (print_input)
		print_input();
	mlf_sched_print_recent(n > 0 ? n : 60);
}

static void setup(const struct sched_input *in, struct sched_stats *stats)
{
	struct mlf_failure f;
	int i;

	memset(&E.slots, 0, sizeof(E.slots));
	memset(&E.tasks, 0, sizeof(E.tasks));
	E.in = in;
	E.stats = stats;
	E.nr_tasks = in->nr_writers + in->nr_readers;
	world_init(&E.world, in->nr_nodes, in->pool_size);
	mlf_current_op = MLF_NONE;
	for (i = 0; i < in->nr_initial && i < in->pool_size; i++) {
		u8 bin = in->initial_bin ? in->initial_bin - 1 : 0;

		mlf_entropy_seed_after(&bin, in->initial_bin ? 1 : 0,
				       mix(((u64)in->seed << 16) ^ 0xffffULL ^ i));
		do_online(i, (u8)mix(in->seed + i), -1);
	}
	for (i = 0; i < in->nr_nodes; i++)
		E.world.cs.seq_before[i] = E.world.cs.nodes[i].memcg_lru.seq;
	mlf_lin_init(&E.lin, E.world.cs.nodes, in->nr_nodes, in->pool_size,
		     lin_memcg_of, NULL);
	if (!mlf_lin_sync(&E.lin, &f))
		fail_with(&f);
	/* every task (and rcu's) says what its sections may do */
	for (i = MLF_SCHED_RCU_TASK; i < E.nr_tasks; i++) {
		struct lin_expect none = { .kind = LIN_EXPECT_NONE, .nid = -1,
					   .slot = -1, .bin = -1 };

		mlf_lin_expect(&E.lin, i, &none);
	}
	mlf_walk_probe = walk_probe;
	mlf_walk_result_probe = result_probe;
	mlf_set_context_printer(print_schedule);
}

/* The world's slots as the engine's, for the structure checks. */
static void fill_world(void)
{
	int i;

	for (i = 0; i < E.in->pool_size; i++) {
		struct mem_cgroup *memcg = alloc_of(i);

		E.world.cs.slots[i].memcg = memcg;
		E.world.cs.slots[i].state = !memcg ? SLOT_EMPTY :
					 state_of(&E.slots[i]) == SLOT_ONLINE ?
						 SLOT_ONLINE :
					 refs_of(memcg) ? SLOT_OFFLINE :
							  SLOT_DEAD;
		E.world.cs.slots[i].refs = 0;
	}
	mlf_lrugen_map_fill(&E.world.cs.map, E.world.cs.slots, E.in->pool_size,
			    E.in->nr_nodes);
}

static __attribute__((format(printf, 2, 3))) void
fail_conservation(int slot, const char *fmt, ...)
{
	struct mlf_failure f;
	va_list ap;

	mlf_failure_at(&f, "conservation", MLF_NONE, MLF_NONE, MLF_NONE, slot);
	va_start(ap, fmt);
	vsnprintf(f.msg, sizeof(f.msg), fmt, ap);
	va_end(ap);
	fail_with(&f);
}

static void quiescence(void)
{
	struct mlf_failure f;
	int i, nid;

	mlf_current_op = MLF_NONE;
	if (!mlf_lin_final(&E.lin, &f))
		fail_with(&f);
	for (i = 0; i < E.in->pool_size; i++) {
		struct mem_cgroup *memcg = alloc_of(i);
		int state = state_of(&E.slots[i]);

		if (state != SLOT_EMPTY && state != SLOT_ONLINE &&
		    state != SLOT_OFFLINE)
			fail_conservation(i, "m%d is in a transient state (%d) at quiescence",
					  i, state);
		if (state == SLOT_ONLINE && refs_of(memcg) != 1)
			fail_conservation(i, "online m%d holds %ld references at quiescence, not 1",
					  i, refs_of(memcg));
		if (state == SLOT_OFFLINE && refs_of(memcg))
			fail_conservation(i, "offline m%d holds %ld references at quiescence (a leak)",
					  i, refs_of(memcg));
	}
	fill_world();
	for (nid = 0; nid < E.in->nr_nodes; nid++) {
		/* seq_before: the node's seq when the tasks started */
		if (!check_seq_monotonic(&E.world.cs, nid, &f))
			fail_with(&f);
		if (!fast_structure_quiescent(nid) &&
		    !check_structure(&E.world.cs, nid, &f))
			fail_with(&f);
	}
}

static void teardown(void)
{
	int i;

	mlf_walk_probe = NULL;
	mlf_walk_result_probe = NULL;
	mlf_current_op = MLF_NONE;
	for (i = 0; i < E.in->pool_size; i++) {
		struct slot *s = &E.slots[i];
		struct mem_cgroup *memcg = alloc_of(i);

		if (!memcg)
			continue;
		if (state_of(s) == SLOT_ONLINE) {
			css_offline(memcg);
			mem_cgroup_put(memcg);
		}
		css_release(memcg);
		set_alloc(i, NULL);
		s->memcg = NULL;
		set_state(s, SLOT_EMPTY);
		E.world.cs.slots[i].memcg = NULL;
		E.world.cs.slots[i].state = SLOT_EMPTY;
	}
	/* rcu_barrier(): every css_free has run */
	world_destroy(&E.world);
	mlf_lin_destroy(&E.lin);
	if (mem_cgroup_nr_allocated())
		fail_conservation(MLF_NONE,
				  "%ld memcgs still allocated after every one was released and a grace period passed",
				  mem_cgroup_nr_allocated());
}

static void run(const struct sched_input *in, struct mlf_sched_config *cfg,
		struct sched_stats *stats)
{
	static const char *const names[MAX_TASKS] = {
		"writer", "writer", "writer", "reader", "reader",
	};
	const char *task_names[MAX_TASKS];
	int t;

	setup(in, stats);
	for (t = 0; t < E.nr_tasks; t++)
		task_names[t] = t < in->nr_writers ? names[0] : names[3];
	cfg->nr_tasks = E.nr_tasks;
	cfg->fn = task_fn;
	cfg->arg = (void *)in;
	cfg->names = task_names;
	if (cfg->policy != MLF_SCHED_PCT_RANDOM)
		cfg->seed = in->seed;
	cfg->on_point = on_point;
	cfg->memory_model = in->memory_model;
	mlf_sched_run(cfg, &stats->sched);
	stats->runs++;
	/* a broken promise: no execution, nothing to judge (sched_input) */
	if (stats->sched.discarded)
		return;
	stats->steps_total += stats->sched.steps;
	quiescence();
	stats->final_state = state_hash(NULL);
	teardown();
}

void sched_engine_run(const struct sched_input *in, struct sched_stats *stats)
{
	struct mlf_sched_config cfg = {
		.policy = in->policy,
		.decisions = in->decisions,
		.nr_decisions = in->nr_decisions,
		.weak = in->weak,
		.nr_weak = in->nr_weak,
	};

	run(in, &cfg, stats);
}

void sched_engine_pct(const struct sched_input *in, u64 seed, int depth,
		      unsigned long steps, struct sched_stats *stats)
{
	struct mlf_sched_config cfg = {
		.policy = MLF_SCHED_PCT_RANDOM,
		.seed = seed,
		.pct_depth = depth,
		.pct_steps = steps,
	};

	run(in, &cfg, stats);
}

void sched_engine_explore(const struct sched_input *in,
			  struct mlf_explore_run *explore,
			  struct sched_stats *stats)
{
	struct mlf_sched_config cfg = {
		.policy = MLF_SCHED_EXPLORE,
		.explore = explore,
		.promises = in->promises,
	};

	explore->state_hash = state_hash;
	explore->hash_arg = NULL;
	run(in, &cfg, stats);
}
