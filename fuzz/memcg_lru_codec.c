// SPDX-License-Identifier: GPL-2.0
/*
 * The byte codec of fuzz inputs. The layout of each op is in fuzz/README.md;
 * decode and encode below must stay each other's mirror, and the trace
 * round-trip tests (ctest trace/selftest, trace/roundtrip-corpus) hold them to it.
 */
#include "memcg_lru_codec.h"

#include <string.h>

#include "mm/mmzone.h"

struct cursor {
	const u8 *data;
	size_t size, pos;
};

/* Bytes that run out read as zero: every prefix of an input is an input. */
static u8 next_u8(struct cursor *c)
{
	return c->pos < c->size ? c->data[c->pos++] : 0;
}

static u16 next_u16(struct cursor *c)
{
	u16 lo = next_u8(c);

	return lo | (u16)next_u8(c) << 8;
}

int mlf_op_draws_for(const struct mlf_header *h, const struct mlf_op *op)
{
	switch (op->kind) {
	case MLF_OP_ONLINE:
	case MLF_OP_ROTATE:
	case MLF_OP_SOFT:
		return 1;
	case MLF_OP_OFFLINE:
	case MLF_OP_CSS_OFFLINE:
		/* OLD on every node: one bin each */
		return h->nr_nodes;
	case MLF_OP_RECLAIM:
		return op->nr_draws;
	default:
		return 0;
	}
}

static void decode_op(struct cursor *c, const struct mlf_header *h,
		      struct mlf_op *op)
{
	u8 flags;
	int i;

	memset(op, 0, sizeof(*op));
	op->kind = next_u8(c) % MLF_OP_NR;
	if (op->kind != MLF_OP_RECLAIM)
		op->memcg = next_u16(c) % h->pool_size;

	switch (op->kind) {
	case MLF_OP_ROTATE:
		op->node = next_u8(c) % h->nr_nodes;
		op->rotate_op = mlf_rotation(next_u8(c) % MLF_NR_ROTATIONS);
		break;
	case MLF_OP_SOFT:
		op->node = next_u8(c) % h->nr_nodes;
		op->softirq = !!(next_u8(c) & MLF_SOFT_SOFTIRQ);
		break;
	case MLF_OP_SET:
		flags = next_u8(c);
		op->below_min = !!(flags & MLF_SET_MIN);
		op->below_low = !!(flags & MLF_SET_LOW);
		op->success = !!(flags & MLF_SET_SUCCESS);
		op->sizable = !!(flags & MLF_SET_SIZABLE);
		op->nr_reclaimed = next_u8(c) % (MLF_SET_NR_RECLAIMED_MAX + 1);
		break;
	case MLF_OP_RECLAIM:
		op->node = next_u8(c) % h->nr_nodes;
		op->target = next_u8(c);
		op->nr_draws = next_u8(c) % (MLF_OP_MAX_DRAWS + 1);
		break;
	default:
		break;
	}

	op->nr_draws = mlf_op_draws_for(h, op);
	for (i = 0; i < op->nr_draws; i++)
		op->draws[i] = next_u8(c);
}

size_t mlf_decode(const u8 *data, size_t size, struct mlf_header *h,
		  struct mlf_op *ops, size_t cap)
{
	struct cursor c = { .data = data, .size = size };
	size_t n = 0;

	h->nr_nodes = 1 + next_u8(&c) % MLF_FUZZ_MAX_NODES;
	h->pool_size = 1 + next_u16(&c) % MLF_FUZZ_MAX_POOL;
	if (cap > MLF_FUZZ_MAX_OPS)
		cap = MLF_FUZZ_MAX_OPS;
	while (c.pos < c.size && n < cap)
		decode_op(&c, h, &ops[n++]);
	return n;
}

size_t mlf_encode_header(const struct mlf_header *h, u8 *out)
{
	u16 pool = h->pool_size - 1;

	out[0] = h->nr_nodes - 1;
	out[1] = pool & 0xff;
	out[2] = pool >> 8;
	return MLF_FUZZ_HEADER_BYTES;
}

size_t mlf_encode_op(const struct mlf_header *h, const struct mlf_op *op,
		     u8 *out)
{
	size_t n = 0;
	int i;

	out[n++] = op->kind;
	if (op->kind != MLF_OP_RECLAIM) {
		out[n++] = op->memcg & 0xff;
		out[n++] = op->memcg >> 8;
	}

	switch (op->kind) {
	case MLF_OP_ROTATE:
		out[n++] = op->node;
		out[n++] = mlf_rotation_index(op->rotate_op);
		break;
	case MLF_OP_SOFT:
		out[n++] = op->node;
		out[n++] = op->softirq ? MLF_SOFT_SOFTIRQ : 0;
		break;
	case MLF_OP_SET:
		out[n++] = (op->below_min ? MLF_SET_MIN : 0) |
			   (op->below_low ? MLF_SET_LOW : 0) |
			   (op->success ? MLF_SET_SUCCESS : 0) |
			   (op->sizable ? MLF_SET_SIZABLE : 0);
		out[n++] = op->nr_reclaimed;
		break;
	case MLF_OP_RECLAIM:
		out[n++] = op->node;
		out[n++] = op->target;
		out[n++] = op->nr_draws;
		break;
	default:
		break;
	}

	for (i = 0; i < mlf_op_draws_for(h, op); i++)
		out[n++] = op->draws[i];
	return n;
}

bool mlf_op_equal(const struct mlf_op *a, const struct mlf_op *b)
{
	return a->kind == b->kind && a->memcg == b->memcg &&
	       a->node == b->node && a->rotate_op == b->rotate_op &&
	       a->softirq == b->softirq && a->below_min == b->below_min &&
	       a->below_low == b->below_low && a->success == b->success &&
	       a->sizable == b->sizable &&
	       a->nr_reclaimed == b->nr_reclaimed && a->target == b->target &&
	       a->nr_draws == b->nr_draws &&
	       !memcmp(a->draws, b->draws, a->nr_draws);
}
