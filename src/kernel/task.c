// SPDX-License-Identifier: GPL-2.0
/* The current task (task.h): each OS thread's own, and new ids. */
#include "task.h"

#include <string.h>

#include "report.h"
#include "sanitizer.h"

__thread struct mlf_task *mlf_current_task;
static __thread struct mlf_task thread_task;
static unsigned long next_task_id = 1;

/*
 * Out of ThreadSanitizer's sight: the scheduler sets up its tasks' state
 * and points mlf_current_task at it from one fiber for another; what the
 * tasks then do with it is theirs.
 */
MLF_NO_TSAN void mlf_task_init(struct mlf_task *t)
{
	memset(t, 0, sizeof(*t));
	t->id = __atomic_fetch_add(&next_task_id, 1, __ATOMIC_RELAXED);
	t->op = MLF_NONE;
}

MLF_NO_TSAN struct mlf_task *mlf_thread_task(void)
{
	if (!thread_task.id)
		mlf_task_init(&thread_task);
	mlf_current_task = &thread_task;
	return &thread_task;
}
