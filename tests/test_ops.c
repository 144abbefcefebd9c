// SPDX-License-Identifier: GPL-2.0
/*
 * Each op's effect on the port, through world_apply() (so every check and
 * the model run after each op too): where online, offline, rotations,
 * release, soft reclaim and the reclaim walk leave each memcg, and which
 * ops do not apply. Ends with a seeded-random run that must stay clean.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "harness/states.h"
#include "harness/world.h"
#include "kernel/prng.h"
#include "testlib.h"
#include "tree_needs.h"

static struct mlf_world w;

static void setup(int nr_nodes, int pool_size)
{
	world_init(&w, nr_nodes, pool_size);
	w.full_checks = true;
}

static struct mlf_op mkop(int kind, int memcg, int node, int nr_draws, ...)
{
	struct mlf_op op = { .kind = kind, .memcg = memcg, .node = node };
	va_list ap;
	int i;

	va_start(ap, nr_draws);
	for (i = 0; i < nr_draws; i++)
		op.draws[i] = va_arg(ap, int);
	va_end(ap);
	op.nr_draws = nr_draws;
	return op;
}

static bool apply(struct mlf_op op)
{
	return world_apply(&w, &op);
}

static bool online(int m, int bin)
{
	return apply(mkop(MLF_OP_ONLINE, m, 0, 1, bin));
}

static bool rotate(int m, int nid, int rotate_op, int bin)
{
	struct mlf_op op = mkop(MLF_OP_ROTATE, m, nid, 1, bin);

	op.rotate_op = rotate_op;
	return apply(op);
}

static bool set_outcome(int m, int below_min, int below_low, int success,
			int sizable, int nr_reclaimed)
{
	struct mlf_op op = mkop(MLF_OP_SET, m, 0, 0);

	op.below_min = below_min;
	op.below_low = below_low;
	op.success = success;
	op.sizable = sizable;
	op.nr_reclaimed = nr_reclaimed;
	return apply(op);
}

static struct lru_gen_folio *lrugen(int m, int nid)
{
	return &get_lruvec(w.cs.slots[m].memcg, nid)->lrugen;
}

static unsigned long seq(int nid)
{
	return w.cs.nodes[nid].memcg_lru.seq;
}

static long refcnt(int m)
{
	return atomic_long_read(&w.cs.slots[m].memcg->refcnt);
}

/* The memcg ids in fifo[gen][bin] of @nid, read from the port's list. */
static int port_bin(int nid, int gen, int bin, int *ids, int max)
{
	struct hlist_nulls_node *pos =
		w.cs.nodes[nid].memcg_lru.fifo[gen][bin].first;
	int n = 0;

	while (!is_a_nulls(pos) && n < max) {
		struct lru_gen_folio *lg =
			container_of(pos, struct lru_gen_folio, list);

		ids[n++] = lruvec_memcg(container_of(lg, struct lruvec, lrugen))
				   ->id;
		pos = pos->next;
	}
	return n;
}

static bool expect_bin(const char *file, int line, int nid, int gen, int bin,
		       const int *want, int nr_want)
{
	int ids[64], n = port_bin(nid, gen, bin, ids, 64), i;
	bool ok = n == nr_want;

	for (i = 0; ok && i < n; i++)
		ok = ids[i] == want[i];
	if (!ok) {
		fprintf(stderr, "%s:%d: node %d fifo[%d][%d] is [", file, line,
			nid, gen, bin);
		for (i = 0; i < n; i++)
			fprintf(stderr, "%sm%d", i ? " " : "", ids[i]);
		fprintf(stderr, "], expected [");
		for (i = 0; i < nr_want; i++)
			fprintf(stderr, "%sm%d", i ? " " : "", want[i]);
		fprintf(stderr, "]\n");
		testlib_failed_here = 1;
	}
	return ok;
}

#define EXPECT_BIN(nid, gen, bin, ...)                                 \
	expect_bin(__FILE__, __LINE__, nid, gen, bin, (int[]){ __VA_ARGS__ }, \
		   sizeof((int[]){ __VA_ARGS__ }) / sizeof(int))
