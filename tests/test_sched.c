// SPDX-License-Identifier: GPL-2.0
/*
 * The deterministic scheduler (src/kernel/schedule.h) on small programs of
 * its own, with the shim's READ_ONCE / locks / RCU as scheduling points:
 * decisions do what they say, the same decisions give the same run, model
 * locks exclude and block, a deadlock is reported, grace periods wait for
 * exactly the readers they must, callbacks run after them, freed memory is
 * caught by the check that names how it was reached, a write after free
 * is caught at the run's end by the quarantine's poison, a free after an
 * unlink waits for a grace period, RCU used where the kernel's lockdep-RCU
 * and might_sleep() object is reported by their names, PCT and the
 * exhaustive enumeration count what combinatorics says they must, a
 * point reached while the harness looks on (a probe's checks) fails, and
 * an input's weak choice reads the store it names.
 */
#include <stdlib.h>

#include "kernel/explore.h"
#include "kernel/kernel.h"
#include "kernel/sanitizer.h"
#include "testlib.h"

/* ---- a log of which task passed which of its own steps ---- */

/*
 * The test's own records are shared by the tasks with no ordering (the
 * scheduler gives none): relaxed atomics, so that ThreadSanitizer's build
 * judges the scheduler, not the test.
 */
#define LOG_MAX 256
static int log_task[LOG_MAX];
static int nr_log;
static long shared;

static void append(int *array, int *nr, int max, int value)
{
	int n = __atomic_load_n(nr, __ATOMIC_RELAXED);

	if (n < max) {
		__atomic_store_n(&array[n], value, __ATOMIC_RELAXED);
		__atomic_store_n(nr, n + 1, __ATOMIC_RELAXED);
	}
}

static void note(int task)
{
	append(log_task, &nr_log, LOG_MAX, task);
}

/* n READ_ONCE points, each logged */
static void stepper(int task, void *arg)
{
	int n = (int)(long)arg, i;

	for (i = 0; i < n; i++) {
		note(task);
		(void)READ_ONCE(shared);
	}
}

static void run(int nr_tasks, void (*fn)(int, void *), void *arg,
		const struct mlf_sched_decision *d, int nr_d,
		struct mlf_sched_stats *st)
{
	struct mlf_sched_config cfg = {
		.nr_tasks = nr_tasks,
		.fn = fn,
		.arg = arg,
		.policy = MLF_SCHED_INPUT,
		.decisions = d,
		.nr_decisions = nr_d,
	};

	nr_log = 0;
	shared = 0;
	mlf_sched_run(&cfg, st);
}

TEST(default_runs_each_task_to_its_end)
{
	struct mlf_sched_stats st;
	int i;

	run(2, stepper, (void *)3L, NULL, 0, &st);
	ASSERT_EQ(nr_log, 6);
	for (i = 0; i < 6; i++)
		EXPECT_EQ(log_task[i], i / 3);
	EXPECT_EQ(st.preemptions, 0);
}

TEST(a_decision_switches_after_its_delay)
{
	/* t0's START is point 1, its first READ_ONCE point 2: switch there */
	static const struct mlf_sched_decision d[] = { { 2, 1 }, { 2, 0 } };
	/* t1 runs from its start to its first READ_ONCE: 2 more points */
	static const int want[] = { 0, 1, 0, 0, 1, 1 };
	struct mlf_sched_stats st;
	int i;

	run(2, stepper, (void *)3L, d, 2, &st);
	ASSERT_EQ(nr_log, 6);
	for (i = 0; i < 6; i++)
		EXPECT_EQ(log_task[i], want[i]);
	EXPECT_EQ(st.decisions, 2);
	EXPECT_EQ(st.preemptions, 2);
}

/* read, yield at the point, write: a lost update when interleaved */
static void incrementer(int task, void *arg)
{
	long v = READ_ONCE(shared);

	(void)arg;
	(void)task;
	WRITE_ONCE(shared, v + 1);
}

