// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the eviction port and the reclaim checks, per iso variant: the
 * real eviction frees what it should; each check holds on the correct
 * code and fails on state corrupted by hand (negative tests); the throttle
 * sleeps when every evictable type is over-isolated and only then.
 */
#include "check/reclaim_checks.h"
#include "check/sort_checks.h"
#include "harness/reclaim_world.h"
#include "harness/states.h"
#include "testlib.h"

static struct mlf_reclaim_world rw;

/* No check has failed through mlf_fail() since the test began. */
#define EXPECT_CLEAN() EXPECT_EQ(testlib_caught.count, 0)

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

/*
 * A memcg with @anon anon folios and an older generation to evict from;
 * failures reported through mlf_fail() from here on are caught, for
 * EXPECT_CLEAN().
 */
static void setup(int anon, int file)
{
	testlib_catch_failures();
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

/* Tear the world down; nothing may have failed, tear-down included. */
static void teardown(void)
{
	reclaim_world_destroy(&rw);
	EXPECT_CLEAN();
}

TEST(eviction_frees)
{
	unsigned long steals;

	setup(16, 0);
	EXPECT_CLEAN();
	steals = global_vm_event(PGSTEAL_ANON);
	reclaim(0, 0, 0, false);
	EXPECT_CLEAN();
	EXPECT(rw.folios_freed > 0);
	/* a global vm event, as in 6.12: no per-lruvec count to check */
	EXPECT(global_vm_event(PGSTEAL_ANON) - steals == rw.folios_freed);
	EXPECT(atomic_long_read(&rw.w.cs.slots[0].memcg->memory.usage) ==
	       16 - (long)rw.folios_freed);
	teardown();
}

/*
 * Folios of eight pages (order 3) count eight wherever the kernel counts
 * pages: the charge, the LRU size, the zone's free pages, the refault
 * events, NR_ISOLATED, and what reclaim frees. The expected values are
 * the test's own arithmetic on what it added. It fails if the port
 * counts one per folio in lru_gen_update_size() or scan_folios() (tried).
 */
TEST(large_folios_count_pages)
{
	struct mlf_reclaim_op add = { .kind = RECLAIM_OP_ADD,
				      .type = LRU_GEN_ANON,
				      .count = 4,
				      .order = 3 };
	struct zone *zone = &rw.w.cs.nodes[0].node_zones[0];
	unsigned long steals, free, freed;
	long parked;

	testlib_catch_failures();
	reclaim_world_init(&rw, 1, 4);
	op(RECLAIM_OP_ONLINE, 0, 0, 0, 0);
	free = zone_page_state(zone, NR_FREE_PAGES);
	reclaim_world_apply(&rw, &add);
	add.kind = RECLAIM_OP_REFAULT;
	add.count = 1;
	reclaim_world_apply(&rw, &add);
	/* as setup(): an older generation to evict from */
	op(RECLAIM_OP_PARK, 0, 0, 0, 0);
	op(RECLAIM_OP_UNPARK, 0, 0, 0, 0);
	op(RECLAIM_OP_AGE, 0, 0, 0, 0);
	EXPECT_CLEAN();
	EXPECT_EQ(atomic_long_read(&rw.w.cs.slots[0].memcg->memory.usage), 40);
	EXPECT_EQ(lruvec_page_state_local(lv(0, 0), NR_LRU_BASE), 40);
	EXPECT_EQ(zone_page_state(zone, NR_FREE_PAGES), free - 40);
	EXPECT_EQ(lruvec_page_state_local(lv(0, 0), WORKINGSET_REFAULT_ANON),
		  8);
	op(RECLAIM_OP_PARK, 0, 0, 0, 0);
	parked = list_count_nodes(&rw.rcs.parked[0].ev.list);
	EXPECT(parked > 0);
	EXPECT_CLEAN();
#ifdef CONFIG_LRU_GEN_ISO_COUNT
	EXPECT_EQ(node_page_state(&rw.w.cs.nodes[0], NR_ISOLATED_ANON),
		  8 * parked);
#endif
	op(RECLAIM_OP_UNPARK, 0, 0, 0, 0);
	steals = global_vm_event(PGSTEAL_ANON);
	freed = rw.folios_freed;
	reclaim(0, 0, 0, false);
	EXPECT_CLEAN();
	EXPECT(rw.folios_freed > freed);
	EXPECT_EQ(global_vm_event(PGSTEAL_ANON) - steals,
		  8 * (rw.folios_freed - freed));
	EXPECT_EQ(atomic_long_read(&rw.w.cs.slots[0].memcg->memory.usage),
		  40 - 8 * (long)rw.folios_freed);
	EXPECT_EQ(zone_page_state(zone, NR_FREE_PAGES),
		  free - 40 + 8 * rw.folios_freed);
	teardown();
}

TEST(isolated_parked)
{
	struct mlf_failure f;

	setup(16, 0);
	op(RECLAIM_OP_PARK, 0, 0, 0, 0);
	EXPECT(rw.rcs.parked[0].used && !list_empty(&rw.rcs.parked[0].ev.list));
	EXPECT_CLEAN();
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
	/* the lruvec's counter against the model's folios isolated from it */
	atomic_long_add(1, &lv(0, 0)->lrugen.nr_isolated[LRU_GEN_ANON]);
	EXPECT(!check_isolated_exact(&rw.rcs, &f) && f.memcg == 0);
	atomic_long_add(-1, &lv(0, 0)->lrugen.nr_isolated[LRU_GEN_ANON]);
	EXPECT(check_isolated_exact(&rw.rcs, &f));
#endif
	op(RECLAIM_OP_UNPARK, 0, 0, 0, 0);
	EXPECT_CLEAN();
	EXPECT(node_page_state_raw(&rw.w.cs.nodes[0], NR_ISOLATED_ANON) == 0);
	EXPECT(check_isolated_quiescent(&rw.rcs, &f));
	/* quiescent and nonneg on corrupted counters */
	atomic_long_add(-1, &rw.w.cs.nodes[0].vm_stat[NR_ISOLATED_FILE]);
	EXPECT(!check_isolated_nonneg(&rw.rcs, &f) && !strcmp(f.check, "isolated.nonneg"));
	EXPECT(!check_isolated_quiescent(&rw.rcs, &f) && !strcmp(f.check, "isolated.quiescent"));
	atomic_long_add(1, &rw.w.cs.nodes[0].vm_stat[NR_ISOLATED_FILE]);
	teardown();
}

/*
 * free (truncation) uncharges the folios on the node's LRU and leaves those
 * a parked eviction holds isolated; the last charge of an offline memcg
 * takes its reference, and it is dying where it stood on the memcg LRU
 */
TEST(free_leaves_the_isolated_and_kills_in_place)
{
	struct lru_gen_folio *lrugen;
	long isolated;
	int gen;

	setup(16, 0);
	op(RECLAIM_OP_PARK, 0, 0, 0, 0);
	isolated = list_count_nodes(&rw.rcs.parked[0].ev.list);
	EXPECT(isolated > 0 && isolated < 16);
	op(RECLAIM_OP_OFFLINE, 0, 0, 0, 0);
	lrugen = &lv(0, 0)->lrugen;
	gen = lrugen->gen;
	op(RECLAIM_OP_FREE, 0, 0, 0, 0);
	EXPECT_EQ(atomic_long_read(&rw.w.cs.slots[0].memcg->memory.usage),
		  isolated);
	EXPECT_EQ(rw.w.cs.slots[0].state, SLOT_OFFLINE);
	/* what the eviction does not free it puts back on the LRU */
	op(RECLAIM_OP_UNPARK, 0, 0, 0, 0);
	op(RECLAIM_OP_FREE, 0, 0, 0, 0);
	EXPECT_EQ(atomic_long_read(&rw.w.cs.slots[0].memcg->memory.usage), 0);
	EXPECT_EQ(rw.w.cs.slots[0].state, SLOT_DEAD);
	EXPECT(!hlist_nulls_unhashed(&lrugen->list));
	EXPECT_EQ(lrugen->gen, gen);
	/* a dying memcg has no folios to free */
	EXPECT(!reclaim_world_apply(&rw, &(struct mlf_reclaim_op){
						 .kind = RECLAIM_OP_FREE }));
	EXPECT_CLEAN();
	teardown();
}

static struct reclaim_stand stands[4];

static void keep_stand(void *arg, const struct reclaim_stand *s)
{
	(void)arg;
	stands[s->slot] = *s;
	stands[s->slot].c = NULL;
}

/* online memcg @memcg, its bin drawn as @bin */
static void online_in(int memcg, int bin)
{
	struct mlf_reclaim_op o = { .kind = RECLAIM_OP_ONLINE,
				    .memcg = memcg,
				    .nr_draws = 1,
				    .draws = { bin } };

	reclaim_world_apply(&rw, &o);
}

/* where reclaim_world_stands() found @memcg: bin, index, length, the one ahead */
static void expect_stand(int memcg, int bin, int index, int len, int ahead)
{
	EXPECT_EQ(stands[memcg].bin, bin);
	EXPECT_EQ(stands[memcg].index, index);
	EXPECT_EQ(stands[memcg].bin_len, len);
	EXPECT_EQ(stands[memcg].ahead, ahead);
}

/*
 * reclaim_world_stands() finds each memcg's bin, its index there, the
 * bin's length and the nearest online memcg ahead of it, as the kernel's
 * adds put them: lru_gen_online_memcg() at the tail of the drawn bin of
 * the old generation, an offline (MEMCG_LRU_OLD) at the head of the old
 * generation's bin it draws (0 here: an offline op has no draws)
 */
TEST(stands_finds_the_bin_and_the_online_memcg_ahead)
{
	static unsigned char feedback[ST_NR_COUNTERS];

	reclaim_world_states_attach(feedback, sizeof(feedback));
	testlib_catch_failures();
	reclaim_world_init(&rw, 1, 4);
	online_in(0, 3);
	online_in(1, 3);
	online_in(2, 3);
	reclaim_world_stands(&rw, -1, true, keep_stand, NULL);
	expect_stand(0, 3, 0, 3, -1);
	expect_stand(1, 3, 1, 3, 0);
	expect_stand(2, 3, 2, 3, 1);
	/*
	 * 1 goes to the head of bin 0, offline (its folios' charges keep it
	 * alive); 3 comes in behind it there
	 */
	op(RECLAIM_OP_ADD, 1, 0, LRU_GEN_ANON, 4);
	op(RECLAIM_OP_OFFLINE, 1, 0, 0, 0);
	EXPECT_EQ(rw.w.cs.slots[1].state, SLOT_OFFLINE);
	online_in(3, 0);
	reclaim_world_stands(&rw, -1, true, keep_stand, NULL);
	expect_stand(2, 3, 1, 2, 0);
	expect_stand(1, 0, 0, 2, -1);
	/* the one ahead of 3 is offline */
	expect_stand(3, 0, 1, 2, -1);
	/* 1's folios, then an eviction parked on them in slot 0 */
	EXPECT_EQ(stands[1].folio_nodes, 1);
	EXPECT_EQ(stands[1].parked_slots, 0);
	EXPECT_EQ(stands[1].free_park, 0);
	op(RECLAIM_OP_PARK, 1, 0, 0, 0);
	reclaim_world_stands(&rw, -1, true, keep_stand, NULL);
	EXPECT_EQ(stands[1].parked_slots, 1);
	EXPECT_EQ(stands[1].parked_nodes, 1);
	EXPECT_EQ(stands[1].free_park, 1);
	EXPECT_EQ(stands[1].other_parked, -1);
	EXPECT_EQ(stands[2].other_parked, 0);
	/* without handles, none of it */
	reclaim_world_stands(&rw, 3, false, keep_stand, NULL);
	expect_stand(3, -1, -1, -1, -1);
	teardown();
}

#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
TEST(throttle)
{
	struct mlf_throttle_decision d;
	struct mlf_failure f;
	unsigned long sleeps;

	/* anon only, 8 of 16 parked: over 8 / MIN_NR_GENS -> sleeps */
	setup(16, 0);
	op(RECLAIM_OP_PARK, 0, 0, 0, 0);
	EXPECT(atomic_long_read(&lv(0, 0)->lrugen.nr_isolated[LRU_GEN_ANON]) == MIN_LRU_BATCH);
	sleeps = rw.throttle_sleeps;
	reclaim(0, 0, 0, false);
	EXPECT_CLEAN();
	EXPECT(rw.throttle_sleeps == sleeps + 1);
	EXPECT(atomic_long_read(&rw.w.cs.nodes[0].nr_throttled_isolated) == 1);
	/* kswapd is exempt */
	reclaim(0, 0, 0, true);
	EXPECT_CLEAN();
	EXPECT(rw.throttle_sleeps == sleeps + 1);

	/* a decision to sleep while file is evictable and not over */
	op(RECLAIM_OP_ADD, 0, 0, LRU_GEN_FILE, 8);
	d = (struct mlf_throttle_decision){ .lruvec = lv(0, 0), .swappiness = 60,
					    .sleep = true, .allowed = 0 };
	EXPECT(!check_throttle_decision(&rw.rcs, &d, &f) &&
	       !strcmp(f.check, "throttle.only_when_all"));
	d.sleep = false;
	d.allowed = BIT(LRU_GEN_ANON) | BIT(LRU_GEN_FILE);
	EXPECT(!check_throttle_decision(&rw.rcs, &d, &f) && !strcmp(f.check, "throttle.allowed"));
	d.allowed = BIT(LRU_GEN_FILE);
	EXPECT(check_throttle_decision(&rw.rcs, &d, &f));
	/*
	 * The expected decision comes from the model's folios, not from the
	 * port's counter: with nr_isolated zeroed behind the throttle's back
	 * anon still counts as over (8 parked of 8 on the LRU)
	 */
	atomic_long_set(&lv(0, 0)->lrugen.nr_isolated[LRU_GEN_ANON], 0);
	d.allowed = BIT(LRU_GEN_ANON) | BIT(LRU_GEN_FILE);
	EXPECT(!check_throttle_decision(&rw.rcs, &d, &f) &&
	       !strcmp(f.check, "throttle.allowed"));
	atomic_long_set(&lv(0, 0)->lrugen.nr_isolated[LRU_GEN_ANON], MIN_LRU_BATCH);
	/* and the port, with a file folio to take, does not sleep */
	reclaim(0, 0, 0, false);
	EXPECT_CLEAN();
	EXPECT(rw.throttle_sleeps == sleeps + 1);
	teardown();
}
#endif

TEST(shadow_budget)
{
	struct mlf_failure f;

	setup(10, 6);
	EXPECT_CLEAN();
	EXPECT(workingset_lru_pages(lv(0, 0)) == 16);
	/* the classic LRU's sizes: never maintained under MGLRU */
	EXPECT(lruvec_lru_size(lv(0, 0), LRU_INACTIVE_ANON, MAX_NR_ZONES - 1) == 0);
	EXPECT(count_shadow_nodes(lv(0, 0), 100) == 100 - (16 >> (XA_CHUNK_SHIFT - 3)));
	atomic_long_add(3, &lv(0, 0)->state_local[NR_INACTIVE_FILE]);
	EXPECT(!check_shadow_budget(&rw.rcs, lv(0, 0), 0, &f) && !strcmp(f.check, "shadow.budget"));
	atomic_long_add(-3, &lv(0, 0)->state_local[NR_INACTIVE_FILE]);
	EXPECT(check_shadow_budget(&rw.rcs, lv(0, 0), 0, &f));
	teardown();
}

TEST(stats_reparent)
{
	struct mlf_failure f;

	setup(16, 0);
	op(RECLAIM_OP_REFAULT, 0, 0, LRU_GEN_FILE, 2);
	op(RECLAIM_OP_OFFLINE, 0, 0, 0, 0);
	EXPECT_CLEAN();
	reclaim(0, 0, DEF_PRIORITY, false);
	EXPECT_CLEAN();
	EXPECT(rw.folios_freed > 0);
	/* the refaults counted while it was online stay with it */
	EXPECT(lruvec_page_state_local(lv(0, 0), WORKINGSET_REFAULT_FILE) == 2);
	EXPECT(check_stats_reparent(&rw.rcs, &f));
	/* an update that landed on the dying memcg is lost to the parent */
	atomic_long_add(1, &lv(0, 0)->state_local[WORKINGSET_REFAULT_FILE]);
	EXPECT(!check_stats_reparent(&rw.rcs, &f) && !strcmp(f.check, "stats.reparent"));
	atomic_long_add(-1, &lv(0, 0)->state_local[WORKINGSET_REFAULT_FILE]);
	teardown();
}

TEST(protection)
{
	struct mlf_reclaim_op o = { .kind = RECLAIM_OP_PROTECT, .min = 255 };

	setup(16, 0);
	reclaim_world_apply(&rw, &o);
	/* what shrink_one() computes first (stable 6.12.y) */
	mem_cgroup_calculate_protection_path(NULL, rw.w.cs.slots[0].memcg);
	EXPECT(mem_cgroup_below_min(NULL, rw.w.cs.slots[0].memcg));
	reclaim(0, 0, 0, false);
	EXPECT(rw.folios_freed == 0);
	EXPECT_CLEAN();
	teardown();
}

/*
 * mem_cgroup_css_offline() resets memory.min and memory.low (6.12:
 * page_counter_set_min/low(&memcg->memory, 0)), and an offline memcg has
 * no memory.min file left to write: reclaim takes from it what
 * protection kept from it while online.
 */
TEST(offline_drops_protection)
{
	struct mlf_reclaim_op o = { .kind = RECLAIM_OP_PROTECT, .min = 255,
				    .low = 255 };
	struct mem_cgroup *memcg;

	setup(16, 0);
	reclaim_world_apply(&rw, &o);
	memcg = rw.w.cs.slots[0].memcg;
	mem_cgroup_calculate_protection_path(NULL, memcg);
	EXPECT(mem_cgroup_below_min(NULL, memcg));
	op(RECLAIM_OP_OFFLINE, 0, 0, 0, 0);
	EXPECT_EQ(memcg->memory.min, 0);
	EXPECT_EQ(memcg->memory.low, 0);
	mem_cgroup_calculate_protection_path(NULL, memcg);
	EXPECT(!mem_cgroup_below_min(NULL, memcg));
	EXPECT(!mem_cgroup_below_low(NULL, memcg));
	/* protect on an offline memcg does not apply */
	reclaim_world_apply(&rw, &o);
	EXPECT_EQ(memcg->memory.min, 0);
	reclaim(0, 0, 0, false);
	EXPECT(rw.folios_freed > 0);
	EXPECT_CLEAN();
	teardown();
}

/*
 * protect.reset: an offline that left memory.low as it was (the reset
 * dropped from the callback) is caught by the next op's checks, from the
 * model, whatever the port reads back.
 */
TEST(protect_reset_catches_a_kept_low)
{
	struct mlf_reclaim_op o = { .kind = RECLAIM_OP_PROTECT, .min = 3,
				    .low = 200 };
	struct mlf_failure f;
	struct mem_cgroup *memcg;

	setup(16, 0);
	reclaim_world_apply(&rw, &o);
	memcg = rw.w.cs.slots[0].memcg;
	EXPECT(check_protect_reset(&rw.rcs, &f));
	op(RECLAIM_OP_OFFLINE, 0, 0, 0, 0);
	EXPECT(check_protect_reset(&rw.rcs, &f));
	EXPECT_CLEAN();
	/* what an offline without page_counter_set_low(.., 0) leaves */
	WRITE_ONCE(memcg->memory.low, 200);
	EXPECT(!check_protect_reset(&rw.rcs, &f));
	EXPECT_STREQ(f.check, "protect.reset");
	EXPECT_EQ(f.memcg, 0);
	op(RECLAIM_OP_AGE, 0, 0, 0, 0);
	EXPECT_STREQ(testlib_caught.check, "protect.reset");
	WRITE_ONCE(memcg->memory.low, 0);
	testlib_caught.count = 0;
	teardown();
}

/* usage.charged: a usage that lost an uncharge is caught, from the model */
TEST(usage_charged_catches_a_lost_uncharge)
{
	struct mlf_failure f;
	struct mem_cgroup *memcg;

	setup(16, 0);
	memcg = rw.w.cs.slots[0].memcg;
	EXPECT_EQ(atomic_long_read(&memcg->memory.usage), 16);
	EXPECT(check_usage_charged(&rw.rcs, &f));
	atomic_long_add(1, &memcg->memory.usage);
	EXPECT(!check_usage_charged(&rw.rcs, &f));
	EXPECT_STREQ(f.check, "usage.charged");
	EXPECT_EQ(f.memcg, 0);
	atomic_long_add(-1, &memcg->memory.usage);
	EXPECT_CLEAN();
	teardown();
}

/*
 * protect.decision on made-up visits: below min, YOUNG is due whatever
 * the segment; below low, TAIL unless in the tail segment; an
 * unprotected memcg may be decided anything.
 */
TEST(protect_decision_follows_the_model)
{
	struct mlf_protect_visit v = { .slot = 0, .seg = 0, .usage = 5,
				       .emin = 5 };
	struct mlf_failure f;

	EXPECT(check_protect_decision(&v, MEMCG_LRU_YOUNG, &f));
	EXPECT(!check_protect_decision(&v, 0, &f));
	EXPECT_STREQ(f.check, "protect.decision");
	EXPECT(!check_protect_decision(&v, MEMCG_LRU_TAIL, &f));
	v.emin = 4;
	v.elow = 6;
	EXPECT(check_protect_decision(&v, MEMCG_LRU_TAIL, &f));
	EXPECT(!check_protect_decision(&v, MEMCG_LRU_YOUNG, &f));
	v.seg = MEMCG_LRU_TAIL;
	EXPECT(check_protect_decision(&v, MEMCG_LRU_YOUNG, &f));
	EXPECT(check_protect_decision(&v, 0, &f));
	v.elow = 4;
	v.seg = 0;
	EXPECT(check_protect_decision(&v, 0, &f));
	v.slot = MLF_NONE;
	v.emin = 9;
	EXPECT(check_protect_decision(&v, 0, &f));
}

/*
 * A walk over a memcg below memory.min whose protection the port does not
 * see (its memory.min lost behind the harness's back): YOUNG was due, the
 * port decided otherwise, and the decision is caught as it is made, before
 * the op's own checks (protect.reset) run. (protection above: a protected
 * walk passes.)
 */
TEST(protect_decision_in_a_walk)
{
	struct mlf_reclaim_op o = { .kind = RECLAIM_OP_PROTECT, .min = 255 };

	setup(16, 0);
	reclaim_world_apply(&rw, &o);
	EXPECT_CLEAN();
	WRITE_ONCE(rw.w.cs.slots[0].memcg->memory.min, 0);
	reclaim(0, 0, 0, false);
	EXPECT_STREQ(testlib_caught.check, "protect.decision");
	WRITE_ONCE(rw.w.cs.slots[0].memcg->memory.min, 255);
	testlib_caught.count = 0;
	teardown();
}


/* an op of the reclaim world, set field by field */
static void apply(struct mlf_reclaim_op o)
{
	reclaim_world_apply(&rw, &o);
}

/*
 * The hierarchy: a grandchild of the root gets its share of its parent's
 * effective memory.min (mem_cgroup_calculate_protection_path(), top down),
 * which the model computes itself; a parent with an online child cannot
 * go offline; the charge counts at every level up to the root.
 */
TEST(grandchild_protection)
{
	struct mlf_reclaim_op o = { .kind = RECLAIM_OP_ONLINE, .memcg = 1,
				    .parent = 1 };
	struct mem_cgroup *parent, *child;
	struct mlf_protect_visit v;
	struct mlf_failure f;

	setup(0, 0);
	apply(o);
	parent = rw.w.cs.slots[0].memcg;
	child = rw.w.cs.slots[1].memcg;
	EXPECT(child->parent == parent);
	op(RECLAIM_OP_ADD, 1, 0, LRU_GEN_FILE, 12);
	EXPECT_EQ(page_counter_read(&parent->memory), 12);
	EXPECT_EQ(page_counter_read(&rw.rcs.root->memory), 12);
	apply((struct mlf_reclaim_op){ .kind = RECLAIM_OP_PROTECT, .memcg = 0,
				       .min = 8 });
	apply((struct mlf_reclaim_op){ .kind = RECLAIM_OP_PROTECT, .memcg = 1,
				       .min = 20 });
	/* the parent affords 8 of the child's claim of 12 */
	mem_cgroup_calculate_protection_path(NULL, child);
	EXPECT_EQ(child->memory.emin, 8);
	EXPECT(!mem_cgroup_below_min(NULL, child));
	protect_visit_begin(&rw.rcs, lv(1, 0), &v);
	EXPECT_EQ(v.emin, 8);
	EXPECT_EQ(v.usage, 12);
	/* tree.links: a child off its parent's list is caught */
	list_del_init(&child->sibling);
	EXPECT(!check_tree_links(&rw.rcs, &f));
	EXPECT_STREQ(f.check, "tree.links");
	list_add_tail(&child->sibling, &parent->children);
	EXPECT(check_tree_links(&rw.rcs, &f));
	/* rmdir of a parent with an online child: -EBUSY */
	op(RECLAIM_OP_OFFLINE, 0, 0, 0, 0);
	EXPECT_EQ(rw.w.cs.slots[0].state, SLOT_ONLINE);
	op(RECLAIM_OP_OFFLINE, 1, 0, 0, 0);
	op(RECLAIM_OP_OFFLINE, 0, 0, 0, 0);
	EXPECT_EQ(rw.w.cs.slots[0].state, SLOT_OFFLINE);
	EXPECT_CLEAN();
	teardown();
}

/*
 * reclaim.abort: a kswapd walk stops once the zone it may reclaim from is
 * above its high watermark + MIN_LRU_BATCH, and the check fails a batch
 * after one that met the condition.
 */
TEST(kswapd_stops_at_high_watermark)
{
	struct mlf_reclaim_op z = { .kind = RECLAIM_OP_ZONE, .node = 0,
				    .zone = 0, .zone_managed = 100,
				    .zone_min = 10, .zone_gap = 5,
				    .zone_free = 20 };
	struct mlf_reclaim_op r = { .kind = RECLAIM_OP_RECLAIM, .node = 0,
				    .kswapd = 1, .zones = 1 };
	struct mlf_reclaim_run run = { .nid = 0, .kswapd = true,
				       .nr_to_reclaim = ULONG_MAX,
				       .abort_due = true, .abort_why = "test" };
	struct mlf_failure f;

	setup(0, 0);
	op(RECLAIM_OP_ONLINE, 1, 0, 0, 0);
	op(RECLAIM_OP_ADD, 0, 0, LRU_GEN_FILE, 16);
	op(RECLAIM_OP_ADD, 1, 0, LRU_GEN_FILE, 16);
	op(RECLAIM_OP_AGE, 0, 0, 0, 0);
	op(RECLAIM_OP_AGE, 0, 0, 0, 0);
	op(RECLAIM_OP_AGE, 1, 0, 0, 0);
	op(RECLAIM_OP_AGE, 1, 0, 0, 0);
	apply(z);
	apply(r);
	/* 8 more pages than the high watermark's 20 + 8: two batches */
	EXPECT_EQ(rw.folios_freed, 16);
	EXPECT_CLEAN();
	rw.rcs.run = &run;
	EXPECT(!check_abort_batch(&rw.rcs, &f));
	EXPECT_STREQ(f.check, "reclaim.abort");
	rw.rcs.run = NULL;
	teardown();
}

/* zone.free: a page that did not go back to its zone is caught */
TEST(zone_free_catches_a_lost_page)
{
	struct mlf_failure f;
	struct zone *zone;

	setup(8, 0);
	reclaim(0, 0, 0, false);
	EXPECT(rw.folios_freed > 0);
	EXPECT(check_zone_free(&rw.rcs, &f));
	zone = &rw.w.cs.nodes[0].node_zones[0];
	__mod_zone_page_state(zone, NR_FREE_PAGES, -1);
	EXPECT(!check_zone_free(&rw.rcs, &f));
	EXPECT_STREQ(f.check, "zone.free");
	__mod_zone_page_state(zone, NR_FREE_PAGES, 1);
	EXPECT_CLEAN();
	teardown();
}

/*
 * reclaim.sort: a pass that moved on a folio sort_folio() leaves to be
 * isolated, or isolated one it protects, is caught against the picture
 * taken as it began; a pass that reached nothing is not.
 */
TEST(sort_catches_a_folio_moved_on)
{
	struct mlf_reclaim_run run = { .nid = 0, .reclaim_idx = MAX_NR_ZONES - 1 };
	struct lru_gen_folio *lrugen;
	struct mlf_sort_picture *p = calloc(1, sizeof(*p));
	struct lru_gen_eviction ev = { 0 };
	struct mlf_failure f;
	struct folio *folio = NULL;
	int old, next, zone = 0;
	long i;

	setup(16, 0);
	rw.rcs.run = &run;
	lrugen = &lv(0, 0)->lrugen;
	sort_picture(p, &rw.rcs, lv(0, 0));
	INIT_LIST_HEAD(&ev.list);
	ev.lruvec = lv(0, 0);
	EXPECT(check_sort(p, &rw.rcs, &ev, &f));
	old = lru_gen_from_seq(lrugen->min_seq[LRU_GEN_ANON]);
	next = lru_gen_from_seq(lrugen->min_seq[LRU_GEN_ANON] + 1);
	for (zone = 0; zone < MAX_NR_ZONES && !folio; zone++)
		if (!list_empty(&lrugen->folios[old][LRU_GEN_ANON][zone]))
			folio = list_last_entry(&lrugen->folios[old][LRU_GEN_ANON][zone],
						struct folio, lru);
	EXPECT(folio != NULL);
	if (folio) {
		zone = folio->zone;
		i = folio - rw.rcs.model.base;
		EXPECT(p->oldest[i] && !p->referenced[i]);
		/* on a generation, unreferenced and in a zone the run reclaims */
		folio->gen = next + 1;
		list_move_tail(&folio->lru, &lrugen->folios[next][LRU_GEN_ANON][zone]);
		EXPECT(!check_sort(p, &rw.rcs, &ev, &f));
		EXPECT_STREQ(f.check, "reclaim.sort");
		/* isolated, having been referenced */
		folio->gen = old + 1;
		list_move(&folio->lru, &ev.list);
		EXPECT(check_sort(p, &rw.rcs, &ev, &f));
		p->referenced[i] = true;
		EXPECT(!check_sort(p, &rw.rcs, &ev, &f));
		EXPECT_STREQ(f.check, "reclaim.sort");
		list_move_tail(&folio->lru, &lrugen->folios[old][LRU_GEN_ANON][zone]);
	}
	rw.rcs.run = NULL;
	free(p);
	EXPECT_CLEAN();
	teardown();
}

/*
 * slab.scan: at priority 0 a shrinker of 200 objects, default seeks, is
 * asked 400 (capped at twice its objects) and scans them all; the model
 * agrees, and a deferred count changed by hand is caught at the next call.
 */
TEST(slab_scan_follows_the_formula)
{
	struct mlf_reclaim_op s = { .kind = RECLAIM_OP_SLAB, .memcg = 0,
				    .node = 0, .shrinker = 0, .objects = 200 };
	struct mem_cgroup *memcg;

	setup(16, 0);
	memcg = rw.w.cs.slots[0].memcg;
	apply(s);
	reclaim(0, 0, 0, false);
	EXPECT_CLEAN();
	EXPECT_EQ(mlf_slab_objects(memcg, 0, 0), 0);
	EXPECT_EQ(rw.rcs.model.objects[0][1][0], 0);
	teardown();

	setup(16, 0);
	memcg = rw.w.cs.slots[0].memcg;
	apply(s);
	atomic_long_add(5, &memcg->nodeinfo[0]->nr_deferred[0]);
	reclaim(0, 0, 0, false);
	EXPECT_STREQ(testlib_caught.check, "slab.scan");
	testlib_caught.count = 0;
	teardown();
}

/*
 * stats.reparent under a dying parent: a refault charged (remotely) to an
 * offline memcg whose parent is offline too goes to the nearest online
 * ancestor, the root; a redirection of one level would leave it on the
 * dying parent
 */
TEST(refault_under_dying_parent)
{
	struct mlf_failure f;
	long before;

	setup(0, 0);
	apply((struct mlf_reclaim_op){ .kind = RECLAIM_OP_ONLINE, .memcg = 1,
				       .parent = 1 });
	op(RECLAIM_OP_ADD, 1, 0, LRU_GEN_FILE, 4);
	op(RECLAIM_OP_OFFLINE, 1, 0, 0, 0);
	op(RECLAIM_OP_OFFLINE, 0, 0, 0, 0);
	EXPECT_EQ(rw.w.cs.slots[1].state, SLOT_OFFLINE);
	before = lruvec_page_state_local_raw(get_lruvec(rw.rcs.root, 0),
					     WORKINGSET_REFAULT_FILE);
	op(RECLAIM_OP_REFAULT, 1, 0, LRU_GEN_FILE, 2);
	EXPECT_EQ(lruvec_page_state_local_raw(get_lruvec(rw.rcs.root, 0),
					      WORKINGSET_REFAULT_FILE) - before, 2);
	EXPECT(check_stats_reparent(&rw.rcs, &f));
	EXPECT_CLEAN();
	teardown();
}

/*
 * seg.semantics in the reclaim world: the model's segment follows a soft
 * reclaim (HEAD) and an offline (OLD: the default one); a port whose
 * segment strays from it is reported
 */
TEST(seg_model_follows_rotations)
{
	struct lruvec *lruvec;
	struct mlf_failure f;

	setup(16, 0);
	lruvec = get_lruvec(rw.w.cs.slots[0].memcg, 0);
	op(RECLAIM_OP_SOFT, 0, 0, 0, 0);
	EXPECT_EQ(rw.rcs.model.seg[0][0], MEMCG_LRU_HEAD);
	EXPECT_EQ(lruvec->lrugen.seg, MEMCG_LRU_HEAD);
	EXPECT(check_seg_model(&rw.rcs, &f));
	lruvec->lrugen.seg = MEMCG_LRU_TAIL;
	EXPECT(!check_seg_model(&rw.rcs, &f));
	EXPECT_STREQ(f.check, "seg.semantics");
	lruvec->lrugen.seg = MEMCG_LRU_HEAD;
	op(RECLAIM_OP_OFFLINE, 0, 0, 0, 0);
	EXPECT_EQ(rw.rcs.model.seg[0][0], 0);
	EXPECT(check_seg_model(&rw.rcs, &f));
	EXPECT_CLEAN();
	teardown();
}

/*
 * reclaim.decision on made-up visits of an online memcg with 16 folios on
 * the LRU at priority 0: the aging asked for a rotation, YOUNG; it did not
 * and the memcg is sizable, no rotation; an empty memcg, TAIL, then YOUNG
 */
TEST(shrink_decision_follows_the_rules)
{
	struct mlf_reclaim_run run = { .nid = 0, .priority = 0 };
	struct mlf_protect_visit v = { .slot = 0, .nid = 0, .online = true,
				       .evicting = true, .last_nr_to_scan = -1 };
	struct mlf_failure f;

	setup(16, 0);
	rw.rcs.run = &run;
	EXPECT(check_shrink_decision(&rw.rcs, &v, MEMCG_LRU_YOUNG, &f));
	EXPECT(!check_shrink_decision(&rw.rcs, &v, 0, &f));
	EXPECT_STREQ(f.check, "reclaim.decision");
	v.last_nr_to_scan = 16;
	EXPECT(check_shrink_decision(&rw.rcs, &v, 0, &f));
	EXPECT(!check_shrink_decision(&rw.rcs, &v, MEMCG_LRU_TAIL, &f));
	rw.rcs.run = NULL;
	EXPECT_CLEAN();
	teardown();

	/* the segment is the model's: TAIL once, then YOUNG */
	setup(0, 0);
	rw.rcs.run = &run;
	EXPECT(check_shrink_decision(&rw.rcs, &v, MEMCG_LRU_TAIL, &f));
	rw.rcs.model.seg[0][0] = MEMCG_LRU_TAIL;
	EXPECT(check_shrink_decision(&rw.rcs, &v, MEMCG_LRU_YOUNG, &f));
	EXPECT(!check_shrink_decision(&rw.rcs, &v, 0, &f));
	rw.rcs.run = NULL;
	teardown();
}

/*
 * reclaim.nr_to_scan against should_run_aging(): 16 anon folios aged once
 * sit in the oldest of three generations, none in the youngest, so the
 * aging is not due: below DEF_PRIORITY the answer is the folios >>
 * priority, not the aging's -1. 52 more (new folios go to the middle one)
 * leave the oldest under a quarter: the aging is due, -1 (or 0), not the
 * folios >> priority.
 */
TEST(nr_to_scan_follows_the_aging_rule)
{
	struct mlf_reclaim_run run = { .nid = 0, .priority = 1 };
	struct scan_control sc = { .priority = 1 };
	struct mlf_nr_to_scan p = { .sc = &sc };
	struct mlf_protect_visit *v = &run.visit;
	struct mlf_failure f;
	int i;

	setup(16, 0);
	*v = (struct mlf_protect_visit){ .slot = 0, .nid = 0, .online = true,
					 .evicting = true };
	rw.rcs.run = &run;
	aging_picture(&rw.rcs, lv(0, 0));
	EXPECT_EQ(v->max_seq, v->min_seq[LRU_GEN_ANON] + MIN_NR_GENS);
	EXPECT_EQ(v->young, 0);
	EXPECT_EQ(v->old, 16);
	p.nr_to_scan = 16 >> 1;
	EXPECT(check_nr_to_scan(&rw.rcs, lv(0, 0), &p, &f));
	p.nr_to_scan = -1;
	EXPECT(!check_nr_to_scan(&rw.rcs, lv(0, 0), &p, &f));
	EXPECT_STREQ(f.check, "reclaim.nr_to_scan");

	rw.rcs.run = NULL;
	for (i = 0; i < 4; i++)
		op(RECLAIM_OP_ADD, 0, 0, LRU_GEN_ANON, i < 3 ? 16 : 4);
	rw.rcs.run = &run;
	aging_picture(&rw.rcs, lv(0, 0));
	EXPECT_EQ(v->young, 0);
	EXPECT_EQ(v->old, 16);
	p.nr_to_scan = -1;
	EXPECT(check_nr_to_scan(&rw.rcs, lv(0, 0), &p, &f));
	p.nr_to_scan = 68 >> 1;
	EXPECT(!check_nr_to_scan(&rw.rcs, lv(0, 0), &p, &f));
	/* at DEF_PRIORITY the aging is not tried */
	run.priority = sc.priority = DEF_PRIORITY;
	p.nr_to_scan = 68 >> DEF_PRIORITY;
	EXPECT(check_nr_to_scan(&rw.rcs, lv(0, 0), &p, &f));
	rw.rcs.run = NULL;
	EXPECT_CLEAN();
	teardown();
}

int main(void)
{
	printf("test_reclaim: %s\n", MLF_ISO_NAME);
	return testlib_run();
}
