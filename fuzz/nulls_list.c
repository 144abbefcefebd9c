// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target nulls_list: the shim's hlist_nulls and rculist_nulls primitives
 * driven by the input against a model (per list an array of node ids, per node
 * its state), checked after every op. The memcg LRU is built on these lists; a
 * primitive that breaks a link (hlist_nulls_add_behind_rcu behind an interior
 * node, under bug-add-behind-interior) shows up here first and in one op.
 *
 * Input: a header byte (lists = 1 + (b & 3), nodes = 1 + ((b >> 2) & 31)),
 * then ops: a kind byte (mod NL_NR_KINDS) and the kind's operand bytes. Every
 * byte string decodes; bytes that run out read as zero. An op whose
 * precondition (the API's contract) does not hold is skipped.
 *
 * Checks: "nulls.links", "nulls.model", "nulls.walk". A failure prints the
 * decoded ops of the input (the trace) after the report. NULLS_LIST_TRACE=1
 * in the environment prints the trace of every input, failing or not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static const struct {
	const char *name;
	int operands;
} nl_kinds[NL_NR_KINDS] = {
	[NL_ADD_HEAD_RCU] = { "add_head_rcu", 2 },
	[NL_ADD_TAIL_RCU] = { "add_tail_rcu", 2 },
	[NL_ADD_BEHIND_RCU] = { "add_behind", 2 },
	[NL_ADD_HEAD] = { "add_head", 2 },
	[NL_DEL_RCU] = { "del_rcu", 1 },
	[NL_DEL_INIT_RCU] = { "del_init_rcu", 1 },
	[NL_DEL] = { "del", 1 },
	[NL_REPLACE_RCU] = { "replace_rcu", 2 },
	[NL_REPLACE_INIT_RCU] = { "replace_init_rcu", 2 },
	[NL_ADD_FAKE] = { "add_fake", 1 },
	[NL_WALK] = { "walk", 1 },
	[NL_WALK_RCU] = { "walk_rcu", 1 },
	[NL_WALK_SAFE] = { "walk_safe", 3 },
	[NL_WALK_RCU_MOVE] = { "walk_rcu_move", 4 },
	[NL_QUERY] = { "query", 2 },
};

/* how a _safe walk deletes (operand mod 3) */
static const char *const nl_del_names[] = { "del_rcu", "del_init_rcu", "del" };

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

static const char *const nl_state_names[] = {
	"unhashed", "listed", "deleted", "fake", "stale",
};

static struct {
	int nr_lists, nr_nodes;
	size_t nr_ops;
	struct nl_op ops[NL_MAX_OPS];
} in;

static struct hlist_nulls_head heads[NL_MAX_LISTS];
static struct nl_item pool[NL_MAX_NODES];

/* the model: plain arrays, no hlist */
static int nl_list[NL_MAX_LISTS][NL_MAX_NODES];
static int nl_len[NL_MAX_LISTS];
static enum nl_state nl_state[NL_MAX_NODES];
static int nl_list_of[NL_MAX_NODES];

/* ---- decoding and the trace ---- */

static void decode(const u8 *data, size_t size)
{
	size_t pos = 1;
	u8 h = size ? data[0] : 0;

	in.nr_lists = 1 + (h & 3);
	in.nr_nodes = 1 + ((h >> 2) & 31);
	in.nr_ops = 0;

	while (pos < size && in.nr_ops < NL_MAX_OPS) {
		struct nl_op *op = &in.ops[in.nr_ops++];
		u8 raw[4] = { 0 };
		int i, n;

		op->kind = data[pos++] % NL_NR_KINDS;
		n = nl_kinds[op->kind].operands;
		for (i = 0; i < n; i++, pos++)
			raw[i] = pos < size ? data[pos] : 0;
		op->status = NL_PENDING;

		switch (op->kind) {
		case NL_ADD_HEAD_RCU:
		case NL_ADD_TAIL_RCU:
		case NL_ADD_HEAD:
		case NL_QUERY:
			op->a = raw[0] % in.nr_nodes;
			op->b = raw[1] % in.nr_lists;
			break;
		case NL_ADD_BEHIND_RCU:
		case NL_REPLACE_RCU:
		case NL_REPLACE_INIT_RCU:
			op->a = raw[0] % in.nr_nodes;
			op->b = raw[1] % in.nr_nodes;
			break;
		case NL_DEL_RCU:
		case NL_DEL_INIT_RCU:
		case NL_DEL:
		case NL_ADD_FAKE:
			op->a = raw[0] % in.nr_nodes;
			break;
		case NL_WALK:
		case NL_WALK_RCU:
			op->a = raw[0] % in.nr_lists;
			break;
		case NL_WALK_SAFE:
			op->a = raw[0] % in.nr_lists;
			op->b = raw[1];
			op->c = raw[2] % 3;
			break;
		case NL_WALK_RCU_MOVE:
			op->a = raw[0] % in.nr_lists;
			op->b = raw[1] % NL_MAX_NODES;
			op->c = raw[2] % in.nr_lists;
			op->d = raw[3] & 1;
			break;
		}
	}
}

static void print_op(FILE *f, const struct nl_op *op)
{
	const char *name = nl_kinds[op->kind].name;

	switch (op->kind) {
	case NL_ADD_HEAD_RCU:
	case NL_ADD_TAIL_RCU:
	case NL_ADD_HEAD:
	case NL_QUERY:
		fprintf(f, "%s n%d l%d", name, op->a, op->b);
		break;
	case NL_ADD_BEHIND_RCU:
		fprintf(f, "%s n%d after n%d", name, op->a, op->b);
		break;
	case NL_REPLACE_RCU:
	case NL_REPLACE_INIT_RCU:
		fprintf(f, "%s n%d with n%d", name, op->a, op->b);
		break;
	case NL_WALK:
	case NL_WALK_RCU:
		fprintf(f, "%s l%d", name, op->a);
		break;
	case NL_WALK_SAFE:
		fprintf(f, "%s l%d del=0x%02x via %s", name, op->a, op->b,
			nl_del_names[op->c]);
		break;
	case NL_WALK_RCU_MOVE:
		fprintf(f, "%s l%d at=%d to l%d %s", name, op->a, op->b, op->c,
			op->d ? "tail" : "head");
		break;
	default:
		fprintf(f, "%s n%d", name, op->a);
		break;
	}
}

static void print_trace(void)
{
	size_t i, upto = in.nr_ops;

	if (mlf_current_op != MLF_NONE && mlf_current_op < (long)in.nr_ops)
		upto = mlf_current_op + 1;
	fprintf(stderr, "nulls_list trace: lists=%d nodes=%d ops=%zu\n",
		in.nr_lists, in.nr_nodes, in.nr_ops);
	for (i = 0; i < upto; i++) {
		const struct nl_op *op = &in.ops[i];

		fprintf(stderr, "  #%zu ", i);
		print_op(stderr, op);
		if (op->status == NL_SKIPPED)
			fprintf(stderr, "  (skipped)");
		if ((long)i == mlf_current_op)
			fprintf(stderr, "  <-- current op");
		fputc('\n', stderr);
	}
	if (upto < in.nr_ops)
		fprintf(stderr, "  ... %zu more ops not run\n", in.nr_ops - upto);
}

/* ---- the model ---- */

static int model_pos(int l, int id)
{
	int i;

	for (i = 0; i < nl_len[l]; i++)
		if (nl_list[l][i] == id)
			return i;
	return -1;
}

static void model_insert(int l, int at, int id)
{
	memmove(&nl_list[l][at + 1], &nl_list[l][at],
		(nl_len[l] - at) * sizeof(nl_list[l][0]));
	nl_list[l][at] = id;
	nl_len[l]++;
	nl_state[id] = NL_LISTED;
	nl_list_of[id] = l;
}

/* Take @id off its list; the caller sets the state the primitive leaves. */
static void model_remove(int id)
{
	int l = nl_list_of[id];
	int at = model_pos(l, id);

	memmove(&nl_list[l][at], &nl_list[l][at + 1],
		(nl_len[l] - at - 1) * sizeof(nl_list[l][0]));
	nl_len[l]--;
	nl_list_of[id] = -1;
}

static void fmt_ids(char *buf, size_t size, const int *ids, int n)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && used < size; i++)
		used += snprintf(buf + used, size - used, "%sn%d", i ? " " : "",
				 ids[i]);
	if (!n)
		snprintf(buf, size, "(empty)");
}

