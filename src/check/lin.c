// SPDX-License-Identifier: GPL-2.0
/*
 * The linearization check (lin.h): the model of each node as the
 * specification has it, advanced one critical section at a time by the
 * one operation that explains the port's node, and compared with it.
 * Reading the port is the harness looking on, out of ThreadSanitizer's
 * sight like the scheduler (it holds the node lock when it reads).
 */
#include "lin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/rcu_model.h"
#include "kernel/sanitizer.h"

/*
 * All of it: the model is shared by the tasks, which each advance it at
 * their node-lock releases, and read by the walk checks of the others,
 * ordered by the scheduler (one task at a time) and not by anything
 * ThreadSanitizer sees, which would report the harness's own accesses.
 */
#ifdef __clang__
#pragma clang attribute push(__attribute__((no_sanitize("thread"))), \
			     apply_to = function)
#endif

static const char *const seg_names[] = { "default", "head", "tail" };

/*
 * The operations of the specification: the rotations in mlf_rotation()'s
 * order (mm/mmzone.h; an expectation carries the tree's value), then the
 * others.
 */
enum {
	LIN_OP_NONE,
	LIN_OP_HEAD,
	LIN_OP_TAIL,
	LIN_OP_OLD,
	LIN_OP_YOUNG,
	LIN_OP_ONLINE,
	LIN_OP_RELEASE,
	LIN_NR_OPS,
};

static const char *const op_names[LIN_NR_OPS] = {
	[LIN_OP_NONE] = "nothing",   [LIN_OP_HEAD] = "HEAD",
	[LIN_OP_TAIL] = "TAIL",	     [LIN_OP_OLD] = "OLD",
	[LIN_OP_YOUNG] = "YOUNG",    [LIN_OP_ONLINE] = "online",
	[LIN_OP_RELEASE] = "release",
};

static struct lin_place place_of(const struct lin_memcg *m)
{
	return (struct lin_place){ m->linked, m->gen, m->bin, m->seg };
}

/* The same place: both unlinked, or linked in one bin with one seg. */
static bool same_place(struct lin_place a, struct lin_place b)
{
	return a.linked == b.linked &&
	       (!a.linked ||
		(a.gen == b.gen && a.bin == b.bin && a.seg == b.seg));
}

/* Every bin's ids in one allocation: a run sets up several nodes per input. */
static void node_alloc(struct lin_node *n, int pool)
{
	int *ids = calloc((size_t)LIN_NR_GENS * LIN_NR_BINS * (pool + 1),
			  sizeof(int));
	int g, b;

	if (!ids)
		abort();
	memset(n, 0, sizeof(*n));
	for (g = 0; g < LIN_NR_GENS; g++)
		for (b = 0; b < LIN_NR_BINS; b++)
			n->ids[g][b] = ids + (g * LIN_NR_BINS + b) * (pool + 1);
}

static void node_free(struct lin_node *n)
{
	free(n->ids[0][0]);
}

/*
 * Every node of a run has room for the same pool (node_alloc()): its bins'
 * ids are one block, copied as one.
 */
static void node_copy(struct lin_node *to, const struct lin_node *from,
		      int pool)
{
	to->seq = from->seq;
	memcpy(to->nr_memcgs, from->nr_memcgs, sizeof(to->nr_memcgs));
	memcpy(to->len, from->len, sizeof(to->len));
	memcpy(to->ids[0][0], from->ids[0][0],
	       (size_t)LIN_NR_GENS * LIN_NR_BINS * (pool + 1) * sizeof(int));
}

void mlf_lin_init(struct mlf_lin *lin, struct pglist_data *nodes,
		  int nr_nodes, int pool_size,
		  struct mem_cgroup *(*memcg_of)(void *arg, int i), void *arg)
{
	int nid;

	memset(lin, 0, sizeof(*lin));
	/* every buffer has room for the pool: ids of a bin, one per memcg */
	lin->nodes = nodes;
	lin->nr_nodes = nr_nodes;
	lin->pool_size = pool_size;
	lin->memcg_of = memcg_of;
	lin->arg = arg;
	for (nid = 0; nid < nr_nodes; nid++)
		node_alloc(&lin->node[nid], pool_size);
	node_alloc(&lin->port, pool_size);
	node_alloc(&lin->cand, pool_size);
	lin->mc = calloc((size_t)pool_size * MAX_NUMNODES, sizeof(*lin->mc));
	lin->port_mc = calloc(pool_size, sizeof(*lin->port_mc));
	lin->lrugens = calloc((size_t)pool_size * MAX_NUMNODES,
			      sizeof(*lin->lrugens));
	lin->lrugens_stale = true;
	lin->cand_mc = calloc(pool_size, sizeof(*lin->cand_mc));
	if (!lin->mc || !lin->port_mc || !lin->cand_mc || !lin->lrugens)
		abort();
}

void mlf_lin_destroy(struct mlf_lin *lin)
{
	int nid;

	for (nid = 0; nid < lin->nr_nodes; nid++)
		node_free(&lin->node[nid]);
	node_free(&lin->port);
	node_free(&lin->cand);
	free(lin->mc);
	free(lin->port_mc);
	free(lin->cand_mc);
	free(lin->lrugens);
	memset(lin, 0, sizeof(*lin));
}

