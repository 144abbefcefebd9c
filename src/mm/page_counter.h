/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct page_counter of <linux/page_counter.h> (Linux 6.12), reduced to
 * what reclaim's protection reads: the hierarchical usage, memory.min and
 * memory.low, their effective values (emin, elow) and the propagation of
 * protected usage to the parent. No limits (max, high), no watermarks.
 * The functions are mm/page_counter.c's (page_counter.c, the reclaim
 * build's only).
 */
#ifndef _MLF_MM_PAGE_COUNTER_H
#define _MLF_MM_PAGE_COUNTER_H

#include "kernel/kernel.h"

struct page_counter {
	atomic_long_t usage;

	/* effective memory.min and memory.min usage tracking */
	unsigned long emin;
	atomic_long_t min_usage;
	atomic_long_t children_min_usage;

	/* effective memory.low and memory.low usage tracking */
	unsigned long elow;
	atomic_long_t low_usage;
	atomic_long_t children_low_usage;

	bool protection_support;
	unsigned long min;
	unsigned long low;
	struct page_counter *parent;
};

/* Protection is supported only for the first counter (memcg->memory). */
static inline void page_counter_init(struct page_counter *counter,
				     struct page_counter *parent,
				     bool protection_support)
{
	counter->usage.counter = 0;
	counter->parent = parent;
	counter->protection_support = protection_support;
}

static inline unsigned long page_counter_read(struct page_counter *counter)
{
	return atomic_long_read(&counter->usage);
}

#ifdef MLF_EVICTION
void page_counter_cancel(struct page_counter *counter, unsigned long nr_pages);
void page_counter_charge(struct page_counter *counter, unsigned long nr_pages);
void page_counter_uncharge(struct page_counter *counter, unsigned long nr_pages);
void page_counter_set_min(struct page_counter *counter, unsigned long nr_pages);
void page_counter_set_low(struct page_counter *counter, unsigned long nr_pages);
void page_counter_calculate_protection(struct page_counter *root,
				       struct page_counter *counter,
				       bool recursive_protection);
#else
/*
 * The builds without the eviction charge nothing and read no effective
 * protection (the outcome is memcg->shrink's): the settings are all the
 * css_offline callback's reset touches
 */
static inline void page_counter_set_min(struct page_counter *counter,
					unsigned long nr_pages)
{
	WRITE_ONCE(counter->min, nr_pages);
}

static inline void page_counter_set_low(struct page_counter *counter,
					unsigned long nr_pages)
{
	WRITE_ONCE(counter->low, nr_pages);
}
#endif

#endif
