// SPDX-License-Identifier: GPL-2.0
/*
 * Fibers (fiber.h). The switch and everything that touches a fiber is left
 * out of ThreadSanitizer's instrumentation: fibers are set up by one fiber
 * and read by another with no happens-before between them, on purpose.
 */
#define _GNU_SOURCE
#include "fiber.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sanitizer.h"

#ifndef MLF_FIBER_UCONTEXT
/*
 * void mlf_fiber_asm_switch(void **save_sp, void *new_sp): push the
 * callee-saved registers, MXCSR and the x87 control word, save the stack
 * pointer, load the other fiber's, pop its. A new fiber's first "return"
 * lands in mlf_fiber_asm_start with the fiber in r12, its entry in r13.
 */
__asm__(".text\n"
	".globl mlf_fiber_asm_switch\n"
	".type mlf_fiber_asm_switch,@function\n"
	"mlf_fiber_asm_switch:\n"
	"	.cfi_startproc\n"
	"	pushq %rbp\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	pushq %r13\n"
	"	pushq %r14\n"
	"	pushq %r15\n"
	"	subq $8, %rsp\n"
	"	stmxcsr (%rsp)\n"
	"	fnstcw 4(%rsp)\n"
	"	movq %rsp, (%rdi)\n"
	"	movq %rsi, %rsp\n"
	"	ldmxcsr (%rsp)\n"
	"	fldcw 4(%rsp)\n"
	"	addq $8, %rsp\n"
	"	popq %r15\n"
	"	popq %r14\n"
	"	popq %r13\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size mlf_fiber_asm_switch,.-mlf_fiber_asm_switch\n"
	".globl mlf_fiber_asm_start\n"
	".type mlf_fiber_asm_start,@function\n"
	"mlf_fiber_asm_start:\n"
	"	.cfi_startproc\n"
	"	.cfi_undefined rip\n"
	"	xorl %ebp, %ebp\n"
	"	movq %r12, %rdi\n"
	"	callq *%r13\n"
	"	ud2\n"
	"	.cfi_endproc\n"
	".size mlf_fiber_asm_start,.-mlf_fiber_asm_start\n");

void mlf_fiber_asm_switch(void **save_sp, void *new_sp);
void mlf_fiber_asm_start(void);
#endif

MLF_NO_TSAN void mlf_fiber_init_main(struct mlf_fiber *f)
{
	/* the thread's stack: pthread_getattr_np() reads /proc, so once */
	static __thread const void *bottom;
	static __thread size_t size;
	pthread_attr_t attr;

	if (!bottom && !pthread_getattr_np(pthread_self(), &attr)) {
		void *addr = NULL;

		pthread_attr_getstack(&attr, &addr, &size);
		pthread_attr_destroy(&attr);
		bottom = addr;
	}
	memset(f, 0, sizeof(*f));
	f->stack_bottom = bottom;
	f->stack_size = size;
	f->tsan_fiber = mlf_tsan_current_fiber();
}

/* Every fiber starts here, on its own stack. */
MLF_NO_TSAN static void fiber_entry(struct mlf_fiber *f)
{
	mlf_asan_finish_switch(NULL);
	f->fn(f->arg);
	fputs("mlf: a fiber's function returned\n", stderr);
	abort();
}

#ifdef MLF_FIBER_UCONTEXT
static void fiber_uc_entry(unsigned int hi, unsigned int lo)
{
	fiber_entry((struct mlf_fiber *)(((uintptr_t)hi << 32) | lo));
}
#endif

