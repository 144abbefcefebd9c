// SPDX-License-Identifier: GPL-2.0
/*
 * The reference model of the memcg LRU: each bin is a plain array of memcg
 * ids, head first, and each memcg records where it sits. It follows the
 * design comment above MEMCG_NR_GENS and the Linux 6.12 functions
 * (lru_gen_rotate_memcg, _online, _offline, _release, _soft_reclaim,
 * shrink_one, shrink_many) without sharing a line of code or a data
 * structure with the port, so that the two cannot share a mistake.
 */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "mm/mmzone.h"

/*
 * The rotations, in the order mlf_rotation() has them (mm/mmzone.h): an
 * op carries the tree's value, which rot_of() turns into one of these.
 */
enum { ROT_NOP, ROT_HEAD, ROT_TAIL, ROT_OLD, ROT_YOUNG };

static int rot_of(int tree_value)
{
	return mlf_rotation_index(tree_value) + 1;
}

/*
 * The draws of one op, in order; once they run out every draw is 0, as the
 * shim's byte entropy reads missing bytes as zero.
 */
struct draws {
	const struct mlf_op *op;
	int next;
};

static int draw_bin(struct draws *d)
{
	if (d->next >= d->op->nr_draws)
		return 0;
	return d->op->draws[d->next++] % MODEL_NR_BINS;
}

/* The storage of the last model destroyed, clean, for the next one. */
static struct {
	bool full;
	int cap;
	struct mlf_model_memcg *memcgs;
	u64 *allocated, *ever;
	struct mlf_model_node nodes[MAX_NUMNODES];	/* bins: len 0 */
} spare;

static int bitmap_words(int bits)
{
	return (bits + 63) / 64;
}

void model_init(struct mlf_model *m, int nr_nodes, int pool_size,
		struct mlf_model_features features)
{
	memset(m, 0, sizeof(*m));
	m->nr_nodes = nr_nodes;
	m->pool_size = pool_size;
	m->features = features;
	if (spare.full && spare.cap >= pool_size) {
		m->cap = spare.cap;
		m->memcgs = spare.memcgs;
		m->allocated = spare.allocated;
		m->ever = spare.ever;
		memcpy(m->nodes, spare.nodes, sizeof(m->nodes));
		memset(&spare, 0, sizeof(spare));
		return;
	}
	/* bins start empty and grow when used */
	m->cap = pool_size;
	m->memcgs = calloc(pool_size, sizeof(*m->memcgs));
	m->allocated = calloc(bitmap_words(pool_size), sizeof(*m->allocated));
	m->ever = calloc(bitmap_words(pool_size), sizeof(*m->ever));
	if (!m->memcgs || !m->allocated || !m->ever)
		abort();
}

static void free_storage(struct mlf_model_memcg *memcgs, u64 *allocated,
			 u64 *ever, struct mlf_model_node *nodes)
{
	int nid, gen, bin;

	for (nid = 0; nid < MAX_NUMNODES; nid++)
		for (gen = 0; gen < MODEL_NR_GENS; gen++)
			for (bin = 0; bin < MODEL_NR_BINS; bin++)
				free(nodes[nid].bins[gen][bin].ids);
	free(memcgs);
	free(allocated);
	free(ever);
}

