// SPDX-License-Identifier: GPL-2.0
/*
 * memcg_lru's inputs as the structure-aware mutator sees them (mutator.h):
 * the 3-byte header, then one record per op, its canonical bytes
 * (memcg_lru_codec.h). New and changed ops name memcgs the input already uses most
 * of the time, so that an online is followed by rotations, offlines and
 * releases of the same memcg rather than of one of 2048 strangers.
 */
#include "memcg_lru_codec.h"
#include "mutator.h"

#include <string.h>

#include "mm/mmzone.h"

static struct mlf_op ops[MLF_FUZZ_MAX_OPS];

static void header_of(const uint8_t *hdr, struct mlf_header *h)
{
	mlf_decode(hdr, MLF_FUZZ_HEADER_BYTES, h, NULL, 0);
}

/* The op @rec encodes under @hdr; false for an empty record. */
static bool decode_record(const uint8_t *hdr, const struct mlf_record *rec,
			  struct mlf_header *h, struct mlf_op *op)
{
	uint8_t buf[MLF_FUZZ_HEADER_BYTES + MLF_MUT_MAX_RECORD];

	memcpy(buf, hdr, MLF_FUZZ_HEADER_BYTES);
	memcpy(buf + MLF_FUZZ_HEADER_BYTES, rec->b, rec->len);
	return mlf_decode(buf, MLF_FUZZ_HEADER_BYTES + rec->len, h, op, 1) == 1;
}

static void encode_record(const struct mlf_header *h, const struct mlf_op *op,
			  struct mlf_record *rec)
{
	rec->len = mlf_encode_op(h, op, rec->b);
}

static void split(const uint8_t *data, size_t size, struct mlf_records *out)
{
	struct mlf_header h;
	size_t n, i;

	n = mlf_decode(data, size, &h, ops, MLF_FUZZ_MAX_OPS);
	memset(out->header, 0, sizeof(out->header));
	mlf_encode_header(&h, out->header);
	if (n > MLF_MUT_MAX_RECORDS)
		n = MLF_MUT_MAX_RECORDS;
	for (i = 0; i < n; i++)
		encode_record(&h, &ops[i], &out->r[i]);
	out->n = n;
}

/* A memcg for a new or changed op: mostly one the input already names. */
static int pick_memcg(const struct mlf_records *in, const struct mlf_header *h,
		      struct mlf_rng *g)
{
	struct mlf_header hh;
	struct mlf_op op;
	int seen = 0;
	size_t i;

	if (in->n && !mlf_rng_one_in(g, 4)) {
		/* a random record's memcg, if it has one */
		for (i = 0; i < 4 && !seen; i++) {
			const struct mlf_record *rec =
				&in->r[mlf_rng_below(g, in->n)];

			if (decode_record(in->header, rec, &hh, &op) &&
			    op.kind != MLF_OP_RECLAIM)
				return op.memcg;
		}
	}
	/* a new one: small ids first, so that inputs meet again */
	if (mlf_rng_one_in(g, 8))
		return mlf_rng_below(g, h->pool_size);
	return mlf_rng_below(g, h->pool_size < 16 ? h->pool_size : 16);
}

static void random_draws(struct mlf_op *op, int from, struct mlf_rng *g)
{
	int i;

	for (i = from; i < op->nr_draws && i < MLF_OP_MAX_DRAWS; i++)
		op->draws[i] = mlf_rng_next(g);
}

static void random_op(const struct mlf_records *in, const struct mlf_header *h,
		      struct mlf_rng *g, struct mlf_op *op)
{
	/* rotations and reclaim move memcgs around: more of them */
	static const uint8_t kinds[] = {
		MLF_OP_ONLINE,	MLF_OP_ONLINE,	MLF_OP_ONLINE,	MLF_OP_OFFLINE,
		MLF_OP_OFFLINE, MLF_OP_GET,	MLF_OP_PUT,	MLF_OP_RELEASE,
		MLF_OP_RELEASE, MLF_OP_ROTATE,	MLF_OP_ROTATE,	MLF_OP_ROTATE,
		MLF_OP_ROTATE,	MLF_OP_SOFT,	MLF_OP_SET,	MLF_OP_SET,
		MLF_OP_RECLAIM, MLF_OP_RECLAIM, MLF_OP_RECLAIM,
		MLF_OP_CSS_OFFLINE,
	};

	memset(op, 0, sizeof(*op));
	op->kind = kinds[mlf_rng_below(g, sizeof(kinds))];
	/* a kind the table above does not know yet (MLF_OP_NR grew) */
	if (mlf_rng_one_in(g, 16))
		op->kind = mlf_rng_below(g, MLF_OP_NR);
	if (op->kind != MLF_OP_RECLAIM)
		op->memcg = pick_memcg(in, h, g);
	op->node = mlf_rng_below(g, h->nr_nodes);
	op->rotate_op = mlf_rotation(mlf_rng_below(g, MLF_NR_ROTATIONS));
	op->softirq = mlf_rng_one_in(g, 2);
	op->below_min = mlf_rng_one_in(g, 4);
	op->below_low = mlf_rng_one_in(g, 4);
	op->success = mlf_rng_one_in(g, 2);
	op->sizable = mlf_rng_one_in(g, 2);
	op->nr_reclaimed = mlf_rng_below(g, MLF_SET_NR_RECLAIMED_MAX + 1);
	op->target = mlf_rng_one_in(g, 2) ? 0 : mlf_rng_below(g, 64);
	op->nr_draws = 1 + mlf_rng_below(g, 16);
	op->nr_draws = mlf_op_draws_for(h, op);
	random_draws(op, 0, g);
}

