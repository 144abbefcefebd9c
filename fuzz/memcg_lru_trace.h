/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace: the readable twin of a fuzz input, one op per line (format in
 * fuzz/README.md). It prints every decoded input and parses back to the
 * same ops; reproducers, regression tests and bug reports are written in it.
 */
#ifndef _MLF_FUZZ_TRACE_H
#define _MLF_FUZZ_TRACE_H

#include <stdio.h>

#include "memcg_lru_codec.h"
#include "mlf_targets.h" /* generated from fuzz/targets.json */
#include "trace_lex.h" /* struct mlf_trace_error */

#define MLF_TRACE_MAGIC MLF_TRACE_MAGIC_MEMCG_LRU
/* the reclaim target's (reclaim_trace.h): each parser refuses the other's */
#define MLF_RECLAIM_TRACE_MAGIC MLF_TRACE_MAGIC_RECLAIM

/* The magic line, the header line, then one line per op. */
void mlf_trace_print(FILE *out, const struct mlf_header *h,
		     const struct mlf_op *ops, size_t n);
void mlf_trace_print_header(FILE *out, const struct mlf_header *h);
/* One op, without the newline. */
void mlf_trace_print_op(FILE *out, const struct mlf_header *h,
			const struct mlf_op *op);

/*
 * Parse @len bytes of trace text (no NUL needed) into @h and at most @cap
 * ops. Returns the number of ops, or -1 with @err filled for the first bad
 * line (or a missing header).
 */
long mlf_trace_parse(const char *text, size_t len, struct mlf_header *h,
		     struct mlf_op *ops, size_t cap,
		     struct mlf_trace_error *err);

#endif