TEST(the_same_decisions_give_the_same_run)
{
	/* switch at t0's WRITE_ONCE (after its read): both write 1 */
	static const struct mlf_sched_decision lost[] = { { 3, 1 } };
	struct mlf_sched_stats st;

	run(2, incrementer, NULL, NULL, 0, &st);
	EXPECT_EQ(shared, 2);
	run(2, incrementer, NULL, lost, 1, &st);
	EXPECT_EQ(shared, 1);
	run(2, incrementer, NULL, lost, 1, &st);
	EXPECT_EQ(shared, 1);
}

static spinlock_t lock_a, lock_b;

static void locked_incrementer(int task, void *arg)
{
	unsigned long flags;
	long v;

	(void)arg;
	(void)task;
	spin_lock_irqsave(&lock_a, flags);
	v = READ_ONCE(shared);
	WRITE_ONCE(shared, v + 1);
	spin_unlock_irqrestore(&lock_a, flags);
}

TEST(a_model_lock_excludes_and_blocks)
{
	/* preempt t0 inside the critical section, at every point there */
	static const struct mlf_sched_decision d[] = {
		{ 3, 1 }, { 1, 1 }, { 1, 0 }, { 1, 1 }, { 1, 0 },
	};
	struct mlf_sched_stats st;

	spin_lock_init(&lock_a);
	run(3, locked_incrementer, NULL, d, ARRAY_SIZE(d), &st);
	EXPECT_EQ(shared, 3);
	EXPECT(st.switches >= 2);
}

static void abba(int task, void *arg)
{
	spinlock_t *first = task ? &lock_b : &lock_a;
	spinlock_t *second = task ? &lock_a : &lock_b;

	(void)arg;
	spin_lock(first);
	(void)READ_ONCE(shared);
	spin_lock(second);
	spin_unlock(second);
	spin_unlock(first);
}

TEST(a_deadlock_is_reported)
{
	/* t0 takes a, then t1 takes b: each waits for the other */
	static const struct mlf_sched_decision d[] = { { 3, 1 } };

#ifdef MLF_TSAN
	/*
	 * The tasks never end, so nothing orders what they did before the
	 * test goes on (a real run ends here, in abort()): TSan would report
	 * the test's own globals. The other builds check this.
	 */
	return;
#endif
	spin_lock_init(&lock_a);
	spin_lock_init(&lock_b);
	testlib_catch_failures();
	run(2, abba, NULL, d, 1, NULL);
	testlib_stop_catching();
	EXPECT_STREQ(testlib_caught.check, "sched.deadlock");
	lockdep_reset();
}

/*
 * A probe's checks run in the middle of a task's step: a shim accessor
 * there would be a scheduling point of its own, letting others run before
 * the check judged the step it was called at (the walk.gen false alarm of
 * corpus/regressions/sched-probe-yield). The scheduler refuses it.
 */
static void looks_on_with_a_point(int task, void *arg)
{
	(void)arg;
	(void)READ_ONCE(shared);
	if (task)
		return;
	mlf_sched_look_on_begin();
	(void)READ_ONCE(shared);	/* the harness's own read: a point */
	mlf_sched_look_on_end();
	(void)READ_ONCE(shared);
}

TEST(a_point_reached_while_the_harness_looks_on_fails_harness)
{
	testlib_catch_failures();
	run(2, looks_on_with_a_point, NULL, NULL, 0, NULL);
	testlib_stop_catching();
	EXPECT_EQ(testlib_caught.count, 1);
	EXPECT_STREQ(testlib_caught.check, "harness");
}

/* ---- RCU ---- */

struct obj {
	long value;
	struct rcu_head rcu;
};

static struct obj *published;
static int order[8];
static int nr_order;

static void free_obj(struct rcu_head *head)
{
	struct obj *o = container_of(head, struct obj, rcu);

	append(order, &nr_order, 8, 9);
	kfree_poisoned(o, sizeof(*o));
}

