/* SPDX-License-Identifier: GPL-2.0 */
/* fls_long() of <linux/bitops.h>: the last (most significant) bit set. */
#ifndef _MLF_KERNEL_BITOPS_H
#define _MLF_KERNEL_BITOPS_H

#include <limits.h>

/* 1-based position of the highest bit set in @l; 0 if none */
static inline unsigned int fls_long(unsigned long l)
{
	return l ? sizeof(l) * CHAR_BIT - __builtin_clzl(l) : 0;
}

#endif
