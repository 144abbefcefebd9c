// SPDX-License-Identifier: GPL-2.0
/*
 * Every check must be able to fail. Each test builds a correct world, sees
 * the check pass, corrupts the port (or the world's notes of the state
 * before the op) the way the check exists to catch, asserts the check fails
 * under its own name, then restores the structures so that world_destroy()
 * can run the port on them; at each such state the fast predicates
 * (fast_checks.h) must not pass what the checks fail. Also the shim's
 * runtime checks: lockdep.held, lockdep.irq, vm.warn and sched.atomic.
 */
#include <stdlib.h>

#include "check/checks.h"
#include "check/fast_checks.h"
#include "harness/world.h"
#include "testlib.h"
#include "tree_needs.h"

#define POOL 8

static struct mlf_world w;
static struct mlf_failure f;

/* ---- the world every test starts from ---- */

static struct mlf_op mkop(int kind, int memcg, int node, int draw)
{
	struct mlf_op op = { .kind = kind, .memcg = memcg, .node = node };

	op.nr_draws = MLF_OP_MAX_DRAWS;
	memset(op.draws, draw, sizeof(op.draws));
	return op;
}

static void apply(struct mlf_op op)
{
	if (!world_apply(&w, &op)) {
		fprintf(stderr, "setup op %s m%d did not apply\n",
			mlf_op_kind_name(op.kind), op.memcg);
		abort();
	}
}

static void rotate(int m, int nid, int rotate_op, int bin)
{
	struct mlf_op op = mkop(MLF_OP_ROTATE, m, nid, bin);

	op.rotate_op = rotate_op;
	apply(op);
}

/*
 * Two nodes. Node 0: fifo[0][0] = m0 m1 m2 (old), fifo[1][2] = m3 (young).
 * Node 1: fifo[0][0] = m0 m1 m2, fifo[0][1] = m3.
 */
static void build(void)
{
	world_init(&w, 2, POOL);
	w.full_checks = true;
	apply(mkop(MLF_OP_ONLINE, 0, 0, 0));
	apply(mkop(MLF_OP_ONLINE, 1, 0, 0));
	apply(mkop(MLF_OP_ONLINE, 2, 0, 0));
	apply(mkop(MLF_OP_ONLINE, 3, 0, 1));
	rotate(3, 0, MEMCG_LRU_YOUNG, 2);
}

static struct lru_gen_folio *lg(int m, int nid)
{
	return &get_lruvec(w.cs.slots[m].memcg, nid)->lrugen;
}

static struct lru_gen_memcg *lru(int nid)
{
	return &w.cs.nodes[nid].memcg_lru;
}

/* ---- saving and restoring what the tests corrupt ---- */

static struct {
	unsigned long seq;
	unsigned long nr_memcgs[MEMCG_NR_GENS];
	struct hlist_nulls_head fifo[MEMCG_NR_GENS][MEMCG_NR_BINS];
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
	struct hlist_nulls_node *tail[MEMCG_NR_GENS][MEMCG_NR_BINS];
#endif
	struct lru_gen_folio lrugen[POOL];
} saved[2];

static struct mlf_model_node saved_model[2];
static unsigned long saved_seq_before[2], saved_count_before[2];

static void save(void)
{
	int nid, m;

	for (nid = 0; nid < 2; nid++) {
		saved[nid].seq = lru(nid)->seq;
		memcpy(saved[nid].nr_memcgs, lru(nid)->nr_memcgs,
		       sizeof(saved[nid].nr_memcgs));
		memcpy(saved[nid].fifo, lru(nid)->fifo, sizeof(saved[nid].fifo));
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
		memcpy(saved[nid].tail, lru(nid)->tail, sizeof(saved[nid].tail));
#endif
		for (m = 0; m < POOL; m++)
			if (w.cs.slots[m].memcg)
				saved[nid].lrugen[m] = *lg(m, nid);
		saved_model[nid].seq = w.cs.model.nodes[nid].seq;
		saved_seq_before[nid] = w.cs.seq_before[nid];
		saved_count_before[nid] = w.cs.old_count_before[nid];
	}
}

static void restore(void)
{
	int nid, m;

	for (nid = 0; nid < 2; nid++) {
		lru(nid)->seq = saved[nid].seq;
		memcpy(lru(nid)->nr_memcgs, saved[nid].nr_memcgs,
		       sizeof(saved[nid].nr_memcgs));
		memcpy(lru(nid)->fifo, saved[nid].fifo, sizeof(saved[nid].fifo));
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
		memcpy(lru(nid)->tail, saved[nid].tail, sizeof(saved[nid].tail));
#endif
		for (m = 0; m < POOL; m++)
			if (w.cs.slots[m].memcg)
				*lg(m, nid) = saved[nid].lrugen[m];
		w.cs.model.nodes[nid].seq = saved_model[nid].seq;
		w.cs.seq_before[nid] = saved_seq_before[nid];
		w.cs.old_count_before[nid] = saved_count_before[nid];
	}
}

