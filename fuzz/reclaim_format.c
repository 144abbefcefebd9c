// SPDX-License-Identifier: GPL-2.0
/*
 * The reclaim target's inputs as the structure-aware mutator sees them
 * (mutator.h): the 2-byte header, then one record per op, its canonical
 * bytes (reclaim_codec.h). A record's length never depends on the header;
 * its operands' ranges do, so a record moved under another header is
 * decoded there and written again.
 * New and changed ops name memcgs the input already uses most of the time.
 */
#include "mutator.h"
#include "reclaim_codec.h"

#include <string.h>

static struct mlf_reclaim_op ops[MLF_RECLAIM_MAX_OPS];

static bool decode_record(const uint8_t *hdr, const struct mlf_record *rec,
			  struct mlf_reclaim_header *h,
			  struct mlf_reclaim_op *op)
{
	uint8_t buf[MLF_RECLAIM_HEADER_BYTES + MLF_MUT_MAX_RECORD];

	memcpy(buf, hdr, MLF_RECLAIM_HEADER_BYTES);
	memcpy(buf + MLF_RECLAIM_HEADER_BYTES, rec->b, rec->len);
	return mlf_reclaim_decode(buf, MLF_RECLAIM_HEADER_BYTES + rec->len, h,
				  op, 1) == 1;
}

static void split(const uint8_t *data, size_t size, struct mlf_records *out)
{
	struct mlf_reclaim_header h;
	size_t n, i;

	n = mlf_reclaim_decode(data, size, &h, ops, MLF_RECLAIM_MAX_OPS);
	memset(out->header, 0, sizeof(out->header));
	mlf_reclaim_encode_header(&h, out->header);
	if (n > MLF_MUT_MAX_RECORDS)
		n = MLF_MUT_MAX_RECORDS;
	for (i = 0; i < n; i++)
		out->r[i].len = mlf_reclaim_encode_op(&ops[i], out->r[i].b);
	out->n = n;
}

static int pick_memcg(const struct mlf_records *in,
		      const struct mlf_reclaim_header *h, struct mlf_rng *g)
{
	struct mlf_reclaim_header hh;
	struct mlf_reclaim_op op;
	size_t i;

	if (in->n && !mlf_rng_one_in(g, 4))
		for (i = 0; i < 4; i++)
			if (decode_record(in->header,
					  &in->r[mlf_rng_below(g, in->n)], &hh,
					  &op) &&
			    mlf_reclaim_op_names_memcg(op.kind))
				return op.memcg;
	return mlf_rng_below(g, h->pool_size);
}

/*
 * A memory.min or memory.low: none, any, or (half of the time) a little
 * under the folios the input adds to @memcg, where protection decides:
 * an eviction that frees a batch takes the memcg below it
 */
static u8 protection(const struct mlf_records *in, int memcg,
		     struct mlf_rng *g)
{
	struct mlf_reclaim_header hh;
	struct mlf_reclaim_op op;
	long added = 0;
	size_t i;

	if (mlf_rng_one_in(g, 4))
		return 0;
	if (mlf_rng_one_in(g, 2))
		return mlf_rng_below(g, 64);
	for (i = 0; i < in->n; i++)
		if (decode_record(in->header, &in->r[i], &hh, &op) &&
		    (op.kind == RECLAIM_OP_ADD || op.kind == RECLAIM_OP_REFAULT) &&
		    op.memcg == memcg)
			added += op.count;
	added -= mlf_rng_below(g, 12);
	return added < 0 ? 0 : added > 255 ? 255 : added;
}

/* the memcg of the input's last online op, or m0 */
static int last_online(const struct mlf_records *in)
{
	struct mlf_reclaim_header hh;
	struct mlf_reclaim_op op;
	size_t i;

	for (i = in->n; i-- > 0;)
		if (decode_record(in->header, &in->r[i], &hh, &op) &&
		    op.kind == RECLAIM_OP_ONLINE)
			return op.memcg;
	return 0;
}

