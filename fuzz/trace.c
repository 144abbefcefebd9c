// SPDX-License-Identifier: GPL-2.0
/*
 * Printing and parsing traces. The printer emits one canonical form; the
 * parser accepts it plus a few conveniences (key order, omitted zero
 * fields, bin= and draw= spellings) and rejects anything else with one
 * message naming the line, so a hand-edited reproducer never silently
 * means something other than what it says.
 */
#include "trace.h"

#include <stdarg.h>
#include <string.h>

#include "mm/mmzone.h"

#define MAX_FIELDS 16

static const char *const kind_names[MLF_OP_NR] = {
	[MLF_OP_ONLINE] = "online",   [MLF_OP_OFFLINE] = "offline",
	[MLF_OP_GET] = "get",	      [MLF_OP_PUT] = "put",
	[MLF_OP_RELEASE] = "release", [MLF_OP_ROTATE] = "rotate",
	[MLF_OP_SOFT] = "soft",	      [MLF_OP_SET] = "set",
	[MLF_OP_RECLAIM] = "reclaim",
};

static const char *const rotate_names[] = {
	[MEMCG_LRU_HEAD] = "HEAD",
	[MEMCG_LRU_TAIL] = "TAIL",
	[MEMCG_LRU_OLD] = "OLD",
	[MEMCG_LRU_YOUNG] = "YOUNG",
};

/* ---- printing ---- */

/* bin=N reads better; a draw byte of 8 or more must stay raw to round-trip */
static void print_draws(FILE *out, const struct mlf_op *op, bool list)
{
	bool small = true;
	int i;

	if (!op->nr_draws)
		return;
	for (i = 0; i < op->nr_draws; i++)
		small &= op->draws[i] < MEMCG_NR_BINS;
	if (small && op->kind != MLF_OP_RECLAIM)
		fprintf(out, " %s=", list ? "bins" : "bin");
	else
		fprintf(out, " %s=", list ? "draws" : "draw");
	for (i = 0; i < op->nr_draws; i++)
		fprintf(out, "%s%u", i ? "," : "", op->draws[i]);
}

void mlf_trace_print_header(FILE *out, const struct mlf_header *h)
{
	fprintf(out, "nodes %d pool %d\n", h->nr_nodes, h->pool_size);
}

void mlf_trace_print_op(FILE *out, const struct mlf_header *h,
			const struct mlf_op *op)
{
	int kind = op->kind < MLF_OP_NR ? op->kind : MLF_OP_GET;

	fputs(kind_names[kind], out);
	if (kind != MLF_OP_RECLAIM)
		fprintf(out, " m%u", op->memcg);
	switch (kind) {
	case MLF_OP_ONLINE:
		print_draws(out, op, false);
		break;
	case MLF_OP_OFFLINE:
		print_draws(out, op, true);
		break;
	case MLF_OP_ROTATE:
		fprintf(out, " n%u %s", op->node,
			op->rotate_op >= MEMCG_LRU_HEAD &&
					op->rotate_op <= MEMCG_LRU_YOUNG ?
				rotate_names[op->rotate_op] :
				"?");
		print_draws(out, op, false);
		break;
	case MLF_OP_SOFT:
		fprintf(out, " n%u%s", op->node, op->softirq ? " softirq" : "");
		print_draws(out, op, false);
		break;
	case MLF_OP_SET:
		fprintf(out, " min=%u low=%u success=%u sizable=%u reclaim=%u",
			op->below_min, op->below_low, op->success, op->sizable,
			op->nr_reclaimed);
		break;
	case MLF_OP_RECLAIM:
		fprintf(out, " n%u target=%u", op->node, op->target);
		print_draws(out, op, true);
		break;
	default:
		break;
	}
}

void mlf_trace_print(FILE *out, const struct mlf_header *h,
		     const struct mlf_op *ops, size_t n)
{
	size_t i;

	fputs(MLF_TRACE_MAGIC "\n", out);
	mlf_trace_print_header(out, h);
	for (i = 0; i < n; i++) {
		mlf_trace_print_op(out, h, &ops[i]);
		fputc('\n', out);
	}
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

__attribute__((format(printf, 2, 3))) static void
fail(struct parser *p, const char *fmt, ...)
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

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
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
			 struct mlf_header *h)
{
	unsigned long nodes, pool;

	if (n != 4 || !tok_is(&t[0], "nodes") || !tok_is(&t[2], "pool")) {
		fail(p, "expected the header 'nodes N pool P' before the first op");
		return false;
	}
	if (!parse_uint(t[1].s, t[1].len, 1000000, &nodes) || !nodes ||
	    nodes > MLF_FUZZ_MAX_NODES) {
		fail(p, "nodes must be 1 to %d", MLF_FUZZ_MAX_NODES);
		return false;
	}
	if (!parse_uint(t[3].s, t[3].len, 1000000, &pool) || !pool ||
	    pool > MLF_FUZZ_MAX_POOL) {
		fail(p, "pool must be 1 to %d", MLF_FUZZ_MAX_POOL);
		return false;
	}
	h->nr_nodes = nodes;
	h->pool_size = pool;
	return true;
}

