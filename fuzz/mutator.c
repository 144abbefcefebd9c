// SPDX-License-Identifier: GPL-2.0
/*
 * The structure-aware mutator and cross-over (mutator.h): split an input
 * into header and records with the target's format, apply one to four
 * mutations to the record list, join it back within the size the engine
 * allows. The records are canonical, so a record moved, copied or spliced
 * is still the op it was.
 */
#include "mutator.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* the inputs being mutated; static: a record list is large */
static struct mlf_records cur, other;

bool mlf_mutator_enabled(void)
{
	static int enabled = -1;

	if (enabled < 0) {
		const char *env = getenv("MLF_MUTATOR");

		enabled = !env || !*env || !strcmp(env, "ops");
	}
	return enabled;
}

static size_t join(const struct mlf_format *f, const struct mlf_records *r,
		   uint8_t *out, size_t max)
{
	size_t len = f->header_len < max ? f->header_len : max, i;

	memcpy(out, r->header, len);
	for (i = 0; i < r->n; i++) {
		if (len + r->r[i].len > max)
			break;
		memcpy(out + len, r->r[i].b, r->r[i].len);
		len += r->r[i].len;
	}
	return len;
}

/*
 * Make room for @k records at @at (dropping what falls off the end);
 * returns where the room is.
 */
static size_t open_gap(struct mlf_records *r, size_t at, size_t k)
{
	if (r->n + k > MLF_MUT_MAX_RECORDS)
		r->n = MLF_MUT_MAX_RECORDS - k;
	if (at > r->n)
		at = r->n;
	memmove(&r->r[at + k], &r->r[at], (r->n - at) * sizeof(r->r[0]));
	r->n += k;
	return at;
}

static void remove_run(struct mlf_records *r, size_t at, size_t k)
{
	if (at + k > r->n)
		k = r->n - at;
	memmove(&r->r[at], &r->r[at + k], (r->n - at - k) * sizeof(r->r[0]));
	r->n -= k;
}

/* a run length: mostly 1, sometimes a few, at most @limit */
static size_t run_length(struct mlf_rng *g, size_t limit)
{
	size_t k = mlf_rng_one_in(g, 2) ? 1 : 1 + mlf_rng_below(g, 8);

	return k < limit ? k : limit;
}

/*
 * The operand bytes of record @i through the engine's byte mutator, then
 * split again: the first op is record @i made canonical, and every whole op
 * the mutation left after it (a dictionary entry of one op or a sequence of
 * them, as fuzz/<target>.dict has) is a record of its own after it, so that
 * an entry goes in as the ops it spells, not cut to the first.
 */
static void byte_tweak(const struct mlf_format *f, struct mlf_records *r,
		       size_t i, mlf_byte_mutator bytes)
{
	static struct mlf_records one;
	uint8_t buf[MLF_MUT_MAX_HEADER + 2 * MLF_MUT_MAX_RECORD];
	struct mlf_record *rec = &r->r[i];
	size_t len, j;

	memcpy(buf, r->header, f->header_len);
	memcpy(buf + f->header_len, rec->b, rec->len);
	len = bytes(buf + f->header_len + 1, rec->len - 1,
		    sizeof(buf) - f->header_len - 1);
	f->split(buf, f->header_len + 1 + len, &one);
	if (!one.n)
		return;
	r->r[i] = one.r[0];
	if (one.n > 1) {
		j = open_gap(r, i + 1, one.n - 1);
		memcpy(&r->r[j], &one.r[1], (one.n - 1) * sizeof(r->r[0]));
	}
}

/*
 * Twin the memcg of record @i: after each record that acts on it, the
 * same op on one or two other memcgs (ones the input does not use,
 * mostly). A twin has the same life and the same draws, so it lands in
 * the same generation, segment and bin, right beside the memcg it
 * follows: a bin of three where each op would otherwise have to draw the
 * same bin by chance. Twinning stops where the record list is full.
 */
static void twin(const struct mlf_format *f, struct mlf_records *r, size_t i,
		 struct mlf_rng *g)
{
	static bool used[1 << 12];
	static int of[MLF_MUT_MAX_RECORDS]; /* each record's memcg */
	int m = f->memcg(r->header, &r->r[i], -1), pool, to[2], nr, k, s;
	size_t j, o, n = r->n;

