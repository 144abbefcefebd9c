// SPDX-License-Identifier: GPL-2.0
/*
 * Printing and parsing reclaim traces (reclaim_trace.h). The printer is
 * mlf_reclaim_print_op() line by line; the parser accepts that plus a few
 * conveniences (operands in any order, omitted flags and values zero) and
 * rejects, with one message naming the line, whatever the byte format
 * cannot carry, so that a hand-edited reproducer never silently means
 * something other than what it says.
 */
#include "reclaim_trace.h"

#include <string.h>

/* ---- printing ---- */

void mlf_reclaim_trace_print(FILE *out, const struct mlf_reclaim_header *h,
			     const struct mlf_reclaim_op *ops, size_t n)
{
	size_t i;

	fputs(MLF_RECLAIM_TRACE_MAGIC "\n", out);
	mlf_reclaim_print_header(out, h);
	for (i = 0; i < n; i++) {
		mlf_reclaim_print_op(out, &ops[i]);
		fputc('\n', out);
	}
}

/* The magic line among the comments and blank lines before the header. */
bool mlf_reclaim_trace_is(const char *text, size_t len)
{
	const char *target = mlf_trace_target_of(text, len);

	return target && !strcmp(target, "reclaim");
}

/* ---- parsing (the lexing: trace_lex.c) ---- */

static bool all_digits(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return len > 0;
}

/*
 * The operands of an op, each written one way: a prefix and a number (m3),
 * key=value (target=8), a flag word (dirty), or a bare number (the
 * swappiness value).
 */
enum field {
	F_MEMCG,
	F_NODE,
	F_ZONE,
	F_COUNT,
	F_FOLIO,
	F_SLOT,
	F_TYPE,
	F_DIRTY,
	F_WRITEBACK,
	F_REFERENCED,
	F_KSWAPD,
	F_DYING,
	F_SWAPPINESS,
	F_TARGET,
	F_PRIO,
	F_MIN,
	F_LOW,
	F_NODES,
	F_DRAWS,
	F_PARENT,
	F_ORDER,
	F_MAXZONE,
	F_OTHERS,
	F_SHRINKER,
	F_OBJECTS,
	F_MANAGED,
	F_GAP,
	F_BOOST,
	F_RESERVE,
	F_FREE,
	F_RECURSIVEPROT,
	F_TIERING,
	F_NR,
};

#define B(f) (1u << (f))

enum style { PREFIX, WORD, NUMBER, KEY };

struct field_desc {
	enum style style;
	const char *name; /* the prefix, word or key */
	unsigned long max; /* PREFIX and KEY: the largest value */
	const char *noun; /* "needs a NOUN (WANT)", "more than one NOUN" */
	const char *want;
};

static const struct field_desc fields[F_NR] = {
	[F_MEMCG] = { PREFIX, "m", 0, "memcg", "m<N>" },
	[F_NODE] = { PREFIX, "n", 0, "node", "n<N>" },
	[F_ZONE] = { PREFIX, "z", 1, "zone", "z0 or z1" },
	[F_COUNT] = { PREFIX, "x", 16, "count", "x1 to x16" },
	[F_FOLIO] = { PREFIX, "f", MLF_RECLAIM_MAX_FOLIOS - 1, "folio",
		      "f0 to f511" },
	[F_SLOT] = { PREFIX, "p", MLF_RECLAIM_MAX_PARKED - 1, "parked slot",
		     "p0 to p3" },
	[F_TYPE] = { WORD, NULL, 0, "type", "anon or file" },
	[F_DIRTY] = { WORD, "dirty", 0, NULL, NULL },
	[F_WRITEBACK] = { WORD, "writeback", 0, NULL, NULL },
	[F_REFERENCED] = { WORD, "referenced", 0, NULL, NULL },
	[F_KSWAPD] = { WORD, "kswapd", 0, NULL, NULL },
	[F_DYING] = { WORD, "dying", 0, NULL, NULL },
	[F_SWAPPINESS] = { NUMBER, NULL, 0, "swappiness value",
			   "0, 1, 60, 100 or 200" },
	[F_TARGET] = { KEY, "target", 255, NULL, NULL },
	[F_PRIO] = { KEY, "prio", DEF_PRIORITY, NULL, NULL },
	[F_MIN] = { KEY, "min", 255, NULL, NULL },
	[F_LOW] = { KEY, "low", 255, NULL, NULL },
	[F_NODES] = { KEY, "nodes", 255, NULL, NULL },
	[F_DRAWS] = { KEY, "draws", 255, NULL, NULL }, /* also bin=, draw= */
	[F_PARENT] = { KEY, "parent", 0, NULL, NULL }, /* m<N> or root */
	[F_ORDER] = { KEY, "order", MLF_RECLAIM_MAX_ORDER, NULL, NULL },
	[F_MAXZONE] = { KEY, "maxzone", MAX_NR_ZONES - 1, NULL, NULL },
	[F_OTHERS] = { KEY, "others", 3, NULL, NULL },
	[F_SHRINKER] = { PREFIX, "s", MLF_NR_SHRINKERS - 1, "shrinker",
			 "s0 or s1" },
	[F_OBJECTS] = { KEY, "objects", 256, NULL, NULL },
	[F_MANAGED] = { KEY, "managed", 255, NULL, NULL },
	[F_GAP] = { KEY, "gap", 255, NULL, NULL },
	[F_BOOST] = { KEY, "boost", 255, NULL, NULL },
	[F_RESERVE] = { KEY, "reserve", 255, NULL, NULL },
	[F_FREE] = { KEY, "free", 255, NULL, NULL },
	[F_RECURSIVEPROT] = { KEY, "recursiveprot", 1, NULL, NULL },
	[F_TIERING] = { KEY, "tiering", 1, NULL, NULL },
};