/* Everything holds on both nodes (the per-op notes included). */
static bool all_pass(void)
{
	int nid;

	for (nid = 0; nid < 2; nid++)
		if (!check_structure(&w.cs, nid, &f) ||
		    !check_model_order(&w.cs, nid, &f) ||
		    !check_seq_monotonic(&w.cs, nid, &f) ||
		    !check_seq_advance(&w.cs, nid, &f)) {
			testlib_show(&f);
			return false;
		}
	return true;
}

/*
 * The fast predicates (fast_checks.h) never vouch for what the checks they
 * stand for reject: where check_bin() or check_node_full() fails, so does
 * fast_bin_exact() / fast_node_full() / fast_world_full(). The driver
 * trusts a true from them and skips the checks, so a predicate that
 * missed a corruption would hide it; every corruption below is tried.
 */
static bool fast_agrees(void)
{
	struct mlf_failure g;
	bool all = true;
	int nid, gen, bin;

	for (nid = 0; nid < 2; nid++) {
		if (!check_node_full(&w.cs, nid, &g)) {
			all = false;
			if (fast_node_full(&w.cs, nid)) {
				fprintf(stderr, "fast_node_full(%d) passes %s\n",
					nid, g.check);
				return false;
			}
		}
		for (gen = 0; gen < MEMCG_NR_GENS; gen++)
			for (bin = 0; bin < MEMCG_NR_BINS; bin++)
				if (!check_bin(&w.cs, nid, gen, bin, &g) &&
				    fast_bin_exact(&w.cs, nid, gen, bin)) {
					fprintf(stderr,
						"fast_bin_exact(%d, %d, %d) passes %s\n",
						nid, gen, bin, g.check);
					return false;
				}
	}
	if (!all && fast_world_full(&w.cs)) {
		fprintf(stderr, "fast_world_full() passes a failing node\n");
		return false;
	}
	return true;
}

/* The check failed under @name; show what it said. */
static bool failed_as(bool ok, const char *name)
{
	if (ok)
		return false;
	testlib_show(&f);
	return f.check && !strcmp(f.check, name) && fast_agrees();
}

#define EXPECT_FAILS(call, name) EXPECT(failed_as((call), (name)))

static void finish(void)
{
	restore();
	EXPECT(all_pass());
	world_destroy(&w);
}

/* ---- list.links ---- */

TEST(list_links_catches_a_bad_pprev)
{
	build();
	ASSERT(all_pass());
	save();
	lg(1, 0)->list.pprev = &lg(2, 0)->list.next;
	EXPECT_FAILS(check_list_links(&w.cs, 0, &f), "list.links");
	EXPECT_EQ(f.node, 0);
	EXPECT_EQ(f.gen, 0);
	EXPECT_EQ(f.bin, 0);
	EXPECT_EQ(f.memcg, 1);
	EXPECT(check_list_links(&w.cs, 1, &f));
	/* check_structure stops at the first broken link */
	EXPECT_FAILS(check_structure(&w.cs, 0, &f), "list.links");
	finish();
}

TEST(list_links_catches_a_wrong_nulls_value)
{
	build();
	save();
	lg(2, 0)->list.next = (struct hlist_nulls_node *)NULLS_MARKER(1);
	EXPECT_FAILS(check_list_links(&w.cs, 0, &f), "list.links");
	EXPECT_EQ(f.memcg, 2);
	restore();
	EXPECT(check_list_links(&w.cs, 0, &f));
	INIT_HLIST_NULLS_HEAD(&lru(1)->fifo[2][5], 0);
	EXPECT_FAILS(check_list_links(&w.cs, 1, &f), "list.links");
	EXPECT_EQ(f.gen, 2);
	EXPECT_EQ(f.bin, 5);
	finish();
}

TEST(list_links_catches_a_cycle)
{
	build();
	save();
	lg(2, 1)->list.next = &lg(0, 1)->list;
	EXPECT_FAILS(check_list_links(&w.cs, 1, &f), "list.links");
	finish();
}

/* ---- list.membership ---- */

TEST(list_membership_catches_a_wrong_gen)
{
	build();
	save();
	lg(1, 0)->gen = 2;
	EXPECT(check_list_links(&w.cs, 0, &f));
	EXPECT_FAILS(check_list_membership(&w.cs, 0, &f), "list.membership");
	EXPECT_EQ(f.memcg, 1);
	finish();
}

TEST(list_membership_catches_a_memcg_in_two_bins)
{
	build();
	save();
	/* fifo[1][2] = m3, then m1 m2 of fifo[0][0] */
	lg(3, 0)->list.next = &lg(1, 0)->list;
	EXPECT_FAILS(check_list_membership(&w.cs, 0, &f), "list.membership");
	EXPECT_EQ(f.memcg, 1);
	EXPECT_EQ(f.gen, 1);
	EXPECT_EQ(f.bin, 2);
	finish();
}

