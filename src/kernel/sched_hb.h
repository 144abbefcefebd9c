/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Happens-before of an explored run (explore.h): which steps of its tasks
 * depend on which, and the key of its Mazurkiewicz trace, for the sound
 * reduction of tools/mlf explore.
 *
 * A task's run is cut into steps: from the moment the scheduler lets it go
 * on (at a scheduling point, or woken from a block) to the next point, block
 * or end. A step's footprint is the access its point stands for (a marked
 * read or write of one location, a lock operation), and what else it is
 * marked with while it runs:
 *
 *   MLF_HB_PORT_WRITE  it may write the code under test's state beyond its
 *                      marked access: a step of a task that holds a lock
 *                      (plain writes are made under locks), or one whose
 *                      write the harness records
 *   MLF_HB_LOOK        the harness looks on: it reads the code under
 *                      test's state and its own records of it, and writes
 *                      only records that other looks read
 *   MLF_HB_RCU_READ    it reads the RCU model (a section's entry or exit,
 *                      an unlink from an RCU list)
 *   MLF_HB_RCU_WRITE   it changes what grace periods wait for or when
 *                      they end
 *   MLF_HB_ALL         anything else (the harness's own bookkeeping, the
 *                      allocator, the RCU callbacks): it depends on every
 *                      step
 *
 * Two steps of different tasks depend on each other when their footprints
 * conflict: the same location and one of them writes; a look and any
 * write (marked or PORT_WRITE) or look; RCU_WRITE and any RCU step; ALL
 * and anything. Each step gets the vector clock of the steps it depends
 * on, transitively, and of its own task's earlier steps; runs whose steps
 * so far have the same clocks are the same trace, ordered differently only
 * where the order cannot matter.
 *
 * Why the footprint is enough, and what it assumes (docs/explore.md, "Why
 * the reduction is sound"): every marked access, lock and RCU operation of
 * the code under test is a point of its own; its plain accesses are ordered
 * by those, as ThreadSanitizer checks on the same schedules (a data race is
 * a failure of its own); whatever the harness and the shim's models do
 * from a task is marked as above; and the times they compare come from
 * mlf_hb_clock(), which orders every two steps that depend on each other
 * the same way in every run of the trace.
 */
#ifndef _MLF_KERNEL_SCHED_HB_H
#define _MLF_KERNEL_SCHED_HB_H

#include "schedule.h"

/* The tasks a clock counts: the harness's and rcu's. */
#define MLF_HB_TASKS (MLF_SCHED_MAX_TASKS + 1)

enum mlf_hb_access {
	MLF_HB_NONE,		/* no shared access (a barrier under SC) */
	MLF_HB_READ,
	MLF_HB_WRITE,		/* a write, an atomic, a lock operation */
};

enum mlf_hb_mark {
	MLF_HB_PORT_WRITE = 1 << 0,
	MLF_HB_LOOK = 1 << 1,
	MLF_HB_RCU_READ = 1 << 2,
	MLF_HB_RCU_WRITE = 1 << 3,
	MLF_HB_ALL = 1 << 4,
	MLF_HB_FENCE = 1 << 5,	/* an smp_mb() of the weak memory model */
};

/* A new run of @nr_tasks tasks (slots 0..nr_tasks - 1, and rcu's). */
void mlf_hb_begin(int nr_tasks);

/* Task @slot's next step starts, standing for @access of @addr, @marks. */
void mlf_hb_step_begin(int slot, enum mlf_hb_access access,
		       const volatile void *addr, unsigned int marks);
/* ... it is also marked with @marks (enum mlf_hb_mark). */
void mlf_hb_step_mark(int slot, unsigned int marks);
/* ... it made choice @v of the memory model (what it read, where it stored). */
void mlf_hb_step_note(int slot, u64 v);
/* ... it ended (at a point, a block or the task's end). */
void mlf_hb_step_end(int slot);

/*
 * The logical time of task @slot's current step: the number of steps
 * that happen before it or are it. The same in every run of the same
 * trace; of two steps that depend on each other, the later is larger.
 */
unsigned long mlf_hb_clock(int slot);

/* The trace so far, as a key: equal for the same trace. */
void mlf_hb_key(u64 key[2]);
/*
 * The memory model's choices task @slot's open step made so far (its
 * note): a second weak choice in one step is another state than the first.
 */
u64 mlf_hb_open_note(int slot);

#endif