/* the ranges in the messages above */
_Static_assert(MLF_RECLAIM_MAX_FOLIOS == 512 && MLF_RECLAIM_MAX_PARKED == 4 &&
		       MLF_NR_SHRINKERS == 2,
	       "update the 'want' strings of fields[]");

static const char *const type_names[] = { "anon", "file" };

/* what each op kind takes, and what it must name */
static const struct {
	unsigned int takes, needs;
} kind_fields[RECLAIM_OP_NR] = {
	[RECLAIM_OP_ONLINE] = { B(F_MEMCG) | B(F_DRAWS) | B(F_PARENT), B(F_MEMCG) },
	[RECLAIM_OP_OFFLINE] = { B(F_MEMCG), B(F_MEMCG) },
	[RECLAIM_OP_RELEASE] = { B(F_MEMCG), B(F_MEMCG) },
	[RECLAIM_OP_ADD] = { B(F_MEMCG) | B(F_NODE) | B(F_TYPE) | B(F_ZONE) |
				     B(F_DIRTY) | B(F_WRITEBACK) |
				     B(F_REFERENCED) | B(F_COUNT) | B(F_ORDER),
			     B(F_MEMCG) | B(F_NODE) | B(F_TYPE) | B(F_COUNT) },
	[RECLAIM_OP_REFAULT] = { B(F_MEMCG) | B(F_NODE) | B(F_TYPE) |
					 B(F_ZONE) | B(F_DIRTY) |
					 B(F_WRITEBACK) | B(F_REFERENCED) |
					 B(F_COUNT) | B(F_ORDER),
				 B(F_MEMCG) | B(F_NODE) | B(F_TYPE) |
					 B(F_COUNT) },
	[RECLAIM_OP_TOUCH] = { B(F_FOLIO), B(F_FOLIO) },
	[RECLAIM_OP_WBDONE] = { B(F_MEMCG), B(F_MEMCG) },
	[RECLAIM_OP_AGE] = { B(F_MEMCG) | B(F_NODE), B(F_MEMCG) | B(F_NODE) },
	[RECLAIM_OP_PROTECT] = { B(F_MEMCG) | B(F_MIN) | B(F_LOW), B(F_MEMCG) },
	[RECLAIM_OP_SWAPPINESS] = { B(F_MEMCG) | B(F_SWAPPINESS),
				    B(F_MEMCG) | B(F_SWAPPINESS) },
	[RECLAIM_OP_RECLAIM] = { B(F_NODE) | B(F_TARGET) | B(F_PRIO) |
					 B(F_KSWAPD) | B(F_DYING) | B(F_DRAWS) |
					 B(F_ORDER) | B(F_MAXZONE) | B(F_OTHERS),
				 B(F_NODE) },
	[RECLAIM_OP_PARK] = { B(F_MEMCG) | B(F_NODE) | B(F_KSWAPD) | B(F_DRAWS),
			      B(F_MEMCG) | B(F_NODE) },
	[RECLAIM_OP_UNPARK] = { B(F_SLOT), B(F_SLOT) },
	[RECLAIM_OP_SHADOW] = { B(F_MEMCG) | B(F_NODE) | B(F_NODES),
				B(F_MEMCG) | B(F_NODE) },
	[RECLAIM_OP_SOFT] = { B(F_MEMCG) | B(F_NODE), B(F_MEMCG) | B(F_NODE) },
	[RECLAIM_OP_ZONE] = { B(F_NODE) | B(F_ZONE) | B(F_MANAGED) | B(F_MIN) |
				      B(F_GAP) | B(F_BOOST) | B(F_RESERVE) |
				      B(F_FREE),
			      B(F_NODE) | B(F_ZONE) },
	[RECLAIM_OP_SLAB] = { B(F_MEMCG) | B(F_NODE) | B(F_SHRINKER) |
				      B(F_OBJECTS),
			      B(F_MEMCG) | B(F_NODE) | B(F_SHRINKER) |
				      B(F_OBJECTS) },
	[RECLAIM_OP_SYSCTL] = { B(F_RECURSIVEPROT) | B(F_TIERING), 0 },
	[RECLAIM_OP_FREE] = { B(F_MEMCG) | B(F_NODE), B(F_MEMCG) | B(F_NODE) },
};