#define EXPECT_BIN_EMPTY(nid, gen, bin) \
	expect_bin(__FILE__, __LINE__, nid, gen, bin, NULL, 0)

TEST(online_appends_to_tail_of_old_gen_on_every_node)
{
	int nid;

	setup(2, 8);
	EXPECT(online(0, 3));
	EXPECT(online(1, 3));
	EXPECT(online(2, 5));
	for (nid = 0; nid < 2; nid++) {
		EXPECT_BIN(nid, 0, 3, 0, 1);
		EXPECT_BIN(nid, 0, 5, 2);
		EXPECT_EQ(lrugen(1, nid)->gen, 0);
		EXPECT_EQ(lrugen(1, nid)->seg, 0);
		EXPECT_EQ(w.cs.nodes[nid].memcg_lru.nr_memcgs[0], 3);
	}
	EXPECT_EQ(refcnt(0), 1);
	EXPECT_EQ(w.cs.slots[0].state, SLOT_ONLINE);

	/* empty node 1's old gen: it moves on, and online follows its seq */
	EXPECT(rotate(0, 1, MEMCG_LRU_YOUNG, 0));
	EXPECT(rotate(1, 1, MEMCG_LRU_YOUNG, 0));
	EXPECT(rotate(2, 1, MEMCG_LRU_YOUNG, 0));
	EXPECT_EQ(seq(1), 1);
	EXPECT_EQ(seq(0), 0);
	EXPECT(online(3, 2));
	EXPECT_BIN(0, 0, 2, 3);
	EXPECT_BIN(1, 1, 2, 3);
	EXPECT_BIN(1, 1, 0, 0, 1, 2);
	world_destroy(&w);
}

TEST(offline_moves_to_head_of_old_gen)
{
	NEEDS_OFFLINE_OLD();
	setup(2, 8);
	online(0, 0);
	online(1, 0);
	online(2, 6);
	EXPECT(rotate(0, 0, MEMCG_LRU_YOUNG, 4));
	EXPECT(rotate(1, 0, MEMCG_LRU_TAIL, 0));
	EXPECT_BIN(0, 1, 4, 0);
	EXPECT_EQ(lrugen(1, 0)->seg, MEMCG_LRU_TAIL);

	EXPECT(apply(mkop(MLF_OP_OFFLINE, 0, 0, 2, 6, 7)));
	EXPECT_BIN(0, 0, 6, 0, 2);
	EXPECT_BIN(1, 0, 7, 0);
	EXPECT_BIN(1, 0, 0, 1);
	EXPECT_BIN_EMPTY(0, 1, 4);
	EXPECT_EQ(lrugen(0, 0)->gen, 0);
	EXPECT_EQ(lrugen(0, 0)->seg, 0);
	/* offline drops the base reference: nobody else holds one */
	EXPECT_EQ(w.cs.slots[0].state, SLOT_DEAD);
	EXPECT_EQ(refcnt(0), 0);
	EXPECT(!w.cs.slots[0].memcg->online);

	/* the segment goes back to default */
	EXPECT(apply(mkop(MLF_OP_OFFLINE, 1, 0, 2, 0, 0)));
	EXPECT_EQ(lrugen(1, 0)->seg, 0);
	EXPECT_BIN(0, 0, 0, 1);
	world_destroy(&w);
}

