// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target trace_parser: the bytes are trace text. The parser must never
 * crash, leak or hang on them, must explain every rejection on one line, and
 * whatever it accepts must survive print -> parse and encode -> decode
 * unchanged (check "trace.roundtrip").
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "kernel/report.h"
#include "trace.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mlf_trace_error err;
	struct mlf_header h, h2;
	char *text = NULL;
	size_t len = 0, nb, i;
	FILE *out;
	long n, n2;

	n = mlf_trace_parse((const char *)data, size, &h, ops, MLF_FUZZ_MAX_OPS,
			    &err);
	if (n < 0) {
		if (strncmp(err.msg, "trace:", 6) || strchr(err.msg, '\n'))
			mlf_fail_simple("trace.error",
					"rejection is not one 'trace:' line: %s",
					err.msg);
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