/* Which field a token is; F_NR if none. @key gets the key of key=value. */
static enum field classify(const struct mlf_token *t, struct mlf_token *key)
{
	const char *eq = memchr(t->s, '=', t->len);
	int f;

	if (eq) {
		key->s = t->s;
		key->len = eq - t->s;
		if (mlf_token_is(key, "bin") || mlf_token_is(key, "draw"))
			return F_DRAWS;
		for (f = 0; f < F_NR; f++)
			if (fields[f].style == KEY &&
			    mlf_token_is(key, fields[f].name))
				return f;
		return F_NR;
	}
	if (t->len > 1 && t->s[1] >= '0' && t->s[1] <= '9')
		for (f = 0; f < F_NR; f++)
			if (fields[f].style == PREFIX &&
			    t->s[0] == fields[f].name[0])
				return f;
	if (all_digits(t->s, t->len))
		return F_SWAPPINESS;
	if (mlf_token_is(t, "anon") || mlf_token_is(t, "file"))
		return F_TYPE;
	for (f = 0; f < F_NR; f++)
		if (fields[f].style == WORD && fields[f].name &&
		    mlf_token_is(t, fields[f].name))
			return f;
	return F_NR;
}

static bool parse_draws(struct mlf_trace_parser *p, struct mlf_reclaim_op *op,
			const struct mlf_token *key, const char *s, size_t len)
{
	const char *kind = mlf_reclaim_op_name(op->kind);
	bool bins = mlf_token_is(key, "bin");
	int n;

	if (bins && op->kind != RECLAIM_OP_ONLINE) {
		mlf_trace_fail(p,
			       "%s takes no 'bin' (its draws are raw: draw=)",
			       kind);
		return false;
	}
	n = mlf_trace_parse_draws(
		p, kind, bins,
		op->kind == RECLAIM_OP_RECLAIM ? MLF_RECLAIM_MAX_DRAWS : 1,
		bins ? MEMCG_NR_BINS - 1 : 255, s, len, op->draws);
	if (n < 0)
		return false;
	op->nr_draws = n;
	return true;
}

static bool parse_swappiness(struct mlf_trace_parser *p,
			     struct mlf_reclaim_op *op,
			     const struct mlf_token *t)
{
	unsigned long v;
	char buf[40];
	int i;

	if (mlf_trace_parse_uint(t->s, t->len, 1000, &v))
		for (i = 0; i < MLF_RECLAIM_NR_SWAPPINESS; i++)
			if (v == mlf_reclaim_swappiness_values[i]) {
				op->swappiness = v;
				return true;
			}
	mlf_trace_fail(p, "bad swappiness value '%s' (want %s)",
		       mlf_token_show(t, buf, sizeof(buf)),
		       fields[F_SWAPPINESS].want);
	return false;
}

