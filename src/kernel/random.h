/* SPDX-License-Identifier: GPL-2.0 */
/*
 * get_random_u32_below() from a per-thread entropy source. A fuzz op hands
 * the shim the draws it carries (bytes; running out reads as zero), so the
 * fuzzer steers every random choice and a reproducer replays it exactly;
 * stress runs and benchmarks seed a PRNG instead.
 */
#ifndef _MLF_KERNEL_RANDOM_H
#define _MLF_KERNEL_RANDOM_H

#include "types.h"

#ifdef MLF_SHIM_BENCH
#include "bench_fast.h"	/* a per-thread generator, inlined */
#else
u32 get_random_u32_below(u32 ceil);
u32 get_random_u32(void);
#endif

/* Draw from these bytes (not copied; keep them alive while drawing). */
void mlf_entropy_bytes(const u8 *bytes, size_t len);
/* Draw from a xorshift PRNG with this seed. */
void mlf_entropy_seed(u64 seed);
/* Draw @bytes first (one a small draw), then from the PRNG with @seed. */
void mlf_entropy_seed_after(const u8 *bytes, size_t len, u64 seed);
/* Number of draws made since the source was set. */
unsigned long mlf_entropy_draws(void);

/* The draw rule, shared with anything that must replay draws. */
static inline u32 mlf_draw_from_byte(u8 byte, u32 ceil)
{
	return ceil ? byte % ceil : 0;
}

#endif
