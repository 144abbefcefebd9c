/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The linearization check of a scheduled run. Every change to a node's
 * memcg LRU is made under the node lock, so a correct run is a sequence of
 * critical sections, each of which takes the node from one state the
 * specification allows to another by one operation of the specification:
 *
 *   HEAD    same generation, head of a bin, seg head
 *   TAIL    same generation, tail of a bin, seg tail
 *   OLD     generation seq % 3, head of a bin, seg default
 *   YOUNG   generation (seq + 1) % 3, tail of a bin, seg default
 *   online  a new memcg at the tail of a bin of generation seq % 3
 *   release a memcg unlinked
 *   nothing (a skipped YOUNG, the release of an unlinked memcg)
 *
 * each with nr_memcgs[] counted and seq moved on by one exactly when the
 * old generation emptied. The model here is the node as the
 * specification says it is after the sections so far, in the order they
 * took the lock; at the end of each section (before its unlock) the port's
 * node must equal the model after one such operation, found by trying each
 * memcg ("lin.step"); at quiescence they must be equal ("lin.final"). A
 * change made without the lock shows up as a section that did more than
 * one operation, or as a final difference.
 *
 * Each section is judged against the op its task invoked, which the
 * harness tells the model (mlf_lin_expect()): a section that did a legal
 * operation, but not that one, or on another memcg, or on a node the op
 * does not touch, fails lin.step as surely as one that did an illegal
 * operation. Not told (LIN_EXPECT_ANY), the model accepts any one
 * operation on any memcg.
 *
 * The model also keeps, per memcg and node, when it last moved and when it
 * last left each generation, and from the stores the harness reports
 * (mlf_lin_touch(), mlf_lin_commit()) when each store to its lrugen took
 * effect: what the walk checks (walk_checks.h) judge a concurrent walk by.
 */
#ifndef _MLF_CHECK_LIN_H
#define _MLF_CHECK_LIN_H

#include "kernel/report.h"
#include "mm/vmscan.h"

#define LIN_MAX_TASKS 8
/*
 * As many as the port has: the specification names two (old, young) and
 * leaves the rest empty; how many arrays hold them is the port's choice
 * (8aa420617918 made it three), which walk.stale_young judges.
 */
#define LIN_NR_GENS MEMCG_NR_GENS
#define LIN_NR_BINS 8

/* Where a memcg sits: the port's or a candidate's view of one slot. */
struct lin_place {
	bool linked;
	u8 gen, bin, seg;
};

/* ... and the model's, with the history the walk checks read. */
struct lin_memcg {
	bool linked;
	u8 gen, bin, seg;
	unsigned long moved_at;			/* step of its last change */
	/*
	 * The publication order of its lrugen (walk.gen): the step at which
	 * the last store to its gen field took effect, and the one at which
	 * it last joined a list: a store to its pprev while it was on none,
	 * or, where that store is plain (hlist_nulls_add_tail_rcu() behind
	 * an entry), the link that published it. Marked stores only (a plain
	 * store is no scheduling point); 0: none in this run. off_list: it
	 * left its list (its pprev poisoned or cleared) or was never on one,
	 * and has joined none since. Of the lrugen at @lrugen: a new memcg
	 * in the slot starts again.
	 */
	unsigned long gen_stored_at, joined_at;
	bool off_list;
	const void *lrugen;
	/*
	 * Its last joins (at: the step of the join, as joined_at) and
	 * the generation of the list joined (its back links' head): which
	 * list a link to it, stored at some step, put a walker in. At 0, the
	 * list the set-up left it in.
	 */
	struct {
		unsigned long at;
		s8 gen;
	} joins[16];
	unsigned int nr_joins;
	/*
	 * The last write to its lrugen, or to the link that pointed at it
	 * (the first store of its unlink), by each task (index task + 1:
	 * rcu's is -1), moved or not: a rotation that puts it back where it
	 * was still unlinked it for a while.
	 */
	unsigned long touched_at_by[LIN_MAX_TASKS + 1];
	unsigned long left_at[LIN_NR_GENS];	/* when it last left a gen */
	/* ... and each bin of a gen, for a walk's cursor (walk_checks.c) */
	unsigned long left_bin_at[LIN_NR_GENS][LIN_NR_BINS];
};

