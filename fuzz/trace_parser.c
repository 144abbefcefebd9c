// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target trace_parser: the bytes are trace text. The parser must never
 * crash, leak or hang on them, must explain every rejection on one line, and
 * whatever it accepts must survive print -> parse and encode -> decode
 * unchanged (check "trace.roundtrip"). Text whose first line is the reclaim
 * or the concurrent magic goes to that target's parser, under the same
 * checks (reclaim's when its codec is linked: MLF_TRACE_RECLAIM).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memcg_lru_codec.h"
#include "kernel/report.h"
#include "concurrent_trace.h"
#include "memcg_lru_trace.h"
#ifdef MLF_TRACE_RECLAIM
#include "reclaim_trace.h"
#endif

static struct mlf_op ops[MLF_FUZZ_MAX_OPS], again[MLF_FUZZ_MAX_OPS];
static u8 bytes[MLF_FUZZ_HEADER_BYTES + MLF_FUZZ_MAX_OPS * MLF_FUZZ_MAX_OP_BYTES];

static void compare(const char *how, const struct mlf_header *h1,
		    const struct mlf_op *a, long na,
		    const struct mlf_header *h2, const struct mlf_op *b,
		    long nb)
{
	long i;

	if (na != nb || h1->nr_nodes != h2->nr_nodes ||
	    h1->pool_size != h2->pool_size)
		mlf_fail_simple("trace.roundtrip",
				"%s: %ld ops (%d nodes, pool %d) became %ld (%d, %d)",
				how, na, h1->nr_nodes, h1->pool_size, nb,
				h2->nr_nodes, h2->pool_size);
	for (i = 0; i < na; i++)
		if (!mlf_op_equal(&a[i], &b[i]))
			mlf_fail_simple("trace.roundtrip", "%s: op %ld changed",
					how, i);
}

static void check_error(const struct mlf_trace_error *err)
{
	if (strncmp(err->msg, "trace:", 6) || strchr(err->msg, '\n'))
		mlf_fail_simple("trace.error",
				"rejection is not one 'trace:' line: %s",
				err->msg);
}

#ifdef MLF_TRACE_RECLAIM
static struct mlf_reclaim_op rops[MLF_RECLAIM_MAX_OPS],
	ragain[MLF_RECLAIM_MAX_OPS];
static u8 rbytes[MLF_RECLAIM_HEADER_BYTES +
		 MLF_RECLAIM_MAX_OPS * MLF_RECLAIM_MAX_OP_BYTES];

static void reclaim_compare(const char *how,
			    const struct mlf_reclaim_header *h1,
			    const struct mlf_reclaim_op *a, long na,
			    const struct mlf_reclaim_header *h2,
			    const struct mlf_reclaim_op *b, long nb)
{
	long i;

	if (na != nb || h1->nr_nodes != h2->nr_nodes ||
	    h1->pool_size != h2->pool_size)
		mlf_fail_simple(
			"trace.roundtrip",
			"reclaim %s: %ld ops (%d nodes, pool %d) became %ld (%d, %d)",
			how, na, h1->nr_nodes, h1->pool_size, nb, h2->nr_nodes,
			h2->pool_size);
	for (i = 0; i < na; i++)
		if (!mlf_reclaim_op_equal(&a[i], &b[i]))
			mlf_fail_simple("trace.roundtrip",
					"reclaim %s: op %ld changed", how, i);
}

/* a reclaim trace: parse -> print -> parse, and encode -> decode */
static void reclaim_one(const char *data, size_t size)
{
	struct mlf_reclaim_header h, h2;
	struct mlf_trace_error err;
	char *text = NULL;
	size_t len = 0, nb;
	FILE *out;
	long n, n2;

	n = mlf_reclaim_trace_parse(data, size, &h, rops, MLF_RECLAIM_MAX_OPS,
				    &err);
	if (n < 0) {
		check_error(&err);
		return;
	}

	out = open_memstream(&text, &len);
	if (!out)
		abort();
	mlf_reclaim_trace_print(out, &h, rops, n);
	fclose(out);
	if (!mlf_reclaim_trace_is(text, len))
		mlf_fail_simple(
			"trace.roundtrip",
			"reclaim: the printed trace lacks its magic line");
	n2 = mlf_reclaim_trace_parse(text, len, &h2, ragain,
				     MLF_RECLAIM_MAX_OPS, &err);
	free(text);
	if (n2 < 0)
		mlf_fail_simple("trace.roundtrip",
				"reclaim: reprinted trace fails: %s", err.msg);
	reclaim_compare("print/parse", &h, rops, n, &h2, ragain, n2);

	nb = mlf_reclaim_encode(&h, rops, n, rbytes);
	n2 = mlf_reclaim_decode(rbytes, nb, &h2, ragain, MLF_RECLAIM_MAX_OPS);
	reclaim_compare("encode/decode", &h, rops, n, &h2, ragain, n2);
}
#endif

static struct sched_input sin, sagain;
static u8 sbytes[MLF_SCHED_HEADER_LEN +
		 2 * SCHED_MAX_OPS * MLF_SCHED_RECORD_LEN];

/* a concurrent trace: parse -> print -> parse, and encode -> decode */
static void sched_one(const char *data, size_t size)
{
	struct mlf_trace_error err;
	char *text = NULL;
	size_t len = 0, nb;
	FILE *out;
	long n;

	n = mlf_sched_trace_parse(data, size, &sin, &err);
	if (n < 0) {
		check_error(&err);
		return;
	}
	if (n != sin.nr_ops + sin.nr_decisions)
		mlf_fail_simple("trace.roundtrip",
				"concurrent: parse counts %ld records of %d ops and %d decisions",
				n, sin.nr_ops, sin.nr_decisions);

	out = open_memstream(&text, &len);
	if (!out)
		abort();
	mlf_sched_trace_print(out, &sin);
	fclose(out);
	if (!mlf_sched_trace_is(text, len))
		mlf_fail_simple(
			"trace.roundtrip",
			"concurrent: the printed trace lacks its magic line");
	n = mlf_sched_trace_parse(text, len, &sagain, &err);
	free(text);
	if (n < 0)
		mlf_fail_simple("trace.roundtrip",
				"concurrent: reprinted trace fails: %s", err.msg);
	if (!mlf_sched_input_equal(&sin, &sagain))
		mlf_fail_simple("trace.roundtrip",
				"concurrent print/parse: the input changed");

	nb = mlf_sched_encode(&sin, sbytes);
	mlf_sched_decode(sbytes, nb, &sagain);
	if (!mlf_sched_input_equal(&sin, &sagain))
		mlf_fail_simple("trace.roundtrip",
				"concurrent encode/decode: the input changed");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mlf_trace_error err;
	struct mlf_header h, h2;
	char *text = NULL;
	size_t len = 0, nb, i;
	FILE *out;
	long n, n2;

#ifdef MLF_TRACE_RECLAIM
	if (mlf_reclaim_trace_is((const char *)data, size)) {
		reclaim_one((const char *)data, size);
		return 0;
	}
#endif
	if (mlf_sched_trace_is((const char *)data, size)) {
		sched_one((const char *)data, size);
		return 0;
	}
	n = mlf_trace_parse((const char *)data, size, &h, ops, MLF_FUZZ_MAX_OPS,
			    &err);
	if (n < 0) {
		check_error(&err);
		return 0;
	}

	out = open_memstream(&text, &len);
	if (!out)
		abort();
	mlf_trace_print(out, &h, ops, n);
	fclose(out);
	n2 = mlf_trace_parse(text, len, &h2, again, MLF_FUZZ_MAX_OPS, &err);
	free(text);
	if (n2 < 0)
		mlf_fail_simple("trace.roundtrip", "reprinted trace fails: %s",
				err.msg);
	compare("print/parse", &h, ops, n, &h2, again, n2);

	nb = mlf_encode_header(&h, bytes);
	for (i = 0; i < (size_t)n; i++)
		nb += mlf_encode_op(&h, &ops[i], bytes + nb);
	n2 = mlf_decode(bytes, nb, &h2, again, MLF_FUZZ_MAX_OPS);
	compare("encode/decode", &h, ops, n, &h2, again, n2);
	return 0;
}