MLF_NO_TSAN bool mlf_lin_port_where(struct mlf_lin *lin, int i, int nid,
				    int *gen, int *bin, bool *linked)
{
	struct mem_cgroup *memcg = lin->memcg_of(lin->arg, i);
	const struct lru_gen_folio *lrugen;

	if (!memcg)
		return false;
	lrugen = &get_lruvec(memcg, nid)->lrugen;
	/*
	 * A plain read, not hlist_nulls_unhashed(): the shim's accessors are
	 * scheduling points, and a check must judge the step it was called
	 * at, not let other tasks run in the middle of it.
	 */
	*linked = lrugen->list.pprev;
	*gen = lrugen->gen;
	*bin = -1;
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
	*bin = lrugen->bin;
#endif
	return true;
}

MLF_NO_TSAN bool mlf_lin_section_open(const struct mlf_lin *lin, int nid)
{
	return __atomic_load_n(&lin->nodes[nid].memcg_lru.lock.owner,
			       __ATOMIC_RELAXED) != 0;
}

static int lrugen_cmp(const void *a, const void *b)
{
	const char *x = ((const struct lin_lrugen *)a)->start;
	const char *y = ((const struct lin_lrugen *)b)->start;

	return x < y ? -1 : x > y;
}

/* On no list: unlinked (poisoned or cleared by a del_init) or never linked. */
MLF_NO_TSAN static bool off_any_list(const struct lru_gen_folio *lrugen)
{
	return !lrugen->list.pprev || lrugen->list.pprev == LIST_POISON2;
}

MLF_NO_TSAN static void reread_lrugens(struct mlf_lin *lin)
{
	int i, nid;

	lin->nr_lrugens = 0;
	for (i = 0; i < lin->pool_size; i++) {
		struct mem_cgroup *memcg = lin->memcg_of(lin->arg, i);

		if (!memcg)
			continue;
		for (nid = 0; nid < lin->nr_nodes; nid++) {
			struct lin_lrugen *l = &lin->lrugens[lin->nr_lrugens++];
			struct lin_memcg *m = &lin->mc[i * MAX_NUMNODES + nid];

			l->start = (const char *)&get_lruvec(memcg, nid)->lrugen;
			l->slot = i;
			l->nid = nid;
			/* a new memcg in the slot: its stores start again */
			if (m->lrugen != l->start) {
				m->lrugen = l->start;
				m->gen_stored_at = m->joined_at = 0;
				m->off_list = off_any_list(m->lrugen);
				m->nr_joins = 0;
			}
		}
	}
	/* the interceptor's accesses too */
	mlf_tsan_ignore_begin();
	qsort(lin->lrugens, lin->nr_lrugens, sizeof(*lin->lrugens),
	      lrugen_cmp);
	mlf_tsan_ignore_end();
	lin->lrugens_stale = false;
}

/* The fields of an lrugen whose stores the walk checks order. */
enum { FIELD_OTHER, FIELD_GEN, FIELD_PPREV };

MLF_NO_TSAN bool mlf_lin_lrugen_at(struct mlf_lin *lin, const void *addr,
				   int *slot, int *nid, size_t *offset)
{
	const char *p = addr;
	int lo = 0, hi;

	if (lin->lrugens_stale)
		reread_lrugens(lin);
	/* the last lrugen that starts at or below @p */
	hi = lin->nr_lrugens;
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (lin->lrugens[mid].start <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || p >= lin->lrugens[lo - 1].start + sizeof(struct lru_gen_folio))
		return false;
	*slot = lin->lrugens[lo - 1].slot;
	*nid = lin->lrugens[lo - 1].nid;
	*offset = p - lin->lrugens[lo - 1].start;
	return true;
}

/* Whether @addr is the ->first of one of the nodes' heads. */
MLF_NO_TSAN static bool is_head(const struct mlf_lin *lin, const void *addr)
{
	int nid;

	for (nid = 0; nid < lin->nr_nodes; nid++) {
		const char *heads = (const char *)&lin->nodes[nid].memcg_lru.fifo;
		const char *p = addr;

		if (p >= heads &&
		    p < heads + sizeof(lin->nodes[nid].memcg_lru.fifo))
			return !((p - heads) % sizeof(struct hlist_nulls_head));
	}
	return false;
}

MLF_NO_TSAN void mlf_lin_touch(struct mlf_lin *lin, const void *addr,
			       unsigned long step, int task)
{
	struct lin_pending *pend;
	const struct lru_gen_folio *lrugen;
	int slot, nid;
	size_t off;
	bool in_lrugen;

	if (task + 1 < 0 || task + 1 > LIN_MAX_TASKS)
		return;
	in_lrugen = mlf_lin_lrugen_at(lin, addr, &slot, &nid, &off);
	/*
	 * A link rewritten (a head's ->first, an lrugen's ->next): the
	 * memcg it pointed at leaves a reader's reach there (the first store
	 * of an unlink, before the memcg's own links are written), so it is
	 * touched too.
	 */
	pend = &lin->pending[task + 1];
	pend->link = NULL;
	if ((in_lrugen && off == offsetof(struct lru_gen_folio, list.next)) ||
	    (!in_lrugen && is_head(lin, addr))) {
		const struct hlist_nulls_node *old =
			*(struct hlist_nulls_node *const *)addr;
		int oslot, onid;
		size_t ooff;

		if (!is_a_nulls(old) &&
		    mlf_lin_lrugen_at(lin, old, &oslot, &onid, &ooff))
			lin->mc[oslot * MAX_NUMNODES + onid]
				.touched_at_by[task + 1] = step;
		/* what it links to now, once it took effect */
		pend->on = true;
		pend->link = addr;
		pend->slot = -1;
	}
	if (!in_lrugen)
		return;
	lin->mc[slot * MAX_NUMNODES + nid].touched_at_by[task + 1] = step;
	/*
	 * Which store it is, for the publication order: the gen field, or
	 * the pprev of an lrugen that is on no list now (it joins one).
	 */
	lrugen = (const struct lru_gen_folio *)((const char *)addr - off);
	pend->on = true;
	pend->slot = slot;
	pend->nid = nid;
	pend->join = false;
	if (off == offsetof(struct lru_gen_folio, gen)) {
		pend->field = FIELD_GEN;
	} else if (off == offsetof(struct lru_gen_folio, list.pprev)) {
		pend->field = FIELD_PPREV;
		pend->join = off_any_list(lrugen);
	} else {
		pend->field = FIELD_OTHER;
	}
}

