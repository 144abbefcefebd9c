/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tree's shrink_one() and should_abort_scan() (cut from the tree,
 * like shrink_many()) call below the memcg LRU: the shim's, shared with the
 * port (src/mm/shrink_one.h; outcomes read from memcg->shrink). Static, in
 * the one translation unit of the tree's code (included by
 * tree_vmscan_before.h). So kernel_diff compares the tree's shrink_one()
 * and should_abort_scan() with the port's, not one copy with itself.
 */
#ifndef _MLF_KERNEL_TREE_RECLAIM_H
#define _MLF_KERNEL_TREE_RECLAIM_H

#include "mm/shrink_one.h"

#endif
