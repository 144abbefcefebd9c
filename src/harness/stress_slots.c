// SPDX-License-Identifier: GPL-2.0
/*
 * The concurrent engine's slots and ops: each slot's life cycle (EMPTY ->
 * ONLINING -> ONLINE -> OFFLINING -> OFFLINE -> RELEASING -> EMPTY), the
 * references a writer holds across ops, and stress_apply(), which applies one
 * op from inside a job.
 *
 * The harness's own bookkeeping (which slot holds which memcg, in which
 * stage of its life) has a mutex per slot, held only while deciding, never
 * around a call into the port's LRU code, so the port's own locking is what
 * keeps it right. A thread that uses a memcg holds a reference while it
 * does; "dead" is refcnt == 0, which is permanent, and the one thread that
 * claims a dead memcg (OFFLINE -> RELEASING under the slot mutex) calls
 * css_release(), which frees it after a grace period.
 */
#define _GNU_SOURCE
#include "stress_internal.h"

#include <sched.h>
#include <string.h>

static int slot_state(struct stress_slot *s)
{
	return __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
}

static void set_slot_state(struct stress_slot *s, int state)
{
	__atomic_store_n(&s->state, state, __ATOMIC_RELEASE);
}

long stress_memcg_refs(struct mem_cgroup *memcg)
{
	/* acquire: whoever dropped the last reference is done with it */
	return __atomic_load_n(&memcg->refcnt.counter, __ATOMIC_ACQUIRE);
}

/* A reference on the slot's memcg, or NULL if it has none to give. */
static struct mem_cgroup *pin(int i)
{
	struct stress_slot *s = &stress_slots[i];
	struct mem_cgroup *memcg = NULL;
	int state;

	pthread_mutex_lock(&s->lock);
	state = slot_state(s);
	if ((state == CS_ONLINE || state == CS_OFFLINING ||
	     state == CS_OFFLINE) &&
	    mem_cgroup_tryget(s->memcg))
		memcg = s->memcg;
	pthread_mutex_unlock(&s->lock);
	return memcg;
}

static void set_shrink(struct mem_cgroup *memcg, u8 flags)
{
	WRITE_ONCE(memcg->shrink.below_min, !!(flags & STRESS_SHRINK_BELOW_MIN));
	WRITE_ONCE(memcg->shrink.below_low, !!(flags & STRESS_SHRINK_BELOW_LOW));
	WRITE_ONCE(memcg->shrink.success, !!(flags & STRESS_SHRINK_SUCCESS));
	WRITE_ONCE(memcg->shrink.sizable, !!(flags & STRESS_SHRINK_SIZABLE));
	WRITE_ONCE(memcg->shrink.nr_reclaimed, flags >> 4);
}

bool stress_do_online(int i, u8 flags)
{
	struct stress_slot *s = &stress_slots[i];
	struct mem_cgroup *memcg;

	pthread_mutex_lock(&s->lock);
	if (slot_state(s) != CS_EMPTY) {
		pthread_mutex_unlock(&s->lock);
		return false;
	}
	set_slot_state(s, CS_ONLINING);
	pthread_mutex_unlock(&s->lock);

	memcg = mem_cgroup_alloc(i);
	stress_tl.allocs++;
	set_shrink(memcg, flags);
	mem_cgroup_css_online(memcg);

	pthread_mutex_lock(&s->lock);
	s->memcg = memcg;
	set_slot_state(s, CS_ONLINE);
	pthread_mutex_unlock(&s->lock);
	return true;
}

static bool do_offline(int i)
{
	struct stress_slot *s = &stress_slots[i];
	struct mem_cgroup *memcg;

	pthread_mutex_lock(&s->lock);
	if (slot_state(s) != CS_ONLINE) {
		pthread_mutex_unlock(&s->lock);
		return false;
	}
	set_slot_state(s, CS_OFFLINING);
	memcg = s->memcg;
	pthread_mutex_unlock(&s->lock);

	css_offline(memcg);

	pthread_mutex_lock(&s->lock);
	set_slot_state(s, CS_OFFLINE);
	pthread_mutex_unlock(&s->lock);
	/* the base reference: may be the last one, then it is dead */
	mem_cgroup_put(memcg);
	return true;
}

