/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The prefix header of the kernel-tree build (-include, in every source of
 * mlf_port_kernel and of whatever links it): it stands in for
 * src/mm/mmzone.h and variant.h, whose include guards it takes, so that the
 * port's memcontrol.[ch], the world, the checks and the model compile
 * unchanged around the tree's code. The memcg LRU structures, constants and
 * enums and the feature macros come from the tree (mlf_tree_gen.h, written
 * by kernel/extract.py into the build directory); hlist_nulls comes from
 * the tree's <linux/list_nulls.h> and <linux/rculist_nulls.h> in place of
 * the shim's. What the tree's structures are embedded in (struct lruvec,
 * pglist_data) is reduced to what the memcg LRU touches, as the port has it.
 */
#ifndef _MLF_TREE_H
#define _MLF_TREE_H

/* the shim's list headers and the port's mmzone.h / variant.h give way */
#define _MLF_KERNEL_LIST_NULLS_H
#define _MLF_KERNEL_RCULIST_NULLS_H
#define _MLF_MM_MMZONE_H
#define _MLF_MM_VARIANT_H

#define MLF_KERNEL_TREE 1
#define MLF_VARIANT_NAME "kernel-tree"

#ifndef __KERNEL__
#define __KERNEL__
#endif
#define CONFIG_MEMCG 1
#define CONFIG_LRU_GEN 1

#include "kernel/kernel.h"

/*
 * ThreadSanitizer and the tree's __hlist_nulls_del(): it unlinks with
 * WRITE_ONCE(*pprev, next), and a reader that then reaches @next through
 * *pprev reads what @next's inserter wrote before its rcu_assign_pointer().
 * The kernel gets that ordering from the address dependency (READ_ONCE()
 * heads a dependency chain; every architecture Linux runs on is other-
 * multicopy atomic); TSan models no dependencies and would report the
 * inserter's plain n->next = ... against the reader. So, under TSan only,
 * a WRITE_ONCE() of a struct hlist_nulls_node pointer is a release store:
 * what the shim's own __hlist_nulls_del() does, same instruction on x86.
 * Narrow on purpose: only that pointer type, so a plain publish (*pprev =
 * n without rcu_assign_pointer()) is still a race TSan reports. The add
 * and replace helpers' WRITE_ONCE(n->next, first) become releases too,
 * and need to: a reader standing on a node that a writer moves follows its
 * new ->next into a node that may have been onlined a moment ago (the
 * shim's WRITE_ONCE_DEP() in compiler.h, for the same reason). The cost: a tree
 * that publishes a new node with WRITE_ONCE() in place of
 * rcu_assign_pointer() passes under TSan here (the port's build, where
 * only __hlist_nulls_del() releases, still reports it). Like the shim's
 * WRITE_ONCE(), it is a scheduling point first: the deterministic
 * scheduler switches there, and the walk checks learn who moved what.
 */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
struct hlist_nulls_node;
#undef WRITE_ONCE
#define WRITE_ONCE(x, val)                                                    \
	({                                                                    \
		typeof(&(x)) __p = &(x);                                      \
		mlf_point(MLF_PT_WRITE, __p);                                 \
		__atomic_store_n(__p, (val),                                  \
				 _Generic((val), struct hlist_nulls_node *    \
					  : __ATOMIC_RELEASE, default         \
					  : __ATOMIC_RELAXED));               \
	})
#endif
#endif

#include <linux/rculist_nulls.h>

#include "mlf_tree_gen.h"

struct pglist_data;

struct lruvec {
	struct lru_gen_folio lrugen;
	/* the node this lruvec belongs to */
	struct pglist_data *pgdat;
};

/* as src/mm/mmzone.h has it: what should_abort_scan() reads */
#include "mm/zone.h"

typedef struct pglist_data {
	int node_id;
	struct zone node_zones[MAX_NR_ZONES];
	struct lru_gen_memcg memcg_lru;
} pg_data_t;

extern struct pglist_data *node_data[MAX_NUMNODES];
#define NODE_DATA(nid) (node_data[(nid)])

static inline struct pglist_data *lruvec_pgdat(struct lruvec *lruvec)
{
	return lruvec->pgdat;
}

struct mem_cgroup;

/* the tree's (lru_gen_init_pgdat: its memcg part) and the glue's */
void lru_gen_init_pgdat(struct pglist_data *pgdat);
void lru_gen_init_lruvec(struct lruvec *lruvec);
void lru_gen_exit_memcg(struct mem_cgroup *memcg);
void lru_gen_online_memcg(struct mem_cgroup *memcg);
void lru_gen_offline_memcg(struct mem_cgroup *memcg);
void lru_gen_release_memcg(struct mem_cgroup *memcg);
void lru_gen_soft_reclaim(struct mem_cgroup *memcg, int nid);

#endif