/* t0 reads under RCU (three points inside); t1 unpublishes and waits */
static void reader_writer(int task, void *arg)
{
	bool use_call_rcu = arg != NULL;

	if (task == 0) {
		struct obj *o;

		rcu_read_lock();
		o = rcu_dereference(published);
		if (o)
			(void)READ_ONCE(o->value);
		append(order, &nr_order, 8, 1);
		rcu_read_unlock();
		return;
	}
	{
		struct obj *o = published;

		rcu_assign_pointer(published, NULL);
		if (use_call_rcu) {
			call_rcu(&o->rcu, free_obj);
			append(order, &nr_order, 8, 2);
			return;
		}
		synchronize_rcu();
		append(order, &nr_order, 8, 2);
		kfree_poisoned(o, sizeof(*o));
	}
}

static void rcu_run(const struct mlf_sched_decision *d, int nr_d, void *arg,
		    struct mlf_sched_stats *st)
{
	published = kzalloc(sizeof(*published), GFP_KERNEL);
	nr_order = 0;
	run(2, reader_writer, arg, d, nr_d, st);
}

TEST(synchronize_rcu_waits_for_a_reader_inside)
{
	/* t0 enters its section (START, RCU_LOCK, DEREF), then t1 runs */
	static const struct mlf_sched_decision d[] = { { 3, 1 } };
	struct mlf_sched_stats st;

	rcu_run(d, 1, NULL, &st);
	ASSERT_EQ(nr_order, 2);
	EXPECT_EQ(order[0], 1);		/* the reader left first */
	EXPECT_EQ(order[1], 2);
	EXPECT_EQ(st.grace_periods, 1);
}

TEST(a_grace_period_does_not_wait_for_later_readers)
{
	/* t1 first: its grace period starts with no reader inside */
	static const struct mlf_sched_decision d[] = { { 1, 1 } };
	struct mlf_sched_stats st;

	rcu_run(d, 1, NULL, &st);
	ASSERT_EQ(nr_order, 2);
	EXPECT_EQ(order[0], 2);
	EXPECT_EQ(order[1], 1);
}

TEST(a_callback_runs_after_its_grace_period)
{
	/* t0 inside, t1 queues the callback and ends, t0 leaves, rcu runs */
	static const struct mlf_sched_decision d[] = { { 3, 1 } };
	struct mlf_sched_stats st;

	rcu_run(d, 1, (void *)1L, &st);
	ASSERT_EQ(nr_order, 3);
	EXPECT_EQ(order[0], 2);
	EXPECT_EQ(order[1], 1);
	EXPECT_EQ(order[2], 9);
	EXPECT_EQ(st.callbacks, 1);
}

/* a reader that keeps its pointer across unlock / lock */
static void stale_reader(int task, void *arg)
{
	(void)arg;
	if (task == 0) {
		struct obj *o;

		rcu_read_lock();
		o = rcu_dereference(published);
		rcu_read_unlock();
		rcu_read_lock();
		(void)READ_ONCE(o->value);
		rcu_read_unlock();
		return;
	}
	reader_writer(1, (void *)1L);
}

TEST(a_pointer_kept_across_sections_is_rcu_stale)
{
	/*
	 * t0: START RCU_LOCK DEREF, then at its RCU_UNLOCK t1 runs (START,
	 * PUBLISH, CALL_RCU) and ends; t0 leaves its section (the grace
	 * period ends), and at its next RCU_LOCK rcu's task (slot 2) runs the
	 * callback: t0's new section then touches freed memory.
	 */
	static const struct mlf_sched_decision d[] = { { 4, 1 }, { 4, 2 } };

	published = kzalloc(sizeof(*published), GFP_KERNEL);
	testlib_catch_failures();
	run(2, stale_reader, NULL, d, 2, NULL);
	testlib_stop_catching();
	EXPECT_STREQ(testlib_caught.check, "rcu.stale");
}

/* t1 frees at once, with t0 inside since before */
static void no_grace(int task, void *arg)
{
	(void)arg;
	if (task == 0) {
		struct obj *o;

		rcu_read_lock();
		o = rcu_dereference(published);
		(void)READ_ONCE(shared);
		(void)READ_ONCE(o->value);
		rcu_read_unlock();
		return;
	}
	{
		struct obj *o = published;

		rcu_assign_pointer(published, NULL);
		kfree_poisoned(o, sizeof(*o));
	}
}

