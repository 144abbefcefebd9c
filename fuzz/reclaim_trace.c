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

#include <stdarg.h>
#include <string.h>

#define MAX_FIELDS 16

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

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* @s (@len bytes) is @line once trailing blanks are cut */
static bool line_is(const char *s, size_t len, const char *line)
{
	while (len && is_space(s[len - 1]))
		len--;
	return len == strlen(line) && !memcmp(s, line, len);
}

bool mlf_reclaim_trace_is(const char *text, size_t len)
{
	const char *nl = memchr(text, '\n', len);

	return line_is(text, nl ? (size_t)(nl - text) : len,
		       MLF_RECLAIM_TRACE_MAGIC);
}

/* ---- parsing ---- */

struct token {
	const char *s;
	size_t len;
};

struct parser {
	struct mlf_trace_error *err;
	int line;
};

__attribute__((format(printf, 2, 3))) static void fail(struct parser *p,
						       const char *fmt, ...)
{
	va_list ap;

	p->err->line = p->line;
	va_start(ap, fmt);
	vsnprintf(p->err->what, sizeof(p->err->what), fmt, ap);
	va_end(ap);
	snprintf(p->err->msg, sizeof(p->err->msg), "trace:%d: %s", p->line,
		 p->err->what);
}

static bool tok_is(const struct token *t, const char *word)
{
	return t->len == strlen(word) && !memcmp(t->s, word, t->len);
}

/* A token quoted in a message: cut long ones, never print raw control bytes */
static const char *tok_show(const struct token *t, char *buf, size_t size)
{
	size_t i, n = t->len < size - 4 ? t->len : size - 4;

	for (i = 0; i < n; i++)
		buf[i] = t->s[i] >= 0x20 && t->s[i] < 0x7f ? t->s[i] : '?';
	if (n < t->len)
		buf[n++] = '.', buf[n++] = '.', buf[n++] = '.';
	buf[n] = '\0';
	return buf;
}

/* Decimal, no sign, at most @max. */
static bool parse_uint(const char *s, size_t len, unsigned long max,
		       unsigned long *val)
{
	unsigned long v = 0;
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
		if (v > max)
			return false;
	}
	*val = v;
	return true;
}

static bool all_digits(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return len > 0;
}

/* Split one line (comment cut off) into tokens; -1 if there are too many. */
static int tokenize(const char *s, size_t len, struct token *toks)
{
	size_t i = 0;
	int n = 0;

	while (i < len) {
		size_t start;

		while (i < len && is_space(s[i]))
			i++;
		if (i == len || s[i] == '#')
			break;
		if (n == MAX_FIELDS)
			return -1;
		start = i;
		while (i < len && !is_space(s[i]) && s[i] != '#')
			i++;
		toks[n].s = s + start;
		toks[n].len = i - start;
		n++;
	}
	return n;
}

static bool parse_header(struct parser *p, const struct token *t, int n,
			 struct mlf_reclaim_header *h)
{
	unsigned long nodes, pool;

	if (n != 4 || !tok_is(&t[0], "nodes") || !tok_is(&t[2], "pool")) {
		fail(p,
		     "expected the header 'nodes N pool P' before the first op");
		return false;
	}
	if (!parse_uint(t[1].s, t[1].len, 1000000, &nodes) || !nodes ||
	    nodes > MLF_RECLAIM_MAX_NODES) {
		fail(p, "nodes must be 1 to %d", MLF_RECLAIM_MAX_NODES);
		return false;
	}
	if (!parse_uint(t[3].s, t[3].len, 1000000, &pool) || !pool ||
	    pool > MLF_RECLAIM_MAX_POOL) {
		fail(p, "pool must be 1 to %d", MLF_RECLAIM_MAX_POOL);
		return false;
	}
	h->nr_nodes = nodes;
	h->pool_size = pool;
	return true;
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
};

/* the ranges in the messages above */
_Static_assert(MLF_RECLAIM_MAX_FOLIOS == 512 && MLF_RECLAIM_MAX_PARKED == 4,
	       "update the 'want' strings of fields[]");

static const char *const type_names[] = { "anon", "file" };

