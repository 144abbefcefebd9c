/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The byte codec of the reclaim target, and its per-op trace printer (the
 * whole trace and its parser: reclaim_trace.h). Every byte string decodes:
 * bytes that run out read as zero, values wrap into range. The encoder
 * writes the canonical bytes of decoded (or parsed) ops back, so that
 * decode(encode(ops)) == ops.
 *
 *   header: nodes-1 (mod 2), pool-1 (mod 16)
 *   op:     kind (mod RECLAIM_OP_NR), then its operands:
 *     online m d p (p: 0 the root, k slot k - 1; mod pool + 1)
 *     offline m | release m | wbdone m
 *     add m n flags count | refault m n flags count
 *       flags: bit0 file, bit1 zone, bit2 dirty, bit3 writeback,
 *       bit4 referenced, bits 5-6 the folios' order; count 1 + (byte
 *       mod 16)
 *     touch flo fhi | age m n | protect m min low | swappiness m v
 *     reclaim n target prio flags ndraws draws... (flags: bit0 kswapd,
 *       bit1 dying, bits 2-3 order, bits 4-5 maxzone + 1 (0: every
 *       zone; mod 3), bits 6-7 others; prio mod 13; ndraws mod 33)
 *     park m n flags d | unpark k | shadow m n nodes | soft m n
 *     zone nz managed min gap boost reserve free (nz: bit0 node, bit1
 *       zone) | slab m n s objects-1 | sysctl flags (bit0
 *       recursiveprot, bit1 tiering) | free m n
 */
#ifndef _MLF_FUZZ_RECLAIM_CODEC_H
#define _MLF_FUZZ_RECLAIM_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "harness/reclaim_world.h"

#define MLF_RECLAIM_MAX_OPS 4096
#define MLF_RECLAIM_HEADER_BYTES 2
/* reclaim: kind node target prio flags ndraws, then the draws */
#define MLF_RECLAIM_MAX_OP_BYTES (6 + MLF_RECLAIM_MAX_DRAWS)
#define MLF_RECLAIM_MAX_NODES 2
/* the values a swappiness op can set (its byte indexes them, wrapping) */
#define MLF_RECLAIM_NR_SWAPPINESS 5
extern const u8 mlf_reclaim_swappiness_values[MLF_RECLAIM_NR_SWAPPINESS];

struct mlf_reclaim_header {
	int nr_nodes;
	int pool_size;
};

size_t mlf_reclaim_decode(const uint8_t *data, size_t size,
			  struct mlf_reclaim_header *h,
			  struct mlf_reclaim_op *ops, size_t max_ops);
/*
 * Canonical bytes of ops in range (as decode and the trace parser produce
 * them); return how many were written. @out holds at least
 * MLF_RECLAIM_HEADER_BYTES + n * MLF_RECLAIM_MAX_OP_BYTES bytes.
 */
size_t mlf_reclaim_encode_header(const struct mlf_reclaim_header *h,
				 uint8_t *out);
size_t mlf_reclaim_encode_op(const struct mlf_reclaim_op *op, uint8_t *out);
size_t mlf_reclaim_encode(const struct mlf_reclaim_header *h,
			  const struct mlf_reclaim_op *ops, size_t n,
			  uint8_t *out);
/*
 * Whether an op of @kind names its memcg (its memcg operand): not touch and
 * unpark (a folio's, a parked eviction's), a walk, zone or sysctl
 */
bool mlf_reclaim_op_names_memcg(int kind);
/* Field-wise equality of two ops (draws up to nr_draws; no padding). */
bool mlf_reclaim_op_equal(const struct mlf_reclaim_op *a,
			  const struct mlf_reclaim_op *b);

/* one line per op, as `mlf trace` shows them (format: fuzz/README.md) */
void mlf_reclaim_print_header(FILE *out, const struct mlf_reclaim_header *h);
void mlf_reclaim_print_op(FILE *out, const struct mlf_reclaim_op *op);

#endif
