// SPDX-License-Identifier: GPL-2.0
/*
 * Meetings of the reclaim target (reclaim_meetings.h): a place counts if
 * an op of the kind, on that memcg and node, would note a cell of either
 * family (states.h) that this process has not met yet. A kind that does not
 * apply to a stage never meets it, so each cell is offered MEETING_TRIES
 * times, and a kind offered MEETING_STAGE_TRIES times in a stage without
 * ever meeting it there is not offered there again.
 */
#include "reclaim_meetings.h"

#include <stdlib.h>
#include <string.h>

#include "harness/reclaim_world.h"
#include "harness/states.h"

#define MEETING_TRIES 4
#define MEETING_STAGE_TRIES 8
/* the places of an input looked at, on average */
#define MEETING_LOOKS 8

/*
 * The kinds of op a meeting puts in: those that act on one memcg, and a
 * walk from the bin of a memcg on the old generation (reclaim_format.c)
 */
static const u8 meeting_kinds[] = {
	RECLAIM_OP_ONLINE,     RECLAIM_OP_OFFLINE, RECLAIM_OP_RELEASE,
	RECLAIM_OP_WBDONE,     RECLAIM_OP_ADD,	   RECLAIM_OP_REFAULT,
	RECLAIM_OP_TOUCH,      RECLAIM_OP_AGE,	   RECLAIM_OP_PROTECT,
	RECLAIM_OP_SWAPPINESS, RECLAIM_OP_PARK,	   RECLAIM_OP_UNPARK,
	RECLAIM_OP_SHADOW,     RECLAIM_OP_SOFT,	   RECLAIM_OP_SLAB,
	RECLAIM_OP_FREE,       RECLAIM_OP_RECLAIM,
};

/* how often each cell was offered */
static u8 *tries;

/*
 * How often an op that may leave a memcg dying where it stands was put
 * in, by that place (mlf_state_place()). An offline memcg dies where it
 * stands when its last charges go: freed (truncation), or put back by a
 * parked eviction that held them. That is how a dying memcg comes to
 * stand on the young generation's tail (a stale walk leaves only live
 * ones there), and the op has no new cell of its own to be put in for.
 */
#define ADVANCE_TRIES 8
static u8 advance_tries[ST_NR_LRU_PLACES];

/*
 * How often an offline of an online memcg with charges of its own was put
 * in, by the place in the tree it may take it to: offline, held by those
 * charges. Its offline meets it online; where it has no charges it dies
 * at once, so that place otherwise waits for a charge and an offline of
 * the same memcg, deep in a tree, one after the other.
 */
static u8 retire_tries[ST_NR_TREE_PLACES];

/*
 * How often an offline of a memcg's nearest online ancestor was put in,
 * by the place in the tree it may take an offline memcg below to (one
 * offline ancestor more): that place is built from the bottom up, as
 * rmdir refuses a cgroup with an online child.
 */
static u8 deepen_tries[ST_NR_TREE_PLACES];
_Static_assert(RECLAIM_STAND_MAX_BELOW <= MLF_MEETING_MAX_FIRST,
	       "a meeting holds the offlines below the ancestor");

/*
 * How often a walk whose draws all name the bin of a memcg on the young
 * generation was put in, by the place it may take that memcg to: one
 * memcg more behind it in its bin. A walk appends each memcg it rotates
 * young to the bin of the young generation its draw for it names, so
 * two or three memcgs behind one that stands where few inputs take one
 * (an offline memcg on the young tail) wait long for a walk's draws to
 * name its bin each time.
 */
static u8 grow_tries[ST_NR_LRU_PLACES];

/*
 * How often an offline of an online memcg ahead of one on the young
 * generation was put in, by the place it may take that one to: the
 * offline memcg goes to the old generation, the one behind moves up. The
 * head of a bin of three is otherwise where the first of three memcgs a
 * walk appended stands, with no other op between.
 */
static u8 shift_tries[ST_NR_LRU_PLACES];

/*
 * Whether a kind of op ever met a memcg in a stage (the world skips a
 * protect of an offline memcg), learnt from the meetings: the cell of the
 * last one has a counter by the next if its op applied.
 */
static struct {
	u16 offered[RECLAIM_OP_NR][ST_NR_STAGES];
	bool applies[RECLAIM_OP_NR][ST_NR_STAGES];
	int cell, kind, stage;
} stages = { .cell = -1 };