static int list_gen(struct mlf_lin *lin, int i, int nid);

/* Memcg @i's lrugen on @nid joined a list at @step: which generation's? */
MLF_NO_TSAN static void add_join(struct mlf_lin *lin, int i, int nid,
				 unsigned long step)
{
	struct lin_memcg *m = &lin->mc[i * MAX_NUMNODES + nid];

	m->joined_at = step;
	m->off_list = false;
	m->joins[m->nr_joins % ARRAY_SIZE(m->joins)].at = step;
	m->joins[m->nr_joins++ % ARRAY_SIZE(m->joins)].gen =
		(s8)list_gen(lin, i, nid);
}

/*
 * A link (a head's ->first or an lrugen's ->next) at @link took the value
 * it has now at @step. If it points at an lrugen off every list, that
 * lrugen joins a list here: hlist_nulls_add_tail_rcu() behind an entry
 * (and hlist_nulls_add_behind_rcu()) stores its pprev plainly, so no
 * marked store of its own says so.
 */
MLF_NO_TSAN static void commit_link(struct mlf_lin *lin, const void *link,
				    unsigned long step)
{
	const struct hlist_nulls_node *to =
		*(struct hlist_nulls_node *const *)link;
	const struct lin_memcg *m;
	int slot, nid;
	size_t off;

	if (is_a_nulls(to) || !mlf_lin_lrugen_at(lin, to, &slot, &nid, &off) ||
	    off != offsetof(struct lru_gen_folio, list))
		return;
	m = &lin->mc[slot * MAX_NUMNODES + nid];
	if (!m->off_list)
		return;
	add_join(lin, slot, nid, step);
}

MLF_NO_TSAN void mlf_lin_commit(struct mlf_lin *lin, int task,
				unsigned long step)
{
	struct lin_pending *pend;
	struct lin_memcg *m;

	if (task + 1 < 0 || task + 1 > LIN_MAX_TASKS)
		return;
	pend = &lin->pending[task + 1];
	if (!pend->on)
		return;
	pend->on = false;
	if (pend->link)
		commit_link(lin, pend->link, step);
	if (pend->slot < 0)
		return;
	m = &lin->mc[pend->slot * MAX_NUMNODES + pend->nid];
	if (pend->field == FIELD_GEN) {
		m->gen_stored_at = step;
	} else if (pend->join) {
		add_join(lin, pend->slot, pend->nid, step);
	} else if (pend->field == FIELD_PPREV) {
		m->off_list = off_any_list(m->lrugen);
	}
}

/*
 * The generation of the list memcg @i's lrugen on @nid is linked in,
 * found by following its back links to a head (each step through a live
 * lrugen of the node), or -1: on no list, or links the harness cannot
 * follow (other checks name those).
 */
MLF_NO_TSAN static int list_gen(struct mlf_lin *lin, int i, int nid)
{
	const struct lru_gen_memcg *lru = &lin->nodes[nid].memcg_lru;
	const char *heads = (const char *)&lru->fifo[0][0];
	struct mem_cgroup *memcg = lin->memcg_of(lin->arg, i);
	struct hlist_nulls_node **pprev;
	int n;

	if (!memcg)
		return -1;
	pprev = get_lruvec(memcg, nid)->lrugen.list.pprev;
	for (n = 0; n <= lin->pool_size; n++) {
		const char *p = (const char *)pprev;
		size_t off;
		int slot, at;

		if (!pprev || pprev == LIST_POISON2)
			return -1;
		if (p >= heads && p < heads + sizeof(lru->fifo)) {
			/* a head's ->first: its index names the generation */
			if ((p - heads) % sizeof(lru->fifo[0][0]))
				return -1;
			return (int)((p - heads) / sizeof(lru->fifo[0][0]) /
				     LIN_NR_BINS);
		}
		if (!mlf_lin_lrugen_at(lin, p, &slot, &at, &off) || at != nid ||
		    off != offsetof(struct lru_gen_folio, list.next))
			return -1;
		pprev = container_of((struct hlist_nulls_node **)p,
				     struct hlist_nulls_node, next)->pprev;
	}
	return -1;
}

bool mlf_lin_list_at(const struct mlf_lin *lin, int i, int nid,
		     unsigned long step, int *gen, unsigned long *joined)
{
	const struct lin_memcg *m = mlf_lin_memcg(lin, i, nid);
	unsigned int k, n = ARRAY_SIZE(m->joins);

	for (k = 0; k < m->nr_joins && k < n; k++) {
		unsigned int j = (m->nr_joins - 1 - k) % n;

		if (m->joins[j].at > step)
			continue;
		*gen = m->joins[j].gen;
		*joined = m->joins[j].at;
		return true;
	}
	return false;
}