static void random_op(const struct mlf_records *in,
		      const struct mlf_reclaim_header *h, struct mlf_rng *g,
		      struct mlf_reclaim_op *op)
{
	/* folios in, reclaim out: more of both */
	static const uint8_t kinds[] = {
		RECLAIM_OP_ONLINE,  RECLAIM_OP_ONLINE,	 RECLAIM_OP_OFFLINE,
		RECLAIM_OP_RELEASE, RECLAIM_OP_ADD,	 RECLAIM_OP_ADD,
		RECLAIM_OP_ADD,	    RECLAIM_OP_REFAULT,	 RECLAIM_OP_TOUCH,
		RECLAIM_OP_WBDONE,  RECLAIM_OP_AGE,	 RECLAIM_OP_AGE,
		RECLAIM_OP_PROTECT, RECLAIM_OP_SWAPPINESS, RECLAIM_OP_RECLAIM,
		RECLAIM_OP_RECLAIM, RECLAIM_OP_RECLAIM, RECLAIM_OP_PARK,
		RECLAIM_OP_PARK,    RECLAIM_OP_UNPARK,	 RECLAIM_OP_SHADOW,
		RECLAIM_OP_PROTECT, RECLAIM_OP_SOFT,	 RECLAIM_OP_ZONE,
		RECLAIM_OP_SLAB,    RECLAIM_OP_SYSCTL,	 RECLAIM_OP_FREE,
	};
	int i;

	memset(op, 0, sizeof(*op));
	op->kind = kinds[mlf_rng_below(g, sizeof(kinds))];
	if (mlf_rng_one_in(g, 16))
		op->kind = mlf_rng_below(g, RECLAIM_OP_NR);
	op->memcg = pick_memcg(in, h, g);
	op->node = mlf_rng_below(g, h->nr_nodes);
	op->type = mlf_rng_below(g, ANON_AND_FILE);
	op->zone = mlf_rng_below(g, MAX_NR_ZONES);
	op->dirty = mlf_rng_one_in(g, 4);
	op->writeback = mlf_rng_one_in(g, 4);
	op->referenced = mlf_rng_one_in(g, 4);
	op->count = 1 + mlf_rng_below(g, 16);
	op->folio = mlf_rng_below(g, 64);
	op->min = protection(in, op->memcg, g);
	op->low = protection(in, op->memcg, g);
	op->swappiness = mlf_reclaim_swappiness_values
		[mlf_rng_below(g, MLF_RECLAIM_NR_SWAPPINESS)];
	op->target = mlf_rng_one_in(g, 2) ? 0 : mlf_rng_below(g, 64);
	op->priority = mlf_rng_below(g, DEF_PRIORITY + 1);
	op->kswapd = mlf_rng_one_in(g, 4);
	op->dying = mlf_rng_one_in(g, 8);
	op->slot = mlf_rng_below(g, MLF_RECLAIM_MAX_PARKED);
	op->nodes = mlf_rng_next(g);
	/* a reclaim's sc->order, an add's folios: mostly 0 */
	op->order = mlf_rng_one_in(g, 4) ?
			    mlf_rng_below(g, MLF_RECLAIM_MAX_ORDER + 1) :
			    0;
	/* kswapd over zone 0 only: a zone op on it is all it takes to stop */
	op->zones = mlf_rng_one_in(g, 3) ? mlf_rng_below(g, MAX_NR_ZONES + 1) : 0;
	/* others reclaim while the walk yields: stale walks, young TAILs */
	op->others = !mlf_rng_one_in(g, 3) ? 0 :
		     mlf_rng_one_in(g, 2) ? 3 : 1 + mlf_rng_below(g, 2);
	/*
	 * a child of the root, of a memcg the input uses, or of the one its
	 * last online names: trees of depth three and more
	 */
	switch (mlf_rng_below(g, 4)) {
	case 0:
		op->parent = 0;
		break;
	case 1:
		op->parent = 1 + last_online(in);
		break;
	default:
		op->parent = 1 + pick_memcg(in, h, g);
	}
	op->zone_managed = mlf_rng_next(g);
	op->zone_min = mlf_rng_below(g, 64);
	op->zone_gap = mlf_rng_below(g, 16);
	op->zone_boost = mlf_rng_one_in(g, 2) ? 0 : mlf_rng_below(g, 16);
	op->zone_reserve = mlf_rng_one_in(g, 2) ? 0 : mlf_rng_below(g, 32);
	op->zone_free = mlf_rng_below(g, 128);
	op->shrinker = mlf_rng_below(g, MLF_NR_SHRINKERS);
	op->objects = 1 + mlf_rng_next(g);
	op->recursiveprot = mlf_rng_one_in(g, 2);
	op->tiering = mlf_rng_one_in(g, 4);
	op->nr_draws = op->kind == RECLAIM_OP_RECLAIM ?
			       mlf_rng_below(g, 9) : 1;
	for (i = 0; i < op->nr_draws; i++)
		op->draws[i] = mlf_rng_next(g);
}

