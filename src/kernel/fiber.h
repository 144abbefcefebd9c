/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fibers for the deterministic scheduler (schedule.h): stacks of their own
 * on one OS thread, switched by hand. The switch tells the sanitizers:
 * ThreadSanitizer sees each fiber as a thread and the switch as no
 * synchronization at all (__tsan_switch_to_fiber_no_sync), so a race
 * between two fibers is still reported when the schedule runs them one
 * after the other; AddressSanitizer is told of every stack change
 * (__sanitizer_start/finish_switch_fiber). x86-64 switches in a few
 * instructions (fiber.c); elsewhere ucontext does it.
 */
#ifndef _MLF_KERNEL_FIBER_H
#define _MLF_KERNEL_FIBER_H

#include <stddef.h>

#if !defined(__x86_64__)
#define MLF_FIBER_UCONTEXT 1
#include <ucontext.h>
#endif

struct mlf_fiber {
#ifdef MLF_FIBER_UCONTEXT
	ucontext_t uc;
#else
	void *sp;		/* saved stack pointer while switched out */
#endif
	void *map;		/* the mapping: a guard page, then the stack */
	size_t map_size;
	const void *stack_bottom;
	size_t stack_size;
	void (*fn)(void *arg);
	void *arg;
	void *tsan_fiber;	/* ThreadSanitizer's context, if built with it */
	void *asan_fake_stack;	/* AddressSanitizer's, while switched out */
};

/* The running OS thread's own context, as a fiber to switch back to. */
void mlf_fiber_init_main(struct mlf_fiber *f);
/*
 * A fiber with a stack of @stack_size (and a guard page) that will run
 * @fn(@arg); @fn must never return but leave with mlf_fiber_exit_to().
 * Returns 0, or -1 if the stack could not be mapped.
 */
int mlf_fiber_create(struct mlf_fiber *f, size_t stack_size,
		     void (*fn)(void *arg), void *arg);
/* Re-arm a created fiber (its stack reused) to run @fn(@arg) afresh. */
void mlf_fiber_reset(struct mlf_fiber *f, void (*fn)(void *arg), void *arg);
void mlf_fiber_destroy(struct mlf_fiber *f);
/* Switch from the running fiber @from to @to. */
void mlf_fiber_switch(struct mlf_fiber *from, struct mlf_fiber *to);
/* The last switch out of a fiber whose work is done. */
__attribute__((noreturn)) void mlf_fiber_exit_to(struct mlf_fiber *from,
						 struct mlf_fiber *to);

#endif