void model_destroy(struct mlf_model *m)
{
	int words = bitmap_words(m->pool_size), nid, gen, bin, i;

	/* clean what this model wrote (the memcgs ever onlined, the bins) */
	for (i = 0; i < words; i++) {
		u64 bits = m->ever[i];

		while (bits) {
			memset(&m->memcgs[i * 64 + __builtin_ctzll(bits)], 0,
			       sizeof(*m->memcgs));
			bits &= bits - 1;
		}
	}
	memset(m->allocated, 0, words * sizeof(*m->allocated));
	memset(m->ever, 0, words * sizeof(*m->ever));
	for (nid = 0; nid < MAX_NUMNODES; nid++) {
		m->nodes[nid].seq = 0;
		for (gen = 0; gen < MODEL_NR_GENS; gen++) {
			m->nodes[nid].nr[gen] = 0;
			for (bin = 0; bin < MODEL_NR_BINS; bin++)
				m->nodes[nid].bins[gen][bin].len = 0;
		}
	}
	/* keep the bigger of it and the spare */
	if (spare.full && spare.cap >= m->cap) {
		free_storage(m->memcgs, m->allocated, m->ever, m->nodes);
	} else {
		if (spare.full)
			free_storage(spare.memcgs, spare.allocated, spare.ever,
				     spare.nodes);
		spare.full = true;
		spare.cap = m->cap;
		spare.memcgs = m->memcgs;
		spare.allocated = m->allocated;
		spare.ever = m->ever;
		memcpy(spare.nodes, m->nodes, sizeof(spare.nodes));
	}
	memset(m, 0, sizeof(*m));
}

static int bin_index(const struct mlf_model_bin *b, int id)
{
	int i;

	for (i = 0; i < b->len; i++)
		if (b->ids[i] == id)
			return i;
	return -1;
}

static void bin_insert(struct mlf_model *m, struct mlf_model_bin *b, int id,
		       bool at_head)
{
	if (b->len == b->cap) {
		int cap = b->cap ? b->cap * 2 : 8;

		if (cap > m->pool_size)
			cap = m->pool_size;
		b->ids = realloc(b->ids, cap * sizeof(*b->ids));
		if (!b->ids)
			abort();
		b->cap = cap;
	}
	if (at_head) {
		memmove(b->ids + 1, b->ids, b->len * sizeof(*b->ids));
		b->ids[0] = id;
	} else {
		b->ids[b->len] = id;
	}
	b->len++;
}

static bool gen_empty(const struct mlf_model_node *node, int gen)
{
	return !node->nr[gen];
}

/* Take @id out of the bin it sits in on @nid. */
static void remove_from_bin(struct mlf_model *m, int id, int nid)
{
	struct mlf_model_memcg *mc = &m->memcgs[id];
	struct mlf_model_bin *b = &m->nodes[nid].bins[mc->gen[nid]][mc->bin[nid]];
	int i = bin_index(b, id);

	if (i < 0)
		abort();	/* the model lost track of itself */
	memmove(b->ids + i, b->ids + i + 1, (b->len - i - 1) * sizeof(*b->ids));
	b->len--;
	m->nodes[nid].nr[mc->gen[nid]]--;
	m->nr_linked--;
}

static void place(struct mlf_model *m, int id, int nid, int gen, int bin,
		  int seg, bool at_head)
{
	struct mlf_model_memcg *mc = &m->memcgs[id];

	bin_insert(m, &m->nodes[nid].bins[gen][bin], id, at_head);
	m->nodes[nid].nr[gen]++;
	m->nr_linked++;
	mc->linked[nid] = true;
	mc->gen[nid] = gen;
	mc->bin[nid] = bin;
	mc->seg[nid] = seg;
}

/* The old generation emptied: the node moves on to the next one. */
static void maybe_advance(struct mlf_model *m, int nid, int gen)
{
	struct mlf_model_node *node = &m->nodes[nid];

	if (gen == node->seq % MODEL_NR_GENS && gen_empty(node, gen))
		node->seq++;
}

static void rotate(struct mlf_model *m, int id, int nid, int op,
		   struct draws *d)
{
	struct mlf_model_memcg *mc = &m->memcgs[id];
	struct mlf_model_node *node = &m->nodes[nid];
	int old = mc->gen[nid], new = old;
	int seg = MODEL_SEG_DEFAULT;
	int bin = 0;

	/* the bin is drawn before anything is decided, unless lockrand */
	if (!m->features.lockrand)
		bin = draw_bin(d);