bool mlf_lin_touched_by_open_section(const struct mlf_lin *lin, int i,
				     int nid, int task)
{
	const struct lin_memcg *m = mlf_lin_memcg(lin, i, nid);
	int t;

	for (t = 0; t <= LIN_MAX_TASKS; t++)
		if (t != task + 1 && m->touched_at_by[t] > lin->last_unlock[t])
			return true;
	return false;
}

bool mlf_lin_touched_by_others(const struct mlf_lin *lin, int i, int nid,
			       int task, unsigned long step)
{
	const struct lin_memcg *m = mlf_lin_memcg(lin, i, nid);
	int t;

	for (t = 0; t <= LIN_MAX_TASKS; t++)
		if (t != task + 1 && m->touched_at_by[t] &&
		    m->touched_at_by[t] >= step)
			return true;
	return false;
}

int mlf_lin_node_of_lock(const struct mlf_lin *lin, const void *lock)
{
	int nid;

	for (nid = 0; nid < lin->nr_nodes; nid++)
		if (lock == &lin->nodes[nid].memcg_lru.lock)
			return nid;
	return -1;
}

/* ---- reading the port's node ---- */

/*
 * The slot whose lrugen on @nid is @pos, or -1 (no live memcg's): the
 * memcg's id names the slot, and the slot must hold that very memcg. A
 * freed one is in the RCU model's quarantine while the run lasts (poisoned,
 * for ASan too): not read.
 */
MLF_NO_TSAN static int slot_of(struct mlf_lin *lin, int nid,
			       const struct hlist_nulls_node *pos)
{
	struct lruvec *lruvec = container_of(pos, struct lruvec, lrugen.list);
	struct mem_cgroup *memcg;
	int i;

	/* quarantined (poisoned for ASan too): no live memcg's */
	if (mlf_rcu_model_freed(pos))
		return -1;
	memcg = lruvec_memcg(lruvec);
	if (!memcg || mlf_rcu_model_freed(memcg))
		return -1;
	i = memcg->id;
	if (i < 0 || i >= lin->pool_size ||
	    lin->memcg_of(lin->arg, i) != memcg ||
	    get_lruvec(memcg, nid) != lruvec)
		return -1;
	return i;
}

/*
 * @x as the task at the point sees it: the lock holder, at the end of its
 * section, sees what its lock orders before it (its view, wmm.h), which
 * under the weak memory model may be older than memory's newest store.
 */
#define SEEN(x)                                                       \
	(mlf_wmm_running() ?                                          \
		 (typeof(x))mlf_wmm_peek(&(x), sizeof(x)) : (x))

/*
 * The port's node @nid into lin->port and lin->port_mc (per slot: linked,
 * gen, bin, seg), as the task at the point (the lock holder) sees it. False and @f if an entry is no live memcg's lrugen, or a
 * bin has more entries than the pool (a cycle).
 */
MLF_NO_TSAN static bool read_port(struct mlf_lin *lin, int nid,
				  struct mlf_failure *f, const char *check)
{
	const struct lru_gen_memcg *lru = &lin->nodes[nid].memcg_lru;
	struct lin_node *n = &lin->port;
	int g, b, i;

	memset(lin->port_mc, 0, lin->pool_size * sizeof(*lin->port_mc));
	lin->port_links_ok = true;
	n->seq = SEEN(lru->seq);
	for (g = 0; g < LIN_NR_GENS; g++)
		n->nr_memcgs[g] = SEEN(lru->nr_memcgs[g]);
	for (g = 0; g < LIN_NR_GENS; g++) {
		unsigned long count = 0;

		for (b = 0; b < LIN_NR_BINS; b++) {
			const struct hlist_nulls_node *pos = SEEN(lru->fifo[g][b].first);
			struct hlist_nulls_node *const *want = &lru->fifo[g][b].first;
			const struct hlist_nulls_node *last = NULL;

			n->len[g][b] = 0;
			for (; !is_a_nulls(pos); pos = SEEN(pos->next)) {
				const struct lru_gen_folio *lrugen =
					container_of(pos, struct lru_gen_folio, list);
				struct lin_place *m;

				if (n->len[g][b] >= lin->pool_size) {
					mlf_failure_at(f, check, nid, g, b, MLF_NONE);
					mlf_failure_msg(f,
						"fifo[%d][%d] has more entries than the pool (%d): a cycle",
						g, b, lin->pool_size);
					return false;
				}
				i = slot_of(lin, nid, pos);
				if (i < 0) {
					mlf_failure_at(f, check, nid, g, b, MLF_NONE);
					mlf_failure_msg(f,
						"fifo[%d][%d] entry %d (%p) is the lrugen of no live memcg",
						g, b, n->len[g][b], (void *)pos);
					return false;
				}
				m = &lin->port_mc[i];
				if (m->linked) {
					mlf_failure_at(f, check, nid, g, b, i);
					mlf_failure_msg(f,
						"m%d is linked twice on node %d (fifo[%d][%d] and fifo[%d][%d])",
						i, nid, m->gen, m->bin, g, b);
					return false;
				}
				m->linked = true;
				m->bin = b;
				/* where it sits, and what its lrugen says */
				m->gen = g;
				m->seg = SEEN(lrugen->seg);
				if (SEEN(lrugen->gen) != g) {
					mlf_failure_at(f, check, nid, g, b, i);
					mlf_failure_msg(f,
						"m%d sits in fifo[%d][%d] but its lrugen.gen is %d",
						i, g, b, SEEN(lrugen->gen));
					return false;
				}
				n->ids[g][b][n->len[g][b]++] = i;
				/* list.links' back links, tail.cache's bin */
				if (SEEN(pos->pprev) != want)
					lin->port_links_ok = false;
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
				if (SEEN(lrugen->bin) != b)
					lin->port_links_ok = false;
#endif
				want = &pos->next;
				last = pos;
			}
			count += n->len[g][b];
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
			if (SEEN(lru->tail[g][b]) != last)
				lin->port_links_ok = false;
#endif
			(void)last;
			/* not get_nulls_value(): no walk event */
			if (((unsigned long)pos >> 1) != (unsigned long)g) {
				mlf_failure_at(f, check, nid, g, b, MLF_NONE);
				mlf_failure_msg(f,
					"fifo[%d][%d] ends on nulls value %lu, not its generation",
					g, b, (unsigned long)pos >> 1);
				return false;
			}
		}
		if (SEEN(lru->nr_memcgs[g]) != count)
			lin->port_links_ok = false;
	}
	return true;
}