TEST(list_membership_catches_an_online_memcg_unlinked)
{
	build();
	save();
	hlist_nulls_del_init_rcu(&lg(1, 1)->list);
	EXPECT(check_list_links(&w.cs, 1, &f));
	EXPECT_FAILS(check_list_membership(&w.cs, 1, &f), "list.membership");
	EXPECT_EQ(f.memcg, 1);
	restore();
	/* unlinked from the list but still claiming to be hashed */
	hlist_nulls_del_init_rcu(&lg(1, 1)->list);
	lg(1, 1)->list.pprev = &lg(0, 1)->list.next;
	w.cs.slots[1].state = SLOT_DEAD;
	EXPECT_FAILS(check_list_membership(&w.cs, 1, &f), "list.membership");
	w.cs.slots[1].state = SLOT_ONLINE;
	finish();
}

TEST(list_membership_catches_a_stale_pointer)
{
	struct lru_gen_folio stale = { 0 };
	struct hlist_nulls_head *head;

	build();
	save();
	head = &lru(0)->fifo[0][5];
	stale.list.next = head->first;
	stale.list.pprev = &head->first;
	head->first = &stale.list;
	/* list.links cannot vouch for it and leaves it to membership */
	EXPECT(check_list_links(&w.cs, 0, &f));
	EXPECT_FAILS(check_list_membership(&w.cs, 0, &f), "list.membership");
	EXPECT_EQ(f.bin, 5);
	EXPECT_FAILS(check_model_order(&w.cs, 0, &f), "model.order");
	finish();
}

#ifdef CONFIG_LRU_GEN_TAIL_CACHE
TEST(list_membership_catches_a_wrong_bin)
{
	build();
	save();
	lg(2, 0)->bin = 4;
	EXPECT_FAILS(check_list_membership(&w.cs, 0, &f), "list.membership");
	EXPECT_EQ(f.memcg, 2);
	finish();
}

/* ---- tail.cache ---- */

TEST(tail_cache_catches_wrong_tails)
{
	build();
	ASSERT(check_tail_cache(&w.cs, 0, &f));
	save();
	lru(0)->tail[0][0] = &lg(0, 0)->list;	/* the first, not the last */
	EXPECT_FAILS(check_tail_cache(&w.cs, 0, &f), "tail.cache");
	EXPECT_EQ(f.gen, 0);
	EXPECT_EQ(f.bin, 0);
	restore();
	lru(0)->tail[0][0] = NULL;
	EXPECT_FAILS(check_tail_cache(&w.cs, 0, &f), "tail.cache");
	restore();
	lru(1)->tail[2][5] = &lg(3, 1)->list;	/* an empty bin */
	EXPECT_FAILS(check_tail_cache(&w.cs, 1, &f), "tail.cache");
	EXPECT_EQ(f.bin, 5);
	restore();
	EXPECT(check_tail_cache(&w.cs, 1, &f));
	lru(1)->tail[0][1] = &lg(3, 0)->list;	/* m3, but of node 0 */
	EXPECT_FAILS(check_tail_cache(&w.cs, 1, &f), "tail.cache");
	EXPECT_FAILS(check_structure(&w.cs, 1, &f), "tail.cache");
	finish();
}
#endif

/* ---- nr_memcgs ---- */

TEST(nr_memcgs_catches_a_wrong_count)
{
	build();
	save();
	lru(1)->nr_memcgs[0]++;
	EXPECT_FAILS(check_nr_memcgs(&w.cs, 1, &f), "nr_memcgs");
	EXPECT_EQ(f.gen, 0);
	EXPECT_FAILS(check_structure(&w.cs, 1, &f), "nr_memcgs");
	restore();
	lru(0)->nr_memcgs[2] = 1;
	EXPECT_FAILS(check_nr_memcgs(&w.cs, 0, &f), "nr_memcgs");
	EXPECT_EQ(f.gen, 2);
	finish();
}

/* ---- seq.* ---- */

TEST(seq_monotonic_catches_seq_going_down)
{
	build();
	save();
	w.cs.seq_before[0] = lru(0)->seq + 1;
	EXPECT_FAILS(check_seq_monotonic(&w.cs, 0, &f), "seq.monotonic");
	EXPECT(check_seq_monotonic(&w.cs, 1, &f));
	finish();
}

TEST(seq_valid_gens_catches_an_entry_in_the_third_gen)
{
	struct lru_gen_folio *m3;

	build();
	save();
	m3 = lg(3, 0);
	hlist_nulls_del_init_rcu(&m3->list);
	hlist_nulls_add_head_rcu(&m3->list, &lru(0)->fifo[2][4]);
	m3->gen = 2;
	EXPECT_FAILS(check_seq_valid_gens(&w.cs, 0, &f), "seq.valid_gens");
	EXPECT_EQ(f.gen, 2);
	EXPECT_EQ(f.bin, 4);
	EXPECT_EQ(f.memcg, 3);
	finish();
}