/* what each op kind takes, and what it must name */
static const struct {
	unsigned int takes, needs;
} kind_fields[RECLAIM_OP_NR] = {
	[RECLAIM_OP_ONLINE] = { B(F_MEMCG) | B(F_DRAWS), B(F_MEMCG) },
	[RECLAIM_OP_OFFLINE] = { B(F_MEMCG), B(F_MEMCG) },
	[RECLAIM_OP_RELEASE] = { B(F_MEMCG), B(F_MEMCG) },
	[RECLAIM_OP_ADD] = { B(F_MEMCG) | B(F_NODE) | B(F_TYPE) | B(F_ZONE) |
				     B(F_DIRTY) | B(F_WRITEBACK) |
				     B(F_REFERENCED) | B(F_COUNT),
			     B(F_MEMCG) | B(F_NODE) | B(F_TYPE) | B(F_COUNT) },
	[RECLAIM_OP_REFAULT] = { B(F_MEMCG) | B(F_NODE) | B(F_TYPE) |
					 B(F_ZONE) | B(F_DIRTY) |
					 B(F_WRITEBACK) | B(F_REFERENCED) |
					 B(F_COUNT),
				 B(F_MEMCG) | B(F_NODE) | B(F_TYPE) |
					 B(F_COUNT) },
	[RECLAIM_OP_TOUCH] = { B(F_FOLIO), B(F_FOLIO) },
	[RECLAIM_OP_WBDONE] = { B(F_MEMCG), B(F_MEMCG) },
	[RECLAIM_OP_AGE] = { B(F_MEMCG) | B(F_NODE), B(F_MEMCG) | B(F_NODE) },
	[RECLAIM_OP_PROTECT] = { B(F_MEMCG) | B(F_MIN) | B(F_LOW), B(F_MEMCG) },
	[RECLAIM_OP_SWAPPINESS] = { B(F_MEMCG) | B(F_SWAPPINESS),
				    B(F_MEMCG) | B(F_SWAPPINESS) },
	[RECLAIM_OP_RECLAIM] = { B(F_NODE) | B(F_TARGET) | B(F_PRIO) |
					 B(F_KSWAPD) | B(F_DYING) | B(F_DRAWS),
				 B(F_NODE) },
	[RECLAIM_OP_PARK] = { B(F_MEMCG) | B(F_NODE) | B(F_KSWAPD) | B(F_DRAWS),
			      B(F_MEMCG) | B(F_NODE) },
	[RECLAIM_OP_UNPARK] = { B(F_SLOT), B(F_SLOT) },
	[RECLAIM_OP_SHADOW] = { B(F_MEMCG) | B(F_NODE) | B(F_NODES),
				B(F_MEMCG) | B(F_NODE) },
};

/* Which field a token is; F_NR if none. @key gets the key of key=value. */
static enum field classify(const struct token *t, struct token *key)
{
	const char *eq = memchr(t->s, '=', t->len);
	int f;

