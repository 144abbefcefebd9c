// SPDX-License-Identifier: GPL-2.0
/* Allocation for the port, with poisoning on free. */
#include "slab.h"

#include <stdlib.h>
#include <string.h>

#include "poison.h"
#include "rcu_model.h"
#include "report.h"
#include "schedule.h"
#include "wmm.h"

/*
 * In a scheduled run an allocation or a free changes the allocator's and
 * the quarantine's state, which later steps read: for the exploration's
 * reduction, the step observes (schedule.h).
 */
static inline void note_step(void)
{
	if (unlikely(mlf_sched_running()))
		mlf_sched_observe();
}

void *kzalloc(size_t size, int gfp)
{
	void *p;

	(void)gfp;
	note_step();
	p = calloc(1, size);
	if (!p)
		mlf_fail_simple("oom", "kzalloc(%zu) failed", size);
	/* the memory model's histories of what was here before are over */
	mlf_wmm_forget(p, size);
	return p;
}

void kfree(const void *ptr)
{
	note_step();
	free((void *)ptr);
}

void kfree_poisoned(void *ptr, size_t size)
{
	if (!ptr)
		return;
	/* a scheduled run keeps it, poisoned, until the run ends */
	if (unlikely(mlf_sched_running())) {
		mlf_sched_observe();
		mlf_rcu_model_free(ptr, size);
		return;
	}
	memset(ptr, MLF_FREE_POISON, size);
	free(ptr);
}