/*
 * Inputs that had no place to meet: they have none later either (cells
 * only get met, tries only grow) until a kind is found to apply to a
 * stage. Their hashes, so that they are not run again to find out.
 */
static u64 meetless[1 << 16];

uint64_t reclaim_meeting_hash(const uint8_t *data, size_t size)
{
	u64 h = 0xcbf29ce484222325ULL; /* FNV-1a */
	size_t i;

	for (i = 0; i < size; i++)
		h = (h ^ data[i]) * 0x100000001b3ULL;
	return h | 1;
}

/* @c as op @kind meets it, in the memcg LRU or the tree family: its index if new and untried */
static int new_cell(const struct mlf_state_cell *c, int kind, bool tree)
{
	struct mlf_state_cell k = *c;
	int i;

	k.kind = kind;
	if (tree) {
		k.kind += ST_TREE_KIND;
		k.gen = ST_NO_GEN;
		k.seg = ST_NO_SEG;
		k.pos = ST_NO_POS;
		k.len = ST_NO_LEN;
	} else {
		k.depth = ST_DEPTH1;
		k.dying = ST_DYING0;
	}
	i = mlf_state_index(&k);
	return mlf_states->met[i] || tries[i] >= MEETING_TRIES ? -1 : i;
}

static bool offered_to(int kind, int stage)
{
	return stages.applies[kind][stage] ||
	       stages.offered[kind][stage] < MEETING_STAGE_TRIES;
}

/* whether some kind of op has a cell of a family to meet at place @d */
static bool unmet_there(const struct mlf_state_cell *d, bool tree)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(meeting_kinds); k++)
		if (offered_to(meeting_kinds[k], d->stage) &&
		    new_cell(d, meeting_kinds[k], tree) >= 0)
			return true;
	return false;
}

/* the meeting so far: an op of @kind on that memcg and node */
static void choose(struct reclaim_meeting_pick *p, int kind,
		   const struct reclaim_stand *s)
{
	p->m = (struct mlf_meeting){ .at = p->at,
				     .kind = kind,
				     .memcg = s->slot,
				     .node = s->nid,
				     .folio = s->folio,
				     .parked = s->parked,
				     .draw = -1,
				     .start = -1,
				     .zone = s->room_zone };
}

/* an op of @kind on @memcg and @s's node, naming no folio or eviction */
static void choose_other(struct reclaim_meeting_pick *p, int kind,
			 const struct reclaim_stand *s, int memcg)
{
	choose(p, kind, s);
	p->m.memcg = memcg;
	p->m.folio = p->m.parked = -1;
}

/*
 * The meeting's op made @kind on @memcg, @node and parked eviction
 * @parked, the one it was before (if any) put in first; nothing if the
 * meeting holds no more ops
 */
static void put_in(struct reclaim_meeting_pick *p, int kind, int memcg,
		   int node, int parked)
{
	struct mlf_meeting *m = &p->m;

	if (m->kind >= 0) {
		if (m->nr_first == MLF_MEETING_MAX_FIRST)
			return;
		m->first[m->nr_first++] =
			(struct mlf_meeting_first){ .kind = m->kind,
						    .memcg = m->memcg,
						    .node = m->node,
						    .parked = m->parked };
	}
	m->kind = kind;
	m->memcg = memcg;
	m->node = node;
	m->parked = parked;
}

/*
 * The op that must go in before one of @kind for it to apply to @s's
 * memcg (-1: none; -2: none can): none for a charge, which needs a zone
 * with a free page (the meeting names it); a charge on its node for a
 * touch where it has no folio there; a park for an unpark to finish (in the
 * slot the park takes: put_first() frees one where none is), an unpark of
 * another memcg's eviction for a park to find a slot free; none for a
 * walk, which a meeting puts in only for a memcg on the old generation
 */
