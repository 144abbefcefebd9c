// SPDX-License-Identifier: GPL-2.0
/*
 * The nulls_list target's checks, after every op: "nulls.links" (each
 * list walked by its raw links: every back pointer, the end marker, no
 * cycle), "nulls.model" (each list's contents and each node's state
 * against the model) and "nulls.walk" (what an iterator visited).
 */
#include <stdio.h>
#include <string.h>

#include "nulls_list.h"

const char *const nl_state_names[] = {
	"unhashed", "listed", "deleted", "fake", "stale",
};

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

/* The pool node @pos points at, or -1 if it points anywhere else. */
static int pool_index(const struct hlist_nulls_node *pos)
{
	uintptr_t base = (uintptr_t)&nl_pool[0].node;
	uintptr_t p = (uintptr_t)pos;
	size_t i;

	if (p < base)
		return -1;
	i = (p - base) / sizeof(nl_pool[0]);
	if (i >= (size_t)nl_in.nr_nodes || &nl_pool[i].node != pos)
		return -1;
	return i;
}

/* Name the link a pprev points at: "head l1", "n3->next", or the address. */
static const char *link_name(struct hlist_nulls_node *const *link, char *buf,
			     size_t size)
{
	int i;

	for (i = 0; i < nl_in.nr_lists; i++)
		if (link == &nl_heads[i].first) {
			snprintf(buf, size, "head l%d", i);
			return buf;
		}
	for (i = 0; i < nl_in.nr_nodes; i++)
		if (link == &nl_pool[i].node.next) {
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
/* "head l1" or "n3": what the walk stood on (@prev: -1 for the head) */
static const char *who_name(int l, int prev, char *buf, size_t size)
{
	if (prev < 0)
		snprintf(buf, size, "head l%d", l);
	else
		snprintf(buf, size, "n%d", prev);
	return buf;
}

static bool check_links(int l, int *ids, int *n)
{
	struct hlist_nulls_node **link = &nl_heads[l].first;
	struct hlist_nulls_node *pos = nl_heads[l].first;
	char who[16];
	int prev = -1;

	*n = 0;
	while (!is_a_nulls(pos)) {
		int i = pool_index(pos);

		if (i < 0) {
			mlf_fail_simple("nulls.links",
					"l%d: the pointer after %s points outside the pool (%p)",
					l, who_name(l, prev, who, sizeof(who)),
					(void *)pos);
			return false;
		}
		if (*n >= nl_in.nr_nodes) {
			mlf_fail_simple("nulls.links",
					"l%d: walk meets n%d again after %d nodes: a cycle",
					l, i, *n);
			return false;
		}
		if (nl_pool[i].node.pprev != link) {
			char got[32], want[32];

			mlf_fail_simple("nulls.links",
					"l%d: n%d->pprev points at %s, but %s points to n%d",
					l, i,
					link_name(nl_pool[i].node.pprev, got,
						  sizeof(got)),
					link_name(link, want, sizeof(want)), i);
			return false;
		}
		ids[(*n)++] = i;
		prev = i;
		link = &nl_pool[i].node.next;
		pos = nl_pool[i].node.next;
	}
	if (get_nulls_value(pos) != (unsigned long)l) {
		mlf_fail_simple("nulls.links",
				"l%d: walk ends after %s on nulls value %lu, expected %d",
				l, who_name(l, prev, who, sizeof(who)),
				get_nulls_value(pos), l);
		return false;
	}
	return true;
}

static bool check_node_state(int id)
{
	const struct hlist_nulls_node *n = &nl_pool[id].node;
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

bool nl_check_all(void)
{
	int ids[NL_MAX_NODES], n, l, i;
	char got[256], want[256];

	for (l = 0; l < nl_in.nr_lists; l++) {
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
	for (i = 0; i < nl_in.nr_nodes; i++)
		if (!check_node_state(i))
			return false;
	return true;
}

bool nl_check_walk(const char *how, int l, const int *got, int n,
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

bool nl_walk_step(const char *how, int l, const struct nl_item *t, int *ids,
		  int *n)
{
	if (pool_index(&t->node) < 0 || t->id != t - nl_pool) {
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