MLF_NO_TSAN void mlf_fiber_reset(struct mlf_fiber *f, void (*fn)(void *arg),
				 void *arg)
{
	f->fn = fn;
	f->arg = arg;
	f->asan_fake_stack = NULL;
	/* a fiber abandoned mid-frame left its redzones poisoned */
	mlf_asan_unpoison(f->stack_bottom, f->stack_size);
#ifdef MLF_FIBER_UCONTEXT
	{
		uintptr_t p = (uintptr_t)f;

		getcontext(&f->uc);
		f->uc.uc_stack.ss_sp = (void *)f->stack_bottom;
		f->uc.uc_stack.ss_size = f->stack_size;
		f->uc.uc_link = NULL;
		makecontext(&f->uc, (void (*)(void))fiber_uc_entry, 2,
			    (unsigned int)(p >> 32), (unsigned int)p);
	}
#else
	{
		uintptr_t top = ((uintptr_t)f->stack_bottom + f->stack_size) &
				~(uintptr_t)15;
		uint64_t *sp = (uint64_t *)(top - 80);

		/* low to high: MXCSR | x87 CW, r15 r14 r13 r12 rbx rbp, ret */
		sp[0] = 0x1f80u | ((uint64_t)0x037fu << 32);
		sp[1] = 0;
		sp[2] = 0;
		sp[3] = (uint64_t)(uintptr_t)fiber_entry;
		sp[4] = (uint64_t)(uintptr_t)f;
		sp[5] = 0;
		sp[6] = 0;
		sp[7] = (uint64_t)(uintptr_t)mlf_fiber_asm_start;
		f->sp = sp;
	}
#endif
	/*
	 * A fiber left mid-frame (a failure a test caught) may have been
	 * inside a harness hook, ignoring its accesses: a fresh TSan fiber
	 * starts with nothing ignored and no stale history.
	 */
	if (f->tsan_fiber)
		mlf_tsan_destroy_fiber(f->tsan_fiber);
	f->tsan_fiber = mlf_tsan_create_fiber();
}

MLF_NO_TSAN int mlf_fiber_create(struct mlf_fiber *f, size_t stack_size,
				 void (*fn)(void *arg), void *arg)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	memset(f, 0, sizeof(*f));
	stack_size = (stack_size + page - 1) & ~(page - 1);
	f->map_size = stack_size + page;
	f->map = mmap(NULL, f->map_size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
		      -1, 0);
	if (f->map == MAP_FAILED) {
		f->map = NULL;
		return -1;
	}
	/* the guard page: an overflow faults instead of corrupting */
	if (mprotect(f->map, page, PROT_NONE)) {
		munmap(f->map, f->map_size);
		f->map = NULL;
		return -1;
	}
	f->stack_bottom = (char *)f->map + page;
	f->stack_size = stack_size;
	mlf_fiber_reset(f, fn, arg);
	return 0;
}

MLF_NO_TSAN void mlf_fiber_destroy(struct mlf_fiber *f)
{
	if (f->tsan_fiber)
		mlf_tsan_destroy_fiber(f->tsan_fiber);
	f->tsan_fiber = NULL;
	if (f->map) {
		mlf_asan_unpoison(f->stack_bottom, f->stack_size);
		munmap(f->map, f->map_size);
	}
	f->map = NULL;
}

MLF_NO_TSAN static inline void raw_switch(struct mlf_fiber *from,
					  struct mlf_fiber *to)
{
#ifdef MLF_FIBER_UCONTEXT
	swapcontext(&from->uc, &to->uc);
#else
	mlf_fiber_asm_switch(&from->sp, to->sp);
#endif
}

MLF_NO_TSAN void mlf_fiber_switch(struct mlf_fiber *from, struct mlf_fiber *to)
{
	mlf_asan_start_switch(&from->asan_fake_stack, to->stack_bottom,
			      to->stack_size);
	mlf_tsan_switch_to_fiber(to->tsan_fiber);
	raw_switch(from, to);
	mlf_asan_finish_switch(from->asan_fake_stack);
}

MLF_NO_TSAN void mlf_fiber_exit_to(struct mlf_fiber *from,
				   struct mlf_fiber *to)
{
	/* NULL: this fiber's frames are dead, ASan may drop its fake stack */
	mlf_asan_start_switch(NULL, to->stack_bottom, to->stack_size);
	mlf_tsan_switch_to_fiber(to->tsan_fiber);
	raw_switch(from, to);
	abort();
}
