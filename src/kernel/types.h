/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel integer and helper types for the userspace port. */
#ifndef _MLF_KERNEL_TYPES_H
#define _MLF_KERNEL_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int32_t s32;
typedef int64_t s64;
/* allocation flags: the shim allocates one way, they are carried only */
typedef unsigned int gfp_t;

typedef struct {
	long counter;
} atomic_long_t;

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define clamp(val, lo, hi) min(max(val, lo), hi)

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define __rcu
#define __force
#define __maybe_unused __attribute__((unused))

#endif
