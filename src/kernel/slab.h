/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kzalloc / kfree. kfree_poisoned() fills an object with MLF_FREE_POISON
 * before freeing it, so that a reader touching it after a missed grace
 * period sees poison even where AddressSanitizer is not built in.
 */
#ifndef _MLF_KERNEL_SLAB_H
#define _MLF_KERNEL_SLAB_H

#include "types.h"

void *kzalloc(size_t size, int gfp);
void kfree(const void *ptr);
void kfree_poisoned(void *ptr, size_t size);

#define GFP_KERNEL 0

#endif
