// SPDX-License-Identifier: GPL-2.0
/* Named failure reports: printing, and the handler tests may replace. */
#include "report.h"
#include "sanitizer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static mlf_fail_handler_t fail_handler;
static mlf_context_printer_t context_printer;

void mlf_failure_init(struct mlf_failure *f, const char *check)
{
	memset(f, 0, sizeof(*f));
	f->check = check;
	f->node = f->gen = f->bin = f->memcg = MLF_NONE;
	f->op = mlf_current_op;
}

struct mlf_failure *mlf_failure_scratch(void)
{
	static __thread struct mlf_failure scratch;

	return &scratch;
}

void mlf_failure_at(struct mlf_failure *f, const char *check, int node,
		    int gen, int bin, int memcg)
{
	mlf_failure_init(f, check);
	f->node = node;
	f->gen = gen;
	f->bin = bin;
	f->memcg = memcg;
}

void mlf_failure_msg(struct mlf_failure *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
}

void mlf_print_failure(const struct mlf_failure *f)
{
	fprintf(stderr, "MLF FAILURE: check=%s", f->check);
	if (f->op != MLF_NONE)
		fprintf(stderr, " op=%ld", f->op);
	if (f->node != MLF_NONE)
		fprintf(stderr, " node=%d", f->node);
	if (f->gen != MLF_NONE)
		fprintf(stderr, " gen=%d", f->gen);
	if (f->bin != MLF_NONE)
		fprintf(stderr, " bin=%d", f->bin);
	if (f->memcg != MLF_NONE)
		fprintf(stderr, " memcg=m%d", f->memcg);
	fprintf(stderr, "\n  %s\n", f->msg);
}

mlf_fail_handler_t mlf_set_fail_handler(mlf_fail_handler_t handler)
{
	mlf_fail_handler_t old = fail_handler;

	fail_handler = handler;
	return old;
}

void mlf_set_context_printer(mlf_context_printer_t printer)
{
	context_printer = printer;
}

#ifdef MLF_TSAN
__thread int mlf_tsan_ignore_depth;
#endif

void mlf_fail(const struct mlf_failure *f)
{
	/* a harness check's ignored stretch ends here: the run may end too */
	int ignored = mlf_tsan_ignore_reset();

	if (fail_handler) {
		fail_handler(f);
		mlf_tsan_ignore_restore(ignored);
		return;
	}
	mlf_print_failure(f);
	if (context_printer)
		context_printer();
	fflush(stderr);
	abort();
}

void mlf_fail_simple(const char *check, const char *fmt, ...)
{
	struct mlf_failure f;
	va_list ap;

	mlf_failure_init(&f, check);
	va_start(ap, fmt);
	vsnprintf(f.msg, sizeof(f.msg), fmt, ap);
	va_end(ap);
	mlf_fail(&f);
}