TEST(rotations_put_memcg_where_the_op_says)
{
	NEEDS_ROTATION(MEMCG_LRU_HEAD);
	NEEDS_ROTATION(MEMCG_LRU_OLD);

	setup(1, 8);
	online(0, 0);
	online(1, 0);
	online(2, 0);
	EXPECT_BIN(0, 0, 0, 0, 1, 2);

	EXPECT(rotate(2, 0, MEMCG_LRU_HEAD, 0));
	EXPECT_BIN(0, 0, 0, 2, 0, 1);
	EXPECT_EQ(lrugen(2, 0)->seg, MEMCG_LRU_HEAD);

	EXPECT(rotate(2, 0, MEMCG_LRU_TAIL, 0));
	EXPECT_BIN(0, 0, 0, 0, 1, 2);
	EXPECT_EQ(lrugen(2, 0)->seg, MEMCG_LRU_TAIL);

	EXPECT(rotate(0, 0, MEMCG_LRU_YOUNG, 1));
	EXPECT(rotate(1, 0, MEMCG_LRU_YOUNG, 1));
	EXPECT_BIN(0, 1, 1, 0, 1);
	EXPECT_EQ(lrugen(1, 0)->gen, 1);

	EXPECT(rotate(1, 0, MEMCG_LRU_OLD, 2));
	EXPECT_BIN(0, 0, 2, 1);
	EXPECT_EQ(lrugen(1, 0)->gen, 0);

	/* HEAD and TAIL stay in their generation, in the drawn bin */
	EXPECT(rotate(0, 0, MEMCG_LRU_HEAD, 5));
	EXPECT_BIN(0, 1, 5, 0);
	EXPECT_EQ(lrugen(0, 0)->gen, 1);

	EXPECT(rotate(2, 0, MEMCG_LRU_OLD, 2));
	EXPECT(rotate(0, 0, MEMCG_LRU_OLD, 2));
	EXPECT_BIN(0, 0, 2, 0, 2, 1);
	EXPECT_EQ(lrugen(0, 0)->seg, 0);
	EXPECT_BIN_EMPTY(0, 0, 0);
	EXPECT_EQ(seq(0), 0);

	/* the last one out of old moves seq on */
	EXPECT(rotate(0, 0, MEMCG_LRU_YOUNG, 3));
	EXPECT(rotate(2, 0, MEMCG_LRU_YOUNG, 3));
	EXPECT_EQ(seq(0), 0);
	EXPECT(rotate(1, 0, MEMCG_LRU_YOUNG, 3));
	EXPECT_EQ(seq(0), 1);
	EXPECT_BIN(0, 1, 3, 0, 2, 1);
	/* young is now gen 2 */
	EXPECT(rotate(2, 0, MEMCG_LRU_YOUNG, 7));
	EXPECT_BIN(0, 2, 7, 2);
	world_destroy(&w);
}

TEST(young_on_a_young_default_memcg)
{
	NEEDS_ROTATION(MEMCG_LRU_HEAD);

	setup(1, 8);
	online(0, 0);
	online(1, 0);
	online(2, 0);		/* keeps old non-empty, so young stays young */
	rotate(0, 0, MEMCG_LRU_YOUNG, 2);
	rotate(1, 0, MEMCG_LRU_YOUNG, 2);
	EXPECT_BIN(0, 1, 2, 0, 1);
	EXPECT(rotate(0, 0, MEMCG_LRU_YOUNG, 2));
#ifdef CONFIG_LRU_GEN_YOUNG_SKIP
	EXPECT_BIN(0, 1, 2, 0, 1);
#else
	EXPECT_BIN(0, 1, 2, 1, 0);
#endif
	/* from the head segment YOUNG is never skipped */
	EXPECT(rotate(1, 0, MEMCG_LRU_HEAD, 2));
	EXPECT_EQ(lrugen(1, 0)->seg, MEMCG_LRU_HEAD);
	EXPECT(rotate(1, 0, MEMCG_LRU_YOUNG, 2));
	EXPECT_BIN(0, 1, 2, 0, 1);
	EXPECT_EQ(lrugen(1, 0)->seg, 0);
	world_destroy(&w);
}

TEST(release_unlinks_everywhere_and_advances_seq)
{
	setup(2, 8);
	online(0, 1);
	online(1, 2);
	rotate(1, 0, MEMCG_LRU_YOUNG, 2);
	EXPECT(!apply(mkop(MLF_OP_RELEASE, 0, 0, 0)));	/* not dead */
	apply(mkop(MLF_OP_OFFLINE, 0, 0, 2, 1, 1));
	EXPECT_EQ(w.cs.slots[0].state, SLOT_DEAD);
	EXPECT(apply(mkop(MLF_OP_RELEASE, 0, 0, 0)));
	EXPECT_EQ(w.cs.slots[0].state, SLOT_EMPTY);
	EXPECT(!w.cs.slots[0].memcg);
	EXPECT_BIN_EMPTY(0, 0, 1);
	EXPECT_BIN_EMPTY(1, 0, 1);
	/* node 0: old emptied, young (m1) becomes old; node 1: m1 is old */
	EXPECT_EQ(seq(0), 1);
	EXPECT_EQ(seq(1), 0);
	EXPECT_EQ(w.cs.nodes[0].memcg_lru.nr_memcgs[0], 0);
	EXPECT_EQ(w.cs.nodes[1].memcg_lru.nr_memcgs[0], 1);
	/* the slot may be onlined again: a new memcg */
	EXPECT(online(0, 4));
	EXPECT_BIN(0, 1, 4, 0);
	EXPECT_BIN(1, 0, 4, 0);
	world_destroy(&w);
}