TEST(a_free_without_a_grace_period_is_rcu_no_grace)
{
	static const struct mlf_sched_decision d[] = { { 4, 1 } };

	published = kzalloc(sizeof(*published), GFP_KERNEL);
	testlib_catch_failures();
	run(2, no_grace, NULL, d, 1, NULL);
	testlib_stop_catching();
	EXPECT_STREQ(testlib_caught.check, "rcu.no_grace");
}

/*
 * One task, no reader at all: a node leaves an RCU list and the object
 * holding it is freed (@arg 0), after synchronize_rcu() (1), or after the
 * node joined a list again (2).
 */
struct listed {
	long value;
	struct hlist_nulls_node node;
};

static void unlink_and_free(int task, void *arg)
{
	long how = (long)arg;
	struct hlist_nulls_head head;
	struct listed *o = kzalloc(sizeof(*o), GFP_KERNEL);

	(void)task;
	INIT_HLIST_NULLS_HEAD(&head, 0);
	hlist_nulls_add_head_rcu(&o->node, &head);
	hlist_nulls_del_rcu(&o->node);
	if (how == 1)
		synchronize_rcu();
	if (how == 2)
		hlist_nulls_add_head_rcu(&o->node, &head);
	kfree_poisoned(o, sizeof(*o));
}

TEST(a_free_after_an_unlink_needs_a_grace_period_reader_or_not)
{
	testlib_catch_failures();
	run(1, unlink_and_free, (void *)0L, NULL, 0, NULL);
	testlib_stop_catching();
	EXPECT_STREQ(testlib_caught.check, "rcu.no_grace");

	testlib_catch_failures();
	run(1, unlink_and_free, (void *)1L, NULL, 0, NULL);
	run(1, unlink_and_free, (void *)2L, NULL, 0, NULL);
	testlib_stop_catching();
	EXPECT_EQ(testlib_caught.count, 0);
}

TEST(a_clean_run_frees_its_quarantine)
{
	static const struct mlf_sched_decision d[] = { { 3, 1 } };
	struct mlf_sched_stats st;

	testlib_catch_failures();
	rcu_run(d, 1, (void *)1L, &st);
	testlib_stop_catching();
	EXPECT_EQ(testlib_caught.count, 0);
}

/*
 * A task frees an object and writes into it with a plain store (no
 * scheduling point, so no rcu.* check at the store): the quarantine's
 * poison shows it when the run ends. Under ASan the store itself is
 * reported (use-after-poison: ctest sched/asan/quarantine); here that
 * build leaves it out.
 */
static void write_after_free(int task, void *arg)
{
	struct obj *o = kzalloc(sizeof(*o), GFP_KERNEL);

	(void)task;
	kfree_poisoned(o, sizeof(*o));
	if (arg)
		*(volatile char *)&o->value = 1;
}

TEST(a_write_after_free_is_rcu_poison_at_the_end_of_the_run)
{
#ifdef MLF_ASAN
	return;
#endif
	testlib_catch_failures();
	run(1, write_after_free, (void *)1L, NULL, 0, NULL);
	testlib_stop_catching();
	EXPECT_STREQ(testlib_caught.check, "rcu.poison");
	EXPECT(strstr(testlib_caught.msg, "Poison overwritten") != NULL);

	testlib_catch_failures();
	run(1, write_after_free, NULL, NULL, 0, NULL);
	testlib_stop_catching();
	EXPECT_EQ(testlib_caught.count, 0);
}

/* ---- RCU misuse, by lockdep-RCU's and might_sleep()'s names ---- */

