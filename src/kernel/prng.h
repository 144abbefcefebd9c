/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one pseudo-random generator of mlf: Marsaglia's xorshift64 (shifts
 * 13, 7, 17), for everything that draws without an input to draw from (the
 * entropy source past its bytes, the bench shims, the mutators, seeded
 * tests). Standalone, so that the shim-free benchmark floor and the
 * fuzzers' mutators can include it: it needs nothing but <stdint.h>.
 *
 * Not for anything that must be unpredictable: a fuzz input or a seed
 * fixes every draw, which is what makes a run replay.
 */
#ifndef _MLF_KERNEL_PRNG_H
#define _MLF_KERNEL_PRNG_H

#include <stdbool.h>
#include <stdint.h>

/* a state of 0 would stay 0: seeds are mixed with this */
#define MLF_RNG_GOLDEN 0x9e3779b97f4a7c15ULL

struct mlf_rng {
	uint64_t s;
};

static inline struct mlf_rng mlf_rng_seeded(uint64_t seed)
{
	return (struct mlf_rng){ .s = seed ? seed : MLF_RNG_GOLDEN };
}

static inline uint64_t mlf_rng_next64(struct mlf_rng *g)
{
	uint64_t x = g->s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	g->s = x;
	return x;
}

/* the high half: xorshift64's low bits are its weakest */
static inline uint32_t mlf_rng_next(struct mlf_rng *g)
{
	return (uint32_t)(mlf_rng_next64(g) >> 32);
}

/* uniform in 0 .. @n - 1 (0 when @n is 0), by multiply-shift, no modulo */
static inline uint32_t mlf_rng_below(struct mlf_rng *g, uint32_t n)
{
	return (uint32_t)(((uint64_t)mlf_rng_next(g) * n) >> 32);
}

/* true with probability 1 / @n */
static inline bool mlf_rng_one_in(struct mlf_rng *g, uint32_t n)
{
	return !mlf_rng_below(g, n);
}

#endif