static void random_record(const struct mlf_records *in, struct mlf_rng *g,
			  struct mlf_record *out)
{
	struct mlf_header h;
	struct mlf_op op;

	header_of(in->header, &h);
	random_op(in, &h, g, &op);
	encode_record(&h, &op, out);
}

static void tweak_record(const struct mlf_records *in, struct mlf_record *rec,
			 struct mlf_rng *g)
{
	struct mlf_header h;
	struct mlf_op op;
	int n;

	if (!decode_record(in->header, rec, &h, &op))
		return;
	switch (mlf_rng_below(g, 8)) {
	case 0:		/* another kind of op on the same memcg */
		n = op.memcg;
		random_op(in, &h, g, &op);
		if (op.kind != MLF_OP_RECLAIM)
			op.memcg = n;
		break;
	case 1 ... 2:
		if (op.kind != MLF_OP_RECLAIM)
			op.memcg = pick_memcg(in, &h, g);
		else
			op.target = mlf_rng_one_in(g, 2) ? 0 : mlf_rng_next(g) & 0xff;
		break;
	case 3:
		op.node = mlf_rng_below(g, h.nr_nodes);
		break;
	case 4:
		switch (op.kind) {
		case MLF_OP_ROTATE:
			op.rotate_op = mlf_rotation(mlf_rng_below(g, MLF_NR_ROTATIONS));
			break;
		case MLF_OP_SOFT:
			op.softirq = !op.softirq;
			break;
		case MLF_OP_SET:
			switch (mlf_rng_below(g, 5)) {
			case 0: op.below_min = !op.below_min; break;
			case 1: op.below_low = !op.below_low; break;
			case 2: op.success = !op.success; break;
			case 3: op.sizable = !op.sizable; break;
			default:
				op.nr_reclaimed = mlf_rng_below(g,
					MLF_SET_NR_RECLAIMED_MAX + 1);
			}
			break;
		case MLF_OP_RECLAIM:
			n = op.nr_draws;
			op.nr_draws = mlf_rng_below(g, MLF_OP_MAX_DRAWS + 1);
			random_draws(&op, n, g);
			break;
		}
		break;
	default:	/* one draw: a bin, the walk's next bin */
		if (op.nr_draws)
			op.draws[mlf_rng_below(g, op.nr_draws)] =
				mlf_rng_one_in(g, 2) ? mlf_rng_below(g, 8) :
						       mlf_rng_next(g);
		break;
	}
	encode_record(&h, &op, rec);
}

/* @op, decoded under @from, as the same op under @to */
static void move_op(const struct mlf_header *to, struct mlf_op *op,
		    struct mlf_rng *g)
{
	int n = op->nr_draws;

	op->memcg %= to->pool_size;
	op->node %= to->nr_nodes;
	op->nr_draws = mlf_op_draws_for(to, op);
	if (g)
		random_draws(op, n, g);
	else if (op->nr_draws > n)
		memset(op->draws + n, 0, op->nr_draws - n);
}

static void tweak_header(struct mlf_records *in, struct mlf_rng *g)
{
	struct mlf_header from, to;
	struct mlf_op op;
	size_t i;

	header_of(in->header, &from);
	to = from;
	if (mlf_rng_one_in(g, 2))
		to.nr_nodes = 1 + mlf_rng_below(g, MLF_FUZZ_MAX_NODES);
	else if (mlf_rng_one_in(g, 4))
		to.pool_size = 1 + mlf_rng_below(g, MLF_FUZZ_MAX_POOL);
	else
		to.pool_size = 1 + mlf_rng_below(g, 16);
	for (i = 0; i < in->n; i++) {
		if (!decode_record(in->header, &in->r[i], &from, &op))
			continue;
		move_op(&to, &op, g);
		encode_record(&to, &op, &in->r[i]);
	}
	mlf_encode_header(&to, in->header);
}

static void rehome(const uint8_t *from_hdr, const uint8_t *to_hdr,
		   struct mlf_record *rec)
{
	struct mlf_header from, to;
	struct mlf_op op;

	header_of(to_hdr, &to);
	if (!decode_record(from_hdr, rec, &from, &op))
		return;
	move_op(&to, &op, NULL);
	encode_record(&to, &op, rec);
}

static int memcg(const uint8_t *hdr, struct mlf_record *rec, int to)
{
	struct mlf_header h;
	struct mlf_op op;

	if (!decode_record(hdr, rec, &h, &op) || op.kind == MLF_OP_RECLAIM)
		return -1;
	if (to >= 0 && to < h.pool_size) {
		op.memcg = to;
		encode_record(&h, &op, rec);
	}
	return op.memcg;
}

static int pool_size(const uint8_t *hdr)
{
	struct mlf_header h;

	header_of(hdr, &h);
	return h.pool_size;
}

const struct mlf_format mlf_target_format = {
	.name = "memcg_lru",
	.header_len = MLF_FUZZ_HEADER_BYTES,
	.split = split,
	.random_record = random_record,
	.tweak_record = tweak_record,
	.tweak_header = tweak_header,
	.rehome = rehome,
	.memcg = memcg,
	.pool_size = pool_size,
};