TEST(seq_old_nonempty_catches_an_empty_old_gen)
{
	int m;

	build();
	ASSERT(check_seq_old_nonempty(&w.cs, 0, &f));
	save();
	for (m = 0; m < 3; m++)
		hlist_nulls_del_init_rcu(&lg(m, 0)->list);
	EXPECT_FAILS(check_seq_old_nonempty(&w.cs, 0, &f), "seq.old_nonempty");
	EXPECT_EQ(f.memcg, 3);
	finish();
}

TEST(seq_advance_catches_two_steps)
{
	build();
	save();
	w.cs.seq_before[0] = 0;
	lru(0)->seq = 2;
	EXPECT_FAILS(check_seq_advance(&w.cs, 0, &f), "seq.advance");
	finish();
}

TEST(seq_advance_catches_an_advance_without_emptying)
{
	build();
	save();
	w.cs.seq_before[0] = 0;
	w.cs.old_count_before[0] = 3;
	lru(0)->seq = 1;	/* gen 0 still holds m0 m1 m2 */
	EXPECT_FAILS(check_seq_advance(&w.cs, 0, &f), "seq.advance");
	EXPECT_EQ(f.gen, 0);
	finish();
}

TEST(seq_advance_catches_emptying_without_advancing)
{
	int m;

	build();
	save();
	w.cs.seq_before[0] = 0;
	w.cs.old_count_before[0] = 3;
	for (m = 0; m < 3; m++)
		hlist_nulls_del_init_rcu(&lg(m, 0)->list);
	EXPECT_FAILS(check_seq_advance(&w.cs, 0, &f), "seq.advance");
	restore();
	/* the real thing: emptying old moves seq by one, and that passes */
	rotate(0, 0, MEMCG_LRU_YOUNG, 2);
	rotate(1, 0, MEMCG_LRU_YOUNG, 2);
	rotate(2, 0, MEMCG_LRU_YOUNG, 2);
	EXPECT_EQ(lru(0)->seq, 1);
	EXPECT(check_seq_advance(&w.cs, 0, &f));
	save();
	finish();
}

/* ---- seg.semantics ---- */

static bool seg_check(int m, int nid, int rotate_op, int gen_before,
		      int seg_before)
{
	struct mlf_op op = mkop(MLF_OP_ROTATE, m, nid, 0);

	op.rotate_op = rotate_op;
	return check_seg_semantics(&w.cs, &op, nid, rotate_op, gen_before,
				   seg_before, lru(nid)->seq, &f);
}

TEST(seg_semantics_catches_wrong_places)
{
	NEEDS_ROTATION(MEMCG_LRU_HEAD);
	NEEDS_ROTATION(MEMCG_LRU_OLD);

	build();
	rotate(0, 0, MEMCG_LRU_HEAD, 0);	/* m0: first, seg head */
	EXPECT(seg_check(0, 0, MEMCG_LRU_HEAD, 0, 0));
	EXPECT_FAILS(seg_check(0, 0, MEMCG_LRU_TAIL, 0, 0), "seg.semantics");
	EXPECT_EQ(f.memcg, 0);
	EXPECT_FAILS(seg_check(0, 0, MEMCG_LRU_OLD, 0, 0), "seg.semantics");
	/* YOUNG that left m1 in old */
	EXPECT_FAILS(seg_check(1, 0, MEMCG_LRU_YOUNG, 0, 0), "seg.semantics");
	/* HEAD that changed the generation */
	EXPECT_FAILS(seg_check(0, 0, MEMCG_LRU_HEAD, 1, 0), "seg.semantics");
	/* OLD that left m3 young */
	EXPECT_FAILS(seg_check(3, 0, MEMCG_LRU_OLD, 1, 0), "seg.semantics");
	EXPECT(seg_check(3, 0, MEMCG_LRU_YOUNG, 1, 0));
	rotate(2, 0, MEMCG_LRU_TAIL, 0);
	EXPECT(seg_check(2, 0, MEMCG_LRU_TAIL, 0, 0));
	EXPECT_FAILS(seg_check(2, 0, MEMCG_LRU_HEAD, 0, 0), "seg.semantics");
	save();
	finish();
}