enum misuse {
	SYNC_PLAIN,		/* synchronize_rcu(): fine */
	SYNC_UNDER_LOCK,	/* ... with a spinlock held */
	SYNC_IN_SOFTIRQ,	/* ... in softirq */
	SYNC_IN_READER,		/* ... inside a read-side critical section */
	BARRIER_PLAIN,		/* rcu_barrier(): fine */
	BARRIER_IN_READER,	/* ... inside a read-side critical section */
	DEREF_IN_READER,	/* rcu_dereference() inside: fine */
	DEREF_OUTSIDE,		/* ... outside any */
	DEREF_RAW_OUTSIDE,	/* rcu_dereference_raw(): no condition */
	DEREF_CHECK_LOCKED,	/* rcu_dereference_check(p, lockdep_is_held()) */
	DEREF_CHECK_UNLOCKED,	/* ... without the lock, outside a reader */
	PROTECTED_LOCKED,	/* rcu_dereference_protected(p, lockdep_is_held()) */
	PROTECTED_UNLOCKED,	/* ... without the lock */
};

static void misuse(int task, void *arg)
{
	enum misuse how = (enum misuse)(long)arg;
	unsigned long flags;
	struct obj *o = NULL;

	(void)task;
	switch (how) {
	case SYNC_PLAIN:
		synchronize_rcu();
		break;
	case SYNC_UNDER_LOCK:
		spin_lock_irqsave(&lock_a, flags);
		synchronize_rcu();
		spin_unlock_irqrestore(&lock_a, flags);
		break;
	case SYNC_IN_SOFTIRQ:
		mlf_softirq_enter();
		synchronize_rcu();
		mlf_softirq_exit();
		break;
	case SYNC_IN_READER:
		rcu_read_lock();
		synchronize_rcu();
		rcu_read_unlock();
		break;
	case BARRIER_PLAIN:
		rcu_barrier();
		break;
	case BARRIER_IN_READER:
		rcu_read_lock();
		rcu_barrier();
		rcu_read_unlock();
		break;
	case DEREF_IN_READER:
		rcu_read_lock();
		o = rcu_dereference(published);
		rcu_read_unlock();
		break;
	case DEREF_OUTSIDE:
		o = rcu_dereference(published);
		break;
	case DEREF_RAW_OUTSIDE:
		o = rcu_dereference_raw(published);
		break;
	case DEREF_CHECK_LOCKED:
	case DEREF_CHECK_UNLOCKED:
		if (how == DEREF_CHECK_LOCKED)
			spin_lock(&lock_a);
		o = rcu_dereference_check(published, lockdep_is_held(&lock_a));
		if (how == DEREF_CHECK_LOCKED)
			spin_unlock(&lock_a);
		break;
	case PROTECTED_LOCKED:
	case PROTECTED_UNLOCKED:
		if (how == PROTECTED_LOCKED)
			spin_lock(&lock_a);
		o = rcu_dereference_protected(published,
					      lockdep_is_held(&lock_a));
		if (how == PROTECTED_LOCKED)
			spin_unlock(&lock_a);
		break;
	}
	(void)o;
}

/* What one run of misuse(@how) reports: its check, or "" if none. */
static const char *misuse_check(enum misuse how)
{
	static char check[64];

	spin_lock_init(&lock_a);
	published = kzalloc(sizeof(*published), GFP_KERNEL);
	testlib_catch_failures();
	run(1, misuse, (void *)(long)how, NULL, 0, NULL);
	testlib_stop_catching();
	lockdep_reset();
	kfree(published);
	published = NULL;
	snprintf(check, sizeof(check), "%s",
		 testlib_caught.count ? testlib_caught.check : "");
	return check;
}

TEST(synchronize_rcu_where_it_may_not_sleep_is_sched_atomic)
{
	EXPECT_STREQ(misuse_check(SYNC_PLAIN), "");
	EXPECT_STREQ(misuse_check(SYNC_UNDER_LOCK), "sched.atomic");
	EXPECT(strstr(testlib_caught.msg, "synchronize_rcu()") != NULL);
	EXPECT_STREQ(misuse_check(SYNC_IN_SOFTIRQ), "sched.atomic");
	EXPECT(strstr(testlib_caught.msg, "in softirq") != NULL);
}

TEST(synchronize_rcu_inside_a_reader_is_rcu_deadlock)
{
	EXPECT_STREQ(misuse_check(SYNC_IN_READER), "rcu.deadlock");
	EXPECT(strstr(testlib_caught.msg, "Illegal synchronize_rcu()") != NULL);
}

