// SPDX-License-Identifier: GPL-2.0
/*
 * The concurrent target's inputs as the structure-aware mutator sees them
 * (mutator.h): the 8-byte header, then 5-byte records, each an op of a
 * task, a schedule decision or a weak choice (concurrent_codec.h). Records are
 * kept as the input has them (the kinds interleaved: each kind is read in
 * its own order, so moving one past another changes nothing, and moving
 * one past its own kind reorders that kind). Changing a record keeps its
 * kind: an op's task, kind, memcg, node or argument; a decision's delay
 * (mostly a small step, so that a schedule is tuned rather than replaced)
 * or the task it switches to; a weak choice's delay (likewise) or how far
 * back it reads.
 */
#include "mutator.h"
#include "concurrent_codec.h"

#include <string.h>

static void split(const uint8_t *data, size_t size, struct mlf_records *out)
{
	size_t pos, n = 0;

	memset(out->header, 0, sizeof(out->header));
	memcpy(out->header, data,
	       size < MLF_SCHED_HEADER_LEN ? size : MLF_SCHED_HEADER_LEN);
	for (pos = MLF_SCHED_HEADER_LEN;
	     pos + MLF_SCHED_RECORD_LEN <= size && n < MLF_MUT_MAX_RECORDS;
	     pos += MLF_SCHED_RECORD_LEN, n++) {
		out->r[n].len = MLF_SCHED_RECORD_LEN;
		memcpy(out->r[n].b, data + pos, MLF_SCHED_RECORD_LEN);
	}
	out->n = n;
}

/* A slot the input's ops already name, mostly. */
static uint8_t pick_slot(const struct mlf_records *in, struct mlf_rng *g)
{
	size_t i;

	if (in->n && !mlf_rng_one_in(g, 4))
		for (i = 0; i < 4; i++) {
			const uint8_t *r = in->r[mlf_rng_below(g, in->n)].b;

			if (r[0] < MLF_SCHED_DECISION)
				return r[2];
		}
	return mlf_rng_below(g, 8);
}

static void random_decision(struct mlf_rng *g, uint8_t *r)
{
	r[0] = MLF_SCHED_DECISION +
	       mlf_rng_below(g, MLF_SCHED_WEAK - MLF_SCHED_DECISION);
	/* mostly short delays: a switch soon after the last one */
	r[1] = mlf_rng_one_in(g, 2) ? mlf_rng_below(g, 16) : mlf_rng_next(g);
	r[2] = mlf_rng_one_in(g, 4) ? mlf_rng_below(g, 4) : 0;
	r[3] = mlf_rng_below(g, SCHED_MAX_WRITERS + SCHED_MAX_READERS);
	r[4] = 0;
}

/* mostly the next store back, at a weak choice point soon after the last */
static void random_weak(struct mlf_rng *g, uint8_t *r)
{
	r[0] = MLF_SCHED_WEAK + mlf_rng_below(g, 0x100 - MLF_SCHED_WEAK);
	r[1] = mlf_rng_one_in(g, 2) ? mlf_rng_below(g, 16) : mlf_rng_next(g);
	r[2] = mlf_rng_one_in(g, 8) ? mlf_rng_below(g, 4) : 0;
	r[3] = mlf_rng_one_in(g, 2) ? 0 : mlf_rng_below(g, MLF_SCHED_MAX_BACK);
	r[4] = 0;
}

static void random_op(const struct mlf_records *in, struct mlf_rng *g,
		      uint8_t *r)
{
	r[0] = mlf_rng_below(g, SCHED_MAX_WRITERS + SCHED_MAX_READERS);
	r[1] = mlf_rng_below(g, SOP_RECLAIM);
	r[2] = pick_slot(in, g);
	/* a node; half the time the op's first draw (a bin) too */
	r[3] = mlf_rng_below(g, 4);
	if (mlf_rng_one_in(g, 2))
		r[3] |= (1 + mlf_rng_below(g, 8)) << 4;
	r[4] = mlf_rng_next(g);
}

static void random_record(const struct mlf_records *in, struct mlf_rng *g,
			  struct mlf_record *out)
{
	out->len = MLF_SCHED_RECORD_LEN;
	switch (mlf_rng_below(g, 6)) {
	case 0 ... 1:
		random_decision(g, out->b);
		break;
	case 2:
		random_weak(g, out->b);
		break;
	default:
		random_op(in, g, out->b);
	}
}

static void tweak_record(const struct mlf_records *in, struct mlf_record *rec,
			 struct mlf_rng *g)
{
	uint8_t *r = rec->b, fresh[MLF_SCHED_RECORD_LEN];
	int k;

	if (rec->len != MLF_SCHED_RECORD_LEN)
		return;
	if (r[0] >= MLF_SCHED_WEAK) {
		switch (mlf_rng_below(g, 4)) {
		case 0 ... 1: /* the delay, a point or two */
			r[1] += mlf_rng_one_in(g, 2) ?
					1 + mlf_rng_below(g, 2) :
					-1 - (int)mlf_rng_below(g, 2);
			break;
		case 2: /* the delay, anew */
			random_weak(g, fresh);
			r[1] = fresh[1];
			r[2] = fresh[2];
			break;
		default: /* how far back */
			r[3] = mlf_rng_below(g, MLF_SCHED_MAX_BACK);
		}
		return;
	}
	if (r[0] >= MLF_SCHED_DECISION) {
		switch (mlf_rng_below(g, 4)) {
		case 0 ... 1: /* the delay, a step or two */
			r[1] += mlf_rng_one_in(g, 2) ?
					1 + mlf_rng_below(g, 2) :
					-1 - (int)mlf_rng_below(g, 2);
			break;
		case 2: /* the delay, anew */
			random_decision(g, fresh);
			r[1] = fresh[1];
			r[2] = fresh[2];
			break;
		default: /* the task it switches to */
			r[3] = mlf_rng_below(g, SCHED_MAX_WRITERS +
							SCHED_MAX_READERS);
		}
		return;
	}
	random_op(in, g, fresh);
	/* one field of the op: task, kind, slot, node and bin, arg */
	k = mlf_rng_below(g, MLF_SCHED_RECORD_LEN);
	r[k] = fresh[k];
}

static void tweak_header(struct mlf_records *in, struct mlf_rng *g)
{
	uint8_t *h = in->header;

	switch (mlf_rng_below(g, 6)) {
	case 0:
		h[0] = mlf_rng_below(g, 4);
		break; /* nodes */
	case 1:
		h[1] = mlf_rng_below(g, 8);
		break; /* pool, small */
	case 2:
		h[2] = mlf_rng_next(g);
		break; /* tasks */
	case 3:
		h[3] = mlf_rng_below(g, 8);
		break; /* onlined */
	case 4:
		h[4] ^= 1;
		break; /* policy */
	default:
		h[5 + mlf_rng_below(g, 3)] = mlf_rng_next(g); /* seed */
	}
}

const struct mlf_format mlf_target_format = {
	.name = "concurrent",
	.header_len = MLF_SCHED_HEADER_LEN,
	.split = split,
	.random_record = random_record,
	.tweak_record = tweak_record,
	.tweak_header = tweak_header,
};
