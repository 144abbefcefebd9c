// SPDX-License-Identifier: GPL-2.0
/* The concurrent target's byte format (concurrent_codec.h). */
#include "concurrent_codec.h"

#include <string.h>

void mlf_sched_decode(const u8 *data, size_t size, struct sched_input *in)
{
	u8 h[MLF_SCHED_HEADER_LEN] = { 0 };
	size_t pos;

	memset(in, 0, sizeof(*in));
	memcpy(h, data, size < sizeof(h) ? size : sizeof(h));
	in->nr_nodes = 1 + h[0] % 4;
	in->pool_size = 1 + h[1] % SCHED_MAX_POOL;
	in->nr_writers = 1 + h[2] % SCHED_MAX_WRITERS;
	in->nr_readers = 1 + (h[2] >> 2) % SCHED_MAX_READERS;
	in->nr_initial = h[3] % (in->pool_size + 1);
	in->policy = h[4] & 1 ? MLF_SCHED_PCT : MLF_SCHED_INPUT;
	in->seed = h[5] | h[6] << 8 | (u32)h[7] << 16;

	for (pos = MLF_SCHED_HEADER_LEN; pos + MLF_SCHED_RECORD_LEN <= size;
	     pos += MLF_SCHED_RECORD_LEN) {
		const u8 *r = data + pos;
		int tasks = in->nr_writers + in->nr_readers;

		if (r[0] >= MLF_SCHED_WEAK) {
			struct mlf_sched_weak *w;

			if (in->nr_weak == SCHED_MAX_OPS)
				continue;
			w = &in->weak[in->nr_weak++];
			w->delay = 1 + r[1] + 256 * (r[2] % 4);
			w->back = 1 + r[3] % MLF_SCHED_MAX_BACK;
		} else if (r[0] >= MLF_SCHED_DECISION) {
			struct mlf_sched_decision *d;

			if (in->nr_decisions == SCHED_MAX_OPS)
				continue;
			d = &in->decisions[in->nr_decisions++];
			d->delay = 1 + r[1] + 256 * (r[2] % 4);
			/*
			 * canonical: the task the scheduler picks (tasks:
			 * rcu's), none for PCT's change points
			 */
			d->task = in->policy == MLF_SCHED_PCT ? 0 :
				  r[3] % (tasks + 1);
		} else {
			struct sched_op *op;

			if (in->nr_ops == SCHED_MAX_OPS)
				continue;
			op = &in->ops[in->nr_ops++];
			op->task = r[0] % tasks;
			op->node = (r[3] & 0x0f) % in->nr_nodes;
			/* canonical: a bin of 0..7, or 0 for the seed's */
			op->bin = r[3] >> 4 ? 1 + ((r[3] >> 4) - 1) % 8 : 0;
			if (op->task >= in->nr_writers) {
				op->kind = SOP_RECLAIM;
				op->target = r[2];
				continue;
			}
			op->kind = r[1] % SOP_RECLAIM;
			op->slot = r[2] % in->pool_size;
			op->arg = r[4];
			/* canonical: only the arg bits the kind reads */
			if (op->kind == SOP_ROTATE)
				op->arg %= 4;
			else if (op->kind == SOP_SOFT)
				op->arg &= 1;
			else if (op->kind != SOP_ONLINE && op->kind != SOP_SET)
				op->arg = 0;
			if (op->kind == SOP_DROP)
				op->slot = 0;
			/* only rotate and soft act on a node */
			if (op->kind != SOP_ROTATE && op->kind != SOP_SOFT)
				op->node = 0;
			/* only these draw: the others carry no bin */
			if (op->kind != SOP_ONLINE && op->kind != SOP_ROTATE &&
			    op->kind != SOP_SOFT)
				op->bin = 0;
		}
	}
}

size_t mlf_sched_encoded_len(const struct sched_input *in)
{
	return MLF_SCHED_HEADER_LEN +
	       (size_t)(in->nr_ops + in->nr_decisions + in->nr_weak) *
		       MLF_SCHED_RECORD_LEN;
}

size_t mlf_sched_encode(const struct sched_input *in, u8 *out)
{
	u8 *p = out;
	int i;

	p[0] = (u8)(in->nr_nodes - 1);
	p[1] = (u8)(in->pool_size - 1);
	/* writers = 1 + b % 3 and readers = 1 + (b >> 2) % 2 of one byte */
	p[2] = (u8)((in->nr_readers - 1) << 2);
	while (p[2] % SCHED_MAX_WRITERS != in->nr_writers - 1)
		p[2]++;
	p[3] = (u8)in->nr_initial;
	p[4] = in->policy == MLF_SCHED_PCT;
	p[5] = (u8)in->seed;
	p[6] = (u8)(in->seed >> 8);
	p[7] = (u8)(in->seed >> 16);
	p += MLF_SCHED_HEADER_LEN;
	for (i = 0; i < in->nr_ops; i++, p += MLF_SCHED_RECORD_LEN) {
		const struct sched_op *op = &in->ops[i];

		p[0] = op->task;
		p[1] = op->kind == SOP_RECLAIM ? 0 : op->kind;
		p[2] = op->kind == SOP_RECLAIM ? (u8)op->target : op->slot;
		p[3] = (u8)(op->node | op->bin << 4);
		p[4] = op->arg;
	}
	for (i = 0; i < in->nr_decisions; i++, p += MLF_SCHED_RECORD_LEN) {
		const struct mlf_sched_decision *d = &in->decisions[i];
		unsigned int delay = d->delay ? d->delay - 1u : 0;

		p[0] = MLF_SCHED_DECISION;
		p[1] = (u8)delay;
		p[2] = (u8)(delay >> 8);
		p[3] = d->task;
		p[4] = 0;
	}
	for (i = 0; i < in->nr_weak; i++, p += MLF_SCHED_RECORD_LEN) {
		const struct mlf_sched_weak *w = &in->weak[i];
		unsigned int delay = w->delay ? w->delay - 1u : 0;

		p[0] = MLF_SCHED_WEAK;
		p[1] = (u8)delay;
		p[2] = (u8)(delay >> 8);
		p[3] = (u8)(w->back ? w->back - 1 : 0);
		p[4] = 0;
	}
	return p - out;
}
