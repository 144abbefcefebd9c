// SPDX-License-Identifier: GPL-2.0
/*
 * mlf-trace's codec of the concurrent target: its byte codec
 * (concurrent_codec.h) and its trace (concurrent_trace.h) behind struct codec. An
 * input's "ops" are one struct sched_input, and its records, counted by
 * the interface, are its ops, then its decisions, then its weak choices
 * (the canonical order); the header is the nodes and pool line with the
 * run line.
 */
#include "mlf_trace.h"

#define SCHED_MAX_BYTES \
	(MLF_SCHED_HEADER_LEN + 3 * SCHED_MAX_OPS * MLF_SCHED_RECORD_LEN)

static struct sched_input input, again;
static u8 bytes[SCHED_MAX_BYTES];

static void header_of(const struct sched_input *in, union header *h)
{
	h->sched = (struct sched_header){
		.nr_nodes = in->nr_nodes,
		.pool_size = in->pool_size,
		.nr_writers = in->nr_writers,
		.nr_readers = in->nr_readers,
		.nr_initial = in->nr_initial,
		.policy = in->policy,
		.seed = in->seed,
	};
}

/* the header @h into @in, whose records stay */
static void use_header(struct sched_input *in, const union header *h)
{
	in->nr_nodes = h->sched.nr_nodes;
	in->pool_size = h->sched.pool_size;
	in->nr_writers = h->sched.nr_writers;
	in->nr_readers = h->sched.nr_readers;
	in->nr_initial = h->sched.nr_initial;
	in->policy = h->sched.policy;
	in->seed = h->sched.seed;
}

static size_t sched_decode(const u8 *data, size_t size, union header *h,
			   void *o)
{
	struct sched_input *in = o;

	mlf_sched_decode(data, size, in);
	header_of(in, h);
	return in->nr_ops + in->nr_decisions + in->nr_weak;
}

static void sched_print(FILE *out, const union header *h, const void *o,
			size_t n)
{
	struct sched_input *in = (struct sched_input *)o;

	(void)n; /* the input's own counts */
	use_header(in, h);
	mlf_sched_trace_print(out, in);
}

static long sched_parse(const char *text, size_t len, union header *h,
			void *o, struct mlf_trace_error *err)
{
	struct sched_input *in = o;
	long n = mlf_sched_trace_parse(text, len, in, err);

	if (n >= 0)
		header_of(in, h);
	return n;
}

static size_t sched_encode(const union header *h, const void *o, size_t n,
			   u8 *out)
{
	struct sched_input *in = (struct sched_input *)o;

	(void)n;
	use_header(in, h);
	return mlf_sched_encode(in, out);
}

/* record @i of @a and of @b: the same op, decision or weak choice */
static bool sched_record_equal(const void *a, const void *b, size_t i)
{
	const struct sched_input *x = a, *y = b;

	if (i < (size_t)x->nr_ops) {
		const struct sched_op *p = &x->ops[i], *q = &y->ops[i];

		return i < (size_t)y->nr_ops && p->task == q->task &&
		       p->kind == q->kind && p->slot == q->slot &&
		       p->node == q->node && p->arg == q->arg &&
		       p->target == q->target && p->bin == q->bin;
	}
	if (i < (size_t)y->nr_ops || x->nr_ops != y->nr_ops)
		return false;
	i -= x->nr_ops;
	if (i < (size_t)x->nr_decisions)
		return i < (size_t)y->nr_decisions &&
		       x->decisions[i].delay == y->decisions[i].delay &&
		       x->decisions[i].task == y->decisions[i].task;
	if (i < (size_t)y->nr_decisions || x->nr_decisions != y->nr_decisions)
		return false;
	i -= x->nr_decisions;
	return x->weak[i].delay == y->weak[i].delay &&
	       x->weak[i].back == y->weak[i].back;
}

static bool sched_header_equal(const union header *a, const union header *b)
{
	return a->sched.nr_writers == b->sched.nr_writers &&
	       a->sched.nr_readers == b->sched.nr_readers &&
	       a->sched.nr_initial == b->sched.nr_initial &&
	       a->sched.policy == b->sched.policy &&
	       a->sched.seed == b->sched.seed;
}

const struct codec mlf_trace_codec_sched = {
	.ops = &input,
	.again = &again,
	.bytes = bytes,
	.regenerate =
		"regenerate with tools/mlf corpus --target concurrent, or mlf-trace encode the twin",
	.decode = sched_decode,
	.print = sched_print,
	.parse = sched_parse,
	.encode = sched_encode,
	.op_equal = sched_record_equal,
	.header_equal = sched_header_equal,
};