TEST(rcu_barrier_inside_a_reader_is_sched_atomic)
{
	EXPECT_STREQ(misuse_check(BARRIER_PLAIN), "");
	EXPECT_STREQ(misuse_check(BARRIER_IN_READER), "sched.atomic");
	EXPECT(strstr(testlib_caught.msg, "rcu_barrier()") != NULL);
}

TEST(rcu_dereference_outside_its_conditions_is_lockdep_rcu_suspicious)
{
	EXPECT_STREQ(misuse_check(DEREF_IN_READER), "");
	EXPECT_STREQ(misuse_check(DEREF_OUTSIDE), "lockdep.rcu_suspicious");
	EXPECT(strstr(testlib_caught.msg, "rcu_dereference_check()") != NULL);
	EXPECT_STREQ(misuse_check(DEREF_RAW_OUTSIDE), "");
	/* the update side's forms: the lock is the condition */
	EXPECT_STREQ(misuse_check(DEREF_CHECK_LOCKED), "");
	EXPECT_STREQ(misuse_check(DEREF_CHECK_UNLOCKED),
		     "lockdep.rcu_suspicious");
	EXPECT_STREQ(misuse_check(PROTECTED_LOCKED), "");
	EXPECT_STREQ(misuse_check(PROTECTED_UNLOCKED), "lockdep.rcu_suspicious");
	EXPECT(strstr(testlib_caught.msg, "rcu_dereference_protected()") != NULL);
}

/* ---- PCT and exploration ---- */

TEST(pct_runs_the_highest_priority_first_and_is_repeatable)
{
	struct mlf_sched_config cfg = {
		.nr_tasks = 3,
		.fn = stepper,
		.arg = (void *)2L,
		.policy = MLF_SCHED_PCT,
		.seed = 42,
	};
	int first[LOG_MAX], n, i;

	nr_log = 0;
	mlf_sched_run(&cfg, NULL);
	n = nr_log;
	memcpy(first, log_task, sizeof(first));
	ASSERT_EQ(n, 6);
	/* no change point: each task runs to its end, in priority order */
	for (i = 0; i < 6; i += 2)
		EXPECT_EQ(log_task[i], log_task[i + 1]);
	nr_log = 0;
	mlf_sched_run(&cfg, NULL);
	EXPECT_EQ(nr_log, n);
	EXPECT(!memcmp(first, log_task, n * sizeof(int)));
}

/*
 * A bug of depth 2 (an atomicity violation): t1's first step comes between
 * t0's 5th and 6th, two orderings. In the log of two steppers of 10 points.
 */
static bool atomicity_violated(void)
{
	int i, seen0 = 0, first1 = -1, fifth0 = -1, sixth0 = -1;

	for (i = 0; i < nr_log; i++) {
		if (log_task[i] == 1 && first1 < 0)
			first1 = i;
		if (log_task[i] == 0 && ++seen0 == 5)
			fifth0 = i;
		if (log_task[i] == 0 && seen0 == 6 && sixth0 < 0)
			sixth0 = i;
	}
	return fifth0 < first1 && first1 < sixth0;
}

static int pct_random_hits(int depth, unsigned long steps, int runs)
{
	struct mlf_sched_config cfg = {
		.nr_tasks = 2,
		.fn = stepper,
		.arg = (void *)10L,
		.policy = MLF_SCHED_PCT_RANDOM,
		.pct_depth = depth,
		.pct_steps = steps,
	};
	struct mlf_sched_stats st;
	int hits = 0, seed;

	for (seed = 1; seed <= runs; seed++) {
		cfg.seed = (u64)seed;
		nr_log = 0;
		mlf_sched_run(&cfg, &st);
		EXPECT(st.steps <= steps);
		hits += atomicity_violated();
	}
	return hits;
}