/* ---- the model's operations ---- */

static int find(const struct lin_node *n, int id, int *gen, int *bin)
{
	int g, b, k;

	for (g = 0; g < LIN_NR_GENS; g++)
		for (b = 0; b < LIN_NR_BINS; b++)
			for (k = 0; k < n->len[g][b]; k++)
				if (n->ids[g][b][k] == id) {
					*gen = g;
					*bin = b;
					return k;
				}
	return -1;
}

static void remove_at(struct lin_node *n, int g, int b, int k)
{
	memmove(&n->ids[g][b][k], &n->ids[g][b][k + 1],
		(n->len[g][b] - k - 1) * sizeof(int));
	n->len[g][b]--;
	n->nr_memcgs[g]--;
}

static void insert(struct lin_node *n, int g, int b, int id, bool at_head)
{
	if (at_head) {
		memmove(&n->ids[g][b][1], &n->ids[g][b][0],
			n->len[g][b] * sizeof(int));
		n->ids[g][b][0] = id;
	} else {
		n->ids[g][b][n->len[g][b]] = id;
	}
	n->len[g][b]++;
	n->nr_memcgs[g]++;
}

/* seq moves on by one when the old generation is empty (and only then) */
static void advance(struct lin_node *n, int old_gen)
{
	if (!n->nr_memcgs[old_gen] && old_gen == (int)(n->seq % LIN_NR_GENS))
		n->seq++;
}

static bool same_node(const struct lin_node *a, const struct lin_node *b)
{
	int g, k;

	if (a->seq != b->seq)
		return false;
	if (memcmp(a->nr_memcgs, b->nr_memcgs, sizeof(a->nr_memcgs)) ||
	    memcmp(a->len, b->len, sizeof(a->len)))
		return false;
	for (g = 0; g < LIN_NR_GENS; g++)
		for (k = 0; k < LIN_NR_BINS; k++)
			if (a->len[g][k] &&
			    memcmp(a->ids[g][k], b->ids[g][k],
				   a->len[g][k] * sizeof(int)))
				return false;
	return true;
}

static bool same_memcgs(const struct lin_place *a, const struct lin_place *b,
			int pool)
{
	int i;

	for (i = 0; i < pool; i++)
		if (!same_place(a[i], b[i]))
			return false;
	return true;
}

/*
 * The one operation on memcg @id that turns the model's node into the
 * port's, applied to lin->cand: LIN_OP_*, or LIN_OP_NONE if none does.
 */
static int try_op(struct mlf_lin *lin, int nid, int id)
{
	const struct lin_node *model = &lin->node[nid];
	struct lin_node *c = &lin->cand;
	const struct lin_place *want = &lin->port_mc[id];
	const struct lin_memcg *was = mlf_lin_memcg(lin, id, nid);
	int old = (int)(model->seq % LIN_NR_GENS);
	int young = (int)((model->seq + 1) % LIN_NR_GENS);
	int g0 = 0, b0 = 0, k, i, name;

	node_copy(c, model, lin->pool_size);
	for (i = 0; i < lin->pool_size; i++)
		lin->cand_mc[i] = place_of(mlf_lin_memcg(lin, i, nid));
	k = find(c, id, &g0, &b0);
	if (!was->linked && want->linked) {
		/* online: tail of a bin of the old generation, seg as it was */
		if (want->gen != old ||
		    lin->port.ids[want->gen][want->bin]
				 [lin->port.len[want->gen][want->bin] - 1] != id)
			return LIN_OP_NONE;
		insert(c, want->gen, want->bin, id, false);
		name = LIN_OP_ONLINE;
	} else if (was->linked && !want->linked) {
		if (k < 0)
			return LIN_OP_NONE;
		remove_at(c, g0, b0, k);
		advance(c, g0);
		name = LIN_OP_RELEASE;
	} else if (was->linked && want->linked) {
		bool head = lin->port.ids[want->gen][want->bin][0] == id;
		bool tail = lin->port.ids[want->gen][want->bin]
					 [lin->port.len[want->gen][want->bin] - 1] == id;
		int op;

		if (want->seg == MEMCG_LRU_HEAD && want->gen == g0 && head)
			op = LIN_OP_HEAD;
		else if (want->seg == MEMCG_LRU_TAIL && want->gen == g0 && tail)
			op = LIN_OP_TAIL;
		else if (want->seg == 0 && want->gen == old && head)
			op = LIN_OP_OLD;
		else if (want->seg == 0 && want->gen == young && tail)
			op = LIN_OP_YOUNG;
		else
			return LIN_OP_NONE;
		if (k < 0)
			return LIN_OP_NONE;
		remove_at(c, g0, b0, k);
		insert(c, want->gen, want->bin, id, op == LIN_OP_HEAD || op == LIN_OP_OLD);
		advance(c, g0);
		name = op;
	} else {
		return LIN_OP_NONE;
	}
	lin->cand_mc[id].linked = want->linked;
	lin->cand_mc[id].gen = want->gen;
	lin->cand_mc[id].bin = want->bin;
	lin->cand_mc[id].seg = want->seg;
	if (!same_node(c, &lin->port))
		return LIN_OP_NONE;
	return name;
}

