/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the checks scan the bins of a node (bin_scan.c): through live
 * lrugens only (the map of lrugen_map.h), bounded by the pool size, with
 * the caches that let the checks of one full check, or of one check_bin(),
 * read a single scan of each bin. For the check files of src/check/ only.
 * (A "walk" is shrink_many()'s, which walk_checks.h judges.)
 */
#ifndef _MLF_CHECK_BIN_SCAN_H
#define _MLF_CHECK_BIN_SCAN_H

#include <stdlib.h>

#include "state.h"

/* @buf with room for @want entries of @size bytes; *@cap grows to it */
static inline void *grow(void *buf, int *cap, int want, size_t size)
{
	if (want <= *cap)
		return buf;
	buf = realloc(buf, want * size);
	if (!buf)
		abort();
	*cap = want;
	return buf;
}

/* ---- which list nodes are live lrugens of node nid: the map ---- */

struct lru_gen_folio *slot_lrugen(const struct mlf_check_state *w, int slot,
				  int nid);
/*
 * Make the map the lookups below read: the state's own, or, when the
 * driver does not keep it (map_kept unset), one filled from the slots.
 * Every check that looks up calls it first.
 */
void map_prepare(const struct mlf_check_state *w);
/* The slot whose lrugen on node @nid is @p, or -1. */
int map_lookup(const struct mlf_check_state *w, int nid,
	       const struct hlist_nulls_node *p);

/*
 * The first slot >= @from that holds a memcg, or -1, in slot order: after
 * map_prepare(), O(pool / 64) per call at worst, so that a loop over the
 * memcgs costs the live ones.
 */
int next_live_slot(const struct mlf_check_state *w, int from);
/* The first slot >= @from that the port or the model has a memcg in. */
int next_memcg_slot(const struct mlf_check_state *w, int from);

#define for_each_live_slot(w, i) \
	for ((i) = next_live_slot(w, 0); (i) >= 0; (i) = next_live_slot(w, (i) + 1))

/* ---- scanning one bin through live lrugens only ---- */

enum scan_end {
	SCAN_NULLS,	/* ended on a nulls marker (value in end_value) */
	SCAN_UNKNOWN,	/* met a pointer that is no live lrugen */
	SCAN_CYCLE,	/* more entries than the pool holds */
};

struct scan {
	enum scan_end end;
	unsigned long end_value;
	const struct hlist_nulls_node *bad;	/* SCAN_UNKNOWN */
	int len;
	int *slots;		/* the slots met, head first */
};

/*
 * The scan of fifo[@gen][@bin] of @nid: from the open view or bin view
 * when it covers that bin, else scanned now (valid until the next call).
 */
void scan_bin(const struct mlf_check_state *w, int nid, int gen, int bin,
	      struct scan *s);
/* Walk every bin of @nid once; scan_bin() reads it until view_close(). */
void view_open(const struct mlf_check_state *w, int nid);
void view_close(void);
/* The same for one bin (check_bin()). */
void bin_view_open(const struct mlf_check_state *w, int nid, int gen, int bin);
void bin_view_close(void);

bool bin_empty(const struct mlf_check_state *w, int nid, int gen, int bin);
bool gen_empty(const struct mlf_check_state *w, int nid, int gen);
/* Entries of @gen, counted by scanning (bounded; only for messages). */
int count_gen_scanned(const struct mlf_check_state *w, int nid, int gen);
/* First non-empty bin of @gen, and the memcg at its head (-1 if unknown). */
int first_entry(const struct mlf_check_state *w, int nid, int gen, int *slot);

#endif
