/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The concurrent target's trace: the readable twin of a scheduled input
 * (concurrent_codec.h), one line per op and per schedule decision:
 *
 *   # mlf concurrent trace v1
 *   nodes 2 pool 8
 *   run writers=2 readers=1 initial=3 policy=input seed=11259375
 *   t0 online m3 success sizable reclaimed=1 bin=2
 *   t1 rotate m0 n1 TAIL
 *   t1 soft m0 n1 softirq
 *   t2 reclaim n0 target=0
 *   switch after=17 to=t1
 *   weak after=3 back=1
 *
 * It carries exactly what the bytes do: it parses back to the same input,
 * and mlf_sched_encode() turns that into the canonical bytes, so a
 * reproducer can be read, edited and minimized (fuzz/README.md).
 */
#ifndef _MLF_FUZZ_SCHED_TRACE_H
#define _MLF_FUZZ_SCHED_TRACE_H

#include <stdbool.h>
#include <stdio.h>

#include "mlf_targets.h" /* generated from fuzz/targets.json */
#include "concurrent_codec.h"
#include "trace_lex.h" /* struct mlf_trace_error */

#define MLF_SCHED_TRACE_MAGIC MLF_TRACE_MAGIC_CONCURRENT

/*
 * The magic line, the header line, the run line, one line per op (in
 * order), then one per decision, then one per weak choice (in order).
 */
void mlf_sched_trace_print(FILE *out, const struct sched_input *in);
/* 'run writers=W readers=R initial=I policy=P seed=S', no newline */
void mlf_sched_trace_print_run(FILE *out, const struct sched_input *in);
/* op @i, or decision @i, without the newline */
void mlf_sched_trace_print_op(FILE *out, const struct sched_input *in, int i);
void mlf_sched_trace_print_decision(FILE *out, const struct sched_input *in,
				    int i);
void mlf_sched_trace_print_weak(FILE *out, const struct sched_input *in,
				int i);

/* Whether @len bytes of text begin with the concurrent magic line. */
bool mlf_sched_trace_is(const char *text, size_t len);

/*
 * Parse @len bytes of concurrent trace text (no NUL needed) into @in.
 * Returns the number of records (ops, decisions, weak choices), or -1 with @err
 * filled for the first bad line (or a missing header or run line). What
 * it accepts is what the bytes can carry: mlf_sched_encode() of it
 * decodes to the same input.
 */
long mlf_sched_trace_parse(const char *text, size_t len,
			   struct sched_input *in,
			   struct mlf_trace_error *err);

/* Whether @a and @b are the same input (header, ops, decisions). */
bool mlf_sched_input_equal(const struct sched_input *a,
			   const struct sched_input *b);

#endif
