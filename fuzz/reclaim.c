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

#include "context.h"
#include "engine_counters.h"
#include "harness/states.h"
#include "reclaim_codec.h"
#include "reclaim_meetings.h"

#define CONTEXT_BEFORE 8

static struct mlf_reclaim_header header;
static struct mlf_reclaim_op ops[MLF_RECLAIM_MAX_OPS];
static size_t nr_ops;
static struct mlf_reclaim_world world;

static void print_header(FILE *out)
{
	mlf_reclaim_print_header(out, &header);
}

static void print_op(FILE *out, size_t i)
{
	mlf_reclaim_print_op(out, &ops[i]);
}

/* the kernel function of the code under test each op runs (none: NULL) */
static const char *const op_kernel_functions[RECLAIM_OP_NR] = {
	[RECLAIM_OP_ONLINE] = "lru_gen_online_memcg",
	[RECLAIM_OP_OFFLINE] = "mem_cgroup_css_offline",
	[RECLAIM_OP_RELEASE] = "mem_cgroup_css_released",
	[RECLAIM_OP_RECLAIM] = "lru_gen_shrink_node",
};

static void print_context(void)
{
	long at = mlf_current_op;

	if (at >= 0 && at < (long)nr_ops && ops[at].kind < RECLAIM_OP_NR)
		mlf_print_tree_where(op_kernel_functions[ops[at].kind]);
	mlf_print_trace_context(at, nr_ops, CONTEXT_BEFORE, print_header, print_op);
}

/* the state coverage as the engine's extra coverage (memcg_lru.c) */
static unsigned char state_feedback[ST_NR_COUNTERS]
	__attribute__((section("__libfuzzer_extra_counters"), used));

/*
 * Where each memcg stands after each op, whether or not an op meets it
 * there, as counters of their own (not state coverage): an input that
 * leaves a memcg in a new place is kept, for a meeting to find it there
 * and put in the ops that meet it (the places that take several ops to
 * build: a stale walk's young tail, then the memcg dying in it)
 */
static unsigned char stood_feedback[ST_NR_LRU_PLACES]
	__attribute__((section("__libfuzzer_extra_counters"), used));

static void stood(void *arg, int slot, int nid, const struct mlf_state_cell *c,
		  int folio, int parked)
{
	(void)arg, (void)slot, (void)nid, (void)folio, (void)parked;
	stood_feedback[mlf_state_place(c)] = 1;
}

/*
 * The memcg op @i names, where a meeting always looks (the state it met
 * there may last only until that op); -1 if it names none (a walk: its
 * memcgs are the places looked at at random)
 */
static int op_memcg(size_t i)
{
	if (i >= nr_ops || !mlf_reclaim_op_names_memcg(ops[i].kind))
		return -1;
	return ops[i].memcg % header.pool_size;
}

static void run(const uint8_t *data, size_t size,
		struct reclaim_meeting_pick *pick)
{
	size_t i;

	mlf_set_context_printer(print_context);
	nr_ops = mlf_reclaim_decode(data, size, &header, ops,
				    MLF_RECLAIM_MAX_OPS);
	reclaim_world_init(&world, header.nr_nodes, header.pool_size);
	for (i = 0; i <= nr_ops; i++) {
		if (pick && reclaim_meeting_looks(pick, i, nr_ops))
			reclaim_world_stands(&world, -1, true, reclaim_meeting_stand,
					     pick);
		else if (pick && op_memcg(i) >= 0)
			reclaim_world_stands(&world, op_memcg(i), true,
					     reclaim_meeting_stand, pick);
		if (i < nr_ops)
			reclaim_world_apply(&world, &ops[i]);
		if (!pick && i < nr_ops)
			reclaim_world_stands(&world, -1, false, stood, NULL);
	}
	reclaim_world_destroy(&world);
}

bool mlf_target_meeting(const uint8_t *data, size_t size, uint64_t seed,
			struct mlf_meeting *m)
{
	struct reclaim_meeting_pick pick;

	if (!reclaim_meeting_begin(&pick, data, size, seed))
		return false;
	run(data, size, &pick);
	return reclaim_meeting_end(&pick, m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool attached;

	if (!attached) {
		reclaim_world_states_attach(state_feedback,
					    sizeof(state_feedback));
		attached = true;
	}
	run(data, size, NULL);
	mlf_engine_counters_done();
	return 0;
}
