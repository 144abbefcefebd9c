/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The byte codec of the reclaim target, and its trace printer. Every byte
 * string decodes: bytes that run out read as zero, sizes are clamped.
 *
 *   header: nodes-1 (mod 2), pool-1 (mod 16)
 *   op:     kind (mod RECLAIM_OP_NR), then its operands:
 *     online m d | offline m | release m | wbdone m
 *     add m n flags count | refault m n flags count
 *       flags: bit0 file, bit1 zone, bit2 dirty, bit3 writeback,
 *       bit4 referenced; count 1 + (byte mod 16)
 *     touch flo fhi | age m n | protect m min low | swappiness m v
 *     reclaim n target prio flags ndraws draws... (flags: bit0 kswapd,
 *       bit1 dying; prio mod 13; ndraws mod 33)
 *     park m n flags d | unpark k | shadow m n nodes
 */
#ifndef _MLF_FUZZ_RECLAIM_CODEC_H
#define _MLF_FUZZ_RECLAIM_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "harness/reclaim_world.h"

#define MLF_RECLAIM_MAX_OPS 4096

struct mlf_reclaim_header {
	int nr_nodes;
	int pool_size;
};

size_t mlf_reclaim_decode(const uint8_t *data, size_t size,
			  struct mlf_reclaim_header *h,
			  struct mlf_reclaim_op *ops, size_t max_ops);
/* one line per op, as `mlf trace` shows them */
void mlf_reclaim_print_header(FILE *out, const struct mlf_reclaim_header *h);
void mlf_reclaim_print_op(FILE *out, const struct mlf_reclaim_op *op);

#endif
