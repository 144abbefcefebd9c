// SPDX-License-Identifier: GPL-2.0
/*
 * mlf-trace's codec of the reclaim target: its byte codec
 * (reclaim_codec.h) and its trace (reclaim_trace.h) behind struct codec.
 * Built when the reclaim codec is linked (MLF_TRACE_RECLAIM).
 */
#include "mlf_trace.h"

#ifdef MLF_TRACE_RECLAIM
#define RECLAIM_MAX_BYTES           \
	(MLF_RECLAIM_HEADER_BYTES + \
	 MLF_RECLAIM_MAX_OPS * MLF_RECLAIM_MAX_OP_BYTES)
static struct mlf_reclaim_op rops[MLF_RECLAIM_MAX_OPS],
	ragain[MLF_RECLAIM_MAX_OPS];
static u8 rbytes[RECLAIM_MAX_BYTES];

static size_t reclaim_decode(const u8 *data, size_t size, union header *h,
			     void *o)
{
	return mlf_reclaim_decode(data, size, &h->reclaim, o,
				  MLF_RECLAIM_MAX_OPS);
}

static void reclaim_print(FILE *out, const union header *h, const void *o,
			  size_t n)
{
	mlf_reclaim_trace_print(out, &h->reclaim, o, n);
}

static long reclaim_parse(const char *text, size_t len, union header *h,
			  void *o, struct mlf_trace_error *err)
{
	return mlf_reclaim_trace_parse(text, len, &h->reclaim, o,
				       MLF_RECLAIM_MAX_OPS, err);
}

static size_t reclaim_encode(const union header *h, const void *o, size_t n,
			     u8 *out)
{
	return mlf_reclaim_encode(&h->reclaim, o, n, out);
}

static bool reclaim_op_equal(const void *a, const void *b, size_t i)
{
	return mlf_reclaim_op_equal((const struct mlf_reclaim_op *)a + i,
				    (const struct mlf_reclaim_op *)b + i);
}

const struct codec mlf_trace_codec_reclaim = {
	.ops = rops,
	.again = ragain,
	.bytes = rbytes,
	.regenerate =
		"regenerate with tools/mlf corpus --target reclaim, or mlf-trace encode the twin",
	.decode = reclaim_decode,
	.print = reclaim_print,
	.parse = reclaim_parse,
	.encode = reclaim_encode,
	.op_equal = reclaim_op_equal,
};
#endif