/* Commit lin->cand as node @nid's model, at @step, by @task. */
static void commit(struct mlf_lin *lin, int nid, unsigned long step, int task)
{
	int i;

	node_copy(&lin->node[nid], &lin->cand, lin->pool_size);
	for (i = 0; i < lin->pool_size; i++) {
		struct lin_memcg *m = &lin->mc[i * MAX_NUMNODES + nid];
		const struct lin_place *c = &lin->cand_mc[i];

		if (same_place(place_of(m), *c))
			continue;
		if (m->linked && (!c->linked || c->gen != m->gen))
			m->left_at[m->gen] = step;
		if (m->linked && (!c->linked || c->gen != m->gen ||
				  c->bin != m->bin))
			m->left_bin_at[m->gen][m->bin] = step;
		m->moved_at = step;
		m->linked = c->linked;
		m->gen = c->gen;
		m->bin = c->bin;
		m->seg = c->seg;
	}
}

bool mlf_lin_sync(struct mlf_lin *lin, struct mlf_failure *f)
{
	int nid, i;

	for (nid = 0; nid < lin->nr_nodes; nid++) {
		if (!read_port(lin, nid, f, "lin.step"))
			return false;
		node_copy(&lin->node[nid], &lin->port, lin->pool_size);
		for (i = 0; i < lin->pool_size; i++) {
			struct lin_memcg *m = &lin->mc[i * MAX_NUMNODES + nid];

			memset(m, 0, sizeof(*m));
			m->linked = lin->port_mc[i].linked;
			m->gen = lin->port_mc[i].gen;
			m->bin = lin->port_mc[i].bin;
			m->seg = lin->port_mc[i].seg;
			/* where the set-up left it: a join at 0 */
			m->joins[0].gen = m->linked ? (s8)m->gen : -1;
			m->nr_joins = 1;
			m->off_list = !m->linked;
			if (lin->memcg_of(lin->arg, i))
				m->lrugen = &get_lruvec(lin->memcg_of(lin->arg, i),
							nid)->lrugen;
		}
	}
	return true;
}

/* nr_memcgs[] as "a/b/c", one count per generation */
static void counts_str(char *buf, size_t size, const unsigned long *nr)
{
	size_t len = 0;
	int g;

	buf[0] = 0;
	for (g = 0; g < LIN_NR_GENS && len < size; g++)
		len += snprintf(buf + len, size - len, "%s%lu", g ? "/" : "",
				nr[g]);
}

/*
 * What differs between the model and the port, for a report: after @lead
 * (what was wrong), or, NULL, that no one operation explains it.
 */
static void describe(struct mlf_lin *lin, int nid, const char *lead,
		     struct mlf_failure *f)
{
	const struct lin_node *m = &lin->node[nid], *p = &lin->port;
	char what[400], counts[2][64];
	size_t len = 0;
	int i, moved = 0;

	for (i = 0; i < lin->pool_size && len < sizeof(what); i++) {
		const struct lin_memcg *a = mlf_lin_memcg(lin, i, nid);
		const struct lin_place *b = &lin->port_mc[i];

		if (same_place(place_of(a), *b))
			continue;
		moved++;
		len += snprintf(what + len, sizeof(what) - len, " m%d", i);
		if (a->linked)
			len += snprintf(what + len, len < sizeof(what) ?
					sizeof(what) - len : 0,
					" fifo[%d][%d]/%s", a->gen, a->bin,
					seg_names[(mlf_seg_kind(a->seg) + 3) % 3]);
		else
			len += snprintf(what + len, len < sizeof(what) ?
					sizeof(what) - len : 0, " unlinked");
		if (b->linked)
			len += snprintf(what + len, len < sizeof(what) ?
					sizeof(what) - len : 0,
					" -> fifo[%d][%d]/%s;", b->gen, b->bin,
					seg_names[(mlf_seg_kind(b->seg) + 3) % 3]);
		else
			len += snprintf(what + len, len < sizeof(what) ?
					sizeof(what) - len : 0, " -> unlinked;");
	}
	if (!moved)
		snprintf(what, sizeof(what), " no memcg moved, but an order, nr_memcgs or seq changed");
	counts_str(counts[0], sizeof(counts[0]), m->nr_memcgs);
	counts_str(counts[1], sizeof(counts[1]), p->nr_memcgs);
	if (lead)
		mlf_failure_msg(f,
			"%s (node %d: seq %lu -> %lu, nr_memcgs %s -> %s):%s",
			lead, nid, m->seq, p->seq, counts[0], counts[1], what);
	else
		mlf_failure_msg(f,
			"the section changed node %d in a way no one operation of the specification does (seq %lu -> %lu, nr_memcgs %s -> %s):%s",
			nid, m->seq, p->seq, counts[0], counts[1], what);
}