static int first_kind(int kind, const struct reclaim_stand *s)
{
	switch (kind) {
	case RECLAIM_OP_ADD:
	case RECLAIM_OP_REFAULT:
		/* the allocator has a page for it */
		return s->room_zone < 0 ? -2 : -1;
	case RECLAIM_OP_RECLAIM:
		/*
		 * a walk meets a memcg on the young generation only where
		 * others' runs in its yield leave it stale, and then where
		 * they put it, not where it stood; a dying one it releases
		 * (mem_cgroup_tryget() fails)
		 */
		return s->c->gen == ST_OLD && s->bin >= 0 &&
				       s->c->stage != ST_DYING ?
			       -1 :
			       -2;
	case RECLAIM_OP_TOUCH:
		if (s->folio >= 0)
			return -1;
		/* a charge makes the folio it touches */
		return s->room_zone >= 0 && s->next_folio >= 0 &&
				       (s->c->stage == ST_ONLINE ||
					s->c->stage == ST_OFFLINE_REF) ?
			       RECLAIM_OP_ADD :
			       -2;
	case RECLAIM_OP_UNPARK:
		if (s->parked >= 0)
			return -1;
		return (s->free_park >= 0 || s->other_parked >= 0) &&
				       s->c->stage != ST_DYING ?
			       RECLAIM_OP_PARK :
			       -2;
	case RECLAIM_OP_PARK:
		if (s->free_park >= 0)
			return -1;
		return s->other_parked >= 0 ? RECLAIM_OP_UNPARK : -2;
	}
	return -1;
}

/*
 * The ops an op of @kind on @s's memcg needs first (@first, first_kind()),
 * then it. A park for an unpark takes a free slot, else the one an unpark
 * of another memcg's eviction frees first: the slots stay full in an input
 * that parks four times and never unparks, and the evictions of the other
 * memcgs hold nothing that decides where this one stands.
 */
static void put_first(struct reclaim_meeting_pick *p, int first, int kind,
		      const struct reclaim_stand *s)
{
	int park = s->free_park;

	if (first == RECLAIM_OP_PARK && park < 0) {
		park = s->other_parked;
		choose_other(p, RECLAIM_OP_UNPARK, s, s->slot);
		p->m.parked = park;
		put_in(p, RECLAIM_OP_PARK, s->slot, s->nid, -1);
	} else {
		choose_other(p, first, s, s->slot);
		if (first == RECLAIM_OP_UNPARK)
			p->m.parked = s->other_parked;
		if (first == RECLAIM_OP_ADD)
			p->m.folio = s->next_folio;
	}
	put_in(p, kind, s->slot, s->nid, first == RECLAIM_OP_PARK ? park : -1);
}

/*
 * Whether the pick is an op that may take @s's memcg to place @d, in the
 * memcg LRU or the tree family, which has cells to meet: no cell of its
 * own, counted against the place's @tries (a guess again at the place
 * @p->want is not). The caller chooses the op.
 */
static bool advance(struct reclaim_meeting_pick *p,
		    const struct reclaim_stand *s,
		    const struct mlf_state_cell *d, bool tree, u8 *tries,
		    enum reclaim_move move)
{
	int goal = tree ? ST_NR_LRU_PLACES + mlf_state_tree_place(d) :
			  mlf_state_place(d);

	if (p->want >= 0 ? goal != p->want : *tries >= ADVANCE_TRIES)
		return false;
	if (!unmet_there(d, tree) || mlf_rng_below(&p->g, ++p->seen))
		return false;
	p->cells[0] = p->cells[1] = -1;
	p->advance = tries;
	p->goal = goal;
	p->subject = s->slot;
	p->subject_node = s->nid;
	p->move = move;
	return true;
}

/*
 * The ops that take an offline memcg's last charges, if its place has
 * cells to meet once it is dying there: an unpark of each eviction parked
 * on it, then a free of its folios on each node that has some (what an
 * eviction does not free goes back on its node's LRU), as many as a
 * meeting holds. A guess where it needs more.
 */
static void advance_place(struct reclaim_meeting_pick *p,
			  const struct reclaim_stand *s)
{
	struct mlf_state_cell d = *s->c;
	int nodes = s->folio_nodes | s->parked_nodes, slots = s->parked_slots;
	int k;

	d.stage = ST_DYING;
	if (s->c->stage != ST_OFFLINE_REF || s->c->gen == ST_NO_GEN ||
	    !(nodes | slots) ||
	    !advance(p, s, &d, false, &advance_tries[mlf_state_place(&d)],
		     RECLAIM_MOVE_DIE))
		return;
	choose_other(p, -1, s, s->slot);
	for (k = 0; slots >> k; k++)
		if (slots & 1 << k)
			put_in(p, RECLAIM_OP_UNPARK, s->slot, s->nid, k);
	for (k = 0; nodes >> k; k++)
		if (nodes & 1 << k)
			put_in(p, RECLAIM_OP_FREE, s->slot, k, -1);
}

/*
 * An offline of the nearest online ancestor (@up) of an offline memcg, if
 * its place in the tree has cells to meet with one offline ancestor more;
 * first the offlines of the online memcgs below @up, each before its
 * parent, as rmdir refuses a memcg with an online child. A guess, judged
 * as the others are.
 */
