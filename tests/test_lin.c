// SPDX-License-Identifier: GPL-2.0
/*
 * lin.step (src/check/lin.h) on critical sections made by the port's own
 * operations, outside a scheduled run: told which op a task invoked, the
 * check fails a section that did a legal operation other than that one
 * (another memcg, another rotation, another bin than the op's draw, a
 * second section, a section where the op takes no lock, nothing where the
 * op must move the memcg), which it passed when it was not told; and it
 * passes the invoked operation, including the ones that may change
 * nothing (a skipped YOUNG, the release of an unlinked memcg).
 */
#include <stdlib.h>

#include "check/lin.h"
#include "harness/world.h"
#include "testlib.h"
#include "tree_needs.h"

#define POOL 5 /* m4 stays empty */
#define T0 0 /* the task whose sections are judged */

static struct mlf_world w;
static bool built;
static struct mlf_lin lin;
static struct mlf_failure f;
static unsigned long step;

static struct mlf_op mkop(int kind, int memcg, int draw)
{
	struct mlf_op op = { .kind = kind, .memcg = memcg, .node = 0 };

	op.nr_draws = MLF_OP_MAX_DRAWS;
	memset(op.draws, draw, sizeof(op.draws));
	return op;
}

/* One op on the port (and the sequential model, which checks it). */
static void apply(struct mlf_op op)
{
	if (!world_apply(&w, &op)) {
		fprintf(stderr, "op %s m%d did not apply\n",
			mlf_op_kind_name(op.kind), op.memcg);
		abort();
	}
}

static void rotate(int m, int rotate_op, int bin)
{
	struct mlf_op op = mkop(MLF_OP_ROTATE, m, bin);

	op.rotate_op = rotate_op;
	apply(op);
}

static struct mem_cgroup *memcg_of(void *arg, int i)
{
	(void)arg;
	return w.cs.slots[i].memcg;
}

/*
 * One node: fifo[0][0] = m0 m1 m2 (old), fifo[1][2] = m3 (young), m4 not
 * onlined; the linearization model synced to it.
 */
static void build(void)
{
	if (built)
		world_destroy(&w);
	mlf_lin_destroy(&lin);
	world_init(&w, 1, POOL);
	built = true;
	apply(mkop(MLF_OP_ONLINE, 0, 0));
	apply(mkop(MLF_OP_ONLINE, 1, 0));
	apply(mkop(MLF_OP_ONLINE, 2, 0));
	apply(mkop(MLF_OP_ONLINE, 3, 0));
	rotate(3, MEMCG_LRU_YOUNG, 2);
	mlf_lin_init(&lin, w.cs.nodes, 1, POOL, memcg_of, NULL);
	if (!mlf_lin_sync(&lin, &f))
		abort();
	memset(&f, 0, sizeof(f));
	step = 1;
}

/* T0's op asks for @kind of @slot (rotation @op, first move into @bin). */
static void expect(int kind, int op, int slot, int bin)
{
	struct lin_expect e = {
		.kind = (u8)kind,
		.op = (u8)op,
		.nid = kind == LIN_EXPECT_ROTATE ? 0 : -1,
		.slot = slot,
		.bin = bin,
	};

	mlf_lin_expect(&lin, T0, &e);
}

/* T0's critical section of node 0 ends: lin.step. */
static bool section_ends(void)
{
	return mlf_lin_step(&lin, 0, step++, T0, &f);
}

TEST(a_legal_op_on_another_memcg_than_invoked_fails_lin_step)
{
	NEEDS_ROTATION(MEMCG_LRU_HEAD);

	/* not told: HEAD of m1 explains the section, and passes */
	build();
	rotate(1, MEMCG_LRU_HEAD, 0);
	EXPECT(section_ends());

	/* told the op is HEAD of m0: the same section fails */
	build();
	expect(LIN_EXPECT_ROTATE, MEMCG_LRU_HEAD, 0, -1);
	rotate(1, MEMCG_LRU_HEAD, 0);
	ASSERT(!section_ends());
	EXPECT_STREQ(f.check, "lin.step");
	EXPECT_EQ(f.node, 0);
	EXPECT_EQ(f.memcg, 0);
}