/* What an op kind takes; every other field is an error. */
#define F_MEMCG 0x01
#define F_NODE 0x02
#define F_ROTATE 0x04
#define F_SOFTIRQ 0x08
#define F_DRAWS 0x10
#define F_SET 0x20
#define F_TARGET 0x40

static const unsigned int kind_fields[MLF_OP_NR] = {
	[MLF_OP_ONLINE] = F_MEMCG | F_DRAWS,
	[MLF_OP_OFFLINE] = F_MEMCG | F_DRAWS,
	[MLF_OP_GET] = F_MEMCG,
	[MLF_OP_PUT] = F_MEMCG,
	[MLF_OP_RELEASE] = F_MEMCG,
	[MLF_OP_ROTATE] = F_MEMCG | F_NODE | F_ROTATE | F_DRAWS,
	[MLF_OP_SOFT] = F_MEMCG | F_NODE | F_SOFTIRQ | F_DRAWS,
	[MLF_OP_SET] = F_MEMCG | F_SET,
	[MLF_OP_RECLAIM] = F_NODE | F_TARGET | F_DRAWS,
};

static const char *const set_keys[] = { "min", "low", "success", "sizable",
					"reclaim" };

static u8 *set_field(struct mlf_op *op, int i)
{
	u8 *fields[] = { &op->below_min, &op->below_low, &op->success,
			 &op->sizable, &op->nr_reclaimed };

	return fields[i];
}

/* How many draws an op of this kind may carry in a trace. */
static int max_draws(const struct mlf_header *h, int kind)
{
	if (kind == MLF_OP_OFFLINE)
		return h->nr_nodes;
	if (kind == MLF_OP_RECLAIM)
		return MLF_OP_MAX_DRAWS;
	return 1;
}

