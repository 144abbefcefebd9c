/* SPDX-License-Identifier: GPL-2.0 */
/* mul_u64_u64_div_u64() of <linux/math64.h>: a * b / c without overflow. */
#ifndef _MLF_KERNEL_MATH64_H
#define _MLF_KERNEL_MATH64_H

#include "types.h"

static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (u64)((unsigned __int128)a * b / c);
}

#endif