TEST(soft_reclaim_rotates_to_head_unless_there)
{
	struct mlf_op op;

	NEEDS_ROTATION(MEMCG_LRU_HEAD);
	NEEDS_SOFT_RECLAIM();

	setup(1, 8);
	online(0, 0);
	online(1, 0);
	op = mkop(MLF_OP_SOFT, 1, 0, 1, 0);
	EXPECT(apply(op));
	EXPECT_BIN(0, 0, 0, 1, 0);
	EXPECT_EQ(lrugen(1, 0)->seg, MEMCG_LRU_HEAD);
	/* from softirq: the node lock is irq-safe, so lockdep is content */
	op = mkop(MLF_OP_SOFT, 0, 0, 1, 0);
	op.softirq = 1;
	EXPECT(apply(op));
	EXPECT_BIN(0, 0, 0, 0, 1);
	/* already at head: no rotation, the draw is not used */
	EXPECT(apply(mkop(MLF_OP_SOFT, 1, 0, 1, 5)));
	EXPECT_BIN(0, 0, 0, 0, 1);
	EXPECT_BIN_EMPTY(0, 0, 5);
	world_destroy(&w);
}

TEST(get_put_and_the_life_cycle)
{
	setup(1, 4);
	online(0, 0);
	EXPECT(apply(mkop(MLF_OP_GET, 0, 0, 0)));
	EXPECT_EQ(refcnt(0), 2);
	EXPECT_EQ(w.cs.slots[0].refs, 1);
	EXPECT(apply(mkop(MLF_OP_PUT, 0, 0, 0)));
	EXPECT_EQ(refcnt(0), 1);
	/* the harness holds no reference any more: nothing to put */
	EXPECT(!apply(mkop(MLF_OP_PUT, 0, 0, 0)));

	EXPECT(apply(mkop(MLF_OP_GET, 0, 0, 0)));
	EXPECT(apply(mkop(MLF_OP_OFFLINE, 0, 0, 1, 0)));
	EXPECT_EQ(w.cs.slots[0].state, SLOT_OFFLINE);
	EXPECT_EQ(refcnt(0), 1);
	EXPECT(!apply(mkop(MLF_OP_RELEASE, 0, 0, 0)));
	EXPECT(apply(mkop(MLF_OP_GET, 0, 0, 0)));
	EXPECT(apply(mkop(MLF_OP_PUT, 0, 0, 0)));
	EXPECT(apply(mkop(MLF_OP_PUT, 0, 0, 0)));
	EXPECT_EQ(w.cs.slots[0].state, SLOT_DEAD);
	EXPECT_EQ(refcnt(0), 0);
	EXPECT(!apply(mkop(MLF_OP_GET, 0, 0, 0)));
	EXPECT(!apply(mkop(MLF_OP_PUT, 0, 0, 0)));
	EXPECT(apply(mkop(MLF_OP_RELEASE, 0, 0, 0)));
	world_destroy(&w);
}

/*
 * offline_css() runs the css_offline callback (OLD on every node) before it
 * clears CSS_ONLINE. A walk in between finds the memcg old and still
 * online, and shrink_one() sends it back YOUNG on success: the kernel's
 * window, reached here by css_offline, a reclaim, then offline. The same
 * walk after the whole offline sends it to the TAIL instead.
 */
