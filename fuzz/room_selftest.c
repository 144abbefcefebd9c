// SPDX-License-Identifier: GPL-2.0
/*
 * room_selftest DIR: the room a meeting makes in a full input (mutator.h,
 * mlf_meeting.spare), on the reclaim target's seeds.
 *
 * First, each input made full (the engine's max_len its own size), then
 * meetings on it as meetings_selftest has them: a meeting's ops fit only
 * where the ops after it go, or ops before it that the world skipped. Of
 * the meetings whose op went in, two in three must meet the cell named,
 * and some must have taken skipped ops out.
 *
 * Then what that rests on, the world's own: an op the world skipped
 * changes nothing. Each input is run with and without each op it skipped
 * (up to SKIPPED_TRIES of them), and after every op that applies, where
 * each memcg stands (its places, its bin and its neighbours there, its
 * folios and parked evictions) must be the same in both runs. It is not
 * if anything the world does depends on an op's index (the others' draws
 * did, resched_hook()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/reclaim_world.h"
#include "harness/states.h"
#include "inputs.h"
#include "mutator.h"
#include "reclaim_codec.h"

#define MAX_SIZE 4096
#define ROUNDS 64
#define SKIPPED_TRIES 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct mlf_reclaim_header header;
static struct mlf_reclaim_op ops[MLF_RECLAIM_MAX_OPS];
static struct mlf_reclaim_world world;

/* the meetings on full inputs */
static unsigned long meetings, hit, spared, no_room;
static struct mlf_rng g;

static bool full_input(uint8_t *data, size_t size, void *arg)
{
	const size_t max = size;
	struct mlf_meeting m;
	size_t at;
	int r;

	(void)arg;
	LLVMFuzzerTestOneInput(data, size);
	for (r = 0; r < ROUNDS; r++) {
		if (!mlf_meeting_mutate(&mlf_target_format, data, size, max, &g,
					&m, &size))
			break;
		if (m.rework || m.cell < 0)
			continue;
		at = m.at + m.nr_first;
		if (at >= mlf_reclaim_decode(data, size, &header, ops,
					     MLF_RECLAIM_MAX_OPS) ||
		    ops[at].kind != m.kind) {
			no_room++;
			continue;
		}
		LLVMFuzzerTestOneInput(data, size);
		meetings++;
		spared += m.nr_spared > 0;
		hit += !!mlf_states->met[m.cell];
	}
	return true;
}

/* the stands after each op that applies, folded into one value per op */
static uint64_t digest[MLF_RECLAIM_MAX_OPS];
static uint64_t fold;

static void mix(uint64_t v)
{
	fold = (fold ^ v) * 0x100000001b3ULL;
}

static void stand(void *arg, const struct reclaim_stand *s)
{
	const int fields[] = { s->slot,
			       s->nid,
			       mlf_state_place(s->c),
			       mlf_state_tree_place(s->c),
			       s->up,
			       s->folio,
			       s->parked,
			       s->folio_nodes,
			       s->parked_slots,
			       s->parked_nodes,
			       s->bin,
			       s->index,
			       s->bin_len,
			       s->ahead,
			       s->room_zone,
			       s->next_folio };
	size_t i;

	(void)arg;
	for (i = 0; i < ARRAY_SIZE(fields); i++)
		mix((uint64_t)(int64_t)fields[i]);
}

/*
 * Run ops[] but op @leave_out (-1: none): the digest after each op that
 * applied, in @out, and whether each op applied; returns how many did
 */
static size_t run(size_t nr, long leave_out, uint64_t *out, bool *applied)
{
	size_t i, n = 0;

	reclaim_world_init(&world, header.nr_nodes, header.pool_size);
	for (i = 0; i < nr; i++) {
		if ((long)i == leave_out)
			continue;
		applied[i] = reclaim_world_apply(&world, &ops[i]);
		if (!applied[i])
			continue;
		fold = 0xcbf29ce484222325ULL;
		reclaim_world_stands(&world, -1, true, stand, NULL);
		out[n++] = fold;
	}
	reclaim_world_destroy(&world);
	return n;
}

static unsigned long left_out, changed;

static bool skipped_ops(uint8_t *data, size_t size, void *arg)
{
	static uint64_t without[MLF_RECLAIM_MAX_OPS];
	static bool applied[MLF_RECLAIM_MAX_OPS], again[MLF_RECLAIM_MAX_OPS];
	size_t nr = mlf_reclaim_decode(data, size, &header, ops,
				       MLF_RECLAIM_MAX_OPS);
	size_t n = run(nr, -1, digest, applied), i;
	int tries = 0;

	(void)arg;
	for (i = nr; i-- && tries < SKIPPED_TRIES;) {
		if (applied[i])
			continue;
		tries++;
		left_out++;
		if (run(nr, i, without, again) != n ||
		    memcmp(without, digest, n * sizeof(digest[0]))) {
			changed++;
			fprintf(stderr,
				"room_selftest: op %zu (%zu ops) did nothing, yet the ops after it did something else without it\n",
				i, nr);
		}
	}
	return true;
}

int main(int argc, char **argv)
{
	static uint8_t data[MAX_SIZE];
	long inputs;

	if (argc != 2) {
		fprintf(stderr,
			"usage: room_selftest DIR (a reclaim corpus)\n");
		return 2;
	}
	g = mlf_rng_seeded(1);
	inputs = mlf_for_each_input(argv[1], data, MAX_SIZE, full_input, NULL);
	if (inputs < 0) {
		fprintf(stderr, "room_selftest: cannot read %s\n", argv[1]);
		return 2;
	}
	printf("room_selftest: %ld full inputs: %lu meetings went in, %lu of them after skipped ops went; %lu met the cell named; %lu found no room\n",
	       inputs, meetings, spared, hit, no_room);
	if (meetings < 100 || hit * 3 < meetings * 2 || !spared) {
		fprintf(stderr,
			"room_selftest: FAILED: fewer than 100 meetings went in, fewer than two in three met the cell named, or none took skipped ops out\n");
		return 1;
	}
	mlf_for_each_input(argv[1], data, MAX_SIZE, skipped_ops, NULL);
	printf("room_selftest: %lu skipped ops left out, %lu changed what came after\n",
	       left_out, changed);
	if (left_out < 100 || changed) {
		fprintf(stderr,
			"room_selftest: FAILED: fewer than 100 skipped ops left out, or taking one out changed what the ops after it did\n");
		return 1;
	}
	return 0;
}
