// SPDX-License-Identifier: GPL-2.0
/* The per-thread entropy source behind get_random_u32_below(). */
#include "random.h"

static __thread const u8 *entropy;
static __thread size_t entropy_len, entropy_pos;
static __thread u64 prng_state;
static __thread bool use_prng;
static __thread unsigned long draws;

void mlf_entropy_bytes(const u8 *bytes, size_t len)
{
	entropy = bytes;
	entropy_len = len;
	entropy_pos = 0;
	use_prng = false;
	draws = 0;
}

void mlf_entropy_seed(u64 seed)
{
	prng_state = seed ? seed : 0x9e3779b97f4a7c15ULL;
	use_prng = true;
	draws = 0;
}

unsigned long mlf_entropy_draws(void)
{
	return draws;
}

static u64 xorshift64(void)
{
	u64 x = prng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	prng_state = x;
	return x;
}

static u8 next_byte(void)
{
	if (entropy_pos < entropy_len)
		return entropy[entropy_pos++];
	return 0;
}

u32 get_random_u32(void)
{
	draws++;
	if (use_prng)
		return (u32)(xorshift64() >> 32);
	return next_byte() | next_byte() << 8 | next_byte() << 16 |
	       (u32)next_byte() << 24;
}

/*
 * One byte per draw for small ranges (every caller in the port draws a bin,
 * below 8), so that each draw in an input is one byte a person can read.
 */
u32 get_random_u32_below(u32 ceil)
{
	if (!ceil)
		return 0;
	if (use_prng) {
		draws++;
		return (u32)(((xorshift64() >> 32) * (u64)ceil) >> 32);
	}
	if (ceil <= 256) {
		draws++;
		return mlf_draw_from_byte(next_byte(), ceil);
	}
	return get_random_u32() % ceil;
}
