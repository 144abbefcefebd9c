// SPDX-License-Identifier: GPL-2.0
/*
 * The walk checks (src/check/walk_checks.h) on walks written by hand
 * against a linearization model set by hand: each check fails on the walk
 * it exists to catch and passes the kernel's own behaviour next to it
 * (a cursor moved to another bin of the same generation, a memcg a
 * rotation still open is moving into the walk's generation, a memcg read
 * through the links its gen was published with, a walk that ends while
 * another task's section is open on the node).
 */
#include <stdlib.h>

#include "check/lin.h"
#include "check/walk_checks.h"
#include "mm/memcontrol.h"

#include "testlib.h"

#define POOL 4
#define WALKER 2 /* the walk's task */
#define OTHER 0 /* another task */

static struct pglist_data nodes[1];
static struct mem_cgroup memcgs[POOL];
static struct mem_cgroup_per_node pn[POOL];
static struct mlf_lin lin;
static struct mlf_walk_check w;
static struct mlf_failure f;
static unsigned long step;

static struct mem_cgroup *memcg_of(void *arg, int i)
{
	(void)arg;
	return &memcgs[i];
}

/* A model of one node: memcg i in fifo[gen[i]][bin[i]] (gen -1: none). */
static void setup(const int *gen, const int *bin)
{
	int i;

	memset(nodes, 0, sizeof(nodes));
	memset(memcgs, 0, sizeof(memcgs));
	memset(pn, 0, sizeof(pn));
	mlf_lin_destroy(&lin);
	mlf_lin_init(&lin, nodes, 1, POOL, memcg_of, NULL);
	for (i = 0; i < POOL; i++) {
		struct lin_memcg *m = &lin.mc[i * MAX_NUMNODES];

		memcgs[i].id = i;
		memcgs[i].nodeinfo[0] = &pn[i];
		pn[i].memcg = &memcgs[i];
		m->linked = gen[i] >= 0;
		m->gen = gen[i] < 0 ? 0 : gen[i];
		m->bin = bin[i];
		/* the port agrees */
		if (m->linked) {
			pn[i].lruvec.lrugen.list.pprev =
				&pn[i].lruvec.lrugen.list.next;
			pn[i].lruvec.lrugen.gen = gen[i];
		}
	}
	mlf_walk_check_begin(&w, 0, WALKER);
	memset(&f, 0, sizeof(f));
	step = 1;
}

static bool ev(enum mlf_walk_event event, long arg, int slot)
{
	return mlf_walk_check_event(&w, &lin, event, arg, slot, step++, &f);
}

/* Another task moves memcg @i to fifo[@gen][@bin] now (its section closes). */
static void moved_by(int task, int i, int gen, int bin)
{
	struct lin_memcg *m = &lin.mc[i * MAX_NUMNODES];

	m->touched_at_by[task + 1] = step;
	if (m->gen != gen)
		m->left_at[m->gen] = step;
	if (m->gen != gen || m->bin != bin)
		m->left_bin_at[m->gen][m->bin] = step;
	m->moved_at = step;
	m->gen = gen;
	m->bin = bin;
	pn[i].lruvec.lrugen.gen = gen;
	step++;
}

/* A pass over @bin of generation @gen that visits @slots and ends on @nulls. */
static bool pass(int bin, const int *slots, int n, long nulls)
{
	int k;

	if (!ev(MLF_WALK_BIN, bin, -1))
		return false;
	for (k = 0; k < n; k++)
		if (!ev(MLF_WALK_VISIT, 0, slots[k]))
			return false;
	return ev(MLF_WALK_NULLS, nulls, -1);
}

/* m0, m1 in fifo[0][2]; m2 in fifo[0][5]; m3 in fifo[1][2]. */
static const int GEN[POOL] = { 0, 0, 0, 1 };
static const int BIN[POOL] = { 2, 2, 5, 2 };

/* A walk of generation 0 from bin 0 over all 8 bins; bin 2 visits @in2. */
static bool walk(const int *in2, int n2)
{
	static const int in5[] = { 2 };
	int b;

	if (!ev(MLF_WALK_START, 0, -1))
		return false;
	for (b = 0; b < LIN_NR_BINS; b++)
		if (!pass(b,
			  b == 2 ? in2 :
			  b == 5 ? in5 :
				   NULL,
			  b == 2 ? n2 :
			  b == 5 ? 1 :
				   0,
			  0))
			return false;
	return mlf_walk_check_end(&w, &lin, false, &f);
}

TEST(complete_walk_passes)
{
	static const int in2[] = { 0, 1 };

	setup(GEN, BIN);
	EXPECT(walk(in2, 2));
}

