// SPDX-License-Identifier: GPL-2.0
/*
 * The concurrent engine's checks on readers as they go: a walk probe that
 * checks every reader (rcu.uaf: poison on what the walk touches,
 * reader.nulls: the nulls value a restart met, reader.terminates: bounded
 * visits and restarts per walk), and the cond_resched() hook that lets the
 * other threads run.
 */
#define _GNU_SOURCE
#include "stress_internal.h"

#include <sched.h>
#include <string.h>

#define POISON_LONG 0x6b6b6b6b6b6b6b6bUL
#define POISON_INT 0x6b6b6b6b
#define MAX_RESTARTS 10000UL

static __thread struct {
	unsigned long visits, restarts, bins;
	unsigned long moves_at_start;
} walk;

/*
 * Moves of lrugens by anyone: a visit (the reader rotates what it visited,
 * at most once) and every writer op that links or rotates. A walk meets
 * an entry again in the same pass only if it was moved since.
 */
static unsigned long moves;

void stress_count_moves(unsigned long n)
{
	__atomic_fetch_add(&moves, n, __ATOMIC_RELAXED);
}

/* Moves by the other threads since this walk started. */
static unsigned long others_moves(void)
{
	unsigned long all = __atomic_load_n(&moves, __ATOMIC_RELAXED) -
			    walk.moves_at_start;

	return all > walk.visits ? all - walk.visits : 0;
}

/* A pointer a freed object would hold: MLF_FREE_POISON or exit's marker. */
static bool poisoned(const void *p)
{
	return (unsigned long)p == POISON_LONG || p == LIST_POISON1;
}

/* Relaxed loads: writers update these fields concurrently (WRITE_ONCE). */
static void check_memcg_alive(struct mem_cgroup *memcg, const char *when)
{
	int id = READ_ONCE(memcg->id);
	void *pn = READ_ONCE(memcg->nodeinfo[0]);
	u8 online = READ_ONCE(*(u8 *)&memcg->online);

	if (id == POISON_INT || poisoned(pn) || online == MLF_FREE_POISON)
		mlf_fail_simple("rcu.uaf",
				"%s: memcg %p is freed (id %#x, nodeinfo[0] %p, online byte %#x)",
				when, (void *)memcg, (unsigned int)id, pn,
				online);
}

static void check_lruvec_alive(struct lruvec *lruvec)
{
	struct mem_cgroup_per_node *pn =
		container_of(lruvec, struct mem_cgroup_per_node, lruvec);
	/*
	 * Only what an RCU reader may read: list.next (readers follow it),
	 * never list.pprev, which writers update plainly under the lock (the
	 * kernel's hlist_nulls_add_tail_rcu() does) and a read here would be
	 * a race of the probe's own making.
	 */
	void *next = READ_ONCE(lruvec->lrugen.list.next);
	void *pgdat = READ_ONCE(lruvec->pgdat);
	struct mem_cgroup *memcg = READ_ONCE(pn->memcg);

	if (poisoned(next) || poisoned(pgdat) || poisoned(memcg))
		mlf_fail_simple("rcu.uaf",
				"shrink_one() on a freed lruvec %p (next %p, pgdat %p, memcg %p)",
				(void *)lruvec, next, pgdat, (void *)memcg);
	check_memcg_alive(memcg, "shrink_one()");
}

/*
 * Alone, a walk meets each entry of a bin at most twice per pass (its own
 * TAIL rotation may put it at the tail of the same bin; the second visit
 * sends it young or leaves it). Other threads can move entries back in
 * front of it (and two advances of seq make young the walk's generation
 * again), each move buying at most one more visit or restart. Four times
 * that is far beyond any honest walk; a cycle or an endless chase is not.
 */
static unsigned long visit_bound(void)
{
	return 4UL * (stress_cfg.pool_size + 8) * (walk.bins + 1) +
	       4 * others_moves() + 1000;
}

static unsigned long restart_bound(void)
{
	return MAX_RESTARTS + 4 * others_moves();
}

void stress_walk_probe(enum mlf_walk_event event, void *obj, long arg)
{
	switch (event) {
	case MLF_WALK_START:
		memset(&walk, 0, sizeof(walk));
		walk.moves_at_start = __atomic_load_n(&moves, __ATOMIC_RELAXED);
		stress_tl.walks++;
		if ((unsigned long)arg >= MEMCG_NR_GENS)
			mlf_fail_simple("reader.nulls",
					"shrink_many() starts on generation %ld",
					arg);
		break;
	case MLF_WALK_BIN:
		walk.bins++;
		break;
	case MLF_WALK_RESTART:
		stress_tl.restarts++;
		if ((unsigned long)arg >= MEMCG_NR_GENS)
			mlf_fail_simple("reader.nulls",
					"a walk ended on nulls value %#lx, not a generation (0..%d)",
					(unsigned long)arg, MEMCG_NR_GENS - 1);
		if (++walk.restarts > restart_bound())
			mlf_fail_simple("reader.terminates",
					"a walk restarted %lu times (%lu visits, %lu moves by others)",
					walk.restarts, walk.visits,
					others_moves());
		break;
	case MLF_WALK_VISIT:
		stress_tl.visits++;
		stress_count_moves(1);
		check_lruvec_alive(obj);
		if (++walk.visits > visit_bound())
			mlf_fail_simple("reader.terminates",
					"a walk visited %lu lruvecs in %lu bin passes of a pool of %d (%lu moves by others)",
					walk.visits, walk.bins,
					stress_cfg.pool_size,
					others_moves());
		break;
	case MLF_WALK_TRYGET_FAILED:
		stress_tl.reader_releases++;
		check_memcg_alive(obj, "a failed tryget");
		break;
	case MLF_WALK_NULLS:
	case MLF_WALK_END:
		break;
	}
}

static __thread unsigned long resched_count;

/* cond_resched() is where the kernel may sleep: let the others run. */
void stress_resched_hook(const char *where)
{
	int every = stress_cfg.yield_every;

	(void)where;
	if (every > 0 && ++resched_count % every == 0)
		sched_yield();
}

void stress_resched_reset(void)
{
	resched_count = 0;
}