	if (eq) {
		key->s = t->s;
		key->len = eq - t->s;
		if (tok_is(key, "bin") || tok_is(key, "draw"))
			return F_DRAWS;
		for (f = 0; f < F_NR; f++)
			if (fields[f].style == KEY &&
			    tok_is(key, fields[f].name))
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
	if (tok_is(t, "anon") || tok_is(t, "file"))
		return F_TYPE;
	for (f = 0; f < F_NR; f++)
		if (fields[f].style == WORD && fields[f].name &&
		    tok_is(t, fields[f].name))
			return f;
	return F_NR;
}

static bool parse_draws(struct parser *p, struct mlf_reclaim_op *op,
			const struct token *key, const char *s, size_t len)
{
	const char *kind = mlf_reclaim_op_name(op->kind);
	bool bins = tok_is(key, "bin");
	unsigned long max = bins ? MEMCG_NR_BINS - 1 : 255, v;
	int limit = op->kind == RECLAIM_OP_RECLAIM ? MLF_RECLAIM_MAX_DRAWS : 1;
	char buf[40];
	size_t i = 0;
	int n = 0;

	if (bins && op->kind != RECLAIM_OP_ONLINE) {
		fail(p, "%s takes no 'bin' (its draws are raw: draw=)", kind);
		return false;
	}
	for (;;) {
		size_t start = i;

		while (i < len && s[i] != ',')
			i++;
		if (n == limit) {
			fail(p, "%s takes at most %d draw%s", kind, limit,
			     limit == 1 ? "" : "s");
			return false;
		}
		if (!parse_uint(s + start, i - start, max, &v)) {
			struct token t = { s + start, i - start };

			fail(p, "bad %s value '%s' (want 0 to %lu)",
			     bins ? "bin" : "draw",
			     tok_show(&t, buf, sizeof(buf)), max);
			return false;
		}
		op->draws[n++] = v;
		if (i == len)
			break;
		i++; /* the comma */
	}
	op->nr_draws = n;
	return true;
}

static bool parse_swappiness(struct parser *p, struct mlf_reclaim_op *op,
			     const struct token *t)
{
	unsigned long v;
	char buf[40];
	int i;

	if (parse_uint(t->s, t->len, 1000, &v))
		for (i = 0; i < MLF_RECLAIM_NR_SWAPPINESS; i++)
			if (v == mlf_reclaim_swappiness_values[i]) {
				op->swappiness = v;
				return true;
			}
	fail(p, "bad swappiness value '%s' (want %s)",
	     tok_show(t, buf, sizeof(buf)), fields[F_SWAPPINESS].want);
	return false;
}

/* m<N>, n<N>, z<N>, x<N>, f<N>, p<N> */
static bool parse_prefixed(struct parser *p, const struct mlf_reclaim_header *h,
			   struct mlf_reclaim_op *op, enum field f,
			   const struct token *t)
{
	unsigned long v;
	char buf[40];

	if (!parse_uint(t->s + 1, t->len - 1, 1000000, &v)) {
		fail(p, "bad %s '%s'", fields[f].noun,
		     tok_show(t, buf, sizeof(buf)));
		return false;
	}
	switch (f) {
	case F_MEMCG:
		if (v >= (unsigned long)h->pool_size) {
			fail(p, "%s is outside the pool (%d)",
			     tok_show(t, buf, sizeof(buf)), h->pool_size);
			return false;
		}
		op->memcg = v;
		return true;
	case F_NODE:
		if (v >= (unsigned long)h->nr_nodes) {
			fail(p, "%s is outside the nodes (%d)",
			     tok_show(t, buf, sizeof(buf)), h->nr_nodes);
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
	default:
		if (v > fields[f].max)
			break;
		op->slot = v;
		return true;
	}
	fail(p, "bad %s '%s' (want %s)", fields[f].noun,
	     tok_show(t, buf, sizeof(buf)), fields[f].want);
	return false;
}

static bool parse_key(struct parser *p, struct mlf_reclaim_op *op, enum field f,
		      const struct token *key, const struct token *t)
{
	const char *val = key->s + key->len + 1;
	size_t vlen = t->len - key->len - 1;
	unsigned long v;
	char buf[40];

	if (f == F_DRAWS)
		return parse_draws(p, op, key, val, vlen);
	if (!parse_uint(val, vlen, fields[f].max, &v)) {
		struct token vt = { val, vlen };

		fail(p, "bad %s value '%s' (want 0 to %lu)", fields[f].name,
		     tok_show(&vt, buf, sizeof(buf)), fields[f].max);
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
		op->min = v;
		break;
	case F_LOW:
		op->low = v;
		break;
	default:
		op->nodes = v;
		break;
	}
	return true;
}

static bool parse_op(struct parser *p, const struct token *t, int n,
		     const struct mlf_reclaim_header *h,
		     struct mlf_reclaim_op *op)
{
	unsigned int seen = 0, takes, missing;
	const char *name;
	char buf[40];
	int kind, i;

	memset(op, 0, sizeof(*op));
	for (kind = 0; kind < RECLAIM_OP_NR; kind++)
		if (tok_is(&t[0], mlf_reclaim_op_name(kind)))
			break;
	if (kind == RECLAIM_OP_NR) {
		fail(p, "unknown op '%s'", tok_show(&t[0], buf, sizeof(buf)));
		return false;
	}
	op->kind = kind;
	name = mlf_reclaim_op_name(kind);
	takes = kind_fields[kind].takes;

	for (i = 1; i < n; i++) {
		const struct token *tok = &t[i];
		struct token key = { NULL, 0 };
		enum field f = classify(tok, &key);

		if (f == F_NR) {
			fail(p, "unknown field '%s' in %s",
			     tok_show(key.s ? &key : tok, buf, sizeof(buf)),
			     name);
			return false;
		}
		if (!(takes & B(f))) {
			fail(p, "%s takes no '%s'", name,
			     tok_show(key.s ? &key : tok, buf, sizeof(buf)));
			return false;
		}
		if (seen & B(f)) {
			if (f == F_TYPE)
				fail(p, "'%s' after '%s': one type only",
				     tok_show(tok, buf, sizeof(buf)),
				     type_names[op->type]);
			else if (fields[f].style == PREFIX ||
				 fields[f].style == NUMBER)
				fail(p, "more than one %s", fields[f].noun);
			else
				fail(p, "'%s' given twice",
				     tok_show(key.s ? &key : tok, buf,
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
			if (!parse_key(p, op, f, &key, tok))
				return false;
			break;
		case WORD:
			if (f == F_TYPE)
				op->type = tok_is(tok, "file");
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

		fail(p, "%s needs a %s (%s)", name, fields[f].noun,
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
	struct parser p = { .err = err, .line = 0 };
	struct token toks[MAX_FIELDS];
	bool have_header = false;
	size_t pos = 0;
	long n = 0;

	memset(err, 0, sizeof(*err));
	if (cap > MLF_RECLAIM_MAX_OPS)
		cap = MLF_RECLAIM_MAX_OPS;
	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t llen = nl ? (size_t)(nl - line) : len - pos;
		int nt;

		pos += llen + (nl != NULL);
		p.line++;
		if (line_is(line, llen, MLF_TRACE_MAGIC)) {
			fail(&p,
			     "a memcg_lru trace ('%s'), not a reclaim trace",
			     MLF_TRACE_MAGIC);
			return -1;
		}
		nt = tokenize(line, llen, toks);
		if (nt < 0) {
			fail(&p, "more than %d fields", MAX_FIELDS);
			return -1;
		}
		if (!nt)
			continue;
		if (!have_header) {
			if (!parse_header(&p, toks, nt, h))
				return -1;
			have_header = true;
			continue;
		}
		if (tok_is(&toks[0], "nodes")) {
			fail(&p, "a second header");
			return -1;
		}
		if ((size_t)n == cap) {
			fail(&p, "more than %zu ops", cap);
			return -1;
		}
		if (!parse_op(&p, toks, nt, h, &ops[n]))
			return -1;
		n++;
	}
	if (!have_header) {
		err->line = 0;
		snprintf(err->what, sizeof(err->what),
			 "no header 'nodes N pool P'");
		snprintf(err->msg, sizeof(err->msg), "trace: %s", err->what);
		return -1;
	}
	return n;
}