static void random_record(const struct mlf_records *in, struct mlf_rng *g,
			  struct mlf_record *out)
{
	struct mlf_reclaim_header h;
	struct mlf_reclaim_op op;

	mlf_reclaim_decode(in->header, MLF_RECLAIM_HEADER_BYTES, &h, NULL, 0);
	random_op(in, &h, g, &op);
	out->len = mlf_reclaim_encode_op(&op, out->b);
}

/*
 * A walk that others leave stale, with @nr_draws draws (2 or more): past
 * the first all name one bin (@bin), so what it meets on the young generation
 * piles up there and it meets those memcgs again in a bin of three or
 * more (resched_hook() keeps the op's draws for the walk)
 */
static void pile_draws(struct mlf_reclaim_op *op, int nr_draws, u8 bin)
{
	op->nr_draws = nr_draws;
	memset(op->draws + 1, bin, nr_draws - 1);
}

/*
 * kswapd balancing a node (@base's): each of its zones set, as until then
 * its watermarks stand at the top and kswapd never finds the node
 * balanced, with its free pages from three batches below to one above the
 * line should_abort_scan() draws (the high watermark, the boost, a batch
 * and, for zone 0, its reserve against zone 1's allocations); then a
 * kswapd walk at order 0 over every zone, which a few evictions may take
 * across that line.
 */
static size_t kswapd_run(const struct mlf_records *in,
			 const struct mlf_reclaim_header *h,
			 const struct mlf_reclaim_op *base, struct mlf_rng *g,
			 struct mlf_record *out, size_t max)
{
	struct mlf_reclaim_op op;
	size_t n = 0;
	int z, line;

	for (z = 0; z < MAX_NR_ZONES && n + 1 < max; z++) {
		random_op(in, h, g, &op);
		op.kind = RECLAIM_OP_ZONE;
		op.node = base->node;
		op.zone = z;
		op.zone_managed = 255;
		line = op.zone_min + WMARK_HIGH * op.zone_gap + op.zone_boost +
		       MIN_LRU_BATCH + (z == 0 ? op.zone_reserve : 0);
		line += (int)mlf_rng_below(g, 4 * MIN_LRU_BATCH) -
			3 * MIN_LRU_BATCH;
		op.zone_free = clamp(line, 0, 255);
		out[n].len = mlf_reclaim_encode_op(&op, out[n].b);
		n++;
	}
	op = *base;
	op.kind = RECLAIM_OP_RECLAIM;
	op.kswapd = 1;
	op.order = 0;
	op.zones = 0;
	op.others = 0;
	out[n].len = mlf_reclaim_encode_op(&op, out[n].b);
	return n + 1;
}

/*
 * A node filled (@base's): @max adds of 16 folios of order 3 (128 pages)
 * to memcgs of the input. set_initial_priority() sets a priority by its
 * arithmetic rather than its clamp to DEF_PRIORITY / 2 only where the
 * node's inactive pages reach 2^(6 + fls(nr_to_reclaim - 1)): 4,096 for
 * a request of 64 pages, 32 of these adds or near 300 of a random size.
 */
static size_t fill_run(const struct mlf_records *in,
		       const struct mlf_reclaim_header *h,
		       const struct mlf_reclaim_op *base, struct mlf_rng *g,
		       struct mlf_record *out, size_t max)
{
	struct mlf_reclaim_op op = *base;
	size_t n;

	op.kind = RECLAIM_OP_ADD;
	op.count = 16;
	op.order = MLF_RECLAIM_MAX_ORDER;
	for (n = 0; n < max; n++) {
		op.memcg = pick_memcg(in, h, g);
		out[n].len = mlf_reclaim_encode_op(&op, out[n].b);
	}
	return n;
}

