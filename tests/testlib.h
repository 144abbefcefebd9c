/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny unit-test helper: TEST(name) registers a test, EXPECT* report a
 * failed expectation with file:line and go on, ASSERT* also leave the test,
 * and testlib_run() runs them all and prints "N passed, M failed". Failures
 * reported through mlf_fail() can be caught and inspected instead of
 * aborting. Include it from exactly one file per test binary.
 */
#ifndef _MLF_TESTS_TESTLIB_H
#define _MLF_TESTS_TESTLIB_H

#include <stdio.h>
#include <string.h>

#include "kernel/report.h"

#define TESTLIB_MAX_TESTS 256

struct testlib_case {
	const char *name;
	void (*fn)(void);
};

static struct testlib_case testlib_cases[TESTLIB_MAX_TESTS];
static int testlib_nr_cases;
static int testlib_failed_here;
static const char *testlib_skipped_here;

static inline void testlib_register(const char *name, void (*fn)(void))
{
	if (testlib_nr_cases < TESTLIB_MAX_TESTS)
		testlib_cases[testlib_nr_cases++] =
			(struct testlib_case){ name, fn };
}

#define TEST(name)                                                        \
	static void test_##name(void);                                    \
	__attribute__((constructor)) static void testlib_reg_##name(void) \
	{                                                                 \
		testlib_register(#name, test_##name);                     \
	}                                                                 \
	static void test_##name(void)

static inline bool testlib_check(bool ok, const char *file, int line,
				 const char *expr)
{
	if (!ok) {
		fprintf(stderr, "%s:%d: expected: %s\n", file, line, expr);
		testlib_failed_here = 1;
	}
	return ok;
}

#define EXPECT(cond) testlib_check(!!(cond), __FILE__, __LINE__, #cond)
#define ASSERT(cond)                  \
	do {                          \
		if (!EXPECT(cond))    \
			return;       \
	} while (0)

#define EXPECT_EQ(a, b)                                                     \
	({                                                                  \
		long long __a = (long long)(a), __b = (long long)(b);       \
		bool __ok = testlib_check(__a == __b, __FILE__, __LINE__,   \
					  #a " == " #b);                    \
		if (!__ok)                                                  \
			fprintf(stderr, "    %s = %lld, %s = %lld\n", #a,   \
				__a, #b, __b);                              \
		__ok;                                                       \
	})
#define ASSERT_EQ(a, b)                  \
	do {                             \
		if (!EXPECT_EQ(a, b))    \
			return;          \
	} while (0)

#define EXPECT_STREQ(a, b)                                                  \
	({                                                                  \
		const char *__a = (a), *__b = (b);                          \
		bool __ok = testlib_check(__a && __b && !strcmp(__a, __b),  \
					  __FILE__, __LINE__,               \
					  #a " equals " #b);                \
		if (!__ok)                                                  \
			fprintf(stderr, "    %s = \"%s\", %s = \"%s\"\n",   \
				#a, __a ? __a : "(null)", #b,               \
				__b ? __b : "(null)");                      \
		__ok;                                                       \
	})

/*
 * Leave a test that the code under test cannot take: a kernel tree
 * without what it exercises (kernel/trees/mm-new has no MEMCG_LRU_HEAD).
 * Counted apart, never as a pass.
 */
#define SKIP_UNLESS(cond, why)                       \
	do {                                         \
		if (!(cond)) {                       \
			testlib_skipped_here = (why); \
			return;                      \
		}                                    \
	} while (0)

/* ---- catching mlf_fail() ---- */

static struct {
	int count;
	char check[64];
	char msg[1024];
} testlib_caught;

static void testlib_record(const struct mlf_failure *f)
{
	if (!testlib_caught.count++) {
		snprintf(testlib_caught.check, sizeof(testlib_caught.check),
			 "%s", f->check);
		snprintf(testlib_caught.msg, sizeof(testlib_caught.msg), "%s",
			 f->msg);
	}
}

/* Record failures (the first one's name and message) instead of aborting. */
static inline void testlib_catch_failures(void)
{
	memset(&testlib_caught, 0, sizeof(testlib_caught));
	mlf_set_fail_handler(testlib_record);
}

static inline void testlib_stop_catching(void)
{
	mlf_set_fail_handler(NULL);
}

/* Print a check's failure, so that a passing negative test shows it. */
static inline void testlib_show(const struct mlf_failure *f)
{
	printf("    caught %s: %s\n", f->check, f->msg);
}

static inline int testlib_run(void)
{
	int i, passed = 0, failed = 0, skipped = 0;

	for (i = 0; i < testlib_nr_cases; i++) {
		testlib_failed_here = 0;
		testlib_skipped_here = NULL;
		printf("[ RUN  ] %s\n", testlib_cases[i].name);
		fflush(stdout);
		testlib_cases[i].fn();
		testlib_stop_catching();
		if (testlib_failed_here) {
			failed++;
			printf("[ FAIL ] %s\n", testlib_cases[i].name);
		} else if (testlib_skipped_here) {
			skipped++;
			printf("[ SKIP ] %s: %s\n", testlib_cases[i].name,
			       testlib_skipped_here);
		} else {
			passed++;
			printf("[  OK  ] %s\n", testlib_cases[i].name);
		}
	}
	if (skipped)
		printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	else
		printf("%d passed, %d failed\n", passed, failed);
	return failed || !passed;
}

#endif
