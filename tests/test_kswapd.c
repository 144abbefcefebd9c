// SPDX-License-Identifier: GPL-2.0
/*
 * kswapd.failures (src/check/kswapd_checks.h): the count follows the
 * specification through kswapd and direct reclaim runs, and a reset by a
 * run that reclaimed nothing is named.
 */
#include "check/kswapd_checks.h"

#include "testlib.h"

/* the kernel's rules, for the port's side of each run */
static int after_run(int failures, bool kswapd, unsigned long reclaimed)
{
	if (reclaimed)
		failures = 0;			/* lru_gen_shrink_node() */
	if (kswapd && !reclaimed)
		failures++;			/* balance_pgdat() */
	return failures;
}

TEST(the_kernels_rules_pass)
{
	static const struct {
		bool kswapd;
		unsigned long reclaimed;
	} runs[] = { { true, 0 }, { true, 0 }, { false, 0 }, { true, 0 },
		     { false, 3 }, { true, 0 }, { true, 1 }, { true, 0 } };
	struct mlf_kswapd_check k;
	struct mlf_failure f;
	int failures = 0;
	unsigned int i;

	mlf_kswapd_check_init(&k);
	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		failures = after_run(failures, runs[i].kswapd,
				     runs[i].reclaimed);
		EXPECT(check_kswapd_failures(&k, 1, runs[i].kswapd,
					     runs[i].reclaimed, failures, &f));
	}
	EXPECT_EQ(failures, 1);
	/* another node keeps its own count */
	EXPECT(check_kswapd_failures(&k, 0, true, 0, 1, &f));
}

TEST(a_reset_without_progress_is_named)
{
	struct mlf_kswapd_check k;
	struct mlf_failure f;

	mlf_kswapd_check_init(&k);
	EXPECT(check_kswapd_failures(&k, 0, true, 0, 1, &f));
	/* reset by a run that reclaimed nothing, then counted again */
	ASSERT(!check_kswapd_failures(&k, 0, true, 0, 1, &f));
	EXPECT_STREQ(f.check, "kswapd.failures");
	EXPECT_EQ(f.node, 0);
	EXPECT(strstr(f.msg, "never gives up"));
	testlib_show(&f);
}

TEST(a_direct_run_that_reclaims_nothing_keeps_the_count)
{
	struct mlf_kswapd_check k;
	struct mlf_failure f;

	mlf_kswapd_check_init(&k);
	EXPECT(check_kswapd_failures(&k, 1, true, 0, 1, &f));
	ASSERT(!check_kswapd_failures(&k, 1, false, 0, 0, &f));
	EXPECT(strstr(f.msg, "direct reclaim"));
}

int main(void)
{
	return testlib_run();
}