/*
 * Runs of ops that build one thing together, on one memcg of the input
 * (pick_memcg()): folios where the next eviction takes them (added, then
 * aged twice into the oldest generation); an eviction parked on them,
 * which holds the memcg's css; the memcg going offline under it, and the
 * eviction finishing after; a walk that others leave stale (mostly
 * others=3: two runs that sweep advance the seq twice past it, and the
 * third may move memcgs to the young generation it then walks);
 * kswapd on a node whose zones are near their high watermarks
 * (kswapd_run()); or a node filled with folios (fill_run()). What a
 * memcg's offline, its last reference and a stale walk make of it (an
 * offline memcg alive in the young generation, a dying one in a segment)
 * takes all of a run; one op at a time, each is kept only once the whole
 * run is there.
 */
static size_t random_run(const struct mlf_records *in, struct mlf_rng *g,
			 struct mlf_record *out, size_t max)
{
	struct mlf_reclaim_header h;
	struct mlf_reclaim_op base, op;
	size_t n = 0, want;
	int nr_draws;

	if (!max)
		return 0;
	mlf_reclaim_decode(in->header, MLF_RECLAIM_HEADER_BYTES, &h, NULL, 0);
	random_op(in, &h, g, &base);
	if (mlf_rng_one_in(g, 4)) {
		base.kind = RECLAIM_OP_RECLAIM;
		base.others = mlf_rng_one_in(g, 4) ? 2 : 3;
		nr_draws = 2 + mlf_rng_below(g, 7);
		pile_draws(&base, nr_draws, mlf_rng_next(g));
		out[n++].len = mlf_reclaim_encode_op(&base, out[0].b);
		return n;
	}
	if (mlf_rng_one_in(g, 3))
		return kswapd_run(in, &h, &base, g, out, max);
	if (mlf_rng_one_in(g, 4))
		return fill_run(in, &h, &base, g, out, max);
	/* add, age, age; park; offline; unpark */
	want = 3 + mlf_rng_below(g, 4);
	if (want > max)
		want = max;
	op = base;
	op.kind = RECLAIM_OP_ADD;
	out[n].len = mlf_reclaim_encode_op(&op, out[n].b);
	n++;
	op.kind = RECLAIM_OP_AGE;
	while (n < 3 && n < want) {
		out[n].len = mlf_reclaim_encode_op(&op, out[n].b);
		n++;
	}
	if (n < want) {
		op.kind = RECLAIM_OP_PARK;
		op.nr_draws = 1;
		out[n].len = mlf_reclaim_encode_op(&op, out[n].b);
		n++;
	}
	if (n < want) {
		op.kind = RECLAIM_OP_OFFLINE;
		out[n].len = mlf_reclaim_encode_op(&op, out[n].b);
		n++;
	}
	if (n < want) {
		op.kind = RECLAIM_OP_UNPARK;
		op.slot = mlf_rng_one_in(g, 2) ? 0 :
			  mlf_rng_below(g, MLF_RECLAIM_MAX_PARKED);
		out[n].len = mlf_reclaim_encode_op(&op, out[n].b);
		n++;
	}
	return n;
}

/* a charge of @m's: its first folio fits the zone the meeting names */
static void charge_fits(struct mlf_reclaim_op *op, const struct mlf_meeting *m)
{
	if (m->zone < 0)
		return;
	op->zone = m->zone;
	op->order = 0;
}

static void meeting_record(const struct mlf_records *in,
			   const struct mlf_meeting *m, struct mlf_rng *g,
			   struct mlf_record *out)
{
	struct mlf_reclaim_header h;
	struct mlf_reclaim_op op;
	int i;

