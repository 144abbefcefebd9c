/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The build's axes, from CMake. The seed series' patch level (MLF_VARIANT:
 * v6.12, p1-3, p1-4, p1-5, p1-5-lockrand) is the kernel tree's text with
 * the series applied up to that level, cut into the build directory;
 * what its code does (CONFIG_LRU_GEN_TAIL_CACHE, ...) comes with it
 * (mlf_tree_gen.h, kernel/extract.py). Here its name, and the isolation
 * axis of the eviction model. Bug variants and a user's patches are
 * patches too (zoo/, kernel/tree.py): nothing here knows about them.
 */
#ifndef _MLF_MM_VARIANT_H
#define _MLF_MM_VARIANT_H

#ifndef MLF_VARIANT_NAME
#define MLF_VARIANT_NAME "a kernel tree"
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