TEST(a_walk_between_css_offline_and_offline_sees_it_online)
{
	struct mlf_op op;

	NEEDS_OFFLINE_OLD();
	setup(1, 4);
	online(0, 0);
	online(1, 1);	/* keeps the old generation from emptying */
	online(2, 0);
	EXPECT(rotate(0, 0, MEMCG_LRU_YOUNG, 5));
	EXPECT(rotate(2, 0, MEMCG_LRU_YOUNG, 5));
	EXPECT(set_outcome(0, 0, 0, 1, 0, 2));
	EXPECT(set_outcome(2, 0, 0, 1, 0, 2));

	/* the callback alone: old generation, head of bin 2, still online */
	EXPECT(apply(mkop(MLF_OP_CSS_OFFLINE, 0, 0, 1, 2)));
	EXPECT_BIN(0, 0, 2, 0);
	EXPECT(w.cs.slots[0].memcg->online);
	EXPECT_EQ(w.cs.slots[0].state, SLOT_ONLINE);
	/* offline_css() runs the callback once: not again */
	EXPECT(!apply(mkop(MLF_OP_CSS_OFFLINE, 0, 0, 1, 3)));

	/* a walk of bin 2 meets it: success and online, so YOUNG (bin 4) */
	op = mkop(MLF_OP_RECLAIM, 0, 0, 2, 2, 4);
	op.target = 2;
	EXPECT(apply(op));
	EXPECT_BIN(0, 1, 4, 0);
	EXPECT_EQ(lrugen(0, 0)->gen, get_memcg_gen(seq(0) + 1));
	EXPECT_EQ(lrugen(0, 0)->seg, 0);

	/* CSS_ONLINE cleared: no draw, no rotation, the base ref dropped */
	EXPECT(apply(mkop(MLF_OP_OFFLINE, 0, 0, 1, 6)));
	EXPECT(!w.cs.slots[0].memcg->online);
	EXPECT_EQ(w.cs.slots[0].state, SLOT_DEAD);
	EXPECT_BIN(0, 1, 4, 0);

	/* the whole offline, then the same walk: offline, so TAIL */
	EXPECT(apply(mkop(MLF_OP_GET, 2, 0, 0)));
	EXPECT(apply(mkop(MLF_OP_OFFLINE, 2, 0, 1, 3)));
	EXPECT_BIN(0, 0, 3, 2);
	op = mkop(MLF_OP_RECLAIM, 0, 0, 2, 3, 3);
	op.target = 2;
	EXPECT(apply(op));
	EXPECT_EQ(lrugen(2, 0)->gen, get_memcg_gen(seq(0)));
	EXPECT_EQ(lrugen(2, 0)->seg, MEMCG_LRU_TAIL);
	world_destroy(&w);
}

TEST(reclaim_releases_a_dead_memcg_it_meets)
{
	setup(2, 4);
	online(0, 0);
	online(1, 0);
	apply(mkop(MLF_OP_OFFLINE, 0, 0, 2, 0, 0));
	EXPECT_EQ(w.cs.slots[0].state, SLOT_DEAD);
	EXPECT_BIN(0, 0, 0, 0, 1);

	/* m0: tryget fails, released; m1 (all outcomes off): TAIL, then YOUNG */
	EXPECT(apply(mkop(MLF_OP_RECLAIM, 0, 0, 3, 0, 3, 6)));
	EXPECT_EQ(w.walks, 1);
	EXPECT(hlist_nulls_unhashed(&lrugen(0, 0)->list));
	EXPECT(hlist_nulls_unhashed(&lrugen(0, 1)->list));
	EXPECT_EQ(w.cs.slots[0].state, SLOT_DEAD);
	EXPECT_BIN_EMPTY(0, 0, 0);
	EXPECT_BIN_EMPTY(0, 0, 3);
	EXPECT_BIN(0, 1, 6, 1);
	EXPECT_BIN(1, 0, 0, 1);
	EXPECT_EQ(seq(0), 1);
	EXPECT_EQ(refcnt(1), 1);
	/* css_released still comes, and finds nothing left to unlink */
	EXPECT(apply(mkop(MLF_OP_RELEASE, 0, 0, 0)));
	world_destroy(&w);
}

/*
 * One node, m0 and m1 in fifo[0][0]; m1 neither succeeds nor is small, so
 * it stays; m0 gets the outcome under test. Draws: the first bin (0), then
 * one per rotation.
 */
