/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RCU variants of hlist_nulls: writers (under a lock) publish with
 * rcu_assign_pointer and keep a removed node's ->next intact, so a reader
 * standing on it can still move on; the reader notices a move by the nulls
 * value it ends on. A reader standing on a node that moves follows its new
 * ->next into whatever the writer linked it before, maybe a node onlined a
 * moment ago: those stores are WRITE_ONCE_DEP() (compiler.h).
 * Includes hlist_nulls_add_behind_rcu() from the seed
 * series (patch 1/5 of "reduce memcg rotation overhead").
 */
#ifndef _MLF_KERNEL_RCULIST_NULLS_H
#define _MLF_KERNEL_RCULIST_NULLS_H

#include "list_nulls.h"
#include "rcupdate.h"
#include "rcu_model.h"

/*
 * A node leaves an RCU list or joins one: in a scheduled run the RCU model
 * requires a grace period between the unlink and the free of the object
 * that holds the node (rcu.no_grace). The bench shim has no model.
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

static inline void hlist_nulls_del_init_rcu(struct hlist_nulls_node *n)
{
	if (!hlist_nulls_unhashed(n)) {
		__hlist_nulls_del(n);
		WRITE_ONCE(n->pprev, NULL);
		mlf_rcu_unlinked(n);
	}
}

#define hlist_nulls_first_rcu(head) \
	(*((struct hlist_nulls_node __rcu __force **)&(head)->first))

#define hlist_nulls_next_rcu(node) \
	(*((struct hlist_nulls_node __rcu __force **)&(node)->next))

#define hlist_nulls_pprev_rcu(node) \
	(*((struct hlist_nulls_node __rcu __force **)(node)->pprev))

static inline void hlist_nulls_del_rcu(struct hlist_nulls_node *n)
{
	__hlist_nulls_del(n);
	WRITE_ONCE(n->pprev, LIST_POISON2);
	mlf_rcu_unlinked(n);
}

static inline void hlist_nulls_add_head_rcu(struct hlist_nulls_node *n,
					    struct hlist_nulls_head *h)
{
	struct hlist_nulls_node *first = (mlf_point(MLF_PT_READ, &h->first), h->first);

	mlf_rcu_linked(n);
	WRITE_ONCE_DEP(n->next, first);
	WRITE_ONCE(n->pprev, &h->first);
	rcu_assign_pointer(hlist_nulls_first_rcu(h), n);
	if (!is_a_nulls(first))
		WRITE_ONCE(first->pprev, &n->next);
}

/*
 * Insert @n right after @last. The seed series documents @last as the last
 * entry; the review asked that it also keep the successor's pprev right when
 * @last is interior, as hlist_add_behind_rcu() does. The shim takes the
 * reviewed form so that the nulls_list target can use it anywhere; the
 * bug-add-behind-interior variant builds the seed's form instead.
 */
static inline void hlist_nulls_add_behind_rcu(struct hlist_nulls_node *n,
					      struct hlist_nulls_node *last)
{
	mlf_point(MLF_PT_READ, &last->next);
	mlf_rcu_linked(n);
	WRITE_ONCE_DEP(n->next, last->next);
	WRITE_ONCE(n->pprev, &last->next);
	rcu_assign_pointer(hlist_nulls_next_rcu(last), n);
	if (!is_a_nulls(n->next))
		WRITE_ONCE(n->next->pprev, &n->next);
}

static inline void hlist_nulls_add_tail_rcu(struct hlist_nulls_node *n,
					    struct hlist_nulls_head *h)
{
	struct hlist_nulls_node *i, *last = NULL;

	/* write side, under the lock: no rcu accessors needed for the walk */
	for (i = h->first; !is_a_nulls(i); i = i->next)
		last = i;

	if (last) {
		mlf_rcu_linked(n);
		WRITE_ONCE_DEP(n->next, last->next);
		WRITE_ONCE(n->pprev, &last->next);
		rcu_assign_pointer(hlist_nulls_next_rcu(last), n);
	} else {
		hlist_nulls_add_head_rcu(n, h);
	}
}

/* after that hlist_nulls_del will work */
static inline void hlist_nulls_add_fake(struct hlist_nulls_node *n)
{
	n->pprev = &n->next;
	n->next = (struct hlist_nulls_node *)NULLS_MARKER(NULL);
}

static inline void hlist_nulls_replace_rcu(struct hlist_nulls_node *old,
					   struct hlist_nulls_node *new)
{
	struct hlist_nulls_node *next = old->next;

	mlf_rcu_unlinked(old);
	mlf_rcu_linked(new);
	WRITE_ONCE_DEP(new->next, next);
	WRITE_ONCE(new->pprev, old->pprev);
	rcu_assign_pointer(hlist_nulls_pprev_rcu(new), new);
	if (!is_a_nulls(next))
		WRITE_ONCE(next->pprev, &new->next);
}

static inline void hlist_nulls_replace_init_rcu(struct hlist_nulls_node *old,
						struct hlist_nulls_node *new)
{
	hlist_nulls_replace_rcu(old, new);
	WRITE_ONCE(old->pprev, NULL);
}

/* a walk's pass over @head begins (trace.h) */
#define hlist_nulls_for_each_entry_rcu(tpos, pos, head, member)               \
	for (({ barrier(); }), (void)mlf_walk_pass(head),                     \
	     pos = rcu_dereference_raw(hlist_nulls_first_rcu(head));          \
	     (!is_a_nulls(pos)) &&                                            \
	     ({                                                               \
		     tpos = hlist_nulls_entry(pos, typeof(*tpos), member);   \
		     1;                                                       \
	     });                                                              \
	     pos = rcu_dereference_raw(hlist_nulls_next_rcu(pos)))

#define hlist_nulls_for_each_entry_safe(tpos, pos, head, member)              \
	for (({ barrier(); }),                                                \
	     pos = rcu_dereference_raw(hlist_nulls_first_rcu(head));          \
	     (!is_a_nulls(pos)) &&                                            \
	     ({                                                               \
		     tpos = hlist_nulls_entry(pos, typeof(*tpos), member);   \
		     pos = rcu_dereference_raw(hlist_nulls_next_rcu(pos));   \
		     1;                                                       \
	     });)

#endif
