/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The prefix header of every build of the code under test (-include, in
 * each source of a port library and of what links one): the kernel tree's
 * own <linux/list_nulls.h> and <linux/rculist_nulls.h> (cut into the build
 * directory beside the memcg LRU: the seed series patches them) in place
 * of the shim's, whose include guards it takes, with the shim's hooks put
 * back around their primitives (below). The shim library itself and the
 * nulls_list target keep the shim's lists; the layout is the same.
 */
#ifndef _MLF_TREE_H
#define _MLF_TREE_H

/* the shim's list headers give way to the tree's */
#define _MLF_KERNEL_LIST_NULLS_H
#define _MLF_KERNEL_RCULIST_NULLS_H

#ifndef __KERNEL__
#define __KERNEL__
#endif
#define CONFIG_MEMCG 1
#define CONFIG_LRU_GEN 1

#include "kernel/kernel.h"
#include "kernel/rcu_model.h"

/*
 * A WRITE_ONCE() of a struct hlist_nulls_node pointer is the shim's
 * WRITE_ONCE_DEP() (compiler.h): the tree's __hlist_nulls_del() unlinks
 * with WRITE_ONCE(*pprev, next), and a reader that then reaches @next
 * through *pprev reads what @next's inserter wrote before its
 * rcu_assign_pointer(): the kernel orders that by the address dependency,
 * which ThreadSanitizer does not model and the weak memory model takes
 * from this store (wmm.h). So the stores the shim's own list primitives
 * make with WRITE_ONCE_DEP() (the unlink, and a node's ->next that a
 * reader standing on it may follow) are the same stores here; every
 * other WRITE_ONCE() is the shim's. Both are a scheduling point first.
 */
#undef WRITE_ONCE
#define WRITE_ONCE(x, val)                                                    \
	__builtin_choose_expr(                                                \
		__builtin_types_compatible_p(typeof(x),                       \
					     struct hlist_nulls_node *),      \
		WRITE_ONCE_DEP(x, val), ({                                    \
			typeof(&(x)) __p = &(x);                              \
			mlf_point(MLF_PT_WRITE, __p);                         \
			if (mlf_wmm(x))                                       \
				__mlf_wmm_store(__p, (val), MLF_WMM_RELAXED); \
			else                                                  \
				__atomic_store_n(__p, (val), __ATOMIC_RELAXED); \
		}))

struct hlist_nulls_node;
#include <linux/rculist_nulls.h>

/*
 * The shim's hooks around the tree's primitives, which the shim's own
 * list headers have inside them (list_nulls.h, rculist_nulls.h):
 *
 * - A node joins or leaves an RCU list: in a scheduled run the RCU model
 *   requires a grace period between the unlink and the free of the object
 *   that holds it (rcu.no_grace).
 * - A primitive's plain read of the node or head it is given is a
 *   scheduling point (schedule.h): the read stays plain, but a node freed
 *   by then fails there, by name. So each primitive has as many points as
 *   the shim's, and an interleaving (a concurrent input) means the same.
 *
 * Macros after the tree's definitions: its own inline bodies (one
 * primitive calling another) are not wrapped twice. A tree that lacks a
 * primitive gets no error unless its code calls it.
 */
#ifdef MLF_SHIM_BENCH
#define mlf_rcu_unlinked(n) ((void)(n))
#define mlf_rcu_linked(n) ((void)(n))
#else
static inline void mlf_rcu_unlinked(const struct hlist_nulls_node *n)
{
	if (unlikely(mlf_sched_running()))
		mlf_rcu_model_unlinked(n);
}

static inline void mlf_rcu_linked(const struct hlist_nulls_node *n)
{
	if (unlikely(mlf_sched_running()))
		mlf_rcu_model_linked(n);
}
#endif

#define hlist_nulls_unhashed(h)                                               \
	({                                                                    \
		const struct hlist_nulls_node *__mlf_h = (h);                 \
		mlf_point(MLF_PT_READ, &__mlf_h->pprev);                      \
		(hlist_nulls_unhashed)(__mlf_h);                              \
	})

#define hlist_nulls_add_head_rcu(n, h)                                        \
	({                                                                    \
		struct hlist_nulls_node *__mlf_n = (n);                       \
		struct hlist_nulls_head *__mlf_h = (h);                       \
		mlf_point(MLF_PT_READ, &__mlf_h->first);                      \
		mlf_rcu_linked(__mlf_n);                                      \
		(hlist_nulls_add_head_rcu)(__mlf_n, __mlf_h);                 \
	})

#define hlist_nulls_add_tail_rcu(n, h)                                        \
	({                                                                    \
		struct hlist_nulls_node *__mlf_n = (n);                       \
		struct hlist_nulls_head *__mlf_h = (h);                       \
		mlf_point(MLF_PT_READ, &__mlf_h->first);                      \
		mlf_rcu_linked(__mlf_n);                                      \
		(hlist_nulls_add_tail_rcu)(__mlf_n, __mlf_h);                 \
	})

#define hlist_nulls_add_behind_rcu(n, last)                                   \
	({                                                                    \
		struct hlist_nulls_node *__mlf_n = (n);                       \
		struct hlist_nulls_node *__mlf_last = (last);                 \
		mlf_point(MLF_PT_READ, &__mlf_last->next);                    \
		mlf_rcu_linked(__mlf_n);                                      \
		(hlist_nulls_add_behind_rcu)(__mlf_n, __mlf_last);            \
	})

#define hlist_nulls_del_rcu(n)                                                \
	({                                                                    \
		struct hlist_nulls_node *__mlf_n = (n);                       \
		mlf_point(MLF_PT_READ, &__mlf_n->next);                       \
		(hlist_nulls_del_rcu)(__mlf_n);                               \
		mlf_rcu_unlinked(__mlf_n);                                    \
	})

/* the test, then (if it was on a list) the unlink, as the shim has them */
#define hlist_nulls_del_init_rcu(n)                                           \
	({                                                                    \
		struct hlist_nulls_node *__mlf_n = (n);                       \
		bool __mlf_on = (mlf_point(MLF_PT_READ, &__mlf_n->pprev),     \
				 __mlf_n->pprev != NULL);                     \
		if (__mlf_on)                                                 \
			mlf_point(MLF_PT_READ, &__mlf_n->next);               \
		(hlist_nulls_del_init_rcu)(__mlf_n);                          \
		if (__mlf_on)                                                 \
			mlf_rcu_unlinked(__mlf_n);                            \
	})

#endif