TEST(a_memcg_that_sat_in_its_bin_and_was_not_met_fails_walk_complete)
{
	static const int in2[] = { 0 };

	setup(GEN, BIN);
	ASSERT(!walk(in2, 1));
	EXPECT_STREQ(f.check, "walk.complete");
	EXPECT_EQ(f.memcg, 1);
}

/*
 * A walk of generation 0 in which, during the pass over bin 2, @task moves
 * memcg @i to fifo[@gen][@bin] and the pass meets @met2 (-1: nothing) and
 * ends; m2 is met in bin 5, and m0 in bin 6 (where it went, if it did).
 * Whether the walk's end check passes.
 */
static bool walk_with_move(int task, int i, int gen, int bin, int met2)
{
	int b;

	setup(GEN, BIN);
	if (!ev(MLF_WALK_START, 0, -1))
		return false;
	for (b = 0; b < LIN_NR_BINS; b++) {
		if (!ev(MLF_WALK_BIN, b, -1))
			return false;
		if (b == 2)
			moved_by(task, i, gen, bin);
		if (b == 2 && met2 >= 0 && !ev(MLF_WALK_VISIT, 0, met2))
			return false;
		if (b == 5 && !ev(MLF_WALK_VISIT, 0, 2))
			return false;
		if (b == 6 && i == 0 && !ev(MLF_WALK_VISIT, 0, 0))
			return false;
		if (!ev(MLF_WALK_NULLS, 0, -1))
			return false;
	}
	return mlf_walk_check_end(&w, &lin, false, &f);
}

TEST(a_cursor_passed_over_and_moved_to_another_bin_derails_the_pass)
{
	/*
	 * The walk stands on m0 (no event: say it was another generation's
	 * when read), another task moves m0 to fifo[0][6] and the pass ends
	 * on generation 0's nulls there: m1 is not met, as in the kernel.
	 */
	EXPECT(walk_with_move(OTHER, 0, 0, 6, -1));
}

TEST(a_move_by_the_walker_itself_does_not_derail)
{
	/* the same, but the walk's own task moved m0: no excuse */
	ASSERT(!walk_with_move(WALKER, 0, 0, 6, -1));
	EXPECT_STREQ(f.check, "walk.complete");
	EXPECT_EQ(f.memcg, 1);
}

TEST(a_move_in_another_bin_does_not_derail)
{
	/* m3, of another generation's bin 2, moved meanwhile: no excuse */
	ASSERT(!walk_with_move(OTHER, 3, 1, 3, 0));
	EXPECT_STREQ(f.check, "walk.complete");
	EXPECT_EQ(f.memcg, 1);
}

TEST(a_walk_that_stops_early_fails_walk_end)
{
	static const int in2[] = { 0, 1 };
	int b;

	setup(GEN, BIN);
	ASSERT(ev(MLF_WALK_START, 0, -1));
	for (b = 0; b < 3; b++)
		ASSERT(pass(b, b == 2 ? in2 : NULL, b == 2 ? 2 : 0, 0));
	ASSERT(!mlf_walk_check_end(&w, &lin, false, &f));
	EXPECT_STREQ(f.check, "walk.end");
}

TEST(a_foreign_nulls_without_restart_fails_walk_end)
{
	setup(GEN, BIN);
	ASSERT(ev(MLF_WALK_START, 0, -1));
	ASSERT(pass(0, NULL, 0, 1)); /* generation 1's marker */
	ASSERT(!ev(MLF_WALK_BIN, 1, -1));
	EXPECT_STREQ(f.check, "walk.end");
}

TEST(a_foreign_nulls_then_the_same_bin_passes)
{
	setup(GEN, BIN);
	ASSERT(ev(MLF_WALK_START, 0, -1));
	ASSERT(pass(0, NULL, 0, 1));
	EXPECT(ev(MLF_WALK_BIN, 0, -1));
}

TEST(a_visit_of_another_generation_fails_walk_gen)
{
	static const int in2[] = { 3 };

	setup(GEN, BIN);
	ASSERT(ev(MLF_WALK_START, 0, -1));
	ASSERT(ev(MLF_WALK_BIN, 2, -1));
	ASSERT(!ev(MLF_WALK_VISIT, 0, in2[0]));
	EXPECT_STREQ(f.check, "walk.gen");
	EXPECT_EQ(f.memcg, 3);
}

TEST(a_visit_of_a_memcg_that_left_since_the_last_event_passes)
{
	setup(GEN, BIN);
	ASSERT(ev(MLF_WALK_START, 0, -1));
	ASSERT(ev(MLF_WALK_BIN, 2, -1));
	moved_by(OTHER, 0, 1, 4);
	EXPECT(ev(MLF_WALK_VISIT, 0, 0));
}