	if (m->rework) {
		/*
		 * a stale walk's draws after its first all name bin @draw:
		 * each memcg it rotates goes there, and it comes back to
		 * them if it walks that bin after
		 */
		if (decode_record(in->header, out, &h, &op)) {
			pile_draws(&op, MLF_RECLAIM_MAX_DRAWS, m->draw);
			out->len = mlf_reclaim_encode_op(&op, out->b);
		}
		return;
	}
	mlf_reclaim_decode(in->header, MLF_RECLAIM_HEADER_BYTES, &h, NULL, 0);
	for (i = 0; i < m->nr_first; i++) {
		random_op(in, &h, g, &op);
		op.kind = m->first[i].kind;
		op.memcg = m->first[i].memcg;
		op.node = m->first[i].node;
		op.slot = m->first[i].parked;
		if (op.kind == RECLAIM_OP_ONLINE) {
			/* a new memcg: in the root, which is always online */
			op.parent = 0;
			if (m->start >= 0)
				op.draws[0] = m->start;
			else if (m->draw >= 0)
				op.draws[0] = m->draw;
		} else if (op.kind == RECLAIM_OP_ZONE) {
			/*
			 * zone 0 far above its high watermark: kswapd over
			 * it stops after its first memcg
			 */
			op.zone = 0;
			op.zone_managed = 255;
			op.zone_min = op.zone_gap = op.zone_boost = 0;
			op.zone_reserve = 0;
			op.zone_free = 255;
		} else if (op.kind == RECLAIM_OP_ADD) {
			/* folios a walk can reclaim: clean file pages */
			op.type = LRU_GEN_FILE;
			op.dirty = op.writeback = 0;
			charge_fits(&op, m);
		}
		out->len = mlf_reclaim_encode_op(&op, out->b);
		out++;
	}
	random_op(in, &h, g, &op);
	op.kind = m->kind;
	op.memcg = m->memcg;
	op.node = m->node;
	if (m->folio >= 0)
		op.folio = m->folio;
	if (m->parked >= 0)
		op.slot = m->parked;
	if (m->kind == RECLAIM_OP_ADD || m->kind == RECLAIM_OP_REFAULT)
		charge_fits(&op, m);
	if (m->kind == RECLAIM_OP_RECLAIM && m->draw < 0) {
		/*
		 * a walk that visits each memcg of the old generation from
		 * the head of bin @start on: direct reclaim with no target
		 * (should_abort_scan() never stops it) and no others
		 */
		op.others = 0;
		op.target = 0;
		op.kswapd = 0;
		op.dying = 0;
		if (m->start >= 0)
			op.draws[0] = m->start;
	} else if (m->draw >= 0) {
		/*
		 * kswapd of its own (no others) over zone 0, whose draws all
		 * name one bin, but the first where it names the bin it
		 * starts in: once a zone op has balanced zone 0, it stops
		 * after the first memcg it meets, which it rotates to that
		 * bin; what it has not reached stays in the old generation
		 */
		op.others = 0;
		op.target = 0;
		op.kswapd = 1;
		op.zones = 1;
		op.order = 0;
		op.nr_draws = MLF_RECLAIM_MAX_DRAWS;
		memset(op.draws, m->draw, op.nr_draws);
		if (m->start >= 0)
			op.draws[0] = m->start;
	}
	out->len = mlf_reclaim_encode_op(&op, out->b);
}

static void tweak_record(const struct mlf_records *in, struct mlf_record *rec,
			 struct mlf_rng *g)
{
	struct mlf_reclaim_header h;
	struct mlf_reclaim_op op, fresh;
	int n;

