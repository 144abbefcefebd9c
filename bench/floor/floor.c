// SPDX-License-Identifier: GPL-2.0
/* The floor's only state (kernel.h): the per-thread generator. */
#include "kernel.h"

__thread u64 mlf_floor_rng = 0x9e3779b97f4a7c15ULL;

void mlf_floor_seed(u64 seed)
{
	mlf_floor_rng = seed ? seed : 0x9e3779b97f4a7c15ULL;
}
