/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the shim tells the sanitizers, in one place: whether this is a
 * ThreadSanitizer or AddressSanitizer build, the attribute that keeps a
 * function out of TSan's instrumentation, TSan's synchronization and fiber
 * annotations, and ASan's fiber-switch and poisoning calls. Each is a
 * no-op in a build without that sanitizer.
 */
#ifndef _MLF_KERNEL_SANITIZER_H
#define _MLF_KERNEL_SANITIZER_H

#include <stddef.h>
#include <stdlib.h>

#if defined(__SANITIZE_THREAD__)
#define MLF_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MLF_TSAN 1
#endif
#endif

#if defined(__SANITIZE_ADDRESS__)
#define MLF_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MLF_ASAN 1
#endif
#endif

#ifdef MLF_TSAN
#include <sanitizer/tsan_interface.h>
/* the scheduler's own bookkeeping: not the code under test */
#define MLF_NO_TSAN __attribute__((no_sanitize("thread")))
#define mlf_tsan_acquire(addr) __tsan_acquire((void *)(addr))
#define mlf_tsan_release(addr) __tsan_release((void *)(addr))
#define mlf_tsan_current_fiber() __tsan_get_current_fiber()
#define mlf_tsan_create_fiber() __tsan_create_fiber(0)
#define mlf_tsan_destroy_fiber(f) __tsan_destroy_fiber(f)
/* no happens-before: the schedule must not hide races */
#define mlf_tsan_switch_to_fiber(f) \
	__tsan_switch_to_fiber((f), __tsan_switch_to_fiber_no_sync)
/*
 * A harness check that reads the port's structures in the middle of a
 * run, from whichever task reached the point: its reads are the
 * harness's, not the code under test's, and must not be reported.
 * An ignored stretch never spans a fiber switch, so one depth per OS
 * thread is the running fiber's; a failure reported inside one ends it
 * (mlf_tsan_ignore_reset(), from mlf_fail()), or TSan would report the
 * fiber finishing with its accesses ignored; a handler that returns (a
 * test's) gets them back (mlf_tsan_ignore_restore()).
 */
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);
extern __thread int mlf_tsan_ignore_depth;
static inline void mlf_tsan_ignore_begin(void)
{
	__tsan_ignore_thread_begin();
	mlf_tsan_ignore_depth++;
}
static inline void mlf_tsan_ignore_end(void)
{
	mlf_tsan_ignore_depth--;
	__tsan_ignore_thread_end();
}
/* End every ignore; returns how many, for mlf_tsan_ignore_restore(). */
static inline int mlf_tsan_ignore_reset(void)
{
	int depth = mlf_tsan_ignore_depth;

	while (mlf_tsan_ignore_depth > 0)
		mlf_tsan_ignore_end();
	return depth;
}
static inline void mlf_tsan_ignore_restore(int depth)
{
	while (mlf_tsan_ignore_depth < depth)
		mlf_tsan_ignore_begin();
}
#else
#define MLF_NO_TSAN
#define mlf_tsan_acquire(addr) ((void)(addr))
#define mlf_tsan_release(addr) ((void)(addr))
#define mlf_tsan_current_fiber() NULL
#define mlf_tsan_create_fiber() NULL
#define mlf_tsan_destroy_fiber(f) ((void)(f))
#define mlf_tsan_switch_to_fiber(f) ((void)(f))
#define mlf_tsan_ignore_begin() ((void)0)
#define mlf_tsan_ignore_end() ((void)0)
#define mlf_tsan_ignore_reset() 0
#define mlf_tsan_ignore_restore(depth) ((void)(depth))
#endif

/*
 * realloc() of the harness's own tables, which every task's fiber grows:
 * the interceptor's copy and free of what another fiber wrote are not the
 * code under test's accesses (no happens-before orders fibers for TSan).
 * Aborts when out of memory.
 */
static inline void *mlf_realloc_unseen(void *p, size_t size)
{
	mlf_tsan_ignore_begin();
	p = realloc(p, size);
	mlf_tsan_ignore_end();
	if (!p)
		abort();
	return p;
}

#ifdef MLF_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define mlf_asan_start_switch(save, bottom, size) \
	__sanitizer_start_switch_fiber((save), (bottom), (size))
#define mlf_asan_finish_switch(save) \
	__sanitizer_finish_switch_fiber((save), NULL, NULL)
#define mlf_asan_unpoison(addr, size) \
	__asan_unpoison_memory_region((addr), (size))
/* the quarantine of a scheduled run: any access is ASan's use-after-poison */
#define mlf_asan_poison(addr, size) \
	__asan_poison_memory_region((addr), (size))
#else
#define mlf_asan_start_switch(save, bottom, size) \
	((void)(save), (void)(bottom), (void)(size))
#define mlf_asan_finish_switch(save) ((void)(save))
#define mlf_asan_unpoison(addr, size) ((void)(addr), (void)(size))
#define mlf_asan_poison(addr, size) ((void)(addr), (void)(size))
#endif

#endif
