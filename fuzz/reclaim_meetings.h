/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reclaim target's meetings (mutator.h): while an input runs, where
 * each memcg stands before each op and after the last; one place and one
 * kind of op at random among those where that kind has not met the
 * memcg's state in this campaign. fuzz/reclaim.c runs the input between
 * begin and end, handing reclaim_meeting_stand() to the world.
 */
#ifndef _MLF_FUZZ_RECLAIM_MEETINGS_H
#define _MLF_FUZZ_RECLAIM_MEETINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/prng.h"
#include "mutator.h"

struct reclaim_stand;

/* what a guess does to take a memcg to a place (reclaim_meetings.c) */
enum reclaim_move {
	RECLAIM_MOVE_DIE, /* an offline memcg's last charges go */
	RECLAIM_MOVE_DEEPEN, /* its nearest online ancestor goes offline */
	RECLAIM_MOVE_GROW, /* a walk rotates one memcg more behind it */
	RECLAIM_MOVE_SHIFT, /* the online memcg ahead of it goes offline */
	RECLAIM_MOVE_RETIRE, /* it goes offline with charges that hold it */
	RECLAIM_NR_MOVES,
};

struct reclaim_meeting_pick {
	struct mlf_rng g;
	uint64_t hash; /* of the input */
	size_t at; /* the op the world is before */
	size_t seen; /* the places to meet so far */
	bool skipped; /* a place not looked at */
	struct mlf_meeting m;
	int cells[2]; /* the chosen op's new cells (-1: none) */
	/* or the tries of the place it may take a memcg to (NULL: not) */
	unsigned char *advance;
	/*
	 * and that place (stood_feedback's numbering, fuzz/reclaim.c: the
	 * tree's places after the memcg LRU's), the memcg and its node
	 */
	int goal, subject, subject_node;
	enum reclaim_move move;
	/* only moves to that place (-1: any meeting), a guess again */
	int want;
	int stage;
	/* look only where memcg @focus stands before op @focus_at (-1: all) */
	int focus;
	size_t focus_at;
};

/*
 * false: no place to meet in this input (it had none before); @focus >= 0:
 * look only where that memcg stands before op @focus_at
 */
bool reclaim_meeting_begin(struct reclaim_meeting_pick *p, const uint8_t *data,
			   size_t size, uint64_t seed, int focus,
			   size_t focus_at);
/*
 * Whether to look where every memcg stands before op @at of @nr (@nr:
 * after the last), rather than only the one that op names; sets @at. A few
 * places of each input, at random: looking costs a state cell per memcg
 * and node.
 */
bool reclaim_meeting_looks(struct reclaim_meeting_pick *p, size_t at,
			   size_t nr);
/* the hash of an input that meetings know it by */
uint64_t reclaim_meeting_hash(const uint8_t *data, size_t size);
/* a reclaim_stand_fn (reclaim_world.h); @arg is the pick */
void reclaim_meeting_stand(void *arg, const struct reclaim_stand *s);
/* the meeting picked, if any */
bool reclaim_meeting_end(struct reclaim_meeting_pick *p, struct mlf_meeting *m);
/*
 * The crowded_bin (reclaim_world.h) of op @at of the input, a reclaim op
 * (-1: none), from a run of the whole input (fuzz/reclaim.c)
 */
int reclaim_crowded_bin(const uint8_t *data, size_t size, size_t at);
/*
 * The guesses of @move the engine ran (an input the mutator made of one),
 * and of those the ones that took the memcg to their place (fuzz/reclaim.c)
 */
void reclaim_guesses(enum reclaim_move move, unsigned long *judged,
		     unsigned long *came_true);

#endif