/*
 * The port's node @nid as read (read_port()) is the model's: the same lists
 * and counts, and every memcg with the same seg (and linked or not alike).
 */
static bool port_is_model(struct mlf_lin *lin, int nid)
{
	int i;

	if (!same_node(&lin->node[nid], &lin->port))
		return false;
	for (i = 0; i < lin->pool_size; i++)
		if (!same_place(place_of(mlf_lin_memcg(lin, i, nid)),
				lin->port_mc[i]))
			return false;
	return true;
}

/*
 * Whether memcg @i is a candidate for the section's operation: pass 0,
 * its place or seg changed; pass 1, it sits in a bin whose order changed.
 */
static bool candidate(struct mlf_lin *lin, int nid, int i, int pass)
{
	const struct lin_memcg *a = mlf_lin_memcg(lin, i, nid);
	const struct lin_place *b = &lin->port_mc[i];
	const struct lin_node *m = &lin->node[nid], *p = &lin->port;

	if (pass == 0)
		return !same_place(place_of(a), *b);
	if (!b->linked)
		return false;
	return memcmp(m->ids[b->gen][b->bin], p->ids[b->gen][b->bin],
		      p->len[b->gen][b->bin] * sizeof(int)) != 0;
}

void mlf_lin_expect(struct mlf_lin *lin, int task, const struct lin_expect *e)
{
	if (task + 1 < 0 || task + 1 > LIN_MAX_TASKS)
		return;
	lin->expect[task + 1] = *e;
	lin->expect[task + 1].done = 0;
}

/* The operation an expectation asks for: LIN_OP_*. */
static int expected_op(const struct lin_expect *e)
{
	switch (e->kind) {
	case LIN_EXPECT_ONLINE:
		return LIN_OP_ONLINE;
	case LIN_EXPECT_RELEASE:
		return LIN_OP_RELEASE;
	case LIN_EXPECT_ROTATE:
		return mlf_rotation_index(e->op) >= 0 ?
			       LIN_OP_HEAD + mlf_rotation_index(e->op) : LIN_OP_NONE;
	}
	return LIN_OP_NONE;
}

/*
 * Whether the expected operation may leave node @nid as it was: the
 * release of a memcg on no list there (or of one no slot holds), a
 * skipped YOUNG (already young, in the default segment), or a rotation
 * that puts the memcg back where it is (HEAD at the head of its bin in
 * the head segment, TAIL at the tail in the tail segment, OLD at the head
 * of a bin of the old generation), in the bin its draw chose if known.
 */
static bool may_change_nothing(struct mlf_lin *lin, int nid,
			       const struct lin_expect *e)
{
	const struct lin_node *n = &lin->node[nid];
	const struct lin_memcg *m;
	int op = expected_op(e), len;
	bool head, tail;

	if (op == LIN_OP_RELEASE)
		return e->slot < 0 || !mlf_lin_memcg(lin, e->slot, nid)->linked;
	if (op == LIN_OP_ONLINE || op == LIN_OP_NONE || e->slot < 0)
		return false;
	m = mlf_lin_memcg(lin, e->slot, nid);
	if (!m->linked)
		return false;
	if (op == LIN_OP_YOUNG && m->gen == (n->seq + 1) % LIN_NR_GENS &&
	    m->seg == 0)
		return true;
	if (e->bin >= 0 && m->bin != e->bin)
		return false;
	len = n->len[m->gen][m->bin];
	head = len && n->ids[m->gen][m->bin][0] == e->slot;
	tail = len && n->ids[m->gen][m->bin][len - 1] == e->slot;
	switch (op) {
	case LIN_OP_HEAD:
		return head && m->seg == MEMCG_LRU_HEAD;
	case LIN_OP_TAIL:
		return tail && m->seg == MEMCG_LRU_TAIL;
	case LIN_OP_OLD:
		return head && m->seg == 0 && m->gen == n->seq % LIN_NR_GENS;
	}
	return false;
}

/* "HEAD of m3", "release of a memcg no slot holds", for a report. */
static void expect_str(char *buf, size_t size, const struct lin_expect *e)
{
	if (e->kind == LIN_EXPECT_NONE)
		snprintf(buf, size, "an op that takes no node lock");
	else if (e->slot < 0)
		snprintf(buf, size, "%s of a memcg no slot holds",
			 op_names[expected_op(e)]);
	else
		snprintf(buf, size, "%s of m%d", op_names[expected_op(e)],
			 e->slot);
}

/*
 * lin.step for a section whose task said what its op asks (@e): the one
 * operation it may do, on that memcg, on the op's nodes, once each.
 */
static bool step_expected(struct mlf_lin *lin, int nid, unsigned long step,
			  int task, struct lin_expect *e,
			  struct mlf_failure *f)
{
	char lead[300], want[80];
	int op, done;

