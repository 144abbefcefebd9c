/* SPDX-License-Identifier: GPL-2.0 */
/*
 * State coverage: which states of a memcg the ops of a run met. Before an
 * op applies, its memcg on each node it acts on is one cell of
 *
 *   kind     the op (rotate split by its rotation; a reclaim walk's cells
 *            are the memcgs it visits)
 *   stage    online | offline-ref (offlined, references remain: tryget
 *            succeeds) | dying (offlined, no reference left: tryget
 *            fails, still linked, css_released pending) | gone (no memcg
 *            in the slot: never onlined, or released)
 *   gen      old | young | third, against the node's seq (none: unlinked)
 *   seg      default | head | tail (none: unlinked)
 *   pos      only | head | interior | tail in its bin (none: unlinked)
 *   len      1 | 2 | 3+, the length of that bin
 *   depth    the memcg's depth below the root: 1 | 2 | 3+ (the reclaim
 *            build; memcg_lru's memcgs have no parent: 1)
 *   dying    how many of its ancestors are dying: 0 | 1 | 2+
 *
 * The reclaim build notes each memcg as two cells, one per family: its
 * place on the memcg LRU and its place in the tree (ST_TREE_KIND below).
 *
 * The drivers (world.c, reclaim_world.c) note cells only when a table is
 * attached (mlf_states); tools/mlf cov --states attaches one through the
 * replay driver (MLF_STATES=file) and prints what a corpus reached. A
 * fuzz target may attach its own and hand the cells to the engine as
 * extra coverage (fuzz/memcg_lru.c), so that a new state is a new feature.
 */
#ifndef _MLF_HARNESS_STATES_H
#define _MLF_HARNESS_STATES_H

#include <stdbool.h>
#include <stdio.h>

#include "check/state.h"

enum { ST_ONLINE, ST_OFFLINE_REF, ST_DYING, ST_GONE, ST_NR_STAGES };
enum { ST_OLD, ST_YOUNG, ST_THIRD, ST_NO_GEN, ST_NR_GENS };
enum { ST_SEG_DEFAULT, ST_SEG_HEAD, ST_SEG_TAIL, ST_NO_SEG, ST_NR_SEGS };
enum { ST_ONLY, ST_HEAD, ST_INTERIOR, ST_TAIL, ST_NO_POS, ST_NR_POS };
enum { ST_LEN1, ST_LEN2, ST_LEN3, ST_NO_LEN, ST_NR_LENS };
enum { ST_DEPTH1, ST_DEPTH2, ST_DEPTH3, ST_NR_DEPTHS };
enum { ST_DYING0, ST_DYING1, ST_DYING2, ST_NR_DYINGS };

#define ST_NR_KINDS 64
/*
 * The reclaim build notes a memcg twice: its place on the memcg LRU (the
 * op's kind, depth and dying ancestors folded to 1 and 0), and its place
 * in the tree (kind ST_TREE_KIND + the op's, no gen, seg, pos or len):
 * the two are independent in the code, and their product would be more
 * cells than a campaign meets.
 */
#define ST_TREE_KIND 32

#define ST_NR_CELLS                                                      \
	(ST_NR_KINDS * ST_NR_STAGES * ST_NR_GENS * ST_NR_SEGS * ST_NR_POS * \
	 ST_NR_LENS * ST_NR_DEPTHS * ST_NR_DYINGS)

/*
 * The engine's counters for the cells of both families, one each: a
 * memcg LRU cell by its kind and place (depth and dying folded), a tree
 * cell by its kind, stage, depth and dying
 */
#define ST_NR_LRU_PLACES \
	(ST_NR_STAGES * ST_NR_GENS * ST_NR_SEGS * ST_NR_POS * ST_NR_LENS)
#define ST_NR_TREE_PLACES (ST_NR_STAGES * ST_NR_DEPTHS * ST_NR_DYINGS)
#define ST_NR_COUNTERS   \
	(ST_TREE_KIND * ST_NR_LRU_PLACES + \
	 (ST_NR_KINDS - ST_TREE_KIND) * ST_NR_TREE_PLACES)

struct mlf_state_cell {
	int kind, stage, gen, seg, pos, len, depth, dying;
};

struct mlf_state_table {
	const char *target;		/* "memcg_lru", "reclaim" */
	/* the kinds' names, by index (an index with no name is not used) */
	const char *kind_names[ST_NR_KINDS];
	/* ST_NR_CELLS counts (NULL: not counted) */
	unsigned int *count;
	/*
	 * Where the engine wants to hear of a cell met (NULL: nowhere): a
	 * byte per cell (libFuzzer's extra counters), at its
	 * mlf_state_counter(), each its own if @feedback_size is at least
	 * ST_NR_COUNTERS
	 */
	unsigned char *feedback;
	size_t feedback_size;
	/* the cells met in this process (the meetings' "met yet") */
	bool *met;
	unsigned int nr_met;
};

/* The table the drivers note cells in; NULL (the default): none. */
extern struct mlf_state_table *mlf_states;

int mlf_state_index(const struct mlf_state_cell *c);

/* @c's place on the memcg LRU: 0 .. ST_NR_LRU_PLACES - 1, its kind aside */
int mlf_state_place(const struct mlf_state_cell *c);
/* @c's place in the tree: 0 .. ST_NR_TREE_PLACES - 1, its kind aside */
int mlf_state_tree_place(const struct mlf_state_cell *c);

/*
 * The engine's counter of @c: a function of the cell alone, so that the
 * processes of one campaign (libFuzzer's -fork jobs, a -merge) agree on
 * which cell a counter is
 */
int mlf_state_counter(const struct mlf_state_cell *c);

/*
 * The cell of the memcg in slot @slot of @cs on node @nid, as op @kind
 * meets it, read from the port's lists (the checks of the last op vouched
 * for them); the pointers it follows are vouched for by the lrugen map
 * first, so it is safe in the middle of a walk too. @depth and @dying: of
 * the memcg's hierarchy.
 */
void mlf_state_cell_of(const struct mlf_check_state *cs, int slot, int nid,
		       int kind, struct mlf_state_cell *c);

/* Count @c in mlf_states (and tell the engine). */
void mlf_state_note(const struct mlf_state_cell *c);

/* "<stage> <gen> <seg> <pos> <len>" of @c, as a line of the dump has them */
void mlf_state_place_name(const struct mlf_state_cell *c, char *buf,
			  size_t size);

/* One line per cell met: "<kind> <stage> <gen> <seg> <pos> <len> ..." */
void mlf_states_dump(const struct mlf_state_table *t, FILE *out);

/*
 * Attach a table for @target's kinds: counted and dumped at exit into the
 * file MLF_STATES names, if it names one; handing each cell to @feedback
 * (@size bytes), if not NULL; with MLF_STATES_TIMES=1, a line on stderr
 * for each cell the process meets first, with the seconds since. Once per
 * process; later calls do nothing.
 */
void mlf_states_attach(const char *target, const char *const *kind_names,
		       int nr_kinds, unsigned char *feedback, size_t size);

#endif