/* What bug-young-skip-any-seg does: skip YOUNG from the head segment. */
TEST(seg_semantics_catches_a_young_skip_from_head)
{
	NEEDS_ROTATION(MEMCG_LRU_HEAD);

	build();
	rotate(3, 0, MEMCG_LRU_HEAD, 2);	/* young, seg head */
	EXPECT_EQ(lg(3, 0)->gen, 1);
	EXPECT_FAILS(seg_check(3, 0, MEMCG_LRU_YOUNG, 1, MEMCG_LRU_HEAD),
		     "seg.semantics");
	rotate(3, 0, MEMCG_LRU_YOUNG, 2);
	EXPECT_EQ(lg(3, 0)->seg, 0);
	EXPECT(seg_check(3, 0, MEMCG_LRU_YOUNG, 1, 0));
	/* from young's default segment, staying put is a legal skip */
	rotate(3, 0, MEMCG_LRU_YOUNG, 2);
	EXPECT(seg_check(3, 0, MEMCG_LRU_YOUNG, 1, 0));
	save();
	finish();
}

/* ---- model.order ---- */

TEST(model_order_catches_a_swap)
{
	struct lru_gen_folio *m0;

	build();
	ASSERT(check_model_order(&w.cs, 0, &f));
	save();
	m0 = lg(0, 0);
	hlist_nulls_del_init_rcu(&m0->list);
	hlist_nulls_add_behind_rcu(&m0->list, &lg(1, 0)->list);
	EXPECT(check_list_links(&w.cs, 0, &f));
	EXPECT(check_list_membership(&w.cs, 0, &f));
	EXPECT_FAILS(check_model_order(&w.cs, 0, &f), "model.order");
	EXPECT_EQ(f.gen, 0);
	EXPECT_EQ(f.bin, 0);
	EXPECT_EQ(f.memcg, 1);
	finish();
}

TEST(model_order_catches_seq_gen_and_seg)
{
	build();
	save();
	w.cs.model.nodes[1].seq = 7;
	EXPECT_FAILS(check_model_order(&w.cs, 1, &f), "model.order");
	restore();
	lg(2, 1)->seg = MEMCG_LRU_TAIL;
	EXPECT_FAILS(check_model_order(&w.cs, 1, &f), "model.order");
	EXPECT_EQ(f.memcg, 2);
	restore();
	w.cs.model.memcgs[1].refs++;
	EXPECT_FAILS(check_model_order(&w.cs, 0, &f), "model.order");
	w.cs.model.memcgs[1].refs--;
	finish();
}

/* ---- reclaim.progress ---- */

TEST(reclaim_progress_catches_a_dead_memcg_left_linked)
{
	const int failed[] = { 0 };

	build();
	apply(mkop(MLF_OP_OFFLINE, 0, 0, 6));	/* dead: no one holds it */
	ASSERT(w.cs.slots[0].state == SLOT_DEAD);
	ASSERT(all_pass());
	/* a walk met m0, tryget failed, and m0 is still linked */
	EXPECT_FAILS(check_reclaim_progress(&w.cs, 0, 0, false, failed, 1, &f),
		     "reclaim.progress");
	EXPECT_EQ(f.memcg, 0);
	EXPECT_FAILS(check_reclaim_progress(&w.cs, 0, 0, true, failed, 1, &f),
		     "reclaim.progress");
	/* a whole walk of gen 0 that did not meet it */
	EXPECT_FAILS(check_reclaim_progress(&w.cs, 1, 0, false, NULL, 0, &f),
		     "reclaim.progress");
	/* an aborted walk, or one of another generation, may miss it */
	EXPECT(check_reclaim_progress(&w.cs, 1, 0, true, NULL, 0, &f));
	EXPECT(check_reclaim_progress(&w.cs, 1, 1, false, NULL, 0, &f));
	/* the real walk releases it */
	apply(mkop(MLF_OP_RECLAIM, 0, 0, 0));
	EXPECT(hlist_nulls_unhashed(&lg(0, 0)->list));
	EXPECT(check_reclaim_progress(&w.cs, 0, 0, false, failed, 1, &f));
	save();
	finish();
}

/* ---- the per-op checks ---- */

TEST(nr_memcgs_against_the_model_catches_a_wrong_count)
{
	build();
	ASSERT(check_nr_memcgs_model(&w.cs, 0, &f));
	ASSERT(check_node_quick(&w.cs, 1, &f));
	save();
	lru(0)->nr_memcgs[1]--;
	EXPECT_FAILS(check_nr_memcgs_model(&w.cs, 0, &f), "nr_memcgs");
	EXPECT_EQ(f.gen, 1);
	EXPECT_FAILS(check_node_quick(&w.cs, 0, &f), "nr_memcgs");
	restore();
	w.cs.model.nodes[1].seq = 4;
	EXPECT_FAILS(check_node_quick(&w.cs, 1, &f), "model.order");
	finish();
}