/* m<N>, n<N>, z<N>, x<N>, f<N>, p<N> */
static bool parse_prefixed(struct mlf_trace_parser *p,
			   const struct mlf_reclaim_header *h,
			   struct mlf_reclaim_op *op, enum field f,
			   const struct mlf_token *t)
{
	unsigned long v;
	char buf[40];

	if (!mlf_trace_parse_uint(t->s + 1, t->len - 1, 1000000, &v)) {
		mlf_trace_fail(p, "bad %s '%s'", fields[f].noun,
			       mlf_token_show(t, buf, sizeof(buf)));
		return false;
	}
	switch (f) {
	case F_MEMCG:
		if (v >= (unsigned long)h->pool_size) {
			mlf_trace_fail(p, "%s is outside the pool (%d)",
				       mlf_token_show(t, buf, sizeof(buf)),
				       h->pool_size);
			return false;
		}
		op->memcg = v;
		return true;
	case F_NODE:
		if (v >= (unsigned long)h->nr_nodes) {
			mlf_trace_fail(p, "%s is outside the nodes (%d)",
				       mlf_token_show(t, buf, sizeof(buf)),
				       h->nr_nodes);
			return false;
		}
		op->node = v;
		return true;
	case F_COUNT:
		if (v < 1 || v > fields[f].max)
			break;
		op->count = v;
		return true;
	case F_ZONE:
		if (v > fields[f].max)
			break;
		op->zone = v;
		return true;
	case F_FOLIO:
		if (v > fields[f].max)
			break;
		op->folio = v;
		return true;
	case F_SHRINKER:
		if (v > fields[f].max)
			break;
		op->shrinker = v;
		return true;
	default:
		if (v > fields[f].max)
			break;
		op->slot = v;
		return true;
	}
	mlf_trace_fail(p, "bad %s '%s' (want %s)", fields[f].noun,
		       mlf_token_show(t, buf, sizeof(buf)), fields[f].want);
	return false;
}

/* parent=m<N> (a slot of the pool) or parent=root */
static bool parse_parent(struct mlf_trace_parser *p,
			 const struct mlf_reclaim_header *h,
			 struct mlf_reclaim_op *op, const char *s, size_t len)
{
	struct mlf_token vt = { s, len };
	unsigned long v;
	char buf[40];

	if (mlf_token_is(&vt, "root")) {
		op->parent = 0;
		return true;
	}
	if (len < 2 || s[0] != 'm' ||
	    !mlf_trace_parse_uint(s + 1, len - 1, 1000000, &v) ||
	    v >= (unsigned long)h->pool_size) {
		mlf_trace_fail(p, "bad parent '%s' (want m<N> in the pool, or root)",
			       mlf_token_show(&vt, buf, sizeof(buf)));
		return false;
	}
	op->parent = v + 1;
	return true;
}

static bool parse_key(struct mlf_trace_parser *p,
		      const struct mlf_reclaim_header *h,
		      struct mlf_reclaim_op *op, enum field f,
		      const struct mlf_token *key, const struct mlf_token *t)
{
	const char *val = key->s + key->len + 1;
	size_t vlen = t->len - key->len - 1;
	unsigned long v;
	char buf[40];

	if (f == F_DRAWS)
		return parse_draws(p, op, key, val, vlen);
	if (f == F_PARENT)
		return parse_parent(p, h, op, val, vlen);
	if (!mlf_trace_parse_uint(val, vlen, fields[f].max, &v)) {
		struct mlf_token vt = { val, vlen };

		mlf_trace_fail(p, "bad %s value '%s' (want 0 to %lu)",
			       fields[f].name,
			       mlf_token_show(&vt, buf, sizeof(buf)),
			       fields[f].max);
		return false;
	}
	switch (f) {
	case F_TARGET:
		op->target = v;
		break;
	case F_PRIO:
		op->priority = v;
		break;
	case F_MIN:
		/* a zone's min watermark, or memory.min */
		if (op->kind == RECLAIM_OP_ZONE)
			op->zone_min = v;
		else
			op->min = v;
		break;
	case F_LOW:
		op->low = v;
		break;
	case F_ORDER:
		op->order = v;
		break;
	case F_MAXZONE:
		op->zones = v + 1;
		break;
	case F_OTHERS:
		op->others = v;
		break;
	case F_OBJECTS:
		if (!v) {
			mlf_trace_fail(p, "bad objects value '0' (want 1 to 256)");
			return false;
		}
		op->objects = v;
		break;
	case F_MANAGED:
		op->zone_managed = v;
		break;
	case F_GAP:
		op->zone_gap = v;
		break;
	case F_BOOST:
		op->zone_boost = v;
		break;
	case F_RESERVE:
		op->zone_reserve = v;
		break;
	case F_FREE:
		op->zone_free = v;
		break;
	case F_RECURSIVEPROT:
		op->recursiveprot = v;
		break;
	case F_TIERING:
		op->tiering = v;
		break;
	default:
		op->nodes = v;
		break;
	}
	return true;
}