TEST(a_legal_op_other_than_invoked_fails_lin_step)
{
	NEEDS_ROTATION(MEMCG_LRU_HEAD);

	/* not told: TAIL of m0 passes */
	build();
	rotate(0, MEMCG_LRU_TAIL, 0);
	EXPECT(section_ends());

	/* HEAD of m0 invoked, TAIL of m0 done */
	build();
	expect(LIN_EXPECT_ROTATE, MEMCG_LRU_HEAD, 0, -1);
	rotate(0, MEMCG_LRU_TAIL, 0);
	ASSERT(!section_ends());
	EXPECT_STREQ(f.check, "lin.step");
	EXPECT(strstr(f.msg, "did TAIL of m0") != NULL);
}

TEST(the_invoked_op_passes_once)
{
	build();
	expect(LIN_EXPECT_ROTATE, MEMCG_LRU_TAIL, 0, -1);
	rotate(0, MEMCG_LRU_TAIL, 0);
	EXPECT(section_ends());
	/* a second section for the same op */
	rotate(1, MEMCG_LRU_TAIL, 0);
	ASSERT(!section_ends());
	EXPECT_STREQ(f.check, "lin.step");
	EXPECT(strstr(f.msg, "second critical section") != NULL);
}

TEST(a_move_into_another_bin_than_drawn_fails_lin_step)
{
	NEEDS_ROTATION(MEMCG_LRU_OLD);

	build();
	expect(LIN_EXPECT_ROTATE, MEMCG_LRU_OLD, 1, 3);
	rotate(1, MEMCG_LRU_OLD, 3);
	EXPECT(section_ends());

	build();
	expect(LIN_EXPECT_ROTATE, MEMCG_LRU_OLD, 1, 3);
	rotate(1, MEMCG_LRU_OLD, 5);
	ASSERT(!section_ends());
	EXPECT_STREQ(f.check, "lin.step");
	EXPECT_EQ(f.bin, 5);
}

TEST(a_section_of_an_op_that_takes_no_lock_fails_lin_step)
{
	NEEDS_ROTATION(MEMCG_LRU_HEAD);

	build();
	expect(LIN_EXPECT_NONE, 0, -1, -1);
	rotate(2, MEMCG_LRU_HEAD, 0);
	ASSERT(!section_ends());
	EXPECT_STREQ(f.check, "lin.step");
}

TEST(an_online_passes_and_a_rotation_in_its_place_fails)
{
	build();
	expect(LIN_EXPECT_ONLINE, 0, 4, 1);
	apply(mkop(MLF_OP_ONLINE, 4, 1));
	EXPECT(section_ends());

	build();
	apply(mkop(MLF_OP_OFFLINE, 2, 4));
	/* the offline's OLD: not what an online of m2 is */
	expect(LIN_EXPECT_ONLINE, 0, 2, -1);
	ASSERT(!section_ends());
	EXPECT_STREQ(f.check, "lin.step");
}

TEST(nothing_changed_passes_only_where_the_invoked_op_may_do_nothing)
{
	/* m3 is young, in the default segment: YOUNG may be skipped */
	build();
	expect(LIN_EXPECT_ROTATE, MEMCG_LRU_YOUNG, 3, -1);
	EXPECT(section_ends());

	/* m0 is old: TAIL must move it to a tail in the tail segment */
	build();
	expect(LIN_EXPECT_ROTATE, MEMCG_LRU_TAIL, 0, -1);
	ASSERT(!section_ends());
	EXPECT_STREQ(f.check, "lin.step");
	EXPECT(strstr(f.msg, "changed nothing") != NULL);

	/* a release of a linked memcg must unlink it */
	build();
	expect(LIN_EXPECT_RELEASE, 0, 1, -1);
	ASSERT(!section_ends());
	EXPECT_STREQ(f.check, "lin.step");

	/* ... and of a memcg no slot holds, change nothing */
	build();
	expect(LIN_EXPECT_RELEASE, 0, -1, -1);
	EXPECT(section_ends());
}

int main(void)
{
	int ret = testlib_run();

	if (built)
		world_destroy(&w);
	mlf_lin_destroy(&lin);
	return ret;
}