	expect_str(want, sizeof(want), e);
	if (e->kind == LIN_EXPECT_NONE) {
		mlf_failure_at(f, "lin.step", nid, MLF_NONE, MLF_NONE, MLF_NONE);
		snprintf(lead, sizeof(lead),
			 "t%d ended a critical section of node %d, but its op is %s",
			 task, nid, want);
		describe(lin, nid, lead, f);
		return false;
	}
	if ((e->nid >= 0 && e->nid != nid) || (e->done & (1u << nid))) {
		mlf_failure_at(f, "lin.step", nid, MLF_NONE, MLF_NONE,
			       e->slot < 0 ? MLF_NONE : e->slot);
		snprintf(lead, sizeof(lead),
			 e->done & (1u << nid) ?
				 "t%d ended a second critical section of node %d for one %s" :
				 "t%d ended a critical section of node %d for %s, an op on another node",
			 task, nid, want);
		describe(lin, nid, lead, f);
		return false;
	}
	e->done |= 1u << nid;
	if (e->slot >= 0 && e->memcg &&
	    lin->memcg_of(lin->arg, e->slot) != e->memcg)
		e->slot = -1;
	op = expected_op(e);
	if (port_is_model(lin, nid)) {
		if (may_change_nothing(lin, nid, e)) {
			if (e->kind == LIN_EXPECT_ROTATE)
				e->bin = -1;
			return true;
		}
		mlf_failure_at(f, "lin.step", nid, MLF_NONE, MLF_NONE,
			       e->slot < 0 ? MLF_NONE : e->slot);
		mlf_failure_msg(f,
			"t%d's critical section of node %d changed nothing, but the %s it invoked moves the memcg (the model has it %s)",
			task, nid, want,
			e->slot >= 0 && mlf_lin_memcg(lin, e->slot, nid)->linked ?
				"linked, elsewhere than the operation leaves it" :
				"on no list");
		return false;
	}
	done = e->slot < 0 ? LIN_OP_NONE : try_op(lin, nid, e->slot);
	if (done == LIN_OP_NONE ||
	    !same_memcgs(lin->cand_mc, lin->port_mc, lin->pool_size)) {
		mlf_failure_at(f, "lin.step", nid, MLF_NONE, MLF_NONE,
			       e->slot < 0 ? MLF_NONE : e->slot);
		snprintf(lead, sizeof(lead),
			 "t%d invoked %s, but its section did no such operation", task,
			 want);
		describe(lin, nid, lead, f);
		return false;
	}
	if (done != op) {
		mlf_failure_at(f, "lin.step", nid, MLF_NONE, MLF_NONE, e->slot);
		snprintf(lead, sizeof(lead),
			 "t%d invoked %s, but its section did %s of m%d", task,
			 want, op_names[done], e->slot);
		describe(lin, nid, lead, f);
		return false;
	}
	if (e->bin >= 0 && lin->port_mc[e->slot].linked &&
	    lin->port_mc[e->slot].bin != e->bin) {
		mlf_failure_at(f, "lin.step", nid, lin->port_mc[e->slot].gen,
			       lin->port_mc[e->slot].bin, e->slot);
		snprintf(lead, sizeof(lead),
			 "t%d's %s put it in bin %d, not bin %d, which its draw chose",
			 task, want, lin->port_mc[e->slot].bin, e->bin);
		describe(lin, nid, lead, f);
		return false;
	}
	/* a rotation's first draw is its first move's; online's is every node's */
	if (e->kind == LIN_EXPECT_ROTATE)
		e->bin = -1;
	commit(lin, nid, step, task);
	return true;
}

MLF_NO_TSAN bool mlf_lin_step(struct mlf_lin *lin, int nid, unsigned long step,
			      int task, struct mlf_failure *f)
{
	int i, pass;

	lin->sections++;
	/*
	 * What the section wrote to, it had in hand until now: a memcg it
	 * unlinked and put back was away from its bin the whole time.
	 */
	if (task + 1 >= 0 && task + 1 <= LIN_MAX_TASKS) {
		for (i = 0; i < lin->pool_size; i++) {
			struct lin_memcg *m = &lin->mc[i * MAX_NUMNODES + nid];

			if (m->touched_at_by[task + 1] > lin->last_unlock[task + 1])
				m->touched_at_by[task + 1] = step;
		}
		lin->last_unlock[task + 1] = step;
	}
	if (!read_port(lin, nid, f, "lin.step"))
		return false;
	if (task + 1 >= 0 && task + 1 <= LIN_MAX_TASKS &&
	    lin->expect[task + 1].kind != LIN_EXPECT_ANY)
		return step_expected(lin, nid, step, task,
				     &lin->expect[task + 1], f);
	/* nothing changed: a skipped rotation, a release of an unlinked one */
	if (port_is_model(lin, nid))
		return true;
	/*
	 * Not told what the task's op is: the memcgs that may have been
	 * operated on, those whose place or seg changed, else (a move inside
	 * one bin) those of the bins whose order changed. Each is tried:
	 * usually there is one.
	 */
	for (pass = 0; pass < 2; pass++) {
		bool any = false;

		for (i = 0; i < lin->pool_size; i++) {
			if (!candidate(lin, nid, i, pass))
				continue;
			any = true;
			if (!try_op(lin, nid, i))
				continue;
			if (!same_memcgs(lin->cand_mc, lin->port_mc,
					 lin->pool_size))
				continue;
			commit(lin, nid, step, task);
			return true;
		}
		if (any)
			break;
	}
	mlf_failure_at(f, "lin.step", nid, MLF_NONE, MLF_NONE, MLF_NONE);
	describe(lin, nid, NULL, f);
	return false;
}

MLF_NO_TSAN bool mlf_lin_final(struct mlf_lin *lin, struct mlf_failure *f)
{
	int nid;

	for (nid = 0; nid < lin->nr_nodes; nid++) {
		if (!read_port(lin, nid, f, "lin.final"))
			return false;
		if (port_is_model(lin, nid))
			continue;
		mlf_failure_at(f, "lin.final", nid, MLF_NONE, MLF_NONE,
			       MLF_NONE);
		describe(lin, nid, NULL, f);
		return false;
	}
	return true;
}

#ifdef __clang__
#pragma clang attribute pop
#endif