/* ---- checks ---- */

/* The pool node @pos points at, or -1 if it points anywhere else. */
static int pool_index(const struct hlist_nulls_node *pos)
{
	uintptr_t base = (uintptr_t)&pool[0].node;
	uintptr_t p = (uintptr_t)pos;
	size_t i;

	if (p < base)
		return -1;
	i = (p - base) / sizeof(pool[0]);
	if (i >= (size_t)in.nr_nodes || &pool[i].node != pos)
		return -1;
	return i;
}

/* Name the link a pprev points at: "head l1", "n3->next", or the address. */
static const char *link_name(struct hlist_nulls_node *const *link, char *buf,
			     size_t size)
{
	int i;

	for (i = 0; i < in.nr_lists; i++)
		if (link == &heads[i].first) {
			snprintf(buf, size, "head l%d", i);
			return buf;
		}
	for (i = 0; i < in.nr_nodes; i++)
		if (link == &pool[i].node.next) {
			snprintf(buf, size, "n%d->next", i);
			return buf;
		}
	snprintf(buf, size, "%p", (void *)link);
	return buf;
}

/*
 * Walk list @l by its raw links, checking every back pointer and the end
 * marker ("nulls.links"); store the ids met in @ids. False on failure.
 */
static bool check_links(int l, int *ids, int *n)
{
	struct hlist_nulls_node **link = &heads[l].first;
	struct hlist_nulls_node *pos = heads[l].first;
	char who[16];

	*n = 0;
	snprintf(who, sizeof(who), "head l%d", l);
	while (!is_a_nulls(pos)) {
		int i = pool_index(pos);

		if (i < 0) {
			mlf_fail_simple("nulls.links",
					"l%d: the pointer after %s points outside the pool (%p)",
					l, who, (void *)pos);
			return false;
		}
		if (*n >= in.nr_nodes) {
			mlf_fail_simple("nulls.links",
					"l%d: walk meets n%d again after %d nodes: a cycle",
					l, i, *n);
			return false;
		}
		if (pool[i].node.pprev != link) {
			char got[32], want[32];

			mlf_fail_simple("nulls.links",
					"l%d: n%d->pprev points at %s, but %s points to n%d",
					l, i,
					link_name(pool[i].node.pprev, got, sizeof(got)),
					link_name(link, want, sizeof(want)), i);
			return false;
		}
		ids[(*n)++] = i;
		snprintf(who, sizeof(who), "n%d", i);
		link = &pool[i].node.next;
		pos = pool[i].node.next;
	}
	if (get_nulls_value(pos) != (unsigned long)l) {
		mlf_fail_simple("nulls.links",
				"l%d: walk ends after %s on nulls value %lu, expected %d",
				l, who, get_nulls_value(pos), l);
		return false;
	}
	return true;
}