static void reclaim_setup(int below_min, int below_low, int success,
			  int sizable)
{
	setup(1, 4);
	online(0, 0);
	online(1, 0);
	set_outcome(1, 0, 0, 0, 1, 1);
	set_outcome(0, below_min, below_low, success, sizable, 1);
}

TEST(reclaim_outcome_min_protected_goes_young)
{
	reclaim_setup(1, 1, 1, 1);
	EXPECT(apply(mkop(MLF_OP_RECLAIM, 0, 0, 2, 0, 4)));
	EXPECT_BIN(0, 1, 4, 0);
	EXPECT_BIN(0, 0, 0, 1);
	EXPECT_EQ(lrugen(0, 0)->seg, 0);
	world_destroy(&w);
}

TEST(reclaim_outcome_low_protected_goes_tail_first)
{
	/* tail of the bin being walked: met again, then reclaimed (stays) */
	reclaim_setup(0, 1, 0, 1);
	EXPECT(apply(mkop(MLF_OP_RECLAIM, 0, 0, 2, 0, 0)));
	EXPECT_BIN(0, 0, 0, 1, 0);
	EXPECT_EQ(lrugen(0, 0)->seg, MEMCG_LRU_TAIL);
	world_destroy(&w);

	/* tail of a bin walked later */
	reclaim_setup(0, 1, 0, 1);
	EXPECT(apply(mkop(MLF_OP_RECLAIM, 0, 0, 2, 0, 5)));
	EXPECT_BIN(0, 0, 5, 0);
	EXPECT_BIN(0, 0, 0, 1);
	EXPECT_EQ(lrugen(0, 0)->seg, MEMCG_LRU_TAIL);
	world_destroy(&w);
}

TEST(reclaim_outcome_success_online_goes_young)
{
	reclaim_setup(0, 0, 1, 1);
	EXPECT(apply(mkop(MLF_OP_RECLAIM, 0, 0, 2, 0, 3)));
	EXPECT_BIN(0, 1, 3, 0);
	EXPECT_BIN(0, 0, 0, 1);
	world_destroy(&w);
}

TEST(reclaim_outcome_failure_but_sizable_stays)
{
	reclaim_setup(0, 0, 0, 1);
	EXPECT(apply(mkop(MLF_OP_RECLAIM, 0, 0, 2, 0, 3)));
	EXPECT_BIN(0, 0, 0, 0, 1);
	EXPECT_EQ(lrugen(0, 0)->seg, 0);
	world_destroy(&w);
}

TEST(reclaim_outcome_otherwise_tail_then_young)
{
	reclaim_setup(0, 0, 0, 0);
	EXPECT(apply(mkop(MLF_OP_RECLAIM, 0, 0, 3, 0, 0, 2)));
	EXPECT_BIN(0, 0, 0, 1);
	EXPECT_BIN(0, 1, 2, 0);
	EXPECT_EQ(lrugen(0, 0)->seg, 0);
	world_destroy(&w);

	/* offline: success does not send it young, it gets the one retry */
	reclaim_setup(0, 0, 1, 1);
	apply(mkop(MLF_OP_GET, 0, 0, 0));
	apply(mkop(MLF_OP_OFFLINE, 0, 0, 1, 0));
	EXPECT_BIN(0, 0, 0, 0, 1);
	EXPECT(apply(mkop(MLF_OP_RECLAIM, 0, 0, 3, 0, 0, 6)));
	EXPECT_BIN(0, 0, 0, 1);
	EXPECT_BIN(0, 1, 6, 0);
	world_destroy(&w);
}

TEST(reclaim_stops_at_its_target)
{
	struct mlf_op op;
	int m;

	setup(1, 4);
	for (m = 0; m < 3; m++) {
		online(m, 0);
		set_outcome(m, 0, 0, 1, 1, 2);
	}
	/* m0 (2 pages), m1 (4 >= 3): stop; both rotate young, m2 is left */
	op = mkop(MLF_OP_RECLAIM, 0, 0, 3, 0, 1, 2);
	op.target = 3;
	EXPECT(apply(op));
	EXPECT_BIN(0, 1, 1, 0);
	EXPECT_BIN(0, 1, 2, 1);
	EXPECT_BIN(0, 0, 0, 2);
	EXPECT_EQ(seq(0), 0);
	EXPECT_EQ(refcnt(1), 1);

	/* no target: the whole old generation, and seq moves on */
	EXPECT(apply(mkop(MLF_OP_RECLAIM, 0, 0, 2, 0, 3)));
	EXPECT_BIN(0, 1, 3, 2);
	EXPECT_EQ(seq(0), 1);
	world_destroy(&w);
}

