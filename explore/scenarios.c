// SPDX-License-Identifier: GPL-2.0
/*
 * The scenarios of tools/mlf explore (scenarios.h). Every memcg starts in
 * bin 0 of node 0 and every op that draws a bin draws bin 0, so that all
 * the writers meet in one list and its cached tail; the reader walks that
 * list (shrink_many() to the end, no target) while they change it.
 */
#include "scenarios.h"

#include <string.h>

enum { W0, W1, R };

#define ROT_HEAD 0
#define ROT_TAIL 1
#define ROT_OLD 2
#define ROT_YOUNG 3

static void base(struct sched_input *in, int nr_initial)
{
	memset(in, 0, sizeof(*in));
	in->nr_nodes = 1;
	in->pool_size = 4;
	in->nr_writers = 2;
	in->nr_readers = 1;
	in->nr_initial = nr_initial;
	in->initial_bin = 1;
	in->policy = MLF_SCHED_EXPLORE;
	in->seed = 1;
}

static void op(struct sched_input *in, int task, int kind, int slot, int arg)
{
	struct sched_op *o = &in->ops[in->nr_ops++];

	o->task = (u8)task;
	o->kind = (u8)kind;
	o->slot = (u8)slot;
	o->arg = (u8)arg;
	o->bin = 1;	/* bin 0 */
}

static void reader(struct sched_input *in)
{
	op(in, R, SOP_RECLAIM, 0, 0);
}

/* Two tail insertions at once: each must link behind the other's node. */
static void tail_tail(struct sched_input *in)
{
	base(in, 2);
	op(in, W0, SOP_ROTATE, 0, ROT_TAIL);
	op(in, W1, SOP_ROTATE, 1, ROT_TAIL);
	op(in, W1, SOP_ONLINE, 2, 0);
	reader(in);
}

/* The tail leaves (offline, release) while the other writer appends. */
static void tail_leaves(struct sched_input *in)
{
	base(in, 3);
	op(in, W0, SOP_OFFLINE, 2, 0);
	op(in, W0, SOP_RELEASE, 2, 0);
	op(in, W1, SOP_ROTATE, 0, ROT_TAIL);
	op(in, W1, SOP_ONLINE, 3, 0);
	reader(in);
}

/* A head insertion (which keeps the tail) against a tail insertion. */
static void head_tail(struct sched_input *in)
{
	base(in, 2);
	op(in, W0, SOP_ROTATE, 1, ROT_HEAD);
	op(in, W0, SOP_ROTATE, 0, ROT_HEAD);
	op(in, W1, SOP_ROTATE, 0, ROT_TAIL);
	op(in, W1, SOP_ONLINE, 2, 0);
	reader(in);
}

/*
 * Moves between generations: the old one empties, seq advances, and a
 * tail insertion lands in the generation the others left.
 */
static void generations(struct sched_input *in)
{
	base(in, 2);
	op(in, W0, SOP_ROTATE, 0, ROT_YOUNG);
	op(in, W0, SOP_ROTATE, 1, ROT_YOUNG);
	op(in, W1, SOP_ROTATE, 1, ROT_OLD);
	op(in, W1, SOP_ONLINE, 2, 0);
	reader(in);
}

/*
 * A walker stands on m0 (shrinking it, its reference held) while one writer
 * moves it to the young generation and back to the old one and the other
 * moves the memcg after it to the young one: the walk goes on from m0's
 * links, in whichever generation they are now.
 */
static void moved_under_walk(struct sched_input *in)
{
	base(in, 3);
	op(in, W0, SOP_ROTATE, 0, ROT_YOUNG);
	op(in, W0, SOP_ROTATE, 0, ROT_OLD);
	op(in, W1, SOP_ROTATE, 1, ROT_YOUNG);
	reader(in);
}

const struct explore_scenario explore_scenarios[] = {
	{ "tail-tail", "two tail insertions into one bin at once", tail_tail },
	{ "tail-leaves", "the tail offlined and released while another appends",
	  tail_leaves },
	{ "head-tail", "head insertions against a tail insertion", head_tail },
	{ "generations",
	  "young / old rotations empty a generation while another appends",
	  generations },
	{ "moved-under-walk",
	  "the memcg a walker stands on, and the next, move between generations",
	  moved_under_walk },
};

const int explore_nr_scenarios = ARRAY_SIZE(explore_scenarios);

const struct explore_scenario *explore_scenario(const char *name)
{
	int i;

	for (i = 0; i < explore_nr_scenarios; i++)
		if (!strcmp(explore_scenarios[i].name, name))
			return &explore_scenarios[i];
	return NULL;
}
