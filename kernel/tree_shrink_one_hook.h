/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included in the generated mlf_tree_vmscan.c after shrink_one()'s
 * definition, before shrink_many()'s: each call of shrink_one() raises the
 * walk's VISIT event before it runs and reports what it decided after
 * (src/kernel/trace.h), with no line in the tree's text.
 */
#ifndef _MLF_MM_SHRINK_ONE_HOOK_H
#define _MLF_MM_SHRINK_ONE_HOOK_H

#define shrink_one(lv, sc)                                            \
	({                                                            \
		struct lruvec *__mlf_lruvec = (lv);                   \
		trace_mlf_walk(MLF_WALK_VISIT, __mlf_lruvec, 0);      \
		mlf_walk_visit_result(__mlf_lruvec,                   \
				      (shrink_one)(__mlf_lruvec, (sc))); \
	})

#endif