	pool = f->pool_size(r->header);
	if (m < 0 || pool < 2)
		return;
	if (pool > (int)ARRAY_SIZE(used))
		pool = ARRAY_SIZE(used);
	memset(used, 0, pool * sizeof(used[0]));
	for (j = 0; j < n; j++) {
		of[j] = f->memcg(r->header, &r->r[j], -1);
		if (of[j] >= 0 && of[j] < pool)
			used[of[j]] = true;
	}
	nr = pool > 2 && mlf_rng_one_in(g, 2) ? 2 : 1;
	for (s = 0; s < nr; s++) {
		to[s] = -1;
		for (k = 0; k < 8 && (to[s] < 0 || used[to[s]]); k++)
			to[s] = mlf_rng_below(g, pool < 64 ? pool : 64);
		/* else any other than @m and the first twin */
		while (to[s] < 0 || to[s] == m || (s && to[s] == to[0]))
			to[s] = mlf_rng_below(g, pool);
		used[to[s]] = true;
	}
	/* @o: the record's index before the twins, @j: after */
	for (o = 0, j = 0; o < n; o++, j++) {
		if (of[o] != m)
			continue;
		for (s = 0; s < nr && r->n < MLF_MUT_MAX_RECORDS; s++) {
			open_gap(r, j + 1, 1);
			r->r[j + 1] = r->r[j];
			f->memcg(r->header, &r->r[++j], to[s]);
		}
	}
}

static void mutate_once(const struct mlf_format *f, struct mlf_records *r,
			struct mlf_rng *g, mlf_byte_mutator bytes)
{
	size_t i, j, k;

	if (!r->n) {
		open_gap(r, 0, 1);
		f->random_record(r, g, &r->r[0]);
		return;
	}
	i = mlf_rng_below(g, r->n);
	switch (mlf_rng_below(g, 21)) {
	case 0 ... 3:	/* insert a new record, or a run that belongs together */
		if (f->random_run && mlf_rng_one_in(g, 4)) {
			struct mlf_record run[MLF_MUT_MAX_RUN];

			k = f->random_run(r, g, run, MLF_MUT_MAX_RUN);
			j = open_gap(r, mlf_rng_one_in(g, 2) ? i + 1 :
					mlf_rng_below(g, r->n + 1), k);
			memcpy(&r->r[j], run, k * sizeof(run[0]));
			break;
		}
		if (f->memcg && mlf_rng_one_in(g, 2)) {
			/*
			 * right after record @i, on its memcg: the state
			 * that record left the memcg in is the one an op
			 * can meet there, and a state a long history built
			 * is met by more than one kind of op only this way
			 */
			int m = f->memcg(r->header, &r->r[i], -1);

			j = open_gap(r, i + 1, 1);
			f->random_record(r, g, &r->r[j]);
			if (m >= 0)
				f->memcg(r->header, &r->r[j], m);
			break;
		}
		j = open_gap(r, mlf_rng_below(g, r->n + 1), 1);
		f->random_record(r, g, &r->r[j]);
		break;
	case 4 ... 6:	/* delete a record or a run */
		remove_run(r, i, mlf_rng_one_in(g, 3) ? run_length(g, r->n - i) : 1);
		break;
	case 7 ... 8: {	/* duplicate a record next to itself, or elsewhere */
		struct mlf_record copy = r->r[i];

		j = mlf_rng_one_in(g, 2) ? i + 1 : mlf_rng_below(g, r->n + 1);
		j = open_gap(r, j, 1);
		r->r[j] = copy;
		break;
	}
	case 9 ... 10:	/* swap two records, mostly neighbours */
		j = mlf_rng_one_in(g, 2) ? i + 1 : mlf_rng_below(g, r->n);
		if (j < r->n) {
			struct mlf_record t = r->r[i];

			r->r[i] = r->r[j];
			r->r[j] = t;
		}
		break;
	case 11 ... 12: {	/* splice: copy a run of records elsewhere */
		static struct mlf_record run[MLF_MUT_MAX_RECORDS];

		k = run_length(g, r->n - i);
		memcpy(run, &r->r[i], k * sizeof(run[0]));
		j = open_gap(r, mlf_rng_below(g, r->n + 1), k);
		memcpy(&r->r[j], run, k * sizeof(run[0]));
		break;
	}
	case 13 ... 18:	/* change one operand of one record */
		if (bytes && r->r[i].len > 1 && mlf_rng_one_in(g, 4))
			byte_tweak(f, r, i, bytes);
		else
			f->tweak_record(r, &r->r[i], g);
		break;
	case 19: /* twin a memcg */
		if (f->memcg)
			twin(f, r, i, g);
		break;
	default:	/* the header */
		f->tweak_header(r, g);
		break;
	}
}

/*
 * One mutation in MLF_MEETINGS (default 8; 0: none) is a meeting: the
 * target runs the input and names a place where a memcg stands in a state
 * that some kind of op has not met in this campaign, and that op goes in
 * there. A state a long history built (a stale walk's young tail, a dying
 * memcg at a segment's head) is then met by each kind of op on the next
 * tries, not each by a history of its own. It costs a run of the input.
 */