static void deepen_place(struct reclaim_meeting_pick *p,
			 const struct reclaim_stand *s)
{
	struct mlf_state_cell d = *s->c;
	int k;

	if ((d.stage != ST_OFFLINE_REF && d.stage != ST_DYING) || s->up < 0 ||
	    d.dying == ST_DYING2 || s->nr_below < 0)
		return;
	d.dying++;
	if (!advance(p, s, &d, true, &deepen_tries[mlf_state_tree_place(&d)],
		     RECLAIM_MOVE_DEEPEN))
		return;
	choose_other(p, -1, s, s->up);
	for (k = 0; k < s->nr_below; k++)
		put_in(p, RECLAIM_OP_OFFLINE, s->below[k], s->nid, -1);
	put_in(p, RECLAIM_OP_OFFLINE, s->up, s->nid, -1);
}

/*
 * An offline of an online memcg, if its place in the tree has cells to
 * meet once it is offline and its charges hold it: a charge of a folio
 * on its node first where it has none and no parked eviction holds it. A
 * guess: rmdir refuses a memcg with an online child.
 */
static void retire_place(struct reclaim_meeting_pick *p,
			 const struct reclaim_stand *s)
{
	struct mlf_state_cell d = *s->c;
	bool held = s->folio_nodes || s->parked_slots;

	if (d.stage != ST_ONLINE || (!held && s->room_zone < 0))
		return;
	d.stage = ST_OFFLINE_REF;
	if (!advance(p, s, &d, true, &retire_tries[mlf_state_tree_place(&d)],
		     RECLAIM_MOVE_RETIRE))
		return;
	if (held) {
		choose_other(p, RECLAIM_OP_OFFLINE, s, s->slot);
	} else {
		choose_other(p, RECLAIM_OP_ADD, s, s->slot);
		put_in(p, RECLAIM_OP_OFFLINE, s->slot, s->nid, -1);
	}
}

/*
 * Whether @s's memcg, on the young generation, would stand in a new place
 * with cells to meet at @index of @len in its bin: counted against that
 * place's @tries
 */
static bool bin_move(struct reclaim_meeting_pick *p,
		     const struct reclaim_stand *s, int index, int len,
		     u8 *tries, enum reclaim_move move)
{
	struct mlf_state_cell d = *s->c;

	if (s->bin < 0 || d.gen != ST_YOUNG)
		return false;
	d.pos = len == 1	 ? ST_ONLY :
		index == 0	 ? ST_HEAD :
		index == len - 1 ? ST_TAIL :
				   ST_INTERIOR;
	d.len = len == 1 ? ST_LEN1 : len == 2 ? ST_LEN2 : ST_LEN3;
	if (d.pos == s->c->pos && d.len == s->c->len)
		return false;
	return advance(p, s, &d, false, &tries[mlf_state_place(&d)], move);
}

/*
 * A walk of the memcg's node whose draws all name its bin, if its place
 * with one memcg more behind it has cells to meet: kswapd over zone 0
 * once a zone op has left that zone above its high watermark, so that
 * should_abort_scan() stops the walk after its first memcg, which it
 * rotates to that bin. Where a slot is free, a new memcg goes online
 * first, in a bin of the old generation with no memcg in it if there is
 * one (else in the same bin), which is where the walk starts: with no
 * folios it is below its memory.min (0 >= 0), and shrink_one() rotates it
 * young, behind the memcg. A guess: the walk may meet another memcg
 * first, or rotate the old generation's last memcg young, which advances
 * seq and makes the young generation old.
 */
static void grow_place(struct reclaim_meeting_pick *p,
		       const struct reclaim_stand *s)
{
	if (!bin_move(p, s, s->index, s->bin_len + 1, grow_tries,
		      RECLAIM_MOVE_GROW))
		return;
	if (s->empty >= 0) {
		choose_other(p, RECLAIM_OP_ONLINE, s, s->empty);
		put_in(p, RECLAIM_OP_ZONE, s->slot, s->nid, -1);
		p->m.start = s->old_empty;
	} else {
		choose_other(p, RECLAIM_OP_ZONE, s, s->slot);
	}
	put_in(p, RECLAIM_OP_RECLAIM, s->slot, s->nid, -1);
	p->m.draw = s->bin;
}