TEST(ops_that_do_not_apply_are_skipped)
{
	struct mlf_op op;
	unsigned long skipped;

	NEEDS_ROTATION(MEMCG_LRU_HEAD);
	NEEDS_SOFT_RECLAIM();

	setup(2, 4);
	EXPECT(!apply(mkop(MLF_OP_OFFLINE, 0, 0, 0)));
	EXPECT(!apply(mkop(MLF_OP_GET, 0, 0, 0)));
	EXPECT(!apply(mkop(MLF_OP_PUT, 0, 0, 0)));
	EXPECT(!apply(mkop(MLF_OP_RELEASE, 0, 0, 0)));
	EXPECT(!rotate(0, 0, MEMCG_LRU_HEAD, 0));
	EXPECT(!apply(mkop(MLF_OP_SOFT, 0, 0, 0)));
	EXPECT(!set_outcome(0, 1, 0, 0, 0, 0));
	EXPECT(online(0, 0));
	EXPECT(!online(0, 1));
	EXPECT(!rotate(0, 0, MEMCG_LRU_NOP, 0));
	EXPECT(!rotate(0, 0, MEMCG_LRU_YOUNG + 1, 0));
	EXPECT(!apply(mkop(MLF_OP_NR, 0, 0, 0)));
	EXPECT_EQ(w.ops_skipped, 11);
	EXPECT_EQ(w.ops_applied, 1);
	/* out-of-range slots and nodes wrap around */
	skipped = w.ops_skipped;
	op = mkop(MLF_OP_ROTATE, 4, 2, 1, 3);
	op.rotate_op = MEMCG_LRU_HEAD;
	EXPECT(apply(op));
	EXPECT_BIN(0, 0, 3, 0);
	EXPECT_EQ(w.ops_skipped, skipped);
	world_destroy(&w);
}

/*
 * A walk on node 0 releases the dead memcgs it meets on every node. On node
 * 1 that can empty old (m0), then young (m1): seq moves twice in one op.
 */
TEST(reclaim_release_advances_another_node_twice)
{
	struct mlf_op op;

	setup(2, 4);
	online(0, 0);
	online(1, 0);
	apply(mkop(MLF_OP_GET, 1, 0, 0));
	apply(mkop(MLF_OP_OFFLINE, 1, 0, 2, 1, 1));
	rotate(1, 1, MEMCG_LRU_YOUNG, 1);
	apply(mkop(MLF_OP_PUT, 1, 0, 0));
	apply(mkop(MLF_OP_OFFLINE, 0, 0, 2, 0, 0));
	EXPECT_EQ(w.cs.slots[0].state, SLOT_DEAD);
	EXPECT_EQ(w.cs.slots[1].state, SLOT_DEAD);
	EXPECT_BIN(1, 0, 0, 0);
	EXPECT_BIN(1, 1, 1, 1);

	op = mkop(MLF_OP_RECLAIM, 0, 0, 1, 0);
	EXPECT(apply(op));
	EXPECT_EQ(seq(0), 1);
	EXPECT_EQ(seq(1), 2);
	EXPECT(hlist_nulls_unhashed(&lrugen(1, 1)->list));
	world_destroy(&w);
}

static struct mlf_rng rng;

static u32 rnd(u32 n)
{
	return mlf_rng_below(&rng, n);
}

