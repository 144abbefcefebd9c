/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The nulls_list fuzz target's parts (nulls_list.c says what it does):
 * the op kinds and the decoded input (nulls_list_decode.c), the lists and
 * nodes under test (nulls_list.c), the model (nulls_list_model.c), the
 * checks (nulls_list_checks.c), the ops (nulls_list_ops.c) and the trace
 * (nulls_list_print.c).
 */
#ifndef _MLF_FUZZ_NULLS_LIST_H
#define _MLF_FUZZ_NULLS_LIST_H

#include "kernel/kernel.h"

#define NL_MAX_LISTS 4
#define NL_MAX_NODES 32
#define NL_MAX_OPS 4096
/* a walk longer than this has met a cycle */
#define NL_WALK_BOUND (2 * NL_MAX_NODES + 2)

enum nl_kind {
	NL_ADD_HEAD_RCU,	/* node list */
	NL_ADD_TAIL_RCU,	/* node list */
	NL_ADD_BEHIND_RCU,	/* node behind */
	NL_ADD_HEAD,		/* node list */
	NL_DEL_RCU,		/* node */
	NL_DEL_INIT_RCU,	/* node */
	NL_DEL,			/* node */
	NL_REPLACE_RCU,		/* old new */
	NL_REPLACE_INIT_RCU,	/* old new */
	NL_ADD_FAKE,		/* node */
	NL_WALK,		/* list */
	NL_WALK_RCU,		/* list */
	NL_WALK_SAFE,		/* list mask how: delete entry i if bit i of mask */
	NL_WALK_RCU_MOVE,	/* list at dest how: move entry @at while walking */
	NL_QUERY,		/* node list */
	NL_NR_KINDS
};

struct nl_kind_info {
	const char *name;
	int operands;
};

extern const struct nl_kind_info nl_kinds[NL_NR_KINDS];

struct nl_op {
	u8 kind;
	u8 a, b, c, d;		/* operands, already wrapped into range */
	enum { NL_PENDING, NL_APPLIED, NL_SKIPPED } status;
};

struct nl_item {
	int id;
	struct hlist_nulls_node node;
};

/* What the model says about a node; the expected pprev follows from it. */
enum nl_state {
	NL_UNHASHED,	/* never linked, or del_init / replace_init: pprev NULL */
	NL_LISTED,	/* on model list nl_list_of[id] */
	NL_DELETED,	/* del / del_rcu: pprev LIST_POISON2, next kept */
	NL_FAKE,	/* add_fake: pprev at its own next, next a nulls */
	NL_STALE,	/* replaced by replace_rcu: pprev and next kept */
};

extern const char *const nl_state_names[];

/* the decoded input (nulls_list_decode.c) */
struct nl_input {
	int nr_lists, nr_nodes;
	size_t nr_ops;
	struct nl_op ops[NL_MAX_OPS];
};

extern struct nl_input nl_in;
void nl_decode(const u8 *data, size_t size);

/* the lists and nodes under test (nulls_list.c) */
extern struct hlist_nulls_head nl_heads[NL_MAX_LISTS];
extern struct nl_item nl_pool[NL_MAX_NODES];

/* the model (nulls_list_model.c): plain arrays, no hlist */
extern int nl_list[NL_MAX_LISTS][NL_MAX_NODES];
extern int nl_len[NL_MAX_LISTS];
extern enum nl_state nl_state[NL_MAX_NODES];
extern int nl_list_of[NL_MAX_NODES];
/* The position of @id on model list @l, or -1. */
int nl_model_pos(int l, int id);
/* Put @id at position @at of model list @l. */
void nl_model_insert(int l, int at, int id);
/* Take @id off its list; the caller sets the state the primitive leaves. */
void nl_model_remove(int id);
/* The model of a fresh input: every list empty, every node unhashed. */
void nl_model_reset(void);

/* the checks (nulls_list_checks.c): false after a failure */
bool nl_check_all(void);
/* A walk visited @got (ending on nulls value @end); compare with @want. */
bool nl_check_walk(const char *how, int l, const int *got, int n,
		   unsigned long end, const int *want, int wn, int want_end);
/* The id behind a walk's cursor, or fail: a walk must stay in the pool. */
bool nl_walk_step(const char *how, int l, const struct nl_item *t, int *ids,
		  int *n);

/* the ops (nulls_list_ops.c): apply @op if its precondition holds */
bool nl_apply(struct nl_op *op);

/* the trace (nulls_list_print.c), up to the current op */
void nl_print_trace(void);

#endif