/*
 * What the op a task runs asks of a node's memcg LRU, as the harness knows
 * it (mlf_lin_expect()): the one operation each of its critical sections
 * may do.
 */
enum lin_expect_kind {
	LIN_EXPECT_ANY,		/* not told: any one operation (the default) */
	LIN_EXPECT_NONE,	/* the op takes no node lock */
	LIN_EXPECT_ONLINE,	/* lru_gen_online_memcg(): on every node */
	LIN_EXPECT_RELEASE,	/* lru_gen_release_memcg(): on every node */
	LIN_EXPECT_ROTATE,	/* lru_gen_rotate_memcg(@op) */
};

struct lin_expect {
	u8 kind;		/* enum lin_expect_kind */
	u8 op;			/* ROTATE: MEMCG_LRU_HEAD .. MEMCG_LRU_YOUNG */
	/* the node, or -1: every node, one section each */
	s8 nid;
	/*
	 * the memcg's pool slot; -1 for a release of a memcg that is no
	 * slot's any more (a walk's failed tryget): then nothing may change
	 */
	int slot;
	/*
	 * the memcg itself, if given: should the slot hold another one by
	 * the time of the section (released and reused meanwhile), the
	 * section is a release of a memcg no slot holds
	 */
	const void *memcg;
	/* the bin the op's first move must land in, if known, else -1 */
	int bin;
	/* the nodes the op had a section on so far (bit nid) */
	u32 done;
};

struct lin_node {
	unsigned long seq;
	unsigned long nr_memcgs[LIN_NR_GENS];
	int len[LIN_NR_GENS][LIN_NR_BINS];
	int *ids[LIN_NR_GENS][LIN_NR_BINS];	/* head first; room for pool */
};

struct mlf_lin {
	int nr_nodes, pool_size;
	struct pglist_data *nodes;		/* the port's */
	/* the memcg of pool slot @i now (NULL if none) */
	struct mem_cgroup *(*memcg_of)(void *arg, int i);
	void *arg;
	struct lin_node node[MAX_NUMNODES];
	struct lin_memcg *mc;			/* [slot * MAX_NUMNODES + nid] */
	/* scratch: a node read from the port, and a candidate */
	struct lin_node port, cand;
	struct lin_place *port_mc, *cand_mc;	/* [slot] for one node */
	/*
	 * The node last read from the port also has every back link, cached
	 * tail, lrugen.bin and nr_memcgs right: what list.links, tail.cache
	 * and nr_memcgs check, in the same walk (false: run them to name it).
	 */
	bool port_links_ok;
	unsigned long sections, steps_checked;
	/* each task's last unlock of a node lock */
	unsigned long last_unlock[LIN_MAX_TASKS + 1];
	/* what each task's op asks (index task + 1) */
	struct lin_expect expect[LIN_MAX_TASKS + 1];
	/*
	 * Each task's store whose scheduling point it passed, not yet known
	 * to have taken effect (the task may have been switched out at the
	 * point, before the store): mlf_lin_commit() at its next point.
	 */
	struct lin_pending {
		bool on;
		int slot, nid;
		u8 field;		/* enum in lin.c */
		bool join;		/* a pprev store onto a list */
		const void *link;	/* a head's ->first or an ->next */
	} pending[LIN_MAX_TASKS + 1];
	/* the lrugens of the live memcgs, by address, for mlf_lin_touch() */
	struct lin_lrugen {
		const char *start;
		int slot, nid;
	} *lrugens;
	int nr_lrugens;
	bool lrugens_stale;
};

void mlf_lin_init(struct mlf_lin *lin, struct pglist_data *nodes,
		  int nr_nodes, int pool_size,
		  struct mem_cgroup *(*memcg_of)(void *arg, int i), void *arg);
