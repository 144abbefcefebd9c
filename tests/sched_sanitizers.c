// SPDX-License-Identifier: GPL-2.0
/*
 * The deterministic scheduler under the sanitizers: the schedule runs its
 * tasks one after the other on one OS thread, yet ThreadSanitizer must
 * still see two unsynchronized accesses of different tasks as a race (the
 * switch is no synchronization), and must not where the code under test
 * orders them (a lock, a grace period); AddressSanitizer must still report
 * a use after free in a task. Run as: sched_sanitizers MODE, where MODE is
 *
 *   race     t0 writes a plain int, t1 reads it: a TSan report
 *   locked   the same under a model lock: none
 *   rcu      t0 unpublishes, waits for a grace period and writes the
 *            object; t1 read it in a section before: none
 *   relaxed  READ_ONCE / WRITE_ONCE on both sides: none
 *   call-rcu t1 reads a plain int inside a section and leaves it; t0 then
 *            call_rcu()s and writes the int: a TSan report (the kernel
 *            orders the reader before the callback, not before what the
 *            caller of call_rcu() does next)
 *   call-rcu-cb  the same, but the callback writes the int: none
 *   dep      t0 takes a lock, writes a plain int, then stores a pointer
 *            with WRITE_ONCE_DEP(); t1 loads it (rcu_dereference()) and
 *            reads the int: a TSan report (a dependent load is ordered
 *            after what came before the writer's lock, not after the
 *            writer's own section)
 *   dep-lock t0 writes the int in a critical section of its own; t1 takes
 *            the lock after it and stores the pointer; t2 loads it and
 *            reads the int: none
 *   uaf      t1 reads what t0 freed (plainly, outside the quarantine):
 *            an ASan report
 *   quarantine  t1 reads plainly what t0 freed with kfree_poisoned(),
 *            which a scheduled run keeps in the RCU model's quarantine:
 *            an ASan report too (use-after-poison), where no scheduling
 *            point would have seen it
 *
 * It prints "clean" when the run ends without a report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"

static int plain;
static spinlock_t lock;
static struct {
	int value;
} *obj, *published;
static const char *mode;
static struct rcu_head head;
static void *pointer;

static void write_plain(struct rcu_head *h)
{
	(void)h;
	plain = 2;
}

static void nothing(struct rcu_head *h)
{
	(void)h;
}

static void task(int t, void *arg)
{
	(void)arg;
	if (!strcmp(mode, "race") || !strcmp(mode, "locked")) {
		bool locked = !strcmp(mode, "locked");

		if (locked)
			spin_lock(&lock);
		if (t == 0)
			plain = 1;
		else
			printf("read %d\n", plain);
		if (locked)
			spin_unlock(&lock);
	} else if (!strcmp(mode, "relaxed")) {
		if (t == 0)
			WRITE_ONCE(plain, 1);
		else
			printf("read %d\n", READ_ONCE(plain));
	} else if (!strcmp(mode, "rcu")) {
		if (t == 1) {
			rcu_read_lock();
			printf("read %d\n", rcu_dereference(published)->value);
			rcu_read_unlock();
		} else {
			rcu_assign_pointer(published, NULL);
			synchronize_rcu();
			obj->value = 2;		/* as a free would */
		}
	} else if (!strcmp(mode, "call-rcu") || !strcmp(mode, "call-rcu-cb")) {
		bool in_callback = !strcmp(mode, "call-rcu-cb");

		if (t == 1) {
			rcu_read_lock();
			printf("read %d\n", plain);
			rcu_read_unlock();
		} else {
			call_rcu(&head, in_callback ? write_plain : nothing);
			if (!in_callback)
				plain = 2;
		}
	} else if (!strcmp(mode, "dep") || !strcmp(mode, "dep-lock")) {
		bool own_section = !strcmp(mode, "dep-lock");
		int reader = own_section ? 2 : 1;

		if (t == reader) {
			rcu_read_lock();
			if (rcu_dereference(pointer))
				printf("read %d\n", plain);
			rcu_read_unlock();
		} else if (t == 0) {
			spin_lock(&lock);
			plain = 1;
			if (!own_section)
				WRITE_ONCE_DEP(pointer, (void *)&plain);
			spin_unlock(&lock);
		} else {
			spin_lock(&lock);
			WRITE_ONCE_DEP(pointer, (void *)&plain);
			spin_unlock(&lock);
		}
	} else if (!strcmp(mode, "uaf")) {
		if (t == 0)
			free(obj);
		else
			printf("read %d\n", obj->value);
	} else if (!strcmp(mode, "quarantine")) {
		if (t == 0)
			kfree_poisoned(obj, sizeof(*obj));
		else
			printf("read %d\n", obj->value);
	}
}

int main(int argc, char **argv)
{
	/* rcu: t1 enters its section first, then t0 runs */
	static const struct mlf_sched_decision t1_first[] = { { 1, 1 } };
	struct mlf_sched_config cfg = {
		.nr_tasks = 2,
		.fn = task,
		.policy = MLF_SCHED_INPUT,
	};

	if (argc != 2) {
		fprintf(stderr, "usage: sched_sanitizers race|locked|rcu|relaxed|call-rcu|call-rcu-cb|dep|dep-lock|uaf|quarantine\n");
		return 2;
	}
	mode = argv[1];
	spin_lock_init(&lock);
	obj = calloc(1, sizeof(*obj));
	obj->value = 1;
	published = obj;
	if (!strcmp(mode, "rcu") || !strncmp(mode, "call-rcu", 8)) {
		cfg.decisions = t1_first;
		cfg.nr_decisions = 1;
	}
	if (!strcmp(mode, "dep-lock"))
		cfg.nr_tasks = 3;	/* in order: t0, t1, t2 */
	mlf_sched_run(&cfg, NULL);
	printf("clean\n");
	return 0;
}