static bool meeting_due(const struct mlf_format *f, struct mlf_rng *g)
{
	static int one_in = -1;

	if (one_in < 0) {
		const char *env = getenv("MLF_MEETINGS");
		char *end;

		one_in = env && *env ? strtol(env, &end, 10) : 8;
		if (env && *env && (*end || one_in < 0)) {
			fprintf(stderr, "mlf: MLF_MEETINGS=%s: not a count (one mutation in N is a meeting; 0: none)\n",
				env);
			exit(2);
		}
	}
	return f->meeting_record && mlf_target_meeting && one_in > 0 &&
	       mlf_rng_one_in(g, one_in);
}

/*
 * Room within @max for records up to @end (the meeting's last): @m's spare
 * records, all before its op, taken out until there is; false if there
 * is not even without them. The meeting's op moves up by those it took.
 */
static bool make_room(const struct mlf_format *f, struct mlf_records *r,
		      struct mlf_meeting *m, size_t end, size_t max)
{
	static bool out[MLF_MUT_MAX_RECORDS];
	size_t need = f->header_len, i, j, k;
	int s;

	m->nr_spared = 0;
	for (i = 0; i < end && i < r->n; i++)
		need += r->r[i].len;
	if (need <= max)
		return true;
	memset(out, 0, end * sizeof(out[0]));
	for (s = 0, k = 0; s < m->nr_spare && need > max; s++) {
		i = m->spare[s];
		/* only records before the meeting's, each once */
		if (i >= m->at || out[i])
			continue;
		out[i] = true;
		need -= r->r[i].len;
		k++;
	}
	if (need > max)
		return false;
	for (i = j = 0; i < r->n; i++)
		if (i >= end || !out[i])
			r->r[j++] = r->r[i];
	r->n = j;
	m->at -= k;
	m->nr_spared = k;
	return true;
}

bool mlf_meeting_mutate(const struct mlf_format *f, uint8_t *data,
			size_t size, size_t max, struct mlf_rng *g,
			struct mlf_meeting *m, size_t *len)
{
	size_t j;
	bool fits;

	if (!f->meeting_record || !mlf_target_meeting)
		return false;
	if (!mlf_target_meeting(data, &size, max, mlf_rng_next64(g), m))
		return false;
	f->split(data, size, &cur);
	/* past the records (a rework names one): a target's bug */
	if (m->at + m->rework > cur.n)
		return false;
	j = m->rework ? m->at : open_gap(&cur, m->at, 1 + m->nr_first);
	f->meeting_record(&cur, m, g, &cur.r[j]);
	m->at = j;
	fits = make_room(f, &cur, m, j + (m->rework ? 1 : 1 + m->nr_first),
			 max);
	/* without room, what fits of the meeting's ops: a mutation still */
	*len = join(f, &cur, data, max);
	if (mlf_target_meeting_made)
		mlf_target_meeting_made(fits ? data : NULL, fits ? *len : 0, m);
	return true;
}

size_t mlf_mutate(const struct mlf_format *f, uint8_t *data, size_t size,
		  size_t max, unsigned int seed, mlf_byte_mutator bytes)
{
	struct mlf_rng g = mlf_rng_seeded(0x9e3779b97f4a7c15ULL ^ seed);
	int n = 1 + mlf_rng_below(&g, 4), i;
	struct mlf_meeting m;
	size_t len;

	if (meeting_due(f, &g) &&
	    mlf_meeting_mutate(f, data, size, max, &g, &m, &len))
		return len;
	f->split(data, size, &cur);
	for (i = 0; i < n; i++)
		mutate_once(f, &cur, &g, bytes);
	return join(f, &cur, data, max);
}

size_t mlf_cross_over(const struct mlf_format *f, const uint8_t *a,
		      size_t a_size, const uint8_t *b, size_t b_size,
		      uint8_t *out, size_t max, unsigned int seed)
{
	struct mlf_rng g = mlf_rng_seeded(0xd1b54a32d192ed03ULL ^ seed);
	size_t i, j, k;

	f->split(a, a_size, &cur);
	f->split(b, b_size, &other);
	/* b's records as ops of a's world */
	if (f->rehome)
		for (j = 0; j < other.n; j++)
			f->rehome(other.header, cur.header, &other.r[j]);
	i = mlf_rng_below(&g, cur.n + 1);
	j = mlf_rng_below(&g, other.n + 1);
	if (mlf_rng_one_in(&g, 2)) {
		/* a's prefix, then b's suffix */
		k = other.n - j;
		if (i + k > MLF_MUT_MAX_RECORDS)
			k = MLF_MUT_MAX_RECORDS - i;
		memcpy(&cur.r[i], &other.r[j], k * sizeof(cur.r[0]));
		cur.n = i + k;
	} else {
		/* a run of b inserted into a */
		k = run_length(&g, other.n - j);
		i = open_gap(&cur, i, k);
		memcpy(&cur.r[i], &other.r[j], k * sizeof(cur.r[0]));
	}
	return join(f, &cur, out, max);
}