TEST(check_bin_catches_each_of_its_checks)
{
	struct lru_gen_folio stale = { 0 };
	struct hlist_nulls_head *head;

	build();
	ASSERT(check_bin(&w.cs, 0, 0, 0, &f));
	save();
	lg(2, 0)->list.pprev = &lg(0, 0)->list.next;
	EXPECT_FAILS(check_bin(&w.cs, 0, 0, 0, &f), "list.links");
	EXPECT_EQ(f.memcg, 2);
	/* another bin of the node is not what check_bin looks at */
	EXPECT(check_bin(&w.cs, 0, 1, 2, &f));
	restore();
	head = &lru(1)->fifo[0][1];
	stale.list.next = head->first;
	stale.list.pprev = &head->first;
	head->first = &stale.list;
	EXPECT_FAILS(check_bin(&w.cs, 1, 0, 1, &f), "list.membership");
	EXPECT_EQ(f.bin, 1);
	restore();
	hlist_nulls_del_init_rcu(&lg(0, 1)->list);
	hlist_nulls_add_behind_rcu(&lg(0, 1)->list, &lg(2, 1)->list);
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
	lru(1)->tail[0][0] = &lg(0, 1)->list;	/* only the order is wrong */
#endif
	EXPECT_FAILS(check_bin(&w.cs, 1, 0, 0, &f), "model.order");
	EXPECT_EQ(f.memcg, 1);
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
	restore();
	lru(1)->tail[0][0] = &lg(1, 1)->list;
	EXPECT_FAILS(check_bin(&w.cs, 1, 0, 0, &f), "tail.cache");
#endif
	finish();
}

TEST(check_memcg_catches_its_own_links_and_place)
{
	struct lru_gen_folio stale = { 0 };

	build();
	ASSERT(check_memcg(&w.cs, 0, 1, &f));
	ASSERT(check_memcg(&w.cs, 1, 3, &f));
	save();
	/* pprev into no head and no live lrugen */
	lg(1, 0)->list.pprev = &stale.list.next;
	EXPECT_FAILS(check_memcg(&w.cs, 0, 1, &f), "list.membership");
	EXPECT_EQ(f.memcg, 1);
	restore();
	/* pprev at m2's next, which does not point back at m1 */
	lg(1, 0)->list.pprev = &lg(2, 0)->list.next;
	EXPECT_FAILS(check_memcg(&w.cs, 0, 1, &f), "list.links");
	restore();
	/* the successor's pprev is stale (the add-behind-interior trace) */
	lg(2, 0)->list.pprev = &lg(0, 0)->list.next;
	EXPECT_FAILS(check_memcg(&w.cs, 0, 1, &f), "list.links");
	EXPECT_EQ(f.memcg, 2);
	restore();
	lg(1, 0)->list.next = &stale.list;
	EXPECT_FAILS(check_memcg(&w.cs, 0, 1, &f), "list.membership");
	restore();
	/* last of a list of gen 0, but claims gen 1 (and the model gen 0) */
	lg(2, 0)->list.next = (struct hlist_nulls_node *)NULLS_MARKER(1);
	EXPECT_FAILS(check_memcg(&w.cs, 0, 2, &f), "list.membership");
	restore();
	lg(3, 1)->gen = 1;
	EXPECT_FAILS(check_memcg(&w.cs, 1, 3, &f), "model.order");
	restore();
	w.cs.model.memcgs[3].refs++;
	EXPECT_FAILS(check_memcg(&w.cs, 1, 3, &f), "model.order");
	w.cs.model.memcgs[3].refs--;
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
	restore();
	lg(3, 1)->bin = 6;
	EXPECT_FAILS(check_memcg(&w.cs, 1, 3, &f), "list.membership");
#endif
	finish();
}

/* Only the per-op checks: no full check, ever. */
static void build_touched(void)
{
	build();
	w.full_checks = false;
	w.full_check_interval = 0;
	w.full_check_small = 0;
	w.final_check = false;
}

/* Each list-level bug of the zoo, done by hand after a correct op. */
TEST(touched_checks_catch_an_insert_behind_an_interior_node)
{
	struct lru_gen_folio *m3;

	NEEDS_ROTATION(MEMCG_LRU_HEAD);

	build_touched();
	rotate(3, 1, MEMCG_LRU_HEAD, 0);	/* fifo[0][0] = m3 m0 m1 m2 */
	world_check_touched(&w);
	save();
	/* what the seed's add_behind does: m0 m3 m1 m2, m1's pprev stale */
	m3 = lg(3, 1);
	hlist_nulls_del_init_rcu(&m3->list);
	m3->list.next = lg(0, 1)->list.next;
	m3->list.pprev = &lg(0, 1)->list.next;
	lg(0, 1)->list.next = &m3->list;
	testlib_catch_failures();
	world_check_touched(&w);
	EXPECT_STREQ(testlib_caught.check, "list.links");
	testlib_stop_catching();
	finish();
}