static bool check_node_state(int id)
{
	const struct hlist_nulls_node *n = &pool[id].node;
	const void *want;

	switch (nl_state[id]) {
	case NL_UNHASHED:
		want = NULL;
		break;
	case NL_DELETED:
		want = LIST_POISON2;
		break;
	case NL_FAKE:
		if (!is_a_nulls(n->next) || get_nulls_value(n->next)) {
			mlf_fail_simple("nulls.model",
					"n%d (fake): next is %p, not the nulls marker 0",
					id, (void *)n->next);
			return false;
		}
		want = &n->next;
		break;
	case NL_LISTED:
		if (hlist_nulls_unhashed(n)) {
			mlf_fail_simple("nulls.model",
					"n%d is on l%d but hlist_nulls_unhashed() says so",
					id, nl_list_of[id]);
			return false;
		}
		return true;	/* its links are check_links()' job */
	default:
		return true;	/* stale: checked right after replace_rcu */
	}
	if (n->pprev != want) {
		mlf_fail_simple("nulls.model", "n%d (%s): pprev is %p, expected %p",
				id, nl_state_names[nl_state[id]],
				(void *)n->pprev, want);
		return false;
	}
	return true;
}

static bool check_all(void)
{
	int ids[NL_MAX_NODES], n, l, i;
	char got[256], want[256];

	for (l = 0; l < in.nr_lists; l++) {
		if (!check_links(l, ids, &n))
			return false;
		if (n != nl_len[l] ||
		    memcmp(ids, nl_list[l], n * sizeof(ids[0]))) {
			fmt_ids(got, sizeof(got), ids, n);
			fmt_ids(want, sizeof(want), nl_list[l], nl_len[l]);
			mlf_fail_simple("nulls.model", "l%d holds [%s], model [%s]",
					l, got, want);
			return false;
		}
	}
	for (i = 0; i < in.nr_nodes; i++)
		if (!check_node_state(i))
			return false;
	return true;
}