/*
 * An offline of the nearest online memcg ahead of the memcg in its bin, if
 * its place with that one gone (to the old generation) has cells to meet.
 * A guess: rmdir refuses a memcg with an online child.
 */
static void shift_place(struct reclaim_meeting_pick *p,
			const struct reclaim_stand *s)
{
	if (s->ahead >= 0 && bin_move(p, s, s->index - 1, s->bin_len - 1,
				      shift_tries, RECLAIM_MOVE_SHIFT))
		choose_other(p, RECLAIM_OP_OFFLINE, s, s->ahead);
}

bool reclaim_meeting_begin(struct reclaim_meeting_pick *p, const uint8_t *data,
			   size_t size, uint64_t seed, int focus,
			   size_t focus_at)
{
	memset(p, 0, sizeof(*p));
	p->want = -1;
	p->focus = focus;
	p->focus_at = focus_at;
	/* one place looked at: the input is not found meetless */
	p->skipped = focus >= 0;
	p->g = mlf_rng_seeded(seed);
	if (!mlf_states || !mlf_states->met)
		return false;
	if (!tries) {
		tries = calloc(ST_NR_CELLS, 1);
		if (!tries)
			return false;
	}
	if (stages.cell >= 0 && mlf_states->met[stages.cell] &&
	    !stages.applies[stages.kind][stages.stage]) {
		stages.applies[stages.kind][stages.stage] = true;
		/* more places to meet: an input may have some now */
		memset(meetless, 0, sizeof(meetless));
	}
	stages.cell = -1;
	p->hash = reclaim_meeting_hash(data, size);
	return meetless[p->hash % ARRAY_SIZE(meetless)] != p->hash;
}

bool reclaim_meeting_looks(struct reclaim_meeting_pick *p, size_t at, size_t nr)
{
	p->at = at;
	if (p->focus >= 0)
		return false;
	if (mlf_rng_below(&p->g, nr + 1) < MEETING_LOOKS)
		return true;
	p->skipped = true;
	return false;
}

void reclaim_meeting_stand(void *arg, const struct reclaim_stand *s)
{
	struct reclaim_meeting_pick *p = arg;
	const struct mlf_state_cell *c = s->c;
	size_t k;

	/* a guess again: only the moves to that place */
	for (k = 0; p->want < 0 && k < ARRAY_SIZE(meeting_kinds); k++) {
		int kind = meeting_kinds[k], first = first_kind(kind, s);
		int lru, tree;

		if (first == -2 || !offered_to(kind, c->stage))
			continue;
		lru = new_cell(c, kind, false);
		tree = new_cell(c, kind, true);
		/*
		 * A walk from the head of the memcg's bin rotates those
		 * ahead of it away first: it meets it at the head
		 */
		if (kind == RECLAIM_OP_RECLAIM && s->index > 0)
			lru = -1;
		/* reservoir sampling: each place with the same chance */
		if ((lru < 0 && tree < 0) || mlf_rng_below(&p->g, ++p->seen))
			continue;
		if (first < 0)
			choose(p, kind, s);
		else
			put_first(p, first, kind, s);
		/* a walk's first draw: the bin it starts in */
		if (kind == RECLAIM_OP_RECLAIM)
			p->m.start = s->bin;
		p->cells[0] = lru;
		p->cells[1] = tree;
		p->stage = c->stage;
		p->advance = NULL;
	}
	advance_place(p, s);
	deepen_place(p, s);
	retire_place(p, s);
	grow_place(p, s);
	shift_place(p, s);
}

bool reclaim_meeting_end(struct reclaim_meeting_pick *p, struct mlf_meeting *m)
{
	int i;

	if (!p->seen) {
		/* only if every place was looked at */
		if (!p->skipped)
			meetless[p->hash % ARRAY_SIZE(meetless)] = p->hash;
		return false;
	}
	if (p->advance) {
		/* no cell of its own: the next meetings meet the memcg there */
		if (p->want < 0)
			(*p->advance)++;
		p->m.cell = -1;
		*m = p->m;
		return true;
	}
	for (i = 0; i < 2; i++)
		if (p->cells[i] >= 0)
			tries[p->cells[i]]++;
	p->m.cell = p->cells[p->cells[0] < 0];
	stages.cell = p->m.cell;
	stages.kind = p->m.kind;
	stages.stage = p->stage;
	if (stages.offered[p->m.kind][p->stage] < 0xffff)
		stages.offered[p->m.kind][p->stage]++;
	*m = p->m;
	return true;
}
