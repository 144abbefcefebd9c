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
#include "concurrent_internal.h"

#include <stdlib.h>
#include <string.h>

struct mlf_world conc_lru_world;
struct conc_config conc_cfg;

static int clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}
struct conc_slot *conc_slots;
static int slots_cap;
unsigned long conc_seq_start[MAX_NUMNODES];

/* ---- counters: per thread, added into the totals when a job ends ---- */

struct conc_stats conc_totals;
__thread struct conc_stats conc_tl;

void conc_stats_flush(void)
{
	unsigned long *from = (unsigned long *)&conc_tl;
	unsigned long *to = (unsigned long *)&conc_totals;
	size_t i;

	for (i = 0; i < sizeof(conc_tl) / sizeof(unsigned long); i++)
		__atomic_fetch_add(&to[i], from[i], __ATOMIC_RELAXED);
	memset(&conc_tl, 0, sizeof(conc_tl));
}

void conc_stats_read(struct conc_stats *s)
{
	unsigned long *from = (unsigned long *)&conc_totals;
	unsigned long *to = (unsigned long *)s;
	size_t i;

	for (i = 0; i < sizeof(*s) / sizeof(unsigned long); i++)
		to[i] = __atomic_load_n(&from[i], __ATOMIC_RELAXED);
	s->frees = s->allocs - mem_cgroup_nr_allocated();
}

const struct mlf_world *conc_world(void)
{
	return &conc_lru_world;
}

/* ---- set-up, tear-down ---- */

void conc_setup(const struct conc_config *in)
{
	int i, nid;

	conc_cfg = *in;
	conc_cfg.nr_nodes = clamp_int(conc_cfg.nr_nodes, 1, MAX_NUMNODES);
	conc_cfg.pool_size = clamp_int(conc_cfg.pool_size, 1, MLF_MAX_POOL);
	conc_cfg.nr_writers = clamp_int(conc_cfg.nr_writers, 0,
					CONC_MAX_THREADS);
	conc_cfg.nr_readers = clamp_int(conc_cfg.nr_readers, 0,
					CONC_MAX_THREADS - conc_cfg.nr_writers);
	conc_cfg.nr_initial = clamp_int(conc_cfg.nr_initial, 0,
					conc_cfg.pool_size);
	if (!conc_cfg.deadline_s)
		conc_cfg.deadline_s = 20;

	/* with the shim's deferred call_rcu (see conc_try_release()) */
	world_init(&conc_lru_world, conc_cfg.nr_nodes, conc_cfg.pool_size);
	if (conc_cfg.pool_size > slots_cap) {
		conc_slots = realloc(conc_slots,
				     conc_cfg.pool_size * sizeof(*conc_slots));
		if (!conc_slots)
			abort();
		for (i = slots_cap; i < conc_cfg.pool_size; i++)
			pthread_mutex_init(&conc_slots[i].lock, NULL);
		slots_cap = conc_cfg.pool_size;
	}
	for (i = 0; i < conc_cfg.pool_size; i++) {
		conc_slots[i].state = CS_EMPTY;
		conc_slots[i].memcg = NULL;
	}
	for (nid = 0; nid < conc_cfg.nr_nodes; nid++)
		conc_seq_start[nid] =
			conc_lru_world.cs.nodes[nid].memcg_lru.seq;

	mlf_walk_probe = conc_walk_probe;
	mlf_set_resched_hook(conc_resched_hook);
	mlf_current_op = MLF_NONE;

	mlf_entropy_seed(conc_cfg.seed);
	for (i = 0; i < conc_cfg.nr_initial; i++)
		conc_do_online(i, get_random_u32() & 0xff);
	conc_stats_flush();
}

void conc_teardown(void)
{
	int i;

	mlf_current_op = MLF_NONE;
	for (i = 0; i < conc_cfg.pool_size; i++) {
		struct mem_cgroup *memcg = conc_slots[i].memcg;

		if (!memcg)
			continue;
		if (conc_slots[i].state == CS_ONLINE) {
			css_offline(memcg);
			mem_cgroup_put(memcg);
		}
		if (conc_memcg_refs(memcg))
			conc_fail_conservation(MLF_NONE, MLF_NONE, MLF_NONE, i,
					       "m%d still holds %ld references at tear-down",
					       i, conc_memcg_refs(memcg));
		css_release(memcg);
		conc_tl.releases++;
		conc_slots[i].memcg = NULL;
		conc_slots[i].state = CS_EMPTY;
		conc_lru_world.cs.slots[i].memcg = NULL;
		conc_lru_world.cs.slots[i].state = SLOT_EMPTY;
		conc_lru_world.cs.slots[i].refs = 0;
	}
	conc_stats_flush();
	/* rcu_barrier(): every css_free has run */
	world_destroy(&conc_lru_world);
	mlf_walk_probe = NULL;
	if (mem_cgroup_nr_allocated())
		conc_fail_conservation(MLF_NONE, MLF_NONE, MLF_NONE, MLF_NONE,
				       "%ld memcgs still allocated after every one was released and a grace period passed",
				       mem_cgroup_nr_allocated());
}
