// SPDX-License-Identifier: GPL-2.0
/* The per-task entropy source behind get_random_u32_below() (task.h). */
#include "random.h"

#include "prng.h"
#include "task.h"

void mlf_entropy_bytes(const u8 *bytes, size_t len)
{
	struct mlf_entropy *e = &mlf_current()->entropy;

	e->bytes = bytes;
	e->len = len;
	e->pos = 0;
	e->use_prng = false;
	e->draws = 0;
}

void mlf_entropy_seed(u64 seed)
{
	struct mlf_entropy *e = &mlf_current()->entropy;

	e->prng = mlf_rng_seeded(seed);
	e->use_prng = true;
	e->len = e->pos = 0;
	e->draws = 0;
}

void mlf_entropy_seed_after(const u8 *bytes, size_t len, u64 seed)
{
	struct mlf_entropy *e;

	mlf_entropy_seed(seed);
	e = &mlf_current()->entropy;
	e->bytes = bytes;
	e->len = len;
}

unsigned long mlf_entropy_draws(void)
{
	return mlf_current()->entropy.draws;
}

static u8 next_byte(struct mlf_entropy *e)
{
	if (e->pos < e->len)
		return e->bytes[e->pos++];
	return 0;
}

u32 get_random_u32(void)
{
	struct mlf_entropy *e = &mlf_current()->entropy;

	e->draws++;
	if (e->use_prng && e->pos >= e->len)
		return mlf_rng_next(&e->prng);
	return next_byte(e) | next_byte(e) << 8 | next_byte(e) << 16 |
	       (u32)next_byte(e) << 24;
}

/*
 * One byte per draw for small ranges (every caller in the port draws a bin,
 * below 8), so that each draw in an input is one byte a person can read.
 */
u32 get_random_u32_below(u32 ceil)
{
	struct mlf_entropy *e = &mlf_current()->entropy;

	if (!ceil)
		return 0;
	if (e->use_prng && e->pos >= e->len) {
		e->draws++;
		return mlf_rng_below(&e->prng, ceil);
	}
	if (ceil <= 256) {
		e->draws++;
		return mlf_draw_from_byte(next_byte(e), ceil);
	}
	return get_random_u32() % ceil;
}