TEST(touched_checks_catch_a_memcg_linked_into_an_untouched_bin)
{
	struct lru_gen_folio *m3;

	build_touched();
	rotate(3, 1, MEMCG_LRU_TAIL, 5);	/* fifo[0][1] -> fifo[0][5] */
	save();
	/* a stale tail[0][5] that points at m2: m3 lands in fifo[0][0] */
	m3 = lg(3, 1);
	hlist_nulls_del_init_rcu(&m3->list);
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
	lru(1)->tail[0][5] = NULL;
	lru(1)->tail[0][0] = &m3->list;
#endif
	hlist_nulls_add_behind_rcu(&m3->list, &lg(2, 1)->list);
	testlib_catch_failures();
	world_check_touched(&w);
	/* fifo[0][0] was not touched; fifo[0][5] misses m3 */
	EXPECT_STREQ(testlib_caught.check, "model.order");
	testlib_stop_catching();
	finish();
}

#ifdef CONFIG_LRU_GEN_TAIL_CACHE
TEST(touched_checks_catch_stale_and_missing_tails)
{
	NEEDS_ROTATION(MEMCG_LRU_HEAD);

	build_touched();
	rotate(3, 1, MEMCG_LRU_TAIL, 4);	/* fifo[0][1] emptied */
	save();
	lru(1)->tail[0][1] = &lg(3, 1)->list;	/* stale tail on del */
	testlib_catch_failures();
	world_check_touched(&w);
	EXPECT_STREQ(testlib_caught.check, "tail.cache");
	restore();
	testlib_catch_failures();
	lru(1)->tail[0][4] = NULL;		/* no tail on empty head */
	world_check_touched(&w);
	EXPECT_STREQ(testlib_caught.check, "tail.cache");
	testlib_stop_catching();
	restore();
	rotate(3, 1, MEMCG_LRU_HEAD, 0);	/* fifo[0][0] = m3 m0 m1 m2 */
	save();
	lru(1)->tail[0][0] = &lg(3, 1)->list;	/* tail on head insert */
	testlib_catch_failures();
	world_check_touched(&w);
	EXPECT_STREQ(testlib_caught.check, "tail.cache");
	testlib_stop_catching();
	finish();
}
#endif

TEST(touched_checks_catch_a_forgotten_count_and_seq)
{
	NEEDS_ROTATION(MEMCG_LRU_OLD);

	build_touched();
	rotate(2, 1, MEMCG_LRU_OLD, 3);
	save();
	lru(1)->nr_memcgs[0]++;
	testlib_catch_failures();
	world_check_touched(&w);	/* the per-op part needs none of it */
	EXPECT_EQ(testlib_caught.count, 0);
	EXPECT_FAILS(check_node_quick(&w.cs, 1, &f), "nr_memcgs");
	testlib_stop_catching();
	finish();
}

/* ---- the schedule ---- */

TEST(small_worlds_get_a_full_check_after_every_op)
{
	int m;

	world_init(&w, 1, 200);
	EXPECT(!w.full_checks);
	for (m = 0; m < 200; m++)
		apply(mkop(MLF_OP_ONLINE, m, 0, m));
	/*
	 * the touched part after every op (it names the direct cause first);
	 * everything while at most 128 linked (ops 1-128), then every 64th
	 */
	EXPECT_EQ(w.full_check_runs, 129);
	EXPECT_EQ(w.touched_check_runs, 200);
	rotate(5, 0, MEMCG_LRU_YOUNG, 1);
	EXPECT_EQ(w.touched_check_runs, 201);
	/* a reclaim walk: a full check of its node, per-op elsewhere */
	apply(mkop(MLF_OP_RECLAIM, 0, 0, 0));
	EXPECT_EQ(w.touched_check_runs, 202);
	EXPECT_EQ(w.full_check_runs, 129);
	world_destroy(&w);
}

TEST(the_final_check_catches_what_no_op_touched)
{
	build_touched();
	w.final_check = true;
	save();
	/* a corruption no op touches: only a full check sees it */
	lru(0)->fifo[0][0].first->pprev = &lg(1, 0)->list.next;
	testlib_catch_failures();
	apply(mkop(MLF_OP_GET, 3, 0, 0));
	EXPECT_EQ(testlib_caught.count, 0);
	world_finish(&w);
	EXPECT_STREQ(testlib_caught.check, "list.links");
	testlib_stop_catching();
	restore();
	EXPECT(all_pass());
	world_destroy(&w);	/* finished already: no second check */
}

/*
 * A small world's last op ended in a full check of the state the final
 * check would see, so the final one does not run it again; an op after
 * it (even a skipped one) and the final check runs.
 */
TEST(the_final_check_follows_the_last_full_check)
{
	build();	/* full checks after every op */
	save();
	testlib_catch_failures();
	/* behind the world's back, after the last op's full check */
	lru(0)->fifo[0][0].first->pprev = &lg(1, 0)->list.next;
	world_finish(&w);
	EXPECT_EQ(testlib_caught.count, 0);
	w.finished = false;
	/* m3 is online: skipped */
	EXPECT(!world_apply(&w, &(struct mlf_op){ .kind = MLF_OP_RELEASE,
						.memcg = 3 }));
	world_finish(&w);
	EXPECT_STREQ(testlib_caught.check, "list.links");
	testlib_stop_catching();
	restore();
	EXPECT(all_pass());
	world_destroy(&w);
}

