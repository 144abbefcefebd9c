/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hlist_nulls: a singly linked list with back pointers whose end is not NULL
 * but a "nulls" marker, an odd value carrying a small integer. A lockless
 * reader that ends on a marker whose value is not the one of the list it
 * started on knows it was moved to another list and restarts.
 *
 * A primitive's plain read of the node or head it is given is a scheduling
 * point too (schedule.h): the read stays plain, but a node freed by then
 * fails there, by name, not later in a sanitizer's report.
 */
#ifndef _MLF_KERNEL_LIST_NULLS_H
#define _MLF_KERNEL_LIST_NULLS_H

#include "compiler.h"
#include "poison.h"
#include "trace.h"

struct hlist_nulls_head {
	struct hlist_nulls_node *first;
};

struct hlist_nulls_node {
	struct hlist_nulls_node *next, **pprev;
};

#define NULLS_MARKER(value) (1UL | (((long)(value)) << 1))
#define INIT_HLIST_NULLS_HEAD(ptr, nulls) \
	((ptr)->first = (struct hlist_nulls_node *)NULLS_MARKER(nulls))

#define hlist_nulls_entry(ptr, type, member) container_of(ptr, type, member)

static inline int is_a_nulls(const struct hlist_nulls_node *ptr)
{
	return ((unsigned long)ptr & 1);
}

static inline unsigned long get_nulls_value(const struct hlist_nulls_node *ptr)
{
	/* a walk's pass ends here (trace.h) */
	return mlf_walk_nulls(((unsigned long)ptr) >> 1);
}

static inline int hlist_nulls_unhashed(const struct hlist_nulls_node *h)
{
	mlf_point(MLF_PT_READ, &h->pprev);
	return !h->pprev;
}

static inline int hlist_nulls_unhashed_lockless(const struct hlist_nulls_node *h)
{
	return !READ_ONCE(h->pprev);
}

static inline int hlist_nulls_empty(const struct hlist_nulls_head *h)
{
	return is_a_nulls(READ_ONCE(h->first));
}

static inline void hlist_nulls_add_head(struct hlist_nulls_node *n,
					struct hlist_nulls_head *h)
{
	struct hlist_nulls_node *first = (mlf_point(MLF_PT_READ, &h->first), h->first);

	n->next = first;
	WRITE_ONCE(n->pprev, &h->first);
	h->first = n;
	if (!is_a_nulls(first))
		WRITE_ONCE(first->pprev, &n->next);
}

static inline void __hlist_nulls_del(struct hlist_nulls_node *n)
{
	struct hlist_nulls_node *next = (mlf_point(MLF_PT_READ, &n->next), n->next);
	struct hlist_nulls_node **pprev = n->pprev;

	/* WRITE_ONCE() in the kernel; compiler.h says why _DEP */
	WRITE_ONCE_DEP(*pprev, next);
	if (!is_a_nulls(next))
		WRITE_ONCE(next->pprev, pprev);
}

static inline void hlist_nulls_del(struct hlist_nulls_node *n)
{
	__hlist_nulls_del(n);
	WRITE_ONCE(n->pprev, LIST_POISON2);
}

#define hlist_nulls_for_each_entry(tpos, pos, head, member)                   \
	for (pos = (head)->first;                                             \
	     (!is_a_nulls(pos)) &&                                            \
	     ({                                                               \
		     tpos = hlist_nulls_entry(pos, typeof(*tpos), member);   \
		     1;                                                       \
	     });                                                              \
	     pos = pos->next)

#endif
