/* SPDX-License-Identifier: GPL-2.0 */
/* Poison values, as the kernel's <linux/poison.h> uses for list pointers. */
#ifndef _MLF_KERNEL_POISON_H
#define _MLF_KERNEL_POISON_H

#define POISON_POINTER_DELTA 0
#define LIST_POISON1 ((void *)0x100 + POISON_POINTER_DELTA)
#define LIST_POISON2 ((void *)0x122 + POISON_POINTER_DELTA)

/* What freed objects are filled with before free(): readers assert on it. */
#define MLF_FREE_POISON 0x6b

#endif