	switch (op) {
	case ROT_HEAD:
		seg = MODEL_SEG_HEAD;
		break;
	case ROT_TAIL:
		seg = MODEL_SEG_TAIL;
		break;
	case ROT_OLD:
		new = node->seq % MODEL_NR_GENS;
		break;
	case ROT_YOUNG:
		new = (node->seq + 1) % MODEL_NR_GENS;
		break;
	default:
		return;
	}

	if (m->features.young_skip && op == ROT_YOUNG && old == new &&
	    mc->seg[nid] == seg)
		return;

	if (m->features.lockrand)
		bin = draw_bin(d);

	remove_from_bin(m, id, nid);
	place(m, id, nid, new, bin, seg, op == ROT_HEAD || op == ROT_OLD);
	maybe_advance(m, nid, old);
}

static void unlink_node(struct mlf_model *m, int id, int nid)
{
	struct mlf_model_memcg *mc = &m->memcgs[id];

	if (!mc->linked[nid])
		return;
	remove_from_bin(m, id, nid);
	mc->linked[nid] = false;
	maybe_advance(m, nid, mc->gen[nid]);
}

/* lru_gen_release_memcg: every node, whoever calls it */
static void unlink_all(struct mlf_model *m, int id)
{
	int nid;

	for (nid = 0; nid < m->nr_nodes; nid++)
		unlink_node(m, id, nid);
}

/* What shrink_one() decides for @id on @nid; adds what it reclaims. */
static int shrink_one(struct mlf_model *m, int id, int nid,
		      unsigned long *reclaimed)
{
	struct mlf_model_memcg *mc = &m->memcgs[id];

	if (mc->below_min)
		return ROT_YOUNG;
	if (mc->below_low && mc->seg[nid] != MODEL_SEG_TAIL)
		return ROT_TAIL;
	*reclaimed += mc->nr_reclaimed;
	if (mc->success && mc->online)
		return ROT_YOUNG;
	if (!mc->success && mc->sizable)
		return ROT_NOP;
	return mc->seg[nid] != MODEL_SEG_TAIL ? ROT_TAIL : ROT_YOUNG;
}

/*
 * Where a walk standing on @id goes next: the entry after it in the list it
 * is in now, or the end of that list (-1, and *@end_gen says whose end).
 */
static int successor(const struct mlf_model *m, int id, int nid, int *end_gen)
{
	const struct mlf_model_memcg *mc = &m->memcgs[id];
	const struct mlf_model_bin *b;
	int i;

	*end_gen = mc->gen[nid];
	if (!mc->linked[nid])
		return -1;
	b = &m->nodes[nid].bins[mc->gen[nid]][mc->bin[nid]];
	i = bin_index(b, id);
	return i >= 0 && i + 1 < b->len ? b->ids[i + 1] : -1;
}

/*
 * shrink_many() on one node. A pending rotation is applied only when the
 * walk has moved on, so the cursor's successor is read before its own
 * rotation, and a memcg rotated to the tail of the bin being walked is met
 * again. A memcg whose tryget fails is released (on every node), and the
 * walk continues from the successor it had when it was unlinked. It stops
 * after a visit that brought what it reclaimed to the request (at least
 * 2 pages: should_abort_scan()'s compact_gap() of order 0).
 */
static void reclaim(struct mlf_model *m, int nid, unsigned long target,
		    struct draws *d)
{
	struct mlf_model_node *node = &m->nodes[nid];
	int gen = node->seq % MODEL_NR_GENS;
	int first_bin = draw_bin(d);
	int bin = first_bin;
	unsigned long reclaimed = 0;