static bool parse_op(struct mlf_trace_parser *p, const struct mlf_token *t,
		     int n, const struct mlf_reclaim_header *h,
		     struct mlf_reclaim_op *op)
{
	unsigned int seen = 0, takes, missing;
	const char *name;
	char buf[40];
	int kind, i;

	memset(op, 0, sizeof(*op));
	for (kind = 0; kind < RECLAIM_OP_NR; kind++)
		if (mlf_token_is(&t[0], mlf_reclaim_op_name(kind)))
			break;
	if (kind == RECLAIM_OP_NR) {
		mlf_trace_fail(p, "unknown op '%s'",
			       mlf_token_show(&t[0], buf, sizeof(buf)));
		return false;
	}
	op->kind = kind;
	name = mlf_reclaim_op_name(kind);
	takes = kind_fields[kind].takes;

	for (i = 1; i < n; i++) {
		const struct mlf_token *tok = &t[i];
		struct mlf_token key = { NULL, 0 };
		enum field f = classify(tok, &key);

		if (f == F_NR) {
			mlf_trace_fail(p, "unknown field '%s' in %s",
				       mlf_token_show(key.s ? &key : tok, buf,
						      sizeof(buf)),
				       name);
			return false;
		}
		if (!(takes & B(f))) {
			mlf_trace_fail(p, "%s takes no '%s'", name,
				       mlf_token_show(key.s ? &key : tok, buf,
						      sizeof(buf)));
			return false;
		}
		if (seen & B(f)) {
			if (f == F_TYPE)
				mlf_trace_fail(
					p, "'%s' after '%s': one type only",
					mlf_token_show(tok, buf, sizeof(buf)),
					type_names[op->type]);
			else if (fields[f].style == PREFIX ||
				 fields[f].style == NUMBER)
				mlf_trace_fail(p, "more than one %s",
					       fields[f].noun);
			else
				mlf_trace_fail(
					p, "'%s' given twice",
					mlf_token_show(key.s ? &key : tok, buf,
						       sizeof(buf)));
			return false;
		}
		seen |= B(f);

		switch (fields[f].style) {
		case PREFIX:
			if (!parse_prefixed(p, h, op, f, tok))
				return false;
			break;
		case NUMBER:
			if (!parse_swappiness(p, op, tok))
				return false;
			break;
		case KEY:
			if (!parse_key(p, h, op, f, &key, tok))
				return false;
			break;
		case WORD:
			if (f == F_TYPE)
				op->type = mlf_token_is(tok, "file");
			else if (f == F_DIRTY)
				op->dirty = 1;
			else if (f == F_WRITEBACK)
				op->writeback = 1;
			else if (f == F_REFERENCED)
				op->referenced = 1;
			else if (f == F_KSWAPD)
				op->kswapd = 1;
			else
				op->dying = 1;
			break;
		}
	}

	missing = kind_fields[kind].needs & ~seen;
	if (missing) {
		enum field f = __builtin_ctz(missing);

		mlf_trace_fail(p, "%s needs a %s (%s)", name, fields[f].noun,
			       fields[f].want);
		return false;
	}
	/* the bytes of online and park always carry their one draw */
	if (kind == RECLAIM_OP_ONLINE || kind == RECLAIM_OP_PARK)
		op->nr_draws = 1;
	return true;
}

long mlf_reclaim_trace_parse(const char *text, size_t len,
			     struct mlf_reclaim_header *h,
			     struct mlf_reclaim_op *ops, size_t cap,
			     struct mlf_trace_error *err)
{
	static const struct mlf_trace_format format = {
		.max_nodes = MLF_RECLAIM_MAX_NODES,
		.max_pool = MLF_RECLAIM_MAX_POOL,
		.max_ops = MLF_RECLAIM_MAX_OPS,
		.target = "reclaim",
	};
	struct mlf_trace_parser p;
	long n = 0;
	int nt;

	mlf_trace_begin(&p, &format, text, len, cap, &h->nr_nodes,
			&h->pool_size, err);
	while ((nt = mlf_trace_next_op(&p)) > 0) {
		if (!parse_op(&p, p.toks, nt, h, &ops[n]))
			return -1;
		n++;
	}
	return nt < 0 ? -1 : n;
}
