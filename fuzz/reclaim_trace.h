/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reclaim target's trace: the readable twin of a reclaim input, one op
 * per line in the format mlf_reclaim_print_op() prints (fuzz/README.md).
 * It parses back to the same ops, and mlf_reclaim_encode() turns those into
 * the canonical bytes, so a reproducer can be read, edited and minimized.
 */
#ifndef _MLF_FUZZ_RECLAIM_TRACE_H
#define _MLF_FUZZ_RECLAIM_TRACE_H

#include <stdbool.h>
#include <stdio.h>

#include "reclaim_codec.h"
#include "memcg_lru_trace.h"

/* the first line of a reclaim trace; it tells it from a memcg_lru trace */
/* MLF_RECLAIM_TRACE_MAGIC: memcg_lru_trace.h */

/* The magic line, the header line, then one line per op. */
void mlf_reclaim_trace_print(FILE *out, const struct mlf_reclaim_header *h,
			     const struct mlf_reclaim_op *ops, size_t n);

/*
 * Whether @len bytes of text are a reclaim trace: their first line is the
 * magic line (trailing blanks and a CR allowed).
 */
bool mlf_reclaim_trace_is(const char *text, size_t len);

/*
 * Parse @len bytes of reclaim trace text (no NUL needed) into @h and at
 * most @cap ops. Returns the number of ops, or -1 with @err filled for the
 * first bad line (or a missing header). Whatever it accepts encodes
 * (mlf_reclaim_encode) to bytes that decode to the same ops.
 */
long mlf_reclaim_trace_parse(const char *text, size_t len,
			     struct mlf_reclaim_header *h,
			     struct mlf_reclaim_op *ops, size_t cap,
			     struct mlf_trace_error *err);

#endif