/* A walk visited @got (ending on nulls value @end); compare with @want. */
static bool check_walk(const char *how, int l, const int *got, int n,
		       unsigned long end, const int *want, int wn, int want_end)
{
	char g[256], w[256];

	if (n == wn && !memcmp(got, want, n * sizeof(got[0])) &&
	    end == (unsigned long)want_end)
		return true;
	fmt_ids(g, sizeof(g), got, n);
	fmt_ids(w, sizeof(w), want, wn);
	mlf_fail_simple("nulls.walk",
			"%s of l%d visits [%s] ending on nulls %lu, expected [%s] ending on %d",
			how, l, g, end, w, want_end);
	return false;
}

/* The id behind a walk's cursor, or fail: a walk must stay in the pool. */
static bool walk_step(const char *how, int l, const struct nl_item *t,
		      int *ids, int *n)
{
	if (pool_index(&t->node) < 0 || t->id != t - pool) {
		mlf_fail_simple("nulls.walk", "%s of l%d leaves the pool", how, l);
		return false;
	}
	if (*n >= NL_WALK_BOUND) {
		mlf_fail_simple("nulls.walk", "%s of l%d does not end", how, l);
		return false;
	}
	ids[(*n)++] = t->id;
	return true;
}

/* ---- ops ---- */

static bool op_walk(const struct nl_op *op, bool rcu)
{
	struct hlist_nulls_node *pos;
	struct nl_item *t;
	int ids[NL_WALK_BOUND], n = 0, l = op->a;
	bool ok = true;

	if (rcu) {
		rcu_read_lock();
		hlist_nulls_for_each_entry_rcu(t, pos, &heads[l], node)
			if (!(ok = walk_step("walk_rcu", l, t, ids, &n)))
				break;
		rcu_read_unlock();
	} else {
		hlist_nulls_for_each_entry(t, pos, &heads[l], node)
			if (!(ok = walk_step("walk", l, t, ids, &n)))
				break;
	}
	return ok && check_walk(rcu ? "walk_rcu" : "walk", l, ids, n,
				get_nulls_value(pos), nl_list[l], nl_len[l], l);
}

static void del_via(int how, struct nl_item *t)
{
	switch (how) {
	case 0:
		hlist_nulls_del_rcu(&t->node);
		break;
	case 1:
		hlist_nulls_del_init_rcu(&t->node);
		break;
	default:
		hlist_nulls_del(&t->node);
		break;
	}
	model_remove(t->id);
	nl_state[t->id] = how == 1 ? NL_UNHASHED : NL_DELETED;
}

/* _safe may free the entry it stands on: drop entry i when bit i is set. */
static bool op_walk_safe(const struct nl_op *op)
{
	struct hlist_nulls_node *pos;
	struct nl_item *t;
	int ids[NL_WALK_BOUND], n = 0, l = op->a, want[NL_MAX_NODES], wn;

	wn = nl_len[l];
	memcpy(want, nl_list[l], wn * sizeof(want[0]));
	hlist_nulls_for_each_entry_safe(t, pos, &heads[l], node) {
		if (!walk_step("walk_safe", l, t, ids, &n))
			return false;
		if (n <= 8 && (op->b >> (n - 1)) & 1) {
			del_via(op->c, t);
			/*
			 * As if freed, the way a _safe walk's caller would: a
			 * walk that still read it would leave the pool.
			 */
			t->node.next = LIST_POISON1;
		}
	}
	return check_walk("walk_safe", l, ids, n, get_nulls_value(pos), want,
			  wn, l);
}

/*
 * A reader under rcu_read_lock() whose current entry a writer moves to the
 * head or tail of list @dest: it goes on along the entry's new successors
 * and ends on @dest's nulls marker, the signal the memcg LRU restarts on.
 */
