/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Named failures. Every check, warning and sanitizer-visible condition ends
 * here with a stable check name and the node / gen / bin / memcg / op index
 * it concerns, so a crash file's signature is the check name.
 */
#ifndef _MLF_KERNEL_REPORT_H
#define _MLF_KERNEL_REPORT_H

#include "task.h"

#define MLF_NONE (-1)

struct mlf_failure {
	const char *check;	/* stable check name, e.g. "list.links" */
	int node;		/* MLF_NONE where not applicable */
	int gen;
	int bin;
	int memcg;		/* pool slot of the memcg */
	long op;		/* op index in the input, MLF_NONE outside ops */
	char msg[1024];
};

/* Where the harness is: set by the driver, printed in every report. */
#define mlf_current_op (mlf_current()->op)

void mlf_failure_init(struct mlf_failure *f, const char *check);
/* The same, naming where: node, gen, bin and memcg (MLF_NONE if none). */
void mlf_failure_at(struct mlf_failure *f, const char *check, int node, int gen,
		    int bin, int memcg);
__attribute__((format(printf, 2, 3))) void
mlf_failure_msg(struct mlf_failure *f, const char *fmt, ...);

/*
 * A record for the checks of a hot path to fill (one per thread): a 1 KB
 * local in a function called per op or per scheduling point cost ASan a
 * shadow memset of its redzones at every call. Fill it and report it (or
 * drop it) before calling anything else that may fill it.
 */
struct mlf_failure *mlf_failure_scratch(void);

/*
 * Report a failure: print it and abort, unless a test installed a handler
 * that records it instead (the handler may return; callers then go on).
 */
void mlf_fail(const struct mlf_failure *f);
__attribute__((format(printf, 2, 3))) void mlf_fail_simple(const char *check,
							    const char *fmt,
							    ...);

typedef void (*mlf_fail_handler_t)(const struct mlf_failure *f);
mlf_fail_handler_t mlf_set_fail_handler(mlf_fail_handler_t handler);

/* Print a failure the way reports and crash logs show it. */
void mlf_print_failure(const struct mlf_failure *f);

/* Extra context printed after a failure (the trace around the op). */
typedef void (*mlf_context_printer_t)(void);
void mlf_set_context_printer(mlf_context_printer_t printer);

#endif
