// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target reclaim: folios, protections, reclaim walks that run the real
 * MGLRU eviction, evictions parked between isolation and writeback, and
 * memcgs going offline and away in between. reclaim_world checks the memcg
 * LRU structure, isolation accounting, the throttle, the shadow budget and
 * stat reparenting after every op and at the eviction probes. A failure
 * aborts through mlf_fail(); the context printer shows the trace around it.
 */
#include <stdint.h>
#include <stdlib.h>

#include "reclaim_codec.h"

#define CONTEXT_BEFORE 8

static struct mlf_reclaim_header header;
static struct mlf_reclaim_op ops[MLF_RECLAIM_MAX_OPS];
static size_t nr_ops;
static struct mlf_reclaim_world world;

static void print_context(void)
{
	long at = mlf_current_op;
	long from, i;

	if (at < 0 || at >= (long)nr_ops) {
		fprintf(stderr, "trace (failure outside an op), last ops:\n");
		at = nr_ops;
	} else {
		fprintf(stderr, "trace around op %ld (of %zu):\n", at, nr_ops);
	}
	fprintf(stderr, "  ");
	mlf_reclaim_print_header(stderr, &header);
	from = at > CONTEXT_BEFORE ? at - CONTEXT_BEFORE : 0;
	if (from)
		fprintf(stderr, "  # ... %ld op%s before\n", from,
			from == 1 ? "" : "s");
	for (i = from; i <= at && i < (long)nr_ops; i++) {
		fprintf(stderr, "%c ", i == at ? '>' : ' ');
		mlf_reclaim_print_op(stderr, &ops[i]);
		fprintf(stderr, "\n");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t i;

	mlf_set_context_printer(print_context);
	nr_ops = mlf_reclaim_decode(data, size, &header, ops,
				    MLF_RECLAIM_MAX_OPS);
	reclaim_world_init(&world, header.nr_nodes, header.pool_size);
	for (i = 0; i < nr_ops; i++)
		reclaim_world_apply(&world, &ops[i]);
	reclaim_world_destroy(&world);
	return 0;
}
