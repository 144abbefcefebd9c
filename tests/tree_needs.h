/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a unit test needs of the kernel tree it runs on, for SKIP_UNLESS()
 * (testlib.h): a tree may lack a rotation (d5d1712c5928 removed
 * MEMCG_LRU_HEAD, mm-new MEMCG_LRU_OLD), lru_gen_soft_reclaim(), or the
 * offline callback's move to the old generation (kernel/trees/mm-new).
 */
#ifndef _MLF_TESTS_TREE_NEEDS_H
#define _MLF_TESTS_TREE_NEEDS_H

#include "mm/mmzone.h"
#include "testlib.h"

#define NEEDS_ROTATION(op) SKIP_UNLESS(mlf_tree_has_rotation(op), "the tree has no " #op)

#ifdef MLF_TREE_HAS_SOFT_RECLAIM
#define NEEDS_SOFT_RECLAIM() do { } while (0)
#else
#define NEEDS_SOFT_RECLAIM() SKIP_UNLESS(false, "the tree has no lru_gen_soft_reclaim()")
#endif

#ifdef MLF_TREE_HAS_OFFLINE_OLD
#define NEEDS_OFFLINE_OLD() do { } while (0)
#else
#define NEEDS_OFFLINE_OLD() \
	SKIP_UNLESS(false, "the tree's offline callback does not rotate to MEMCG_LRU_OLD")
#endif

#endif
