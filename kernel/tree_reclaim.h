/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tree's shrink_many() calls outside the memcg LRU section: the
 * port's own shrink_one() and should_abort_scan() (src/mm/shrink_one.h),
 * outcomes read from memcg->shrink. Static, in the one translation unit of
 * the tree's code (included by tree_vmscan_before.h).
 */
#ifndef _MLF_KERNEL_TREE_RECLAIM_H
#define _MLF_KERNEL_TREE_RECLAIM_H

#include "mm/shrink_one.h"

#endif
