/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One op of a run: what the harness does to the memcg LRU, with its operands
 * and the random draws it carries. The byte codec and the trace (fuzz/) turn
 * inputs into these; tests build them directly. It sits with the checks
 * because the reference model consumes ops, and the checks sit below the
 * harness that applies them.
 */
#ifndef _MLF_CHECK_OP_H
#define _MLF_CHECK_OP_H

#include "kernel/types.h"

#define MLF_OP_MAX_DRAWS 32

enum mlf_op_kind {
	MLF_OP_ONLINE,		/* online m: lru_gen_online_memcg, 1 draw */
	MLF_OP_OFFLINE,		/* offline m: offline_css() (the callback unless
				 * css_offline ran it, then CSS_ONLINE cleared),
				 * drops the base ref */
	MLF_OP_GET,		/* get m: take a reference */
	MLF_OP_PUT,		/* put m: drop a reference the harness took */
	MLF_OP_RELEASE,		/* release m: css_released of a dead memcg */
	MLF_OP_ROTATE,		/* rotate m n OP: lru_gen_rotate_memcg, 1 draw */
	MLF_OP_SOFT,		/* soft m n: lru_gen_soft_reclaim, maybe softirq */
	MLF_OP_SET,		/* set m: what shrink_one() will find */
	MLF_OP_RECLAIM,		/* reclaim n: shrink_many, draws as needed */
	/*
	 * css_offline m: the css_offline callback alone (protection reset, OLD
	 * on every node); the memcg stays online until its "offline"
	 */
	MLF_OP_CSS_OFFLINE,
	MLF_OP_NR,
};

struct mlf_op {
	u8 kind;		/* enum mlf_op_kind */
	u16 memcg;		/* pool slot */
	u8 node;
	u8 rotate_op;		/* MEMCG_LRU_*: mlf_rotation() (mm/mmzone.h) */
	u8 softirq;		/* soft: run in simulated softirq context */
	/* set: */
	u8 below_min, below_low, success, sizable, nr_reclaimed;
	/* reclaim: stop once this many pages were reclaimed (0: never) */
	u16 target;
	u8 nr_draws;
	u8 draws[MLF_OP_MAX_DRAWS];
};

/* "online", "rotate", ...; "?" for no such kind (op.c) */
const char *mlf_op_kind_name(int kind);
/* "HEAD", "TAIL", "OLD", "YOUNG" (and "NOP"); "?" for no such rotation */
const char *mlf_rotate_op_name(int op);
/* "lru_gen_rotate_memcg", ...: the code under test's function an op runs */
const char *mlf_op_kernel_function(int kind);

#endif
