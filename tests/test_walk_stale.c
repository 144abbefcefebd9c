// SPDX-License-Identifier: GPL-2.0
/*
 * walk.stale_young (src/check/walk_stale.h): with three generations no walk
 * that read any seq since it began, up to one advance ago, walks the young
 * generation; with two, a walk whose seq is one advance stale does, and the
 * check names it.
 */
#include "check/walk_stale.h"
#include "mm/mmzone.h"

#include "testlib.h"

/*
 * Every walk the kernel can make: it began at @seq_begin, read s >= that,
 * and is at a visit while seq is @seq_now >= s. Count the ones the rule
 * calls stale with @nr_gens generations, visiting a memcg of any gen.
 */
static int stale_walks(int nr_gens, unsigned long seq_now_max_ahead)
{
	unsigned long seq_begin, s, seq_now;
	int memcg_gen, n = 0;

	for (seq_begin = 0; seq_begin < 12; seq_begin++)
		for (s = seq_begin; s < seq_begin + 4; s++)
			for (seq_now = s; seq_now <= s + seq_now_max_ahead;
			     seq_now++)
				for (memcg_gen = 0; memcg_gen < nr_gens;
				     memcg_gen++)
					n += mlf_walk_stale_young(
						nr_gens, seq_begin,
						(long)(s % nr_gens), seq_now,
						memcg_gen);
	return n;
}

TEST(three_generations_never_stale)
{
	EXPECT_EQ(stale_walks(3, 4), 0);
}

TEST(two_generations_one_advance_is_stale)
{
	/* read 4 (gen 0), seq moved on to 5: young is 6 % 2 = 0 */
	EXPECT(mlf_walk_stale_young(2, 4, 0, 5, 0));
	/* the memcg it shrinks is old: no harm */
	EXPECT(!mlf_walk_stale_young(2, 4, 0, 5, 1));
	/* no advance: the walk is on old */
	EXPECT(!mlf_walk_stale_young(2, 4, 0, 4, 1));
	/* two advances: young again by design, the check says nothing */
	EXPECT(!mlf_walk_stale_young(2, 4, 0, 6, 1));
	EXPECT(stale_walks(2, 4) > 0);
}

TEST(the_port_walks_with_the_rule)
{
	struct mlf_walk_stale w;
	struct mlf_failure f;
	unsigned long seq;

	/* a walk on the old generation, seq advancing under it */
	for (seq = 0; seq < 8; seq++) {
		mlf_walk_stale_begin(&w, 1, seq);
		EXPECT(mlf_walk_stale_event(&w, MLF_WALK_START,
					    (long)get_memcg_gen(seq), -1, -1,
					    seq, &f));
		EXPECT(mlf_walk_stale_event(&w, MLF_WALK_VISIT, 0, 3,
					    get_memcg_gen(seq + 2), seq + 1,
					    &f));
	}
}

TEST(a_walk_on_young_is_named)
{
	struct mlf_walk_stale w;
	struct mlf_failure f;
	int young = get_memcg_gen(5 + 1);

	/* began at seq 5 but walks young: what a stale read gives with two */
	mlf_walk_stale_begin(&w, 1, 5);
	EXPECT(mlf_walk_stale_event(&w, MLF_WALK_START, young, -1, -1, 5, &f));
	ASSERT(!mlf_walk_stale_event(&w, MLF_WALK_VISIT, 0, 7, young, 5, &f));
	EXPECT_STREQ(f.check, "walk.stale_young");
	EXPECT_EQ(f.node, 1);
	EXPECT_EQ(f.gen, young);
	EXPECT_EQ(f.memcg, 7);
	EXPECT(strstr(f.msg, "m7") && strstr(f.msg, "seq was 5"));
	testlib_show(&f);
}

int main(void)
{
	return testlib_run();
}
