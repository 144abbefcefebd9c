/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which version of the memcg LRU this build is. The build defines one
 * MLF_VARIANT_* (CMake option MLF_VARIANT); this header turns it into the
 * features the port's #ifdefs test, one per patch of the seed series:
 *
 *   v6.12          Linux 6.12 as it is
 *   p1-3           + lru_gen_{add,del}_memcg() and a cached tail per bin
 *   p1-4           + skip MEMCG_LRU_YOUNG when already young and default
 *   p1-5           + cond_resched points in shrink_many()
 *   p1-5-lockrand  + the random bin drawn inside the lock, when needed
 *
 * Bug variants are patches against these sources (zoo/), applied to a
 * copy at build time: nothing here knows about them.
 */
#ifndef _MLF_MM_VARIANT_H
#define _MLF_MM_VARIANT_H

#if defined(MLF_VARIANT_P1_5_LOCKRAND)
#define MLF_VARIANT_NAME "p1-5-lockrand"
#define CONFIG_LRU_GEN_TAIL_CACHE 1
#define CONFIG_LRU_GEN_YOUNG_SKIP 1
#define CONFIG_LRU_GEN_RESCHED 1
#define CONFIG_LRU_GEN_LOCKRAND 1
#elif defined(MLF_VARIANT_P1_5)
#define MLF_VARIANT_NAME "p1-5"
#define CONFIG_LRU_GEN_TAIL_CACHE 1
#define CONFIG_LRU_GEN_YOUNG_SKIP 1
#define CONFIG_LRU_GEN_RESCHED 1
#elif defined(MLF_VARIANT_P1_4)
#define MLF_VARIANT_NAME "p1-4"
#define CONFIG_LRU_GEN_TAIL_CACHE 1
#define CONFIG_LRU_GEN_YOUNG_SKIP 1
#elif defined(MLF_VARIANT_P1_3)
#define MLF_VARIANT_NAME "p1-3"
#define CONFIG_LRU_GEN_TAIL_CACHE 1
#else
#define MLF_VARIANT_NAME "v6.12"
#endif

/*
 * The isolation axis (seed 004), orthogonal to the above and read only by
 * the eviction port (MLF_EVICTION): MLF_ISO_NONE (before 004), MLF_ISO_COUNT
 * (patch 1: NR_ISOLATED_* on the node), MLF_ISO_THROTTLE (patches 1-2:
 * per-lruvec nr_isolated and the throttle; the default).
 */
#if defined(MLF_ISO_NONE)
#define MLF_ISO_NAME "iso-none"
#elif defined(MLF_ISO_COUNT)
#define MLF_ISO_NAME "iso-count"
#define CONFIG_LRU_GEN_ISO_COUNT 1
#else
#define MLF_ISO_NAME "iso-throttle"
#define CONFIG_LRU_GEN_ISO_COUNT 1
#define CONFIG_LRU_GEN_ISO_THROTTLE 1
#endif

#endif