static bool op_walk_rcu_move(const struct nl_op *op)
{
	struct hlist_nulls_node *pos;
	struct nl_item *t, *moved = NULL;
	int ids[NL_WALK_BOUND], n = 0, l = op->a, dest = op->c;
	int want[NL_WALK_BOUND], wn, p;
	bool ok = true;

	wn = nl_len[l] < op->b + 1 ? nl_len[l] : op->b + 1;
	memcpy(want, nl_list[l], wn * sizeof(want[0]));

	rcu_read_lock();
	hlist_nulls_for_each_entry_rcu(t, pos, &heads[l], node) {
		if (!(ok = walk_step("walk_rcu_move", l, t, ids, &n)))
			break;
		if (n - 1 != op->b || moved)
			continue;
		moved = t;
		hlist_nulls_del_rcu(&t->node);
		model_remove(t->id);
		if (op->d) {
			hlist_nulls_add_tail_rcu(&t->node, &heads[dest]);
			model_insert(dest, nl_len[dest], t->id);
		} else {
			hlist_nulls_add_head_rcu(&t->node, &heads[dest]);
			model_insert(dest, 0, t->id);
		}
	}
	rcu_read_unlock();
	if (!ok)
		return false;
	if (moved) {
		p = model_pos(dest, moved->id);
		memcpy(want + wn, &nl_list[dest][p + 1],
		       (nl_len[dest] - p - 1) * sizeof(want[0]));
		wn += nl_len[dest] - p - 1;
	}
	return check_walk("walk_rcu_move", l, ids, n, get_nulls_value(pos),
			  want, wn, moved ? dest : l);
}

static bool op_query(const struct nl_op *op)
{
	const struct hlist_nulls_node *n = &pool[op->a].node;
	const struct hlist_nulls_head *h = &heads[op->b];
	bool listed = nl_state[op->a] == NL_LISTED;
	bool unhashed = nl_state[op->a] == NL_UNHASHED;

	if (!hlist_nulls_empty(h) != !!nl_len[op->b] ||
	    !is_a_nulls(h->first) != !!nl_len[op->b]) {
		mlf_fail_simple("nulls.model",
				"l%d: hlist_nulls_empty()/is_a_nulls(first) disagree with model length %d",
				op->b, nl_len[op->b]);
		return false;
	}
	if (!nl_len[op->b] && get_nulls_value(h->first) != op->b) {
		mlf_fail_simple("nulls.model",
				"l%d: empty head carries nulls value %lu",
				op->b, get_nulls_value(h->first));
		return false;
	}
	if (!!hlist_nulls_unhashed(n) != unhashed ||
	    !!hlist_nulls_unhashed_lockless(n) != unhashed) {
		mlf_fail_simple("nulls.model",
				"n%d (%s): hlist_nulls_unhashed() is %d",
				op->a, nl_state_names[nl_state[op->a]],
				hlist_nulls_unhashed(n));
		return false;
	}
	if (listed && is_a_nulls(n->next) !=
			      (model_pos(nl_list_of[op->a], op->a) ==
			       nl_len[nl_list_of[op->a]] - 1)) {
		mlf_fail_simple("nulls.model",
				"n%d on l%d: is_a_nulls(next) disagrees with its position",
				op->a, nl_list_of[op->a]);
		return false;
	}
	return true;
}

