/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A slot of the memcg pool (m0, m1, ...): the memcg in it and the stage of
 * its life, the one life cycle of every engine. The sequential driver moves
 * a slot EMPTY -> ONLINE -> OFFLINE -> DEAD -> EMPTY; the concurrent
 * engines (the scheduled one and stress) also mark the steps in between,
 * while one writer owns the slot: EMPTY -> ONLINING -> ONLINE ->
 * OFFLINING -> OFFLINE -> RELEASING -> EMPTY, and hand the checks the
 * quiescent stages only. The checks read it (a dead memcg may be unlinked,
 * an online one may not), and so does the map of live lrugens.
 */
#ifndef _MLF_CHECK_SLOT_H
#define _MLF_CHECK_SLOT_H

struct mem_cgroup;

enum mlf_slot_state {
	SLOT_EMPTY,	/* never onlined, or freed: may be onlined (again) */
	SLOT_ONLINE,	/* onlined, holds the base reference */
	SLOT_OFFLINE,	/* offlined, other references remain */
	SLOT_DEAD,	/* last reference gone: tryget fails, release pending */
	/* a concurrent engine's writer in the middle of a step */
	SLOT_ONLINING,	/* being onlined */
	SLOT_OFFLINING,	/* being offlined */
	SLOT_RELEASING,	/* its last reference dropped, being released */
};

struct mlf_slot {
	struct mem_cgroup *memcg;	/* NULL when SLOT_EMPTY */
	enum mlf_slot_state state;
	long refs;			/* references held by the harness */
	/*
	 * SLOT_ONLINE only: the css_offline callback ran (the memcg is in
	 * the old generation) and CSS_ONLINE is still set
	 */
	bool css_offlined;
};

/* "empty", "online", "offline", "dead", "onlining", ... */
static inline const char *mlf_slot_state_name(enum mlf_slot_state state)
{
	static const char *const names[] = {
		[SLOT_EMPTY] = "empty",		[SLOT_ONLINE] = "online",
		[SLOT_OFFLINE] = "offline",	[SLOT_DEAD] = "dead",
		[SLOT_ONLINING] = "onlining",	[SLOT_OFFLINING] = "offlining",
		[SLOT_RELEASING] = "releasing",
	};

	return (unsigned int)state <= SLOT_RELEASING ? names[state] : "?";
}

#endif
