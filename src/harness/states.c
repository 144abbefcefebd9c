// SPDX-License-Identifier: GPL-2.0
/*
 * State coverage (states.h): the cell of a memcg as an op meets it, the
 * table of cells a run met, its dump for tools/mlf cov --states, and the
 * time a process first meets each (MLF_STATES_TIMES).
 */
#include "states.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/lrugen_map.h"

struct mlf_state_table *mlf_states;

static const char *const stage_names[] = { "online", "offline-ref", "dying", "gone" };
static const char *const gen_names[] = { "old", "young", "third", "-" };
static const char *const seg_names[] = { "default", "head", "tail", "-" };
static const char *const pos_names[] = { "only", "head", "interior", "tail", "-" };
static const char *const len_names[] = { "1", "2", "3+", "-" };
static const char *const depth_names[] = { "1", "2", "3+" };
static const char *const dying_names[] = { "0", "1", "2+" };

int mlf_state_place(const struct mlf_state_cell *c)
{
	int i = c->stage;

	i = i * ST_NR_GENS + c->gen;
	i = i * ST_NR_SEGS + c->seg;
	i = i * ST_NR_POS + c->pos;
	return i * ST_NR_LENS + c->len;
}

int mlf_state_tree_place(const struct mlf_state_cell *c)
{
	int i = c->stage;

	i = i * ST_NR_DEPTHS + c->depth;
	return i * ST_NR_DYINGS + c->dying;
}

int mlf_state_index(const struct mlf_state_cell *c)
{
	int i = c->kind * ST_NR_LRU_PLACES + mlf_state_place(c);

	i = i * ST_NR_DEPTHS + c->depth;
	return i * ST_NR_DYINGS + c->dying;
}

int mlf_state_counter(const struct mlf_state_cell *c)
{
	int i;

	if (c->kind >= ST_TREE_KIND) {
		i = (c->kind - ST_TREE_KIND) * ST_NR_TREE_PLACES;
		return ST_TREE_KIND * ST_NR_LRU_PLACES + i +
		       mlf_state_tree_place(c);
	}
	return c->kind * ST_NR_LRU_PLACES + mlf_state_place(c);
}

/* @p if the map vouches for it as a live lrugen of @nid, else NULL */
static const struct hlist_nulls_node *
vouched(const struct mlf_check_state *cs, const struct hlist_nulls_node *p,
	int nid)
{
	int at;

	if (!p || is_a_nulls(p) ||
	    mlf_lrugen_map_lookup(&cs->map, p, &at) < 0 || at != nid)
		return NULL;
	return p;
}

static bool is_head_first(const struct lru_gen_memcg *lru,
			  struct hlist_nulls_node *const *pprev)
{
	const void *first = &lru->fifo[0][0].first;
	const void *last = &lru->fifo[MEMCG_NR_GENS - 1][MEMCG_NR_BINS - 1].first;

	return (const void *)pprev >= first && (const void *)pprev <= last &&
	       ((const char *)pprev - (const char *)first) %
			       sizeof(lru->fifo[0][0]) == 0;
}

/* Position and length class from the lrugen's own links and one neighbour. */
static void place(const struct mlf_check_state *cs, int nid,
		  const struct hlist_nulls_node *n, struct mlf_state_cell *c)
{
	const struct lru_gen_memcg *lru = &cs->nodes[nid].memcg_lru;
	bool head = is_head_first(lru, n->pprev);
	bool tail = is_a_nulls(n->next);
	const struct hlist_nulls_node *other;

	if (head && tail) {
		c->pos = ST_ONLY;
		c->len = ST_LEN1;
		return;
	}
	if (!head && !tail) {
		c->pos = ST_INTERIOR;
		c->len = ST_LEN3;
		return;
	}
	c->pos = head ? ST_HEAD : ST_TAIL;
	c->len = ST_LEN3;
	if (head) {
		other = vouched(cs, n->next, nid);
		if (other && is_a_nulls(other->next))
			c->len = ST_LEN2;
	} else {
		other = vouched(cs, container_of(n->pprev,
						 struct hlist_nulls_node, next),
				nid);
		if (other && is_head_first(lru, other->pprev))
			c->len = ST_LEN2;
	}
}

static int clamp3(int v)
{
	return v < 2 ? 0 : v == 2 ? 1 : 2;
}

void mlf_state_cell_of(const struct mlf_check_state *cs, int slot, int nid,
		       int kind, struct mlf_state_cell *c)
{
	const struct mlf_slot *s = &cs->slots[slot];
	const struct lru_gen_folio *lrugen;
	unsigned long seq = cs->nodes[nid].memcg_lru.seq;
	int depth = 1, dying = 0;

	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->gen = ST_NO_GEN;
	c->seg = ST_NO_SEG;
	c->pos = ST_NO_POS;
	c->len = ST_NO_LEN;
	if (!s->memcg) {
		c->stage = ST_GONE;
		return;
	}
	c->stage = s->state == SLOT_ONLINE  ? ST_ONLINE :
		   s->state == SLOT_OFFLINE ? ST_OFFLINE_REF :
					      ST_DYING;
#ifdef MLF_EVICTION
	{
		const struct mem_cgroup *p;

		depth = 0;
		for (p = s->memcg; p->parent && depth < 8; p = p->parent) {
			depth++;
			if (p != s->memcg && !READ_ONCE(p->online))
				dying++;
		}
	}
#endif
	c->depth = clamp3(depth);
	c->dying = dying > 2 ? 2 : dying;
	lrugen = &get_lruvec(s->memcg, nid)->lrugen;
	if (hlist_nulls_unhashed(&lrugen->list))
		return;
	c->gen = lrugen->gen == get_memcg_gen(seq)     ? ST_OLD :
		 lrugen->gen == get_memcg_gen(seq + 1) ? ST_YOUNG :
							 ST_THIRD;
	c->seg = lrugen->seg < ST_NO_SEG ? lrugen->seg : ST_NO_SEG;
	place(cs, nid, &lrugen->list, c);
}