/* Apply @op if its precondition holds; false on a failed check. */
static bool apply(struct nl_op *op)
{
	struct hlist_nulls_node *n = &pool[op->a].node;
	struct hlist_nulls_node *next, **pprev, before, *m;
	bool a_listed = nl_state[op->a] == NL_LISTED, b_listed = false;
	bool b_is_node = op->kind == NL_ADD_BEHIND_RCU ||
			 op->kind == NL_REPLACE_RCU ||
			 op->kind == NL_REPLACE_INIT_RCU;

	/* operand b is a node only for these; elsewhere a list, mask, ... */
	m = b_is_node ? &pool[op->b].node : NULL;
	if (b_is_node)
		b_listed = nl_state[op->b] == NL_LISTED;

	op->status = NL_SKIPPED;
	switch (op->kind) {
	case NL_ADD_HEAD_RCU:
	case NL_ADD_HEAD:
		if (a_listed)
			return true;
		if (op->kind == NL_ADD_HEAD)
			hlist_nulls_add_head(n, &heads[op->b]);
		else
			hlist_nulls_add_head_rcu(n, &heads[op->b]);
		model_insert(op->b, 0, op->a);
		break;
	case NL_ADD_TAIL_RCU:
		if (a_listed)
			return true;
		hlist_nulls_add_tail_rcu(n, &heads[op->b]);
		model_insert(op->b, nl_len[op->b], op->a);
		break;
	case NL_ADD_BEHIND_RCU:
		if (a_listed || !b_listed)
			return true;
		hlist_nulls_add_behind_rcu(n, m);
		model_insert(nl_list_of[op->b],
			     model_pos(nl_list_of[op->b], op->b) + 1, op->a);
		break;
	case NL_DEL_RCU:
	case NL_DEL:
		if (!a_listed && nl_state[op->a] != NL_FAKE)
			return true;
		next = n->next;
		if (op->kind == NL_DEL)
			hlist_nulls_del(n);
		else
			hlist_nulls_del_rcu(n);
		if (a_listed)
			model_remove(op->a);
		nl_state[op->a] = NL_DELETED;
		if (n->next != next) {
			mlf_fail_simple("nulls.model",
					"%s n%d changes its next: a reader on it loses its way",
					nl_kinds[op->kind].name, op->a);
			return false;
		}
		break;
	case NL_DEL_INIT_RCU:
		if (nl_state[op->a] == NL_DELETED || nl_state[op->a] == NL_STALE)
			return true;
		before = *n;
		hlist_nulls_del_init_rcu(n);
		if (nl_state[op->a] == NL_UNHASHED &&
		    (n->next != before.next || n->pprev != before.pprev)) {
			mlf_fail_simple("nulls.model",
					"del_init_rcu of unhashed n%d is not a no-op",
					op->a);
			return false;
		}
		if (a_listed)
			model_remove(op->a);
		nl_state[op->a] = NL_UNHASHED;
		break;
	case NL_REPLACE_RCU:
	case NL_REPLACE_INIT_RCU: {
		int l = nl_list_of[op->a];

		if (!a_listed || b_listed || op->a == op->b)
			return true;
		next = n->next;
		pprev = n->pprev;
		if (op->kind == NL_REPLACE_RCU)
			hlist_nulls_replace_rcu(n, m);
		else
			hlist_nulls_replace_init_rcu(n, m);
		nl_list[l][model_pos(l, op->a)] = op->b;
		nl_state[op->b] = NL_LISTED;
		nl_list_of[op->b] = l;
		nl_list_of[op->a] = -1;
		nl_state[op->a] = op->kind == NL_REPLACE_RCU ? NL_STALE :
							       NL_UNHASHED;
		if (n->next != next ||
		    (op->kind == NL_REPLACE_RCU && n->pprev != pprev)) {
			mlf_fail_simple("nulls.model",
					"%s n%d with n%d: the old entry's next/pprev changed",
					nl_kinds[op->kind].name, op->a, op->b);
			return false;
		}
		break;
	}
	case NL_ADD_FAKE:
		if (a_listed)
			return true;
		hlist_nulls_add_fake(n);
		nl_state[op->a] = NL_FAKE;
		break;
	case NL_WALK:
	case NL_WALK_RCU:
		op->status = NL_APPLIED;
		return op_walk(op, op->kind == NL_WALK_RCU);
	case NL_WALK_SAFE:
		op->status = NL_APPLIED;
		return op_walk_safe(op);
	case NL_WALK_RCU_MOVE:
		op->status = NL_APPLIED;
		return op_walk_rcu_move(op);
	case NL_QUERY:
		op->status = NL_APPLIED;
		return op_query(op);
	}
	op->status = NL_APPLIED;
	return true;
}

static void reset(void)
{
	int i;

	memset(pool, 0, sizeof(pool));
	memset(nl_len, 0, sizeof(nl_len));
	for (i = 0; i < NL_MAX_NODES; i++) {
		pool[i].id = i;
		nl_state[i] = NL_UNHASHED;
		nl_list_of[i] = -1;
	}
	for (i = 0; i < NL_MAX_LISTS; i++)
		INIT_HLIST_NULLS_HEAD(&heads[i], i);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static int trace_env = -1;
	size_t i;

	/* here, not in LLVMFuzzerInitialize(): a replay driver may not call it */
	if (trace_env < 0) {
		const char *e = getenv("NULLS_LIST_TRACE");

		trace_env = e && *e && *e != '0';
		mlf_set_context_printer(print_trace);
	}
	decode(data, size);
	reset();
	for (i = 0; i < in.nr_ops; i++) {
		mlf_current_op = i;
		if (!apply(&in.ops[i]) || !check_all())
			break;
	}
	if (trace_env) {
		mlf_current_op = MLF_NONE;
		print_trace();
	}
	mlf_current_op = MLF_NONE;
	return 0;
}