static bool parse_draws(struct parser *p, const struct mlf_header *h,
			struct mlf_op *op, const struct token *key,
			const char *s, size_t len)
{
	bool bins = key->s[0] == 'b';
	unsigned long max = bins ? MEMCG_NR_BINS - 1 : 255;
	int limit = max_draws(h, op->kind);
	char buf[40];
	size_t i = 0;
	int n = 0;

	for (;;) {
		size_t start = i;
		unsigned long v;

		while (i < len && s[i] != ',')
			i++;
		if (n == limit) {
			fail(p, "%s takes at most %d draw%s", kind_names[op->kind],
			     limit, limit == 1 ? "" : "s");
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
		i++;	/* the comma */
	}
	op->nr_draws = n;
	return true;
}

static bool parse_op(struct parser *p, const struct token *t, int n,
		     const struct mlf_header *h, struct mlf_op *op)
{
	unsigned int seen = 0, fields, set_seen = 0;
	char buf[40];
	int kind, i, j;

	memset(op, 0, sizeof(*op));
	for (kind = 0; kind < MLF_OP_NR; kind++)
		if (tok_is(&t[0], kind_names[kind]))
			break;
	if (kind == MLF_OP_NR) {
		fail(p, "unknown op '%s'", tok_show(&t[0], buf, sizeof(buf)));
		return false;
	}
	op->kind = kind;
	fields = kind_fields[kind];

	for (i = 1; i < n; i++) {
		const struct token *tok = &t[i];
		const char *eq = memchr(tok->s, '=', tok->len);
		unsigned int field = 0;
		unsigned long v;

		if (eq) {
			struct token key = { tok->s, eq - tok->s };
			const char *val = eq + 1;
			size_t vlen = tok->len - key.len - 1;

			if (tok_is(&key, "bin") || tok_is(&key, "bins") ||
			    tok_is(&key, "draw") || tok_is(&key, "draws")) {
				field = F_DRAWS;
			} else if (tok_is(&key, "target")) {
				field = F_TARGET;
			} else {
				for (j = 0; j < 5; j++)
					if (tok_is(&key, set_keys[j]))
						field = F_SET;
				if (!field) {
					fail(p, "unknown field '%s' in %s",
					     tok_show(&key, buf, sizeof(buf)),
					     kind_names[kind]);
					return false;
				}
			}
			if (!(fields & field)) {
				fail(p, "%s takes no '%s'", kind_names[kind],
				     tok_show(&key, buf, sizeof(buf)));
				return false;
			}
			if (field == F_SET) {
				for (j = 0; !tok_is(&key, set_keys[j]); j++)
					;
				if (set_seen & 1u << j) {
					fail(p, "'%s' given twice", set_keys[j]);
					return false;
				}
				set_seen |= 1u << j;
				v = j == 4 ? MLF_SET_NR_RECLAIMED_MAX : 1;
				if (!parse_uint(val, vlen, v, &v)) {
					struct token vt = { val, vlen };

					fail(p, "bad %s value '%s' (want 0 to %u)",
					     set_keys[j],
					     tok_show(&vt, buf, sizeof(buf)),
					     j == 4 ? MLF_SET_NR_RECLAIMED_MAX : 1);
					return false;
				}
				*set_field(op, j) = v;
				continue;
			}
			if (seen & field) {
				fail(p, "'%s' given twice",
				     tok_show(&key, buf, sizeof(buf)));
				return false;
			}
			seen |= field;
			if (field == F_DRAWS) {
				if (!parse_draws(p, h, op, &key, val, vlen))
					return false;
				continue;
			}
			if (!parse_uint(val, vlen, 255, &v)) {
				struct token vt = { val, vlen };

				fail(p, "bad target '%s' (want 0 to 255)",
				     tok_show(&vt, buf, sizeof(buf)));
				return false;
			}
			op->target = v;
			continue;
		}

		if (tok->len > 1 && (tok->s[0] == 'm' || tok->s[0] == 'n') &&
		    tok->s[1] >= '0' && tok->s[1] <= '9') {
			bool memcg = tok->s[0] == 'm';

			field = memcg ? F_MEMCG : F_NODE;
			if (!(fields & field)) {
				fail(p, "%s takes no %s", kind_names[kind],
				     memcg ? "memcg" : "node");
				return false;
			}
			if (seen & field) {
				fail(p, "more than one %s",
				     memcg ? "memcg" : "node");
				return false;
			}
			seen |= field;
			if (!parse_uint(tok->s + 1, tok->len - 1, 1000000, &v)) {
				fail(p, "bad %s '%s'", memcg ? "memcg" : "node",
				     tok_show(tok, buf, sizeof(buf)));
				return false;
			}
			if (memcg && v >= h->pool_size) {
				fail(p, "%s is outside the pool (%d)",
				     tok_show(tok, buf, sizeof(buf)),
				     h->pool_size);
				return false;
			}
			if (!memcg && v >= h->nr_nodes) {
				fail(p, "%s is outside the nodes (%d)",
				     tok_show(tok, buf, sizeof(buf)),
				     h->nr_nodes);
				return false;
			}
			if (memcg)
				op->memcg = v;
			else
				op->node = v;
			continue;
		}

		if (tok_is(tok, "softirq")) {
			field = F_SOFTIRQ;
		} else {
			for (j = MEMCG_LRU_HEAD; j <= MEMCG_LRU_YOUNG; j++)
				if (tok_is(tok, rotate_names[j]))
					field = F_ROTATE;
		}
		if (!field) {
			fail(p, "unknown field '%s' in %s",
			     tok_show(tok, buf, sizeof(buf)), kind_names[kind]);
			return false;
		}
		if (!(fields & field)) {
			fail(p, "%s takes no '%s'", kind_names[kind],
			     tok_show(tok, buf, sizeof(buf)));
			return false;
		}
		if (seen & field) {
			fail(p, "'%s' after '%s': one %s only",
			     tok_show(tok, buf, sizeof(buf)),
			     field == F_SOFTIRQ ? "softirq" :
						  rotate_names[op->rotate_op],
			     field == F_SOFTIRQ ? "softirq" : "rotation");
			return false;
		}
		seen |= field;
		if (field == F_SOFTIRQ) {
			op->softirq = 1;
		} else {
			for (j = MEMCG_LRU_HEAD; !tok_is(tok, rotate_names[j]);
			     j++)
				;
			op->rotate_op = j;
		}
	}

	/* what a line must say; draws and flags default to zero */
	fields &= F_MEMCG | F_NODE | F_ROTATE;
	if (fields & ~seen) {
		unsigned int missing = fields & ~seen;

		fail(p, "%s needs %s", kind_names[kind],
		     missing & F_MEMCG	? "a memcg (m<N>)" :
		     missing & F_NODE	? "a node (n<N>)" :
					  "a rotation (HEAD, TAIL, OLD or YOUNG)");
		return false;
	}
	/* the bytes always carry these draws; missing ones read as zero */
	if (kind != MLF_OP_RECLAIM)
		op->nr_draws = max_draws(h, kind) * !!(kind_fields[kind] & F_DRAWS);
	return true;
}

long mlf_trace_parse(const char *text, size_t len, struct mlf_header *h,
		     struct mlf_op *ops, size_t cap,
		     struct mlf_trace_error *err)
{
	struct parser p = { .err = err, .line = 0 };
	struct token toks[MAX_FIELDS];
	bool have_header = false;
	size_t pos = 0;
	long n = 0;

	memset(err, 0, sizeof(*err));
	if (cap > MLF_FUZZ_MAX_OPS)
		cap = MLF_FUZZ_MAX_OPS;
	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t llen = nl ? (size_t)(nl - line) : len - pos;
		int nt;

		pos += llen + (nl != NULL);
		p.line++;
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
		if (n == cap) {
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