bool stress_try_release(int i)
{
	struct stress_slot *s = &stress_slots[i];
	struct mem_cgroup *memcg = NULL;

	if (slot_state(s) != CS_OFFLINE)
		return false;
	pthread_mutex_lock(&s->lock);
	if (slot_state(s) == CS_OFFLINE && !stress_memcg_refs(s->memcg)) {
		memcg = s->memcg;
		set_slot_state(s, CS_RELEASING);
	}
	pthread_mutex_unlock(&s->lock);
	if (!memcg)
		return false;

	css_release(memcg);
	/*
	 * world_init() put call_rcu() in the shim's deferred mode: the
	 * callback waits on this thread's list, and rcu_barrier() runs it
	 * after a full grace period of liburcu (synchronize_rcu), while the
	 * readers go on. Same guarantee as liburcu's call_rcu thread, and
	 * the free comes soon after the release, when a reader that missed
	 * the grace period would still be near; that thread's hand-off is
	 * also invisible to ThreadSanitizer.
	 */
	rcu_barrier();
	stress_tl.releases++;

	pthread_mutex_lock(&s->lock);
	s->memcg = NULL;
	set_slot_state(s, CS_EMPTY);
	pthread_mutex_unlock(&s->lock);
	return true;
}

static bool do_release(int from)
{
	int k;

	for (k = 0; k < stress_cfg.pool_size; k++)
		if (stress_try_release((from + k) % stress_cfg.pool_size))
			return true;
	return false;
}

/* ---- references a writer holds across ops ---- */

#define MAX_HELD 16

static __thread struct mem_cgroup *held[MAX_HELD];
static __thread int nr_held;

static bool do_hold(int i)
{
	struct mem_cgroup *memcg;

	if (nr_held == MAX_HELD)
		return false;
	memcg = pin(i);
	if (!memcg)
		return false;
	held[nr_held++] = memcg;
	return true;
}

static bool do_drop(void)
{
	if (!nr_held)
		return false;
	mem_cgroup_put(held[0]);
	memmove(&held[0], &held[1], --nr_held * sizeof(held[0]));
	return true;
}

void stress_drop_all(void)
{
	while (do_drop())
		;
}

/* ---- ops ---- */

static unsigned long spin_sink;

static void do_yield(u8 arg)
{
	int i;

	if (arg & 1) {
		sched_yield();
		return;
	}
	for (i = 0; i < arg * 16; i++)
		(void)__atomic_load_n(&spin_sink, __ATOMIC_RELAXED);
}

bool stress_apply(int thread, const struct stress_op *op)
{
	int i = op->slot % stress_cfg.pool_size;
	int nid = op->node % stress_cfg.nr_nodes;
	struct mem_cgroup *memcg = NULL;
	bool applied = true;

	(void)thread;
	if (op->draws)
		mlf_entropy_bytes(op->draws, op->nr_draws);

	switch (op->kind) {
	case STRESS_ONLINE:
		applied = stress_do_online(i, op->arg);
		break;
	case STRESS_OFFLINE:
		applied = do_offline(i);
		break;
	case STRESS_RELEASE:
		applied = do_release(i);
		break;
	case STRESS_ROTATE:
		/* a rotation the tree does not have: skipped */
		if (!mlf_tree_has_rotation(mlf_rotation(op->arg % MLF_NR_ROTATIONS)))
			break;
		memcg = pin(i);
		if (!memcg)
			break;
		mlf_rotate_memcg(get_lruvec(memcg, nid),
				 mlf_rotation(op->arg % MLF_NR_ROTATIONS));
		break;
	case STRESS_SOFT:
#ifdef MLF_TREE_HAS_SOFT_RECLAIM
		memcg = pin(i);
		if (!memcg)
			break;
		if (op->arg & 1)
			mlf_softirq_enter();
		lru_gen_soft_reclaim(memcg, nid);
		if (op->arg & 1)
			mlf_softirq_exit();
#endif
		break;
	case STRESS_SET:
		memcg = pin(i);
		if (memcg)
			set_shrink(memcg, op->arg);
		break;
	case STRESS_HOLD:
		applied = do_hold(i);
		break;
	case STRESS_DROP:
		applied = do_drop();
		break;
	case STRESS_RECLAIM: {
		struct scan_control sc = {
			.nr_to_reclaim = mlf_nr_to_reclaim(op->target),
			.priority = 12,
			.proactive = 1,
		};

		mlf_shrink_many(NODE_DATA(nid), &sc);
		break;
	}
	case STRESS_YIELD:
		do_yield(op->arg);
		break;
	default:
		applied = false;
		break;
	}

	if (applied && (op->kind == STRESS_ONLINE || op->kind == STRESS_OFFLINE))
		stress_count_moves(stress_cfg.nr_nodes);
	if (memcg && (op->kind == STRESS_ROTATE || op->kind == STRESS_SOFT))
		stress_count_moves(1);
	if (op->kind == STRESS_ROTATE || op->kind == STRESS_SOFT ||
	    op->kind == STRESS_SET) {
		applied = memcg != NULL;
		mem_cgroup_put(memcg);
	}
	if (applied)
		stress_tl.ops++;
	else
		stress_tl.skipped++;
	return applied;
}