	if (!decode_record(in->header, rec, &h, &op))
		return;
	random_op(in, &h, g, &fresh);
	switch (mlf_rng_below(g, 10)) {
	case 0:		/* another kind of op on the same memcg */
		fresh.memcg = op.memcg;
		op = fresh;
		break;
	case 1 ... 2:
		op.memcg = fresh.memcg;
		break;
	case 3:
		op.node = fresh.node;
		break;
	case 4:		/* the folio flags, order and count of an add */
		switch (mlf_rng_below(g, 7)) {
		case 0: op.type = !op.type; break;
		case 1: op.zone = !op.zone; break;
		case 2: op.dirty = !op.dirty; break;
		case 3: op.writeback = !op.writeback; break;
		case 4: op.referenced = !op.referenced; break;
		case 5: op.order = fresh.order; break;
		default: op.count = fresh.count;
		}
		break;
	case 5:		/* who reclaims, how hard, how much */
		switch (mlf_rng_below(g, 7)) {
		case 0: op.kswapd = !op.kswapd; break;
		case 1: op.dying = !op.dying; break;
		case 2: op.priority = fresh.priority; break;
		case 3: op.order = fresh.order; break;
		case 4: op.zones = fresh.zones; break;
		case 5: op.others = fresh.others; break;
		default: op.target = fresh.target;
		}
		break;
	case 6:		/* the other operands */
		op.folio = fresh.folio;
		op.min = fresh.min;
		op.low = fresh.low;
		op.swappiness = fresh.swappiness;
		op.slot = fresh.slot;
		op.nodes = fresh.nodes;
		op.parent = fresh.parent;
		op.shrinker = fresh.shrinker;
		op.objects = fresh.objects;
		op.recursiveprot = fresh.recursiveprot;
		op.tiering = fresh.tiering;
		switch (mlf_rng_below(g, 6)) {
		case 0: op.zone_managed = fresh.zone_managed; break;
		case 1: op.zone_min = fresh.zone_min; break;
		case 2: op.zone_gap = fresh.zone_gap; break;
		case 3: op.zone_boost = fresh.zone_boost; break;
		case 4: op.zone_reserve = fresh.zone_reserve; break;
		default: op.zone_free = fresh.zone_free;
		}
		break;
	case 7:
		if (op.kind == RECLAIM_OP_RECLAIM && op.others &&
		    mlf_rng_one_in(g, 2)) {
			n = 2 + mlf_rng_below(g, MLF_RECLAIM_MAX_DRAWS - 1);
			pile_draws(&op, n, mlf_rng_next(g));
			break;
		}
		if (op.kind == RECLAIM_OP_RECLAIM) {
			n = op.nr_draws;
			op.nr_draws = mlf_rng_below(g, MLF_RECLAIM_MAX_DRAWS + 1);
			while (n < op.nr_draws)
				op.draws[n++] = mlf_rng_next(g);
			break;
		}
		/* an op with one draw: change it */
		if (op.nr_draws)
			op.draws[mlf_rng_below(g, op.nr_draws)] = mlf_rng_next(g);
		break;
	default:	/* one draw */
		if (op.nr_draws)
			op.draws[mlf_rng_below(g, op.nr_draws)] = mlf_rng_next(g);
		break;
	}
	rec->len = mlf_reclaim_encode_op(&op, rec->b);
}

/*
 * @rec as the op it decodes to under header @to: its operands wrapped into
 * @to's ranges, canonical there (a record's length does not change)
 */
static void rehome(const uint8_t *from, const uint8_t *to,
		   struct mlf_record *rec)
{
	struct mlf_reclaim_header h;
	struct mlf_reclaim_op op;

	(void)from;
	if (decode_record(to, rec, &h, &op))
		rec->len = mlf_reclaim_encode_op(&op, rec->b);
}

static void tweak_header(struct mlf_records *in, struct mlf_rng *g)
{
	struct mlf_reclaim_header h;
	size_t i;

	mlf_reclaim_decode(in->header, MLF_RECLAIM_HEADER_BYTES, &h, NULL, 0);
	if (mlf_rng_one_in(g, 2))
		h.nr_nodes = 1 + mlf_rng_below(g, MLF_RECLAIM_MAX_NODES);
	else
		h.pool_size = 1 + mlf_rng_below(g, MLF_RECLAIM_MAX_POOL);
	mlf_reclaim_encode_header(&h, in->header);
	for (i = 0; i < in->n; i++)
		rehome(NULL, in->header, &in->r[i]);
}

static int memcg(const uint8_t *hdr, struct mlf_record *rec, int to)
{
	struct mlf_reclaim_header h;
	struct mlf_reclaim_op op;

	if (!decode_record(hdr, rec, &h, &op) || !mlf_reclaim_op_names_memcg(op.kind))
		return -1;
	if (to >= 0 && to < h.pool_size) {
		op.memcg = to;
		rec->len = mlf_reclaim_encode_op(&op, rec->b);
	}
	return op.memcg;
}

static int pool_size(const uint8_t *hdr)
{
	struct mlf_reclaim_header h;

	mlf_reclaim_decode(hdr, MLF_RECLAIM_HEADER_BYTES, &h, NULL, 0);
	return h.pool_size;
}

const struct mlf_format mlf_target_format = {
	.name = "reclaim",
	.header_len = MLF_RECLAIM_HEADER_BYTES,
	.split = split,
	.random_record = random_record,
	.random_run = random_run,
	.tweak_record = tweak_record,
	.tweak_header = tweak_header,
	.rehome = rehome,
	.memcg = memcg,
	.pool_size = pool_size,
	.meeting_record = meeting_record,
};
