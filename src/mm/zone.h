/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct zone of <linux/mmzone.h>, reduced to what reclaim reads of it:
 * its managed pages, its free pages (NR_FREE_PAGES), its watermarks with
 * their boost, and the lowmem reserve; and the order-0 watermark test of
 * mm/page_alloc.c (zone_watermark_ok()), which kswapd's stop in
 * should_abort_scan() asks. Included by mmzone.h and by the kernel-tree
 * build's prefix header (kernel/mlf_tree.h), so both sides of kernel_diff
 * see one zone.
 *
 * Left out: free areas by order (should_abort_scan() asks only at order
 * 0; __zone_watermark_ok()'s high-order loop is not ported), CMA and the
 * highatomic reserve (no unusable free pages), per-cpu page lists.
 */
#ifndef _MLF_MM_ZONE_H
#define _MLF_MM_ZONE_H

#include "kernel/kernel.h"

#ifndef MAX_NR_ZONES
#define MAX_NR_ZONES 2
#endif

enum zone_watermarks {
	WMARK_MIN,
	WMARK_LOW,
	WMARK_HIGH,
	WMARK_PROMO,
	NR_WMARK,
};

enum zone_stat_item {
	NR_FREE_PAGES,
	NR_VM_ZONE_STAT_ITEMS,
};

struct zone {
	/* zone watermarks, access with *_wmark_pages(zone) macros */
	unsigned long _watermark[NR_WMARK];
	unsigned long watermark_boost;
	/*
	 * We don't know if the memory that we're going to allocate will be
	 * freeable or/and it will be released eventually, so to avoid totally
	 * wasting several GB of ram we must reserve some of the lower zone
	 * memory (otherwise we risk to run OOM on the lower zones despite
	 * there being tons of freeable ram on the higher zones).
	 */
	long lowmem_reserve[MAX_NR_ZONES];
	/* the pages the buddy allocator manages: 0 for an empty zone */
	atomic_long_t managed_pages;
	/* zone stats: the free pages */
	atomic_long_t vm_stat[NR_VM_ZONE_STAT_ITEMS];
};

static inline unsigned long wmark_pages(const struct zone *z,
					enum zone_watermarks w)
{
	return z->_watermark[w] + z->watermark_boost;
}

#define min_wmark_pages(z) wmark_pages((z), WMARK_MIN)
#define low_wmark_pages(z) wmark_pages((z), WMARK_LOW)
#define high_wmark_pages(z) wmark_pages((z), WMARK_HIGH)

static inline unsigned long zone_managed_pages(struct zone *zone)
{
	return (unsigned long)atomic_long_read(&zone->managed_pages);
}

/* Returns true if a zone has pages managed by the buddy allocator. */
static inline bool managed_zone(struct zone *zone)
{
	return zone_managed_pages(zone);
}

static inline unsigned long zone_page_state(struct zone *zone,
					    enum zone_stat_item item)
{
	long x = atomic_long_read(&zone->vm_stat[item]);

	return x < 0 ? 0 : x;
}

static inline void __mod_zone_page_state(struct zone *zone,
					 enum zone_stat_item item, long delta)
{
	atomic_long_add(delta, &zone->vm_stat[item]);
}

/*
 * The buddy allocator, reduced to its count of free pages (no free
 * areas, so no fragmentation): @nr pages of @zone taken (false if fewer
 * are free: the harness allocates while pages are free, and leaves the
 * watermarks to reclaim), and @nr given back.
 */
static inline bool zone_alloc_pages(struct zone *zone, long nr)
{
	if (zone_page_state(zone, NR_FREE_PAGES) < (unsigned long)nr)
		return false;
	__mod_zone_page_state(zone, NR_FREE_PAGES, -nr);
	return true;
}

static inline void zone_free_pages(struct zone *zone, long nr)
{
	__mod_zone_page_state(zone, NR_FREE_PAGES, nr);
}

/*
 * Return true if free base pages are above 'mark'. mm/page_alloc.c's
 * __zone_watermark_ok() for an order-0 request without ALLOC_RESERVES
 * (what should_abort_scan() asks): no unusable free pages to subtract
 * here but the (1 << order) - 1 of the order.
 */
static inline bool __zone_watermark_ok(struct zone *z, unsigned int order,
				       unsigned long mark, int highest_zoneidx,
				       unsigned int alloc_flags, long free_pages)
{
	long min = mark;

	(void)alloc_flags;
	/* free_pages may go negative - that's OK */
	free_pages -= (1 << order) - 1;

	/*
	 * Check watermarks for an order-0 allocation request. If these
	 * are not met, then a high-order request also cannot go ahead
	 * even if a suitable page happened to be free.
	 */
	if (free_pages <= min + z->lowmem_reserve[highest_zoneidx])
		return false;

	/* If this is an order-0 request then the watermark is fine */
	if (!order)
		return true;

	/* the free areas by order are not modelled */
	return false;
}

static inline bool zone_watermark_ok(struct zone *z, unsigned int order,
				     unsigned long mark, int highest_zoneidx,
				     unsigned int alloc_flags)
{
	return __zone_watermark_ok(z, order, mark, highest_zoneidx, alloc_flags,
				   zone_page_state(z, NR_FREE_PAGES));
}

#endif