TEST(seeded_random_ops_run_clean)
{
	static const u8 kinds[] = {
		MLF_OP_ONLINE, MLF_OP_ONLINE, MLF_OP_ONLINE, MLF_OP_OFFLINE,
		MLF_OP_GET,    MLF_OP_PUT,    MLF_OP_RELEASE, MLF_OP_RELEASE,
		MLF_OP_ROTATE, MLF_OP_ROTATE, MLF_OP_ROTATE, MLF_OP_ROTATE,
		MLF_OP_SOFT,   MLF_OP_SET,    MLF_OP_SET,    MLF_OP_RECLAIM,
	};
	int seed, i, j;

	for (seed = 1; seed <= 3; seed++) {
		rng = mlf_rng_seeded(0x51ed + seed);
		setup(seed, 24);
		for (i = 0; i < 4000; i++) {
			struct mlf_op op = { 0 };

			op.kind = kinds[rnd(sizeof(kinds))];
			op.memcg = rnd(24);
			op.node = rnd(seed);
			op.rotate_op = 1 + rnd(4);
			op.softirq = rnd(2);
			op.below_min = !rnd(5);
			op.below_low = rnd(2);
			op.success = rnd(2);
			op.sizable = rnd(2);
			op.nr_reclaimed = rnd(4);
			op.target = rnd(3) ? rnd(16) : 0;
			op.nr_draws = rnd(MLF_OP_MAX_DRAWS + 1);
			for (j = 0; j < MLF_OP_MAX_DRAWS; j++)
				op.draws[j] = rnd(256);
			world_apply(&w, &op);
		}
		world_check_all(&w);
		EXPECT(w.ops_applied > 1500);
		EXPECT(w.walks > 100);
		world_destroy(&w);
	}
}

/*
 * The engine hears of each cell met on a counter of its own, fixed before
 * any cell is met: the -fork jobs and the -merge of one campaign are
 * processes of their own, each meeting cells in its own order. Every cell
 * of both families, met in an order unlike the counters', sets the
 * counter mlf_state_counter() gave it beforehand and no other. Last: from
 * here on, every op notes its cells.
 */
TEST(each_state_cell_has_a_fixed_counter_of_its_own)
{
	static unsigned char feedback[ST_NR_COUNTERS];
	static struct mlf_state_cell cells[ST_NR_COUNTERS];
	static int counter[ST_NR_COUNTERS];
	struct mlf_state_cell c = { 0 };
	int n = 0, i, k, wrong = 0, set = 0;

	for (c.kind = 0; c.kind < ST_TREE_KIND; c.kind++)
		for (c.stage = 0; c.stage < ST_NR_STAGES; c.stage++)
			for (c.gen = 0; c.gen < ST_NR_GENS; c.gen++)
				for (c.seg = 0; c.seg < ST_NR_SEGS; c.seg++)
					for (c.pos = 0; c.pos < ST_NR_POS;
					     c.pos++)
						for (c.len = 0;
						     c.len < ST_NR_LENS;
						     c.len++)
							cells[n++] = c;
	c = (struct mlf_state_cell){ .gen = ST_NO_GEN,
				     .seg = ST_NO_SEG,
				     .pos = ST_NO_POS,
				     .len = ST_NO_LEN };
	for (c.kind = ST_TREE_KIND; c.kind < ST_NR_KINDS; c.kind++)
		for (c.stage = 0; c.stage < ST_NR_STAGES; c.stage++)
			for (c.depth = 0; c.depth < ST_NR_DEPTHS; c.depth++)
				for (c.dying = 0; c.dying < ST_NR_DYINGS;
				     c.dying++)
					cells[n++] = c;
	EXPECT_EQ(n, ST_NR_COUNTERS);
	for (k = 0; k < n; k++)
		counter[k] = mlf_state_counter(&cells[k]);
	world_states_attach(feedback, sizeof(feedback));
	/* 7919 is prime to n: every cell once, in a stride */
	for (i = 0; i < n; i++) {
		k = (int)((long)i * 7919 % n);
		wrong += counter[k] < 0 || counter[k] >= n ||
			 feedback[counter[k]];
		mlf_state_note(&cells[k]);
		mlf_state_note(&cells[k]);
		wrong += counter[k] >= 0 && counter[k] < n &&
			 !feedback[counter[k]];
	}
	EXPECT_EQ(wrong, 0);
	for (k = 0; k < n; k++)
		set += feedback[k] != 0;
	EXPECT_EQ(set, n);
}

int main(void)
{
	return testlib_run();
}
