// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target concurrent: writers and readers on the port at once
 * (src/harness/concurrent.c). The input chooses the set-up and each
 * thread's ops; the interleaving is the machine's, so a failure may not
 * replay every time.
 *
 * Input (every byte string is valid; bytes that run out read as zero):
 *   byte 0  nodes = 1 + b % 4
 *   byte 1  pool = 1 + b (1..256 memcg slots)
 *   byte 2  bit 0: 2 writers (else 1), bit 1: 2 readers (else 1),
 *           bits 2-4: cond_resched() yields every Nth time (0: never)
 *   byte 3  memcgs onlined before the threads start (modulo pool + 1)
 *   byte 4  each thread runs its ops 1 + b % 4 times
 *   byte 5-7  seed of the initial onlines' draws
 *   then the rest, split evenly, one part per thread (writers first), each
 *   a list of 4-byte ops [kind, slot, node+, draw]:
 *     writer kind b % 16: online offline release rotate soft set hold drop
 *                         yield online offline release rotate rotate soft
 *                         release;
 *            node+ = node (b % nodes), rotate op HEAD + (b >> 2) % 4,
 *            softirq (b >> 4) & 1; draw byte = shrink flags for online/set
 *     reader kind b % 8: 7 is a yield, else reclaim; slot byte = target
 *            pages (0: whole walk)
 *   A writer op draws its random numbers from its draw byte on (to the end
 *   of the thread's part); readers draw from a PRNG seeded by bytes 5-7
 *   and the thread number (see decode_op()).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/concurrent.h"

#define HEADER_LEN 8
#define OP_LEN 4

static const u8 writer_kinds[16] = {
	CONC_ONLINE, CONC_OFFLINE, CONC_RELEASE, CONC_ROTATE,
	CONC_SOFT,   CONC_SET,	   CONC_HOLD,	 CONC_DROP,
	CONC_YIELD,  CONC_ONLINE,  CONC_OFFLINE, CONC_RELEASE,
	CONC_ROTATE, CONC_ROTATE,  CONC_SOFT,	 CONC_RELEASE,
};

struct part {
	const u8 *bytes;
	size_t len;
};

static struct part parts[4];
static int repeat;
static struct conc_config config;
static unsigned long size_seen;

static void decode_op(enum conc_role role, const u8 *b, const u8 *end,
		      struct conc_op *op)
{
	memset(op, 0, sizeof(*op));
	op->node = b[2] % config.nr_nodes;
	op->slot = b[1];
	op->draws = b + 3;
	op->nr_draws = end - (b + 3);
	if (role == CONC_READER) {
		/*
		 * A walk draws a bin per rotation, without bound: from bytes
		 * that run out (zero: bin 0 every time) a walk on v6.12 can
		 * chase its own YOUNG rotations forever, which the kernel's
		 * random bins never do. Readers keep the thread's PRNG
		 * (seeded from the header) instead.
		 */
		op->draws = NULL;
		op->nr_draws = 0;
		op->kind = (b[0] & 7) == 7 ? CONC_YIELD : CONC_RECLAIM;
		op->target = b[1];
		op->arg = b[3];
		return;
	}
	op->kind = writer_kinds[b[0] & 15];
	switch (op->kind) {
	case CONC_ROTATE:
		op->arg = (b[2] >> 2) % 4;
		break;
	case CONC_SOFT:
		op->arg = (b[2] >> 4) & 1;
		break;
	default:
		op->arg = b[3];
		break;
	}
}

static void job(int thread, enum conc_role role, void *arg)
{
	const struct part *p = &parts[thread];
	const u8 *end = p->bytes + p->len;
	struct conc_op op;
	int r;

	(void)arg;
	for (r = 0; r < repeat; r++) {
		const u8 *b;

		for (b = p->bytes; b + OP_LEN <= end; b += OP_LEN) {
			decode_op(role, b, end, &op);
			conc_apply(thread, &op);
		}
	}
}

static void print_context(void)
{
	fprintf(stderr,
		"concurrent: %d node(s), pool %d, %d writer(s), %d reader(s), %d onlined first, yield every %d, %d round(s)\n",
		config.nr_nodes, config.pool_size, config.nr_writers,
		config.nr_readers, config.nr_initial, config.yield_every,
		repeat);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u8 h[HEADER_LEN] = { 0 };
	size_t body, each;
	int t, n;

	memcpy(h, data, size < HEADER_LEN ? size : HEADER_LEN);
	memset(&config, 0, sizeof(config));
	config.nr_nodes = 1 + h[0] % 4;
	config.pool_size = 1 + h[1];
	config.nr_writers = 1 + (h[2] & 1);
	config.nr_readers = 1 + ((h[2] >> 1) & 1);
	config.yield_every = (h[2] >> 2) & 7;
	config.nr_initial = h[3] % (config.pool_size + 1);
	config.seed = h[5] | h[6] << 8 | (u64)h[7] << 16;
	config.deadline_s = 20;
	repeat = 1 + h[4] % 4;

	n = config.nr_writers + config.nr_readers;
	body = size > HEADER_LEN ? size - HEADER_LEN : 0;
	each = body / n;
	for (t = 0; t < n; t++) {
		parts[t].bytes = data + HEADER_LEN + t * each;
		parts[t].len = each;
	}

	if (!size_seen++)
		/* to measure what the pool saves: threads made per input */
		conc_set_pool(!getenv("MLF_CONC_NO_POOL"));
	mlf_set_context_printer(print_context);
	conc_setup(&config);
	conc_run(job, NULL);
	conc_check();
	conc_teardown();
	return 0;
}