	for (;;) {
		const struct mlf_model_bin *b = &node->bins[gen][bin];
		int cur = b->len ? b->ids[0] : -1;
		int end_gen = gen;
		int op = ROT_NOP, prev = -1, held = -1;
		bool aborted = false;

		while (cur >= 0) {
			struct mlf_model_memcg *mc = &m->memcgs[cur];
			int x = cur;

			if (op) {
				rotate(m, prev, nid, op, d);
				op = ROT_NOP;
			}
			if (held >= 0) {
				m->memcgs[held].refs--;
				held = -1;
			}
			if (mc->gen[nid] != gen) {
				cur = successor(m, x, nid, &end_gen);
				continue;
			}
			if (mc->refs <= 0) {
				cur = successor(m, x, nid, &end_gen);
				unlink_all(m, x);
				continue;
			}
			mc->refs++;
			held = x;
			op = shrink_one(m, x, nid, &reclaimed);
			prev = x;
			/*
			 * should_abort_scan(), root reclaim outside kswapd:
			 * reclaimed >= max(nr_to_reclaim, compact_gap(0) = 2);
			 * a target of 0 is never met
			 */
			if (target && reclaimed >= (target > 2 ? target : 2)) {
				aborted = true;
				break;
			}
			cur = successor(m, x, nid, &end_gen);
		}

		if (op)
			rotate(m, prev, nid, op, d);
		if (held >= 0)
			m->memcgs[held].refs--;
		if (aborted)
			return;
		/* ended in another generation's list: moved under us */
		if (end_gen != gen)
			continue;
		bin = (bin + 1) % MODEL_NR_BINS;
		if (bin == first_bin)
			return;
	}
}

static void online(struct mlf_model *m, int id, struct draws *d)
{
	struct mlf_model_memcg *mc = &m->memcgs[id];
	int bin = draw_bin(d);
	int nid;

	memset(mc, 0, sizeof(*mc));
	mc->allocated = true;
	m->allocated[id / 64] |= 1ULL << (id % 64);
	m->ever[id / 64] |= 1ULL << (id % 64);
	mc->online = true;
	mc->refs = 1;
	for (nid = 0; nid < m->nr_nodes; nid++)
		place(m, id, nid, m->nodes[nid].seq % MODEL_NR_GENS, bin,
		      MODEL_SEG_DEFAULT, false);
}

void model_apply(struct mlf_model *m, const struct mlf_op *op)
{
	struct draws d = { .op = op };
	int id = op->memcg % m->pool_size;
	int n = op->node % m->nr_nodes;
	struct mlf_model_memcg *mc = &m->memcgs[id];
	int nid;

	switch (op->kind) {
	case MLF_OP_ONLINE:
		online(m, id, &d);
		break;
	case MLF_OP_CSS_OFFLINE:
		/* the callback: OLD on every node; the memcg stays online */
		for (nid = 0; m->features.offline_old && nid < m->nr_nodes; nid++)
			rotate(m, id, nid, ROT_OLD, &d);
		mc->css_offlined = true;
		break;
	case MLF_OP_OFFLINE:
		/* offline_css(): the callback first, then CSS_ONLINE cleared */
		if (!mc->css_offlined)
			for (nid = 0; m->features.offline_old && nid < m->nr_nodes; nid++)
				rotate(m, id, nid, ROT_OLD, &d);
		mc->css_offlined = false;
		mc->online = false;
		mc->refs--;
		break;
	case MLF_OP_GET:
		mc->refs++;
		break;
	case MLF_OP_PUT:
		mc->refs--;
		break;
	case MLF_OP_RELEASE:
		unlink_all(m, id);
		mc->allocated = false;
		m->allocated[id / 64] &= ~(1ULL << (id % 64));
		break;
	case MLF_OP_ROTATE:
		rotate(m, id, n, rot_of(op->rotate_op), &d);
		break;
	case MLF_OP_SOFT:
		if (mc->seg[n] != MODEL_SEG_HEAD)
			rotate(m, id, n, ROT_HEAD, &d);
		break;
	case MLF_OP_SET:
		mc->below_min = op->below_min;
		mc->below_low = op->below_low;
		mc->success = op->success;
		mc->sizable = op->sizable;
		mc->nr_reclaimed = op->nr_reclaimed;
		break;
	case MLF_OP_RECLAIM:
		reclaim(m, n, op->target, &d);
		break;
	default:
		break;
	}
}
