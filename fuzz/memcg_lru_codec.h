/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The byte format of a fuzz input (see fuzz/README.md): a 3-byte header,
 * then ops until the bytes run out. Every byte string decodes: bytes that
 * run out read as zero, extra bytes are ignored, values wrap into range.
 * mlf_encode_*() write the canonical bytes of a decoded input back, so a
 * trace turns into bytes that decode to the same ops.
 */
#ifndef _MLF_FUZZ_CODEC_H
#define _MLF_FUZZ_CODEC_H

#include <stdbool.h>
#include <stddef.h>

#include "check/op.h"

#define MLF_FUZZ_MAX_NODES 4
/* the world allows MLF_MAX_POOL; a fuzz input stays at half of it */
#define MLF_FUZZ_MAX_POOL 2048
#define MLF_FUZZ_MAX_OPS 4096
#define MLF_FUZZ_HEADER_BYTES 3
/* kind + node + target + count + MLF_OP_MAX_DRAWS draws (reclaim) */
#define MLF_FUZZ_MAX_OP_BYTES (4 + MLF_OP_MAX_DRAWS)

struct mlf_header {
	int nr_nodes;		/* 1 .. MLF_FUZZ_MAX_NODES */
	int pool_size;		/* 1 .. MLF_FUZZ_MAX_POOL */
};

/* Fields of a set op's flags byte. */
#define MLF_SET_MIN 0x1
#define MLF_SET_LOW 0x2
#define MLF_SET_SUCCESS 0x4
#define MLF_SET_SIZABLE 0x8
#define MLF_SET_NR_RECLAIMED_MAX 15
#define MLF_SOFT_SOFTIRQ 0x1

/*
 * Decode @size bytes into @h and at most @cap ops (and never more than
 * MLF_FUZZ_MAX_OPS). Returns the number of ops.
 */
size_t mlf_decode(const u8 *data, size_t size, struct mlf_header *h,
		  struct mlf_op *ops, size_t cap);

/* Number of draw bytes an op of @kind carries (reclaim: its own count). */
int mlf_op_draws_for(const struct mlf_header *h, const struct mlf_op *op);

/* Canonical bytes; return how many were written (header: 3). */
size_t mlf_encode_header(const struct mlf_header *h, u8 *out);
size_t mlf_encode_op(const struct mlf_header *h, const struct mlf_op *op,
		     u8 *out);

/* Field-wise equality of two decoded ops (no padding compared). */
bool mlf_op_equal(const struct mlf_op *a, const struct mlf_op *b);

#endif