/*
 * m3 (generation 1) in the middle of a rotation into generation 0 by
 * another task whose section is still open: gen already written, unlinked
 * (pprev cleared by hlist_nulls_del_init_rcu()), not linked yet.
 */
static void in_transit(int writer)
{
	setup(GEN, BIN);
	ASSERT(ev(MLF_WALK_START, 0, -1));
	ASSERT(ev(MLF_WALK_BIN, 2, -1));
	nodes[0].memcg_lru.lock.owner = writer + 1;
	lin.mc[3 * MAX_NUMNODES].touched_at_by[writer + 1] = step++;
	pn[3].lruvec.lrugen.gen = 0;
	pn[3].lruvec.lrugen.list.pprev = NULL;
}

TEST(a_visit_of_a_memcg_in_transit_into_the_generation_passes)
{
	in_transit(OTHER);
	EXPECT(ev(MLF_WALK_VISIT, 0, 3));
}

TEST(in_transit_needs_a_write_by_another_task_since_the_last_event)
{
	in_transit(OTHER);
	/* the write was before the walk's last event */
	ASSERT(ev(MLF_WALK_NULLS, 0, -1));
	ASSERT(ev(MLF_WALK_BIN, 3, -1));
	ASSERT(!ev(MLF_WALK_VISIT, 0, 3));
	EXPECT_STREQ(f.check, "walk.gen");
}

TEST(in_transit_needs_an_open_section)
{
	in_transit(OTHER);
	nodes[0].memcg_lru.lock.owner = 0;
	ASSERT(!ev(MLF_WALK_VISIT, 0, 3));
	EXPECT_STREQ(f.check, "walk.gen");
}

/* ---- walk.gen: the publication order ---- */

/*
 * @task, inside a critical section the model has not seen, links m0 (in
 * fifo[0][2] as the model has it) into fifo[@gen][4]: the store to its
 * pprev while it is on no list, which takes effect at the task's next
 * point; its gen field it leaves as it was (the half-revert's order).
 */
static void linked_by_open_section(int task, int gen)
{
	struct hlist_nulls_node *n = &pn[0].lruvec.lrugen.list;

	nodes[0].memcg_lru.lock.owner = task + 1;
	n->pprev = NULL;
	mlf_lin_touch(&lin, &n->pprev, step++, task);
	n->pprev = &nodes[0].memcg_lru.fifo[gen][4].first;
	mlf_lin_commit(&lin, task, step++);
}

/* The walk reads m0's gen (READ_ONCE: its point, then its next one). */
static void walk_reads_gen_of_m0(void)
{
	mlf_walk_check_point(&w, &lin, true, &pn[0].lruvec.lrugen.gen, step++);
	mlf_walk_check_point(&w, &lin, false, NULL, step++);
}

static void walk_in_bin_2(void)
{
	setup(GEN, BIN);
	ASSERT(ev(MLF_WALK_START, 0, -1));
	ASSERT(ev(MLF_WALK_BIN, 2, -1));
}

TEST(a_visit_by_a_gen_stored_before_the_move_fails_walk_gen)
{
	/*
	 * m0 linked into generation 1 with its gen still 0: the walk of
	 * generation 0 that reads it there and shrinks it went by a gen
	 * published before the move. The model (section still open) has
	 * m0 in generation 0: without the read, the visit passes, as every
	 * visit did before the check knew the publication order.
	 */
	walk_in_bin_2();
	linked_by_open_section(OTHER, 1);
	EXPECT(ev(MLF_WALK_VISIT, 0, 0));

	walk_in_bin_2();
	linked_by_open_section(OTHER, 1);
	walk_reads_gen_of_m0();
	ASSERT(!ev(MLF_WALK_VISIT, 0, 0));
	EXPECT_STREQ(f.check, "walk.gen");
	EXPECT_EQ(f.memcg, 0);
	EXPECT(strstr(f.msg, "published before the move") != NULL);
}

TEST(a_read_takes_effect_at_the_walks_next_point)
{
	/*
	 * The walk passes its READ_ONCE point, the writer links m0 into
	 * generation 1 before the walk runs again: the load comes after
	 * the link.
	 */
	walk_in_bin_2();
	mlf_walk_check_point(&w, &lin, true, &pn[0].lruvec.lrugen.gen, step++);
	linked_by_open_section(OTHER, 1);
	mlf_walk_check_point(&w, &lin, false, NULL, step++);
	ASSERT(!ev(MLF_WALK_VISIT, 0, 0));
	EXPECT_STREQ(f.check, "walk.gen");
}

TEST(a_memcg_linked_into_the_walks_generation_passes_walk_gen)
{
	walk_in_bin_2();
	linked_by_open_section(OTHER, 0);
	walk_reads_gen_of_m0();
	EXPECT(ev(MLF_WALK_VISIT, 0, 0));
}

