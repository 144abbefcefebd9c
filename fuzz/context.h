/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace around a failing op, printed after a failure's report: the
 * header, a few ops before, and the failing op marked '>'. Shared by the
 * targets; each passes its own printers for the header and for one op.
 */
#ifndef _MLF_FUZZ_CONTEXT_H
#define _MLF_FUZZ_CONTEXT_H

#include <stdio.h>

#include "mm/vmscan.h"

/*
 * Where the code under test is for a failure in the op that runs kernel
 * function @fn: its line in the tree the build cut it from, e.g.
 *   in lru_gen_rotate_memcg() at mm/vmscan.c:4226 of Linux 6.12.118
 *   (linux-source-6.12.tar.xz) + p1-5-lockrand
 */
static inline void mlf_print_tree_where(const char *fn)
{
	const struct mlf_tree_function *where = fn ? mlf_tree_where(fn) : NULL;

	if (where)
		fprintf(stderr, "in %s() at %s:%d of %s\n", where->name, where->file,
			where->line, mlf_tree_name);
}

typedef void (*mlf_print_header_fn)(FILE *out);
typedef void (*mlf_print_op_fn)(FILE *out, size_t i);

static inline void mlf_print_trace_context(long at, size_t nr_ops, long before,
					   mlf_print_header_fn header,
					   mlf_print_op_fn op)
{
	long from, i;

	if (at < 0 || at >= (long)nr_ops) {
		/* not inside an op (e.g. teardown): show how the input ended */
		fprintf(stderr, "trace (failure outside an op), last ops:\n");
		at = nr_ops;
	} else {
		fprintf(stderr, "trace around op %ld (of %zu):\n", at, nr_ops);
	}
	fprintf(stderr, "  ");
	header(stderr);
	from = at > before ? at - before : 0;
	if (from)
		fprintf(stderr, "  # ... %ld op%s before\n", from,
			from == 1 ? "" : "s");
	for (i = from; i <= at && i < (long)nr_ops; i++) {
		fprintf(stderr, "%c ", i == at ? '>' : ' ');
		op(stderr, i);
		fprintf(stderr, "\n");
	}
}

#endif
