// SPDX-License-Identifier: GPL-2.0
/*
 * The nulls_list target's ops: each primitive applied when its
 * precondition (the API's contract) holds, and the model with it; the
 * walks (plain, RCU, _safe deleting as they go, RCU with the current entry
 * moved under the reader) and the queries check what they see as they go.
 */
#include <string.h>

#include "nulls_list.h"

static bool op_walk(const struct nl_op *op, bool rcu)
{
	struct hlist_nulls_node *pos;
	struct nl_item *t;
	int ids[NL_WALK_BOUND], n = 0, l = op->a;
	bool ok = true;

	if (rcu) {
		rcu_read_lock();
		hlist_nulls_for_each_entry_rcu(t, pos, &nl_heads[l], node)
			if (!(ok = nl_walk_step("walk_rcu", l, t, ids, &n)))
				break;
		rcu_read_unlock();
	} else {
		hlist_nulls_for_each_entry(t, pos, &nl_heads[l], node)
			if (!(ok = nl_walk_step("walk", l, t, ids, &n)))
				break;
	}
	return ok && nl_check_walk(rcu ? "walk_rcu" : "walk", l, ids, n,
				   get_nulls_value(pos), nl_list[l], nl_len[l],
				   l);
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
	nl_model_remove(t->id);
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
	hlist_nulls_for_each_entry_safe(t, pos, &nl_heads[l], node) {
		if (!nl_walk_step("walk_safe", l, t, ids, &n))
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
	return nl_check_walk("walk_safe", l, ids, n, get_nulls_value(pos), want,
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
	hlist_nulls_for_each_entry_rcu(t, pos, &nl_heads[l], node) {
		if (!(ok = nl_walk_step("walk_rcu_move", l, t, ids, &n)))
			break;
		if (n - 1 != op->b || moved)
			continue;
		moved = t;
		hlist_nulls_del_rcu(&t->node);
		nl_model_remove(t->id);
		if (op->d) {
			hlist_nulls_add_tail_rcu(&t->node, &nl_heads[dest]);
			nl_model_insert(dest, nl_len[dest], t->id);
		} else {
			hlist_nulls_add_head_rcu(&t->node, &nl_heads[dest]);
			nl_model_insert(dest, 0, t->id);
		}
	}
	rcu_read_unlock();
	if (!ok)
		return false;
	if (moved) {
		p = nl_model_pos(dest, moved->id);
		memcpy(want + wn, &nl_list[dest][p + 1],
		       (nl_len[dest] - p - 1) * sizeof(want[0]));
		wn += nl_len[dest] - p - 1;
	}
	return nl_check_walk("walk_rcu_move", l, ids, n, get_nulls_value(pos),
			     want, wn, moved ? dest : l);
}

static bool op_query(const struct nl_op *op)
{
	const struct hlist_nulls_node *n = &nl_pool[op->a].node;
	const struct hlist_nulls_head *h = &nl_heads[op->b];
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
			      (nl_model_pos(nl_list_of[op->a], op->a) ==
			       nl_len[nl_list_of[op->a]] - 1)) {
		mlf_fail_simple("nulls.model",
				"n%d on l%d: is_a_nulls(next) disagrees with its position",
				op->a, nl_list_of[op->a]);
		return false;
	}
	return true;
}

/* Apply @op if its precondition holds; false on a failed check. */
bool nl_apply(struct nl_op *op)
{
	struct hlist_nulls_node *n = &nl_pool[op->a].node;
	struct hlist_nulls_node *next, **pprev, before, *m;
	bool a_listed = nl_state[op->a] == NL_LISTED, b_listed = false;
	bool b_is_node = op->kind == NL_ADD_BEHIND_RCU ||
			 op->kind == NL_REPLACE_RCU ||
			 op->kind == NL_REPLACE_INIT_RCU;

	/* operand b is a node only for these; elsewhere a list, mask, ... */
	m = b_is_node ? &nl_pool[op->b].node : NULL;
	if (b_is_node)
		b_listed = nl_state[op->b] == NL_LISTED;

	op->status = NL_SKIPPED;
	switch (op->kind) {
	case NL_ADD_HEAD_RCU:
	case NL_ADD_HEAD:
		if (a_listed)
			return true;
		if (op->kind == NL_ADD_HEAD)
			hlist_nulls_add_head(n, &nl_heads[op->b]);
		else
			hlist_nulls_add_head_rcu(n, &nl_heads[op->b]);
		nl_model_insert(op->b, 0, op->a);
		break;
	case NL_ADD_TAIL_RCU:
		if (a_listed)
			return true;
		hlist_nulls_add_tail_rcu(n, &nl_heads[op->b]);
		nl_model_insert(op->b, nl_len[op->b], op->a);
		break;
	case NL_ADD_BEHIND_RCU:
		if (a_listed || !b_listed)
			return true;
		hlist_nulls_add_behind_rcu(n, m);
		nl_model_insert(nl_list_of[op->b],
				nl_model_pos(nl_list_of[op->b], op->b) + 1,
				op->a);
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
			nl_model_remove(op->a);
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
			nl_model_remove(op->a);
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
		nl_list[l][nl_model_pos(l, op->a)] = op->b;
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