TEST(the_map_follows_online_and_release)
{
	const struct hlist_nulls_node *p;
	int nid = -1;

	build();
	p = &lg(2, 1)->list;
	EXPECT_EQ(world_lrugen_lookup(&w, p, &nid), 2);
	EXPECT_EQ(nid, 1);
	EXPECT_EQ(world_lrugen_lookup(&w, &lg(0, 0)->list, &nid), 0);
	EXPECT_EQ(nid, 0);
	apply(mkop(MLF_OP_OFFLINE, 2, 0, 0));
	apply(mkop(MLF_OP_RELEASE, 2, 0, 0));
	EXPECT_EQ(world_lrugen_lookup(&w, p, &nid), -1);
	EXPECT_EQ(w.cs.map.nr, 3 * 2);
	apply(mkop(MLF_OP_ONLINE, 2, 0, 0));
	EXPECT_EQ(world_lrugen_lookup(&w, &lg(2, 0)->list, &nid), 2);
	EXPECT_EQ(nid, 0);
	EXPECT_EQ(w.cs.map.nr, 4 * 2);
	save();
	finish();
}

/* ---- the shim's runtime checks ---- */

TEST(lockdep_held_catches_an_unheld_lock)
{
	spinlock_t lock;

	spin_lock_init(&lock);
	testlib_catch_failures();
	spin_lock(&lock);
	lockdep_assert_held(&lock);
	spin_unlock(&lock);
	EXPECT_EQ(testlib_caught.count, 0);
	lockdep_assert_held(&lock);
	EXPECT_EQ(testlib_caught.count, 1);
	EXPECT_STREQ(testlib_caught.check, "lockdep.held");
	testlib_stop_catching();
	lockdep_reset();
}

TEST(lockdep_irq_catches_a_softirq_lock_taken_with_irqs_on)
{
	spinlock_t lock;

	spin_lock_init(&lock);
	testlib_catch_failures();
	mlf_softirq_enter();
	spin_lock(&lock);
	spin_unlock(&lock);
	mlf_softirq_exit();
	EXPECT_EQ(testlib_caught.count, 0);
	spin_lock(&lock);
	spin_unlock(&lock);
	EXPECT_EQ(testlib_caught.count, 1);
	EXPECT_STREQ(testlib_caught.check, "lockdep.irq");
	testlib_stop_catching();
	lockdep_reset();
}

TEST(lockdep_irq_accepts_irq_safe_locking)
{
	spinlock_t lock;
	unsigned long flags;

	spin_lock_init(&lock);
	testlib_catch_failures();
	mlf_softirq_enter();
	spin_lock_irqsave(&lock, flags);
	spin_unlock_irqrestore(&lock, flags);
	mlf_softirq_exit();
	spin_lock_irq(&lock);
	spin_unlock_irq(&lock);
	mlf_softirq_enter();
	spin_lock_irq(&lock);
	spin_unlock_irq(&lock);
	mlf_softirq_exit();
	EXPECT_EQ(testlib_caught.count, 0);
	EXPECT(!irqs_disabled());
	testlib_stop_catching();
	lockdep_reset();
}

TEST(vm_warn_reports)
{
	bool fired;

	testlib_catch_failures();
	fired = VM_WARN_ON_ONCE(1 + 1 == 3);
	EXPECT(!fired);
	EXPECT_EQ(testlib_caught.count, 0);
	fired = VM_WARN_ON_ONCE(true);
	EXPECT(fired);
	EXPECT_EQ(testlib_caught.count, 1);
	EXPECT_STREQ(testlib_caught.check, "vm.warn");
	testlib_stop_catching();
}

TEST(sched_atomic_catches_cond_resched_under_rcu)
{
	testlib_catch_failures();
	cond_resched();
	EXPECT_EQ(testlib_caught.count, 0);
	rcu_read_lock();
	cond_resched();
	rcu_read_unlock();
	EXPECT_EQ(testlib_caught.count, 1);
	EXPECT_STREQ(testlib_caught.check, "sched.atomic");
	testlib_stop_catching();
}

/* A failure found by world_apply goes to mlf_fail with its name. */
TEST(world_reports_a_corruption_through_mlf_fail)
{
	build();
	save();
	lru(1)->nr_memcgs[1] += 2;
	testlib_catch_failures();
	world_check_all(&w);
	EXPECT(testlib_caught.count >= 1);
	EXPECT_STREQ(testlib_caught.check, "nr_memcgs");
	testlib_stop_catching();
	finish();
}

int main(void)
{
	return testlib_run();
}
