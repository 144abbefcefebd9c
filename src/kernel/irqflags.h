/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Simulated interrupt state, per task (task.h): whether "interrupts" are disabled,
 * and whether the thread is running in (simulated) softirq context. Nothing
 * interrupts a userspace thread; the harness enters softirq explicitly (as
 * memcg v1's soft limit path runs from softirq), and lockdep.c judges each
 * lock acquisition by it. No code under test runs in hard interrupt
 * context, so in_hardirq() is always false.
 */
#ifndef _MLF_KERNEL_IRQFLAGS_H
#define _MLF_KERNEL_IRQFLAGS_H

#include "task.h"

#define mlf_irqs_disabled (mlf_current()->irqs_disabled)
#define mlf_softirq_depth (mlf_current()->softirq_depth)

static inline void local_irq_disable(void)
{
	mlf_irqs_disabled = 1;
}

static inline void local_irq_enable(void)
{
	mlf_irqs_disabled = 0;
}

#define local_irq_save(flags)                     \
	do {                                      \
		(flags) = mlf_irqs_disabled;      \
		mlf_irqs_disabled = 1;            \
	} while (0)

#define local_irq_restore(flags)                  \
	do {                                      \
		mlf_irqs_disabled = (int)(flags); \
	} while (0)

static inline bool irqs_disabled(void)
{
	return mlf_irqs_disabled;
}

static inline bool in_softirq(void)
{
	return mlf_softirq_depth > 0;
}

static inline bool in_hardirq(void)
{
	return false;
}

/* Run the rest of the caller's work as if from a softirq, then return. */
static inline void mlf_softirq_enter(void)
{
	mlf_softirq_depth++;
}

static inline void mlf_softirq_exit(void)
{
	mlf_softirq_depth--;
}

#endif