TEST(pct_random_finds_a_bug_of_depth_2_as_often_as_published)
{
	/*
	 * n = 3 tasks (the two steppers and rcu's), k = 22 steps (each
	 * stepper's START and 10 READ_ONCE): PCT with d = 2 finds a bug of
	 * depth 2 with probability at least 1 / (n k) = 1/66 per run, so in
	 * 2000 runs (seeds 1..2000, the same every time) at least 30; with
	 * d = 1 (no change point) each task runs to its end: never.
	 */
	int hits = pct_random_hits(2, 22, 2000);

	printf("PCT, d = 2: %d of 2000 runs\n", hits);
	EXPECT(hits >= 2000 / 66);
	EXPECT_EQ(pct_random_hits(1, 22, 200), 0);
}

static unsigned long explore_count(int points, int bound)
{
	struct mlf_explore_run *r = calloc(1, sizeof(*r));
	struct mlf_explore_stats stats = { 0 };
	struct mlf_sched_config cfg = {
		.nr_tasks = 2,
		.fn = stepper,
		.arg = (void *)(long)points,
		.policy = MLF_SCHED_EXPLORE,
		.explore = r,
	};
	unsigned long runs = 0;

	mlf_explore_begin(r, bound);
	mlf_explore_use(NULL, &stats);
	do {
		nr_log = 0;
		mlf_sched_run(&cfg, NULL);
		runs++;
	} while (mlf_explore_next(r));
	mlf_explore_use(NULL, NULL);
	free(r);
	return runs;
}

TEST(exploration_enumerates_every_interleaving)
{
	/*
	 * Two tasks of 1 + 2 points each (START and two READ_ONCE): every
	 * interleaving of two sequences of three steps, C(6, 3) = 20, once.
	 * With no preemption: who starts first, 2. With at most one: that,
	 * then the first task preempted after one or two of its steps and
	 * the other run to its end, 2 + 2 * 2 = 6.
	 */
	EXPECT_EQ(explore_count(2, 6), 20);
	EXPECT_EQ(explore_count(2, 0), 2);
	EXPECT_EQ(explore_count(2, 1), 6);
}

/* t0 stores 1 then 2 to shared; t1, after it, reads shared once */
static long weak_read;

static void two_stores_then_a_read(int task, void *arg)
{
	(void)arg;
	if (task == 0) {
		WRITE_ONCE(shared, 1);
		WRITE_ONCE(shared, 2);
	} else {
		__atomic_store_n(&weak_read, READ_ONCE(shared), __ATOMIC_RELAXED);
	}
}

static long read_under(enum mlf_memory_model model,
		       const struct mlf_sched_weak *w, int nr_w)
{
	struct mlf_sched_config cfg = {
		.nr_tasks = 2,
		.fn = two_stores_then_a_read,
		.policy = MLF_SCHED_INPUT,
		.memory_model = model,
		.weak = w,
		.nr_weak = nr_w,
	};
	struct mlf_sched_stats st;

	shared = 0;
	mlf_sched_run(&cfg, &st);
	return __atomic_load_n(&weak_read, __ATOMIC_RELAXED);
}

TEST(an_inputs_weak_choice_reads_the_store_it_names)
{
	/* t1 has seen no store of shared: 2, 1 or 0 (from before the run) */
	static const struct mlf_sched_weak back1[] = { { 1, 1 } };
	static const struct mlf_sched_weak back2[] = { { 1, 2 } };
	/* the next record's back is no part of this one's (it once was) */
	static const struct mlf_sched_weak then8[] = { { 1, 1 }, { 1, 8 } };
	static const struct mlf_sched_weak far[] = { { 1, 8 } };

	EXPECT_EQ(read_under(MLF_MM_LKMM, NULL, 0), 2);
	EXPECT_EQ(read_under(MLF_MM_LKMM, back1, 1), 1);
	EXPECT_EQ(read_under(MLF_MM_LKMM, back2, 1), 0);
	EXPECT_EQ(read_under(MLF_MM_LKMM, then8, 2), 1);
	/* further back than there are stores: the oldest it may read */
	EXPECT_EQ(read_under(MLF_MM_LKMM, far, 1), 0);
	/* sequentially consistent: the newest, whatever the input says */
	EXPECT_EQ(read_under(MLF_MM_SC, back2, 1), 2);
}

int main(void)
{
	return testlib_run();
}