TEST(a_gen_stored_after_the_link_passes_walk_gen)
{
	/*
	 * The kernel's order seen from the other side: once a store to its
	 * gen follows the link (a later rotation that stores gen before it
	 * moves the memcg, or the half-revert's late store), the walk reads
	 * that store, not the one before the move.
	 */
	walk_in_bin_2();
	linked_by_open_section(OTHER, 1);
	mlf_lin_touch(&lin, &pn[0].lruvec.lrugen.gen, step++, OTHER);
	mlf_lin_commit(&lin, OTHER, step++);
	walk_reads_gen_of_m0();
	EXPECT(ev(MLF_WALK_VISIT, 0, 0));
}

/*
 * @task unlinks m0 (hlist_nulls_del_rcu(): its pprev poisoned) and links
 * it behind m3, the last of fifo[1][2] (hlist_nulls_add_tail_rcu()): its
 * pprev stored plainly, so the join is known only by the marked link
 * that publishes it, m3's ->next. Its gen field it leaves as it was.
 */
static void linked_behind_m3_by(int task)
{
	struct hlist_nulls_node *n = &pn[0].lruvec.lrugen.list;
	struct hlist_nulls_node *last = &pn[3].lruvec.lrugen.list;

	last->pprev = &nodes[0].memcg_lru.fifo[1][2].first;
	last->next = (struct hlist_nulls_node *)1UL;
	nodes[0].memcg_lru.lock.owner = task + 1;
	mlf_lin_touch(&lin, &n->pprev, step++, task);
	n->pprev = LIST_POISON2;
	mlf_lin_commit(&lin, task, step++);
	n->next = last->next;
	n->pprev = &last->next;
	mlf_lin_touch(&lin, &last->next, step++, task);
	last->next = n;
	mlf_lin_commit(&lin, task, step++);
}

TEST(a_join_behind_an_entry_is_known_by_its_link)
{
	/*
	 * m0 in generation 1 behind m3, gen still 0: the walk of
	 * generation 0 that reads it there went by a gen published before
	 * the move. Without the link's join the model would still have m0
	 * in the list it left, of generation 0, and pass the visit.
	 */
	walk_in_bin_2();
	linked_behind_m3_by(OTHER);
	walk_reads_gen_of_m0();
	ASSERT(!ev(MLF_WALK_VISIT, 0, 0));
	EXPECT_STREQ(f.check, "walk.gen");
	EXPECT(strstr(f.msg, "a list of generation 1") != NULL);
}

/* ---- walk.complete with a section still open ---- */

/* A complete walk of generation 0 in which bin 2 meets only m0. */
static bool walk_meeting_m0_in_bin_2(void)
{
	static const int in2[] = { 0 };

	return walk(in2, 1);
}

TEST(walk_complete_is_judged_while_another_section_is_open)
{
	/*
	 * Another task holds the node's lock at the walk's end, having
	 * written nothing of m1: m1 stayed in fifo[0][2] the whole walk and
	 * was never met. (Before, an open section at the end skipped the
	 * check and this walk passed.)
	 */
	setup(GEN, BIN);
	nodes[0].memcg_lru.lock.owner = OTHER + 1;
	ASSERT(!walk_meeting_m0_in_bin_2());
	EXPECT_STREQ(f.check, "walk.complete");
	EXPECT_EQ(f.memcg, 1);
}

TEST(a_memcg_the_open_section_wrote_to_is_exempt_from_walk_complete)
{
	/* the open section unlinked m1 (wrote its links): it may be anywhere */
	setup(GEN, BIN);
	nodes[0].memcg_lru.lock.owner = OTHER + 1;
	lin.mc[1 * MAX_NUMNODES].touched_at_by[OTHER + 1] = step++;
	EXPECT(walk_meeting_m0_in_bin_2());
}

TEST(a_memcg_the_open_section_is_unlinking_is_exempt_from_walk_complete)
{
	/*
	 * The open section's first store of m1's unlink: m0's ->next, which
	 * pointed at m1, now bypasses it (m1's own links not written yet).
	 * The walk can no longer reach m1, and must not be blamed for it.
	 */
	setup(GEN, BIN);
	nodes[0].memcg_lru.lock.owner = OTHER + 1;
	pn[0].lruvec.lrugen.list.next = &pn[1].lruvec.lrugen.list;
	mlf_lin_touch(&lin, &pn[0].lruvec.lrugen.list.next, step++, OTHER);
	EXPECT(walk_meeting_m0_in_bin_2());
}

int main(void)
{
	int ret = testlib_run();

	mlf_lin_destroy(&lin);
	return ret;
}