/*
 * MLF_STATES_TIMES=1: a line on stderr for each cell as a process first
 * meets it, with the seconds since the table was attached, so that a
 * campaign says when it met its last cell (docs/speed.md)
 */
static bool show_times;
static struct timespec attached_at;

static void note_time(const struct mlf_state_table *t,
		      const struct mlf_state_cell *c)
{
	struct timespec now;
	char place[64];

	clock_gettime(CLOCK_MONOTONIC, &now);
	mlf_state_place_name(c, place, sizeof(place));
	fprintf(stderr, "mlf-states: %.3f s: cell %u: %s %s %s %s\n",
		(double)(now.tv_sec - attached_at.tv_sec) +
			(double)(now.tv_nsec - attached_at.tv_nsec) / 1e9,
		t->nr_met,
		t->kind_names[c->kind] ? t->kind_names[c->kind] : "?", place,
		depth_names[c->depth], dying_names[c->dying]);
}

void mlf_state_note(const struct mlf_state_cell *c)
{
	struct mlf_state_table *t = mlf_states;
	unsigned int i;

	if (!t)
		return;
	i = mlf_state_index(c);
	if (t->count)
		t->count[i]++;
	if (!t->met[i]) {
		t->met[i] = true;
		t->nr_met++;
		if (show_times)
			note_time(t, c);
	}
	if (t->feedback_size)
		t->feedback[mlf_state_counter(c) % t->feedback_size] = 1;
}

void mlf_state_place_name(const struct mlf_state_cell *c, char *buf,
			  size_t size)
{
	snprintf(buf, size, "%s %s %s %s %s", stage_names[c->stage],
		 gen_names[c->gen], seg_names[c->seg], pos_names[c->pos],
		 len_names[c->len]);
}

void mlf_states_dump(const struct mlf_state_table *t, FILE *out)
{
	struct mlf_state_cell c;
	char place[64];
	int i;

	for (i = 0; t->count && i < ST_NR_CELLS; i++) {
		int k = i;

		if (!t->count[i])
			continue;
		c.dying = k % ST_NR_DYINGS, k /= ST_NR_DYINGS;
		c.depth = k % ST_NR_DEPTHS, k /= ST_NR_DEPTHS;
		c.len = k % ST_NR_LENS, k /= ST_NR_LENS;
		c.pos = k % ST_NR_POS, k /= ST_NR_POS;
		c.seg = k % ST_NR_SEGS, k /= ST_NR_SEGS;
		c.gen = k % ST_NR_GENS, k /= ST_NR_GENS;
		c.stage = k % ST_NR_STAGES, k /= ST_NR_STAGES;
		c.kind = k;
		mlf_state_place_name(&c, place, sizeof(place));
		fprintf(out, "%s %s %s %s %s %u\n", t->target,
			t->kind_names[c.kind] ? t->kind_names[c.kind] : "?",
			place, depth_names[c.depth], dying_names[c.dying],
			t->count[i]);
	}
}

static struct mlf_state_table table;
static const char *dump_path;

static void dump_at_exit(void)
{
	FILE *out = fopen(dump_path, "a");

	if (!out) {
		fprintf(stderr, "mlf: MLF_STATES: cannot write %s\n", dump_path);
		return;
	}
	mlf_states_dump(&table, out);
	fclose(out);
}

void mlf_states_attach(const char *target, const char *const *kind_names,
		       int nr_kinds, unsigned char *feedback, size_t size)
{
	const char *path = getenv("MLF_STATES");
	const char *show = getenv("MLF_STATES_TIMES");
	int i;

	if (mlf_states)
		return;
	show_times = show && *show && strcmp(show, "0");
	clock_gettime(CLOCK_MONOTONIC, &attached_at);
	table.target = target;
	for (i = 0; i < nr_kinds && i < ST_NR_KINDS; i++)
		table.kind_names[i] = kind_names[i];
	table.feedback = feedback;
	table.feedback_size = feedback ? size : 0;
	if (path && *path) {
		table.count = calloc(ST_NR_CELLS, sizeof(*table.count));
		if (!table.count)
			abort();
		dump_path = path;
		atexit(dump_at_exit);
	}
	if (!table.count && !table.feedback)
		return;
	table.met = calloc(ST_NR_CELLS, sizeof(*table.met));
	if (!table.met)
		abort();
	mlf_states = &table;
}
