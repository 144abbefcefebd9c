/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reference model: the memcg LRU as the design comment describes it,
 * written independently of the port (plain arrays of memcg ids, no hlist,
 * no pointers), fed the same ops and the same random draws. The port is
 * compared against it after every op (check "model.order").
 *
 * The model keeps its own view of each memcg's life cycle (references,
 * online flag, what shrink_one() will find), from the ops alone.
 */
#ifndef _MLF_CHECK_MODEL_H
#define _MLF_CHECK_MODEL_H

#include "kernel/nodemask.h"
#include "kernel/types.h"

#include "op.h"

#define MODEL_NR_GENS 3
#define MODEL_NR_BINS 8

/* segments, as lrugen->seg holds them */
enum { MODEL_SEG_DEFAULT = 0, MODEL_SEG_HEAD = 1, MODEL_SEG_TAIL = 2 };

/* which patches of the seed series the model follows */
struct mlf_model_features {
	bool young_skip;	/* p1-4: YOUNG skipped when young and default */
	bool lockrand;		/* p1-5-lockrand: no draw when skipped */
	bool offline_old;	/* the css_offline callback rotates OLD (not mm-new) */
};

struct mlf_model_bin {
	int len;
	int cap;		/* grown on demand, at most pool_size */
	int *ids;		/* memcg ids, head first */
};

struct mlf_model_node {
	unsigned long seq;
	struct mlf_model_bin bins[MODEL_NR_GENS][MODEL_NR_BINS];
	/* the bins' lengths summed per generation, kept as they change */
	unsigned long nr[MODEL_NR_GENS];
};

struct mlf_model_memcg {
	bool allocated;		/* onlined and not yet released */
	bool online;
	bool css_offlined;	/* the css_offline callback ran, still online */
	long refs;
	u8 below_min, below_low, success, sizable, nr_reclaimed;
	bool linked[MAX_NUMNODES];
	u8 gen[MAX_NUMNODES];
	u8 seg[MAX_NUMNODES];
	u8 bin[MAX_NUMNODES];	/* the bin it sits in, while linked */
};

struct mlf_model {
	int nr_nodes;
	int pool_size;
	struct mlf_model_features features;
	struct mlf_model_node nodes[MAX_NUMNODES];
	struct mlf_model_memcg *memcgs;
	/* bit i of word i / 64: memcgs[i].allocated (model_query.h reads it) */
	u64 *allocated;
	/* the same for every memcg ever onlined: what model_destroy() clears */
	u64 *ever;
	int cap;		/* the pool size the storage above holds */
	unsigned long nr_linked;	/* entries on every node */
};

/*
 * A model of an empty world. Its storage is kept from the last model
 * destroyed when that one was as big: a fuzzer builds one per input, and
 * the cost of an input should be what it does, not the pool it names.
 */
void model_init(struct mlf_model *m, int nr_nodes, int pool_size,
		struct mlf_model_features features);
void model_destroy(struct mlf_model *m);

/*
 * Apply an op that the world applied to the port (the world decides whether
 * an op applies; the model trusts that). Consumes op->draws the way the
 * kernel code draws: one bin per online, one per rotation (offline: one per
 * node; soft: one if it rotates; lockrand: none when YOUNG is skipped), and
 * for reclaim one for the first bin then one per rotation the walk does.
 */
void model_apply(struct mlf_model *m, const struct mlf_op *op);

#endif