void mlf_lin_destroy(struct mlf_lin *lin);

/*
 * Take the port's nodes as they are as the starting point (after a
 * set-up checked by other means). False and @f if they cannot be read
 * (an entry that is no live memcg's).
 */
bool mlf_lin_sync(struct mlf_lin *lin, struct mlf_failure *f);

/* A critical section of node @nid by @task ends at @step: "lin.step". */
bool mlf_lin_step(struct mlf_lin *lin, int nid, unsigned long step, int task,
		  struct mlf_failure *f);

/* At quiescence: every node equals the model: "lin.final". */
bool mlf_lin_final(struct mlf_lin *lin, struct mlf_failure *f);

/*
 * Memcg @i's lrugen on @nid in the port right now: its gen and bin fields
 * (what a walk reads) and whether it is on a list (@linked: pprev set;
 * between the unlink and the link of a rotation it is not); false if the
 * slot has no memcg. And whether some task is inside a critical section of
 * @nid, whose changes the model has not seen yet.
 */
bool mlf_lin_port_where(struct mlf_lin *lin, int i, int nid, int *gen,
			int *bin, bool *linked);
bool mlf_lin_section_open(const struct mlf_lin *lin, int nid);

/* The slots' memcgs changed (an alloc, a release): mlf_lin_touch() rereads. */
static inline void mlf_lin_memcgs_changed(struct mlf_lin *lin)
{
	/* from any task: a relaxed atomic, no race to ThreadSanitizer */
	__atomic_store_n(&lin->lrugens_stale, true, __ATOMIC_RELAXED);
}

/*
 * The op @task runs from now on asks @e of the nodes (its draws, memcg and
 * operation, as the harness knows them): lin.step judges its sections by
 * it.
 */
void mlf_lin_expect(struct mlf_lin *lin, int task, const struct lin_expect *e);

/*
 * A write by @task at @step to @addr (at its scheduling point, before the
 * store): note it if it is in an lrugen (and, for a link, the lrugen it
 * pointed at), and keep it pending until the task's next point
 * (mlf_lin_commit()).
 */
void mlf_lin_touch(struct mlf_lin *lin, const void *addr, unsigned long step,
		   int task);
/*
 * @task reached its next scheduling point at @step: the store it made
 * since its previous one has taken effect (no other task ran in between).
 */
void mlf_lin_commit(struct mlf_lin *lin, int task, unsigned long step);
/*
 * The live lrugen that @addr lies in: its slot, node and the offset of
 * @addr in it; false if none.
 */
bool mlf_lin_lrugen_at(struct mlf_lin *lin, const void *addr, int *slot,
		       int *nid, size_t *offset);
/*
 * The generation of the list memcg @i on @nid was in at @step (by its
 * last join at or before it, -1: on none), and when it joined it; false
 * if that join is older than the ones kept.
 */
bool mlf_lin_list_at(const struct mlf_lin *lin, int i, int nid,
		     unsigned long step, int *gen, unsigned long *joined);
/*
 * Whether a task other than @task is inside a critical section of @nid
 * that wrote to memcg @i's lrugen (the model has not seen that section).
 */
bool mlf_lin_touched_by_open_section(const struct mlf_lin *lin, int i,
				     int nid, int task);
/* Whether a task other than @task wrote to memcg @i's lrugen on @nid since @step. */
bool mlf_lin_touched_by_others(const struct mlf_lin *lin, int i, int nid,
			       int task, unsigned long step);

/* The node whose memcg LRU lock is @lock, or -1. */
int mlf_lin_node_of_lock(const struct mlf_lin *lin, const void *lock);

/* Memcg @i on node @nid, as the model has it. */
static inline const struct lin_memcg *mlf_lin_memcg(const struct mlf_lin *lin,
						    int i, int nid)
{
	return &lin->mc[i * MAX_NUMNODES + nid];
}

#endif
