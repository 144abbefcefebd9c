/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <linux/bitops.h> and <linux/bitmap.h>, the parts the port and the
 * model use: fls_long(), and bitmaps of longs with the non-atomic
 * __set_bit(), __clear_bit() and for_each_set_bit() (lowest bit first).
 */
#ifndef _MLF_KERNEL_BITOPS_H
#define _MLF_KERNEL_BITOPS_H

#include <limits.h>

#define BITS_PER_LONG (sizeof(long) * CHAR_BIT)
#define BITS_TO_LONGS(nr) (((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits) unsigned long name[BITS_TO_LONGS(bits)]

/* 1-based position of the highest bit set in @l; 0 if none */
static inline unsigned int fls_long(unsigned long l)
{
	return l ? sizeof(l) * CHAR_BIT - __builtin_clzl(l) : 0;
}

static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] &= ~(1UL << (nr % BITS_PER_LONG));
}

/* the first bit set in @addr at or after @offset, or @size if none */
static inline unsigned long find_next_bit(const unsigned long *addr,
					  unsigned long size,
					  unsigned long offset)
{
	unsigned long k = offset / BITS_PER_LONG, word;

	if (offset >= size)
		return size;
	word = addr[k] & (~0UL << (offset % BITS_PER_LONG));
	while (!word) {
		if (++k * BITS_PER_LONG >= size)
			return size;
		word = addr[k];
	}
	offset = k * BITS_PER_LONG + __builtin_ctzl(word);
	return offset < size ? offset : size;
}

#define for_each_set_bit(bit, addr, size)                              \
	for ((bit) = find_next_bit((addr), (size), 0); (bit) < (size); \
	     (bit) = find_next_bit((addr), (size), (bit) + 1))

#endif
