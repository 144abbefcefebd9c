// SPDX-License-Identifier: GPL-2.0
/*
 * The concurrent engine (see concurrent.h): its state, set-up, counters and
 * tear-down. The pool of threads created once and parked between runs is
 * concurrent_pool.c, the ops each thread applies concurrent_slots.c, the
 * walk probe that checks readers as they go concurrent_probe.c, and the
 * checks at quiescence concurrent_quiesce.c.
 *
 * The harness's own bookkeeping (which slot holds which memcg, in which
 * stage of its life) has a mutex per slot, held only while deciding, never
 * around a call into the port's LRU code, so the port's own locking is what
 * keeps it right. A thread that uses a memcg holds a reference while it
 * does; "dead" is refcnt == 0, which is permanent, and the one thread that
 * claims a dead memcg (OFFLINE -> RELEASING under the slot mutex) calls
 * css_release(), which frees it after a grace period.
 */
#include "stress_internal.h"

#include <stdlib.h>
#include <string.h>

struct mlf_world stress_lru_world;
struct stress_config stress_cfg;

static int clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}
struct stress_slot *stress_slots;
static int slots_cap;
unsigned long stress_seq_start[MAX_NUMNODES];

/* ---- counters: per thread, added into the totals when a job ends ---- */

struct stress_stats stress_totals;
__thread struct stress_stats stress_tl;

void stress_stats_flush(void)
{
	unsigned long *from = (unsigned long *)&stress_tl;
	unsigned long *to = (unsigned long *)&stress_totals;
	size_t i;

	for (i = 0; i < sizeof(stress_tl) / sizeof(unsigned long); i++)
		__atomic_fetch_add(&to[i], from[i], __ATOMIC_RELAXED);
	memset(&stress_tl, 0, sizeof(stress_tl));
}

void stress_stats_read(struct stress_stats *s)
{
	unsigned long *from = (unsigned long *)&stress_totals;
	unsigned long *to = (unsigned long *)s;
	size_t i;

	for (i = 0; i < sizeof(*s) / sizeof(unsigned long); i++)
		to[i] = __atomic_load_n(&from[i], __ATOMIC_RELAXED);
	s->frees = s->allocs - mem_cgroup_nr_allocated();
}

const struct mlf_world *stress_world(void)
{
	return &stress_lru_world;
}

/* ---- set-up, tear-down ---- */

void stress_setup(const struct stress_config *in)
{
	int i, nid;

	stress_cfg = *in;
	stress_cfg.nr_nodes = clamp_int(stress_cfg.nr_nodes, 1, MAX_NUMNODES);
	stress_cfg.pool_size = clamp_int(stress_cfg.pool_size, 1, MLF_MAX_POOL);
	stress_cfg.nr_writers = clamp_int(stress_cfg.nr_writers, 0,
					STRESS_MAX_THREADS);
	stress_cfg.nr_readers = clamp_int(stress_cfg.nr_readers, 0,
					STRESS_MAX_THREADS - stress_cfg.nr_writers);
	stress_cfg.nr_initial = clamp_int(stress_cfg.nr_initial, 0,
					stress_cfg.pool_size);
	if (!stress_cfg.deadline_s)
		stress_cfg.deadline_s = 20;

	/* with the shim's deferred call_rcu (see stress_try_release()) */
	world_init(&stress_lru_world, stress_cfg.nr_nodes, stress_cfg.pool_size);
	if (stress_cfg.pool_size > slots_cap) {
		stress_slots = realloc(stress_slots,
				     stress_cfg.pool_size * sizeof(*stress_slots));
		if (!stress_slots)
			abort();
		for (i = slots_cap; i < stress_cfg.pool_size; i++)
			pthread_mutex_init(&stress_slots[i].lock, NULL);
		slots_cap = stress_cfg.pool_size;
	}
	for (i = 0; i < stress_cfg.pool_size; i++) {
		stress_slots[i].state = CS_EMPTY;
		stress_slots[i].memcg = NULL;
	}
	for (nid = 0; nid < stress_cfg.nr_nodes; nid++)
		stress_seq_start[nid] =
			stress_lru_world.cs.nodes[nid].memcg_lru.seq;

	mlf_walk_probe = stress_walk_probe;
	mlf_set_resched_hook(stress_resched_hook);
	mlf_current_op = MLF_NONE;

	mlf_entropy_seed(stress_cfg.seed);
	for (i = 0; i < stress_cfg.nr_initial; i++)
		stress_do_online(i, get_random_u32() & 0xff);
	stress_stats_flush();
}

void stress_teardown(void)
{
	int i;

	mlf_current_op = MLF_NONE;
	for (i = 0; i < stress_cfg.pool_size; i++) {
		struct mem_cgroup *memcg = stress_slots[i].memcg;

		if (!memcg)
			continue;
		if (stress_slots[i].state == CS_ONLINE) {
			css_offline(memcg);
			mem_cgroup_put(memcg);
		}
		if (stress_memcg_refs(memcg))
			stress_fail_conservation(MLF_NONE, MLF_NONE, MLF_NONE, i,
					       "m%d still holds %ld references at tear-down",
					       i, stress_memcg_refs(memcg));
		css_release(memcg);
		stress_tl.releases++;
		stress_slots[i].memcg = NULL;
		stress_slots[i].state = CS_EMPTY;
		stress_lru_world.cs.slots[i].memcg = NULL;
		stress_lru_world.cs.slots[i].state = SLOT_EMPTY;
		stress_lru_world.cs.slots[i].refs = 0;
	}
	stress_stats_flush();
	/* rcu_barrier(): every css_free has run */
	world_destroy(&stress_lru_world);
	mlf_walk_probe = NULL;
	if (mem_cgroup_nr_allocated())
		stress_fail_conservation(MLF_NONE, MLF_NONE, MLF_NONE, MLF_NONE,
				       "%ld memcgs still allocated after every one was released and a grace period passed",
				       mem_cgroup_nr_allocated());
}
