// SPDX-License-Identifier: GPL-2.0
/*
 * mlf-trace's codec of the memcg_lru target: its byte codec (memcg_lru_codec.h) and
 * its trace (memcg_lru_trace.h) behind struct codec.
 */
#include "mlf_trace.h"

#define MAX_BYTES \
	(MLF_FUZZ_HEADER_BYTES + MLF_FUZZ_MAX_OPS * MLF_FUZZ_MAX_OP_BYTES)

static struct mlf_op ops[MLF_FUZZ_MAX_OPS], again[MLF_FUZZ_MAX_OPS];
static u8 bytes[MAX_BYTES];

static size_t lru_decode(const u8 *data, size_t size, union header *h, void *o)
{
	return mlf_decode(data, size, &h->lru, o, MLF_FUZZ_MAX_OPS);
}

static void lru_print(FILE *out, const union header *h, const void *o, size_t n)
{
	mlf_trace_print(out, &h->lru, o, n);
}

static long lru_parse(const char *text, size_t len, union header *h, void *o,
		      struct mlf_trace_error *err)
{
	return mlf_trace_parse(text, len, &h->lru, o, MLF_FUZZ_MAX_OPS, err);
}

static size_t lru_encode(const union header *h, const void *o, size_t n,
			 u8 *out)
{
	const struct mlf_op *op = o;
	size_t len = mlf_encode_header(&h->lru, out), i;

	for (i = 0; i < n; i++)
		len += mlf_encode_op(&h->lru, &op[i], out + len);
	return len;
}

static bool lru_op_equal(const void *a, const void *b, size_t i)
{
	return mlf_op_equal((const struct mlf_op *)a + i,
			    (const struct mlf_op *)b + i);
}

const struct codec mlf_trace_codec_lru = {
	.ops = ops,
	.again = again,
	.bytes = bytes,
	.regenerate = "regenerate with tools/mlf corpus",
	.decode = lru_decode,
	.print = lru_print,
	.parse = lru_parse,
	.encode = lru_encode,
	.op_equal = lru_op_equal,
};
