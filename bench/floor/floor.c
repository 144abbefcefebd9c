// SPDX-License-Identifier: GPL-2.0
/* The floor's only state (kernel.h): the per-thread generator. */
#include "kernel.h"

__thread struct mlf_rng mlf_floor_rng = { MLF_RNG_GOLDEN };

void mlf_floor_seed(u64 seed)
{
	mlf_floor_rng = mlf_rng_seeded(seed);
}
