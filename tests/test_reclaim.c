// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the eviction port and the reclaim checks, per iso variant: the
 * real eviction frees what it should; each check holds on the correct
 * code and fails on state corrupted by hand (negative tests); the throttle
 * sleeps when every evictable type is over-isolated and only then.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/reclaim_checks.h"
#include "harness/reclaim_world.h"

static int failures;
static const char *last_check;

#define EXPECT(cond)                                                     \
	do {                                                             \
		if (!(cond)) {                                           \
			fprintf(stderr, "%s:%d: %s: expected %s\n",      \
				__FILE__, __LINE__, __func__, #cond);    \
			failures++;                                      \
		}                                                        \
	} while (0)

static void record(const struct mlf_failure *f)
{
	if (!last_check)
		last_check = f->check;
}

static struct mlf_reclaim_world rw;

static void op(int kind, int memcg, int node, int type, int count)
{
	struct mlf_reclaim_op o = { .kind = kind, .memcg = memcg, .node = node,
				    .type = type, .count = count };

	reclaim_world_apply(&rw, &o);
}

static void reclaim(int node, int target, int prio, bool kswapd)
{
	struct mlf_reclaim_op o = { .kind = RECLAIM_OP_RECLAIM, .node = node,
				    .target = target, .priority = prio,
				    .kswapd = kswapd };

	reclaim_world_apply(&rw, &o);
}

static struct lruvec *lv(int memcg, int node)
{
	return get_lruvec(rw.w.cs.slots[memcg].memcg, node);
}

/* a memcg with @anon anon folios and an older generation to evict from */
static void setup(int anon, int file)
{
	reclaim_world_init(&rw, 1, 4);
	op(RECLAIM_OP_ONLINE, 0, 0, 0, 0);
	if (anon)
		op(RECLAIM_OP_ADD, 0, 0, LRU_GEN_ANON, anon);
	if (file)
		op(RECLAIM_OP_ADD, 0, 0, LRU_GEN_FILE, file);
	/* flush the empty oldest generations, then age once */
	op(RECLAIM_OP_PARK, 0, 0, 0, 0);
	op(RECLAIM_OP_UNPARK, 0, 0, 0, 0);
	op(RECLAIM_OP_AGE, 0, 0, 0, 0);
}

static void test_eviction_frees(void)
{
	setup(16, 0);
	EXPECT(!last_check);
	reclaim(0, 0, 0, false);
	EXPECT(!last_check);
	EXPECT(rw.folios_freed > 0);
	EXPECT(lruvec_page_state_local(lv(0, 0), PGSTEAL_ANON) == rw.folios_freed);
	EXPECT(atomic_long_read(&rw.w.cs.slots[0].memcg->usage) ==
	       16 - (long)rw.folios_freed);
	reclaim_world_destroy(&rw);
}

static void test_isolated_parked(void)
{
	struct mlf_failure f;

	setup(16, 0);
	op(RECLAIM_OP_PARK, 0, 0, 0, 0);
	EXPECT(rw.rcs.parked[0].used && !list_empty(&rw.rcs.parked[0].ev.list));
	EXPECT(!last_check);
#ifdef CONFIG_LRU_GEN_ISO_COUNT
	EXPECT(node_page_state(&rw.w.cs.nodes[0], NR_ISOLATED_ANON) ==
	       list_count_nodes(&rw.rcs.parked[0].ev.list));
	/* one folio too many, then one too few */
	atomic_long_add(1, &rw.w.cs.nodes[0].vm_stat[NR_ISOLATED_ANON]);
	EXPECT(!check_isolated_exact(&rw.rcs, &f) && !strcmp(f.check, "isolated.exact"));
	atomic_long_add(-2, &rw.w.cs.nodes[0].vm_stat[NR_ISOLATED_ANON]);
	EXPECT(!check_isolated_exact(&rw.rcs, &f));
	atomic_long_add(1, &rw.w.cs.nodes[0].vm_stat[NR_ISOLATED_ANON]);
	EXPECT(check_isolated_exact(&rw.rcs, &f));
#else
	/* before 004: the isolation is invisible to NR_ISOLATED */
	EXPECT(node_page_state(&rw.w.cs.nodes[0], NR_ISOLATED_ANON) == 0);
#endif
#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
	atomic_long_add(1, &lv(0, 0)->lrugen.nr_isolated[LRU_GEN_ANON]);
	EXPECT(!check_isolated_sum(&rw.rcs, &f) && !strcmp(f.check, "isolated.sum"));
	EXPECT(!check_isolated_exact(&rw.rcs, &f));
	atomic_long_add(-1, &lv(0, 0)->lrugen.nr_isolated[LRU_GEN_ANON]);
	EXPECT(check_isolated_sum(&rw.rcs, &f));
#endif
	op(RECLAIM_OP_UNPARK, 0, 0, 0, 0);
	EXPECT(!last_check);
	EXPECT(node_page_state_raw(&rw.w.cs.nodes[0], NR_ISOLATED_ANON) == 0);
	EXPECT(check_isolated_quiescent(&rw.rcs, &f));
	/* quiescent and nonneg on corrupted counters */
	atomic_long_add(-1, &rw.w.cs.nodes[0].vm_stat[NR_ISOLATED_FILE]);
	EXPECT(!check_isolated_nonneg(&rw.rcs, &f) && !strcmp(f.check, "isolated.nonneg"));
	EXPECT(!check_isolated_quiescent(&rw.rcs, &f) && !strcmp(f.check, "isolated.quiescent"));
	atomic_long_add(1, &rw.w.cs.nodes[0].vm_stat[NR_ISOLATED_FILE]);
	reclaim_world_destroy(&rw);
}

static void test_throttle(void)
{
#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
	struct mlf_throttle_decision d;
	struct mlf_failure f;
	unsigned long sleeps;

	/* anon only, 8 of 16 parked: over 8 / MIN_NR_GENS -> sleeps */
	setup(16, 0);
	op(RECLAIM_OP_PARK, 0, 0, 0, 0);
	EXPECT(atomic_long_read(&lv(0, 0)->lrugen.nr_isolated[LRU_GEN_ANON]) == MIN_LRU_BATCH);
	sleeps = rw.throttle_sleeps;
	reclaim(0, 0, 0, false);
	EXPECT(!last_check);
	EXPECT(rw.throttle_sleeps == sleeps + 1);
	EXPECT(atomic_long_read(&rw.w.cs.nodes[0].nr_throttled_isolated) == 1);
	/* kswapd is exempt */
	reclaim(0, 0, 0, true);
	EXPECT(!last_check);
	EXPECT(rw.throttle_sleeps == sleeps + 1);

	/* a decision to sleep while file is evictable and not over */
	op(RECLAIM_OP_ADD, 0, 0, LRU_GEN_FILE, 8);
	d = (struct mlf_throttle_decision){ .lruvec = lv(0, 0), .swappiness = 60,
					    .sleep = true, .allowed = 0 };
	EXPECT(!check_throttle_decision(&d, &f) &&
	       !strcmp(f.check, "throttle.only_when_all"));
	d.sleep = false;
	d.allowed = BIT(LRU_GEN_ANON) | BIT(LRU_GEN_FILE);
	EXPECT(!check_throttle_decision(&d, &f) && !strcmp(f.check, "throttle.allowed"));
	d.allowed = BIT(LRU_GEN_FILE);
	EXPECT(check_throttle_decision(&d, &f));
	/* and the port, with a file folio to take, does not sleep */
	reclaim(0, 0, 0, false);
	EXPECT(!last_check);
	EXPECT(rw.throttle_sleeps == sleeps + 1);
	reclaim_world_destroy(&rw);
#endif
}

static void test_shadow_budget(void)
{
	struct mlf_failure f;

	setup(10, 6);
	EXPECT(!last_check);
	EXPECT(workingset_lru_pages(lv(0, 0)) == 16);
	/* the classic LRU's sizes: never maintained under MGLRU */
	EXPECT(lruvec_lru_size(lv(0, 0), LRU_INACTIVE_ANON, MAX_NR_ZONES - 1) == 0);
	EXPECT(count_shadow_nodes(lv(0, 0), 100) == 100 - (16 >> (XA_CHUNK_SHIFT - 3)));
	atomic_long_add(3, &lv(0, 0)->state_local[NR_INACTIVE_FILE]);
	EXPECT(!check_shadow_budget(lv(0, 0), 0, &f) && !strcmp(f.check, "shadow.budget"));
	atomic_long_add(-3, &lv(0, 0)->state_local[NR_INACTIVE_FILE]);
	EXPECT(check_shadow_budget(lv(0, 0), 0, &f));
	reclaim_world_destroy(&rw);
}

static void test_stats_reparent(void)
{
	struct mlf_failure f;

	setup(16, 0);
	op(RECLAIM_OP_REFAULT, 0, 0, LRU_GEN_FILE, 2);
	op(RECLAIM_OP_OFFLINE, 0, 0, 0, 0);
	EXPECT(!last_check);
	/* reclaim scrapes the offline memcg: its steals go to the root */
	reclaim(0, 0, DEF_PRIORITY, false);
	EXPECT(!last_check);
	EXPECT(rw.folios_freed > 0);
	EXPECT(lruvec_page_state_local(get_lruvec(rw.rcs.root, 0), PGSTEAL_ANON) ==
	       rw.folios_freed);
	EXPECT(lruvec_page_state_local(lv(0, 0), PGSTEAL_ANON) == 0);
	EXPECT(lruvec_page_state_local(lv(0, 0), WORKINGSET_REFAULT_FILE) == 2);
	EXPECT(check_stats_reparent(&rw.rcs, &f));
	/* an update that landed on the dying memcg is lost to the parent */
	atomic_long_add(1, &lv(0, 0)->state_local[PGSTEAL_ANON]);
	EXPECT(!check_stats_reparent(&rw.rcs, &f) && !strcmp(f.check, "stats.reparent"));
	atomic_long_add(-1, &lv(0, 0)->state_local[PGSTEAL_ANON]);
	reclaim_world_destroy(&rw);
}

static void test_protection(void)
{
	struct mlf_reclaim_op o = { .kind = RECLAIM_OP_PROTECT, .min = 255 };

	setup(16, 0);
	reclaim_world_apply(&rw, &o);
	EXPECT(mem_cgroup_below_min(NULL, rw.w.cs.slots[0].memcg));
	reclaim(0, 0, 0, false);
	EXPECT(rw.folios_freed == 0);
	EXPECT(!last_check);
	reclaim_world_destroy(&rw);
}

int main(void)
{
	mlf_set_fail_handler(record);
	test_eviction_frees();
	test_isolated_parked();
	test_throttle();
	test_shadow_budget();
	test_stats_reparent();
	test_protection();
	if (last_check) {
		fprintf(stderr, "unexpected failure: %s\n", last_check);
		failures++;
	}
	printf("test_reclaim (%s): %s\n", MLF_ISO_NAME, failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
