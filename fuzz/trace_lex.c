// SPDX-License-Identifier: GPL-2.0
/*
 * The lexing the trace parsers share (trace_lex.h): splitting the text
 * into lines and tokens, the header line, numbers and draw lists, the
 * targets' magic lines, and the error messages for them, worded the same
 * for every target.
 */
#include "trace_lex.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mlf_targets.h" /* generated from fuzz/targets.json */

/* every traced target's magic line */
static const struct {
	const char *target, *magic;
} magics[] = {
#define MLF_MAGIC_ENTRY(t, m) { t, m },
	MLF_TRACE_MAGIC_LIST(MLF_MAGIC_ENTRY)
#undef MLF_MAGIC_ENTRY
};

void mlf_trace_fail(struct mlf_trace_parser *p, const char *fmt, ...)
{
	va_list ap;

	p->err->line = p->line;
	va_start(ap, fmt);
	vsnprintf(p->err->what, sizeof(p->err->what), fmt, ap);
	va_end(ap);
	snprintf(p->err->msg, sizeof(p->err->msg), "trace:%d: %s", p->line,
		 p->err->what);
}

const char *mlf_token_show(const struct mlf_token *t, char *buf, size_t size)
{
	size_t i, n = t->len < size - 4 ? t->len : size - 4;

	for (i = 0; i < n; i++)
		buf[i] = t->s[i] >= 0x20 && t->s[i] < 0x7f ? t->s[i] : '?';
	if (n < t->len)
		buf[n++] = '.', buf[n++] = '.', buf[n++] = '.';
	buf[n] = '\0';
	return buf;
}

bool mlf_trace_parse_uint(const char *s, size_t len, unsigned long max,
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

bool mlf_trace_line_is(const char *s, size_t len, const char *line)
{
	size_t i;

	/* most lines differ at once: compare before looking for spaces */
	for (i = 0; line[i]; i++)
		if (i == len || s[i] != line[i])
			return false;
	for (; i < len; i++)
		if (!is_space(s[i]))
			return false;
	return true;
}

const char *mlf_trace_target_of(const char *text, size_t len)
{
	while (len) {
		const char *nl = memchr(text, '\n', len);
		size_t llen = nl ? (size_t)(nl - text) : len, i = 0, k;

		for (k = 0; k < sizeof(magics) / sizeof(magics[0]); k++)
			if (mlf_trace_line_is(text, llen, magics[k].magic))
				return magics[k].target;
		while (i < llen && is_space(text[i]))
			i++;
		if (i < llen && text[i] != '#')
			return NULL; /* the header or an op: no magic */
		if (!nl)
			break;
		len -= llen + 1;
		text = nl + 1;
	}
	return NULL;
}

/* Another target's magic line: which, or NULL. */
static const char *foreign_magic(const struct mlf_trace_format *f,
				 const char *s, size_t len, const char **magic)
{
	size_t k;

	for (k = 0; k < sizeof(magics) / sizeof(magics[0]); k++)
		if (mlf_trace_line_is(s, len, magics[k].magic) &&
		    strcmp(magics[k].target, f->target)) {
			*magic = magics[k].magic;
			return magics[k].target;
		}
	return NULL;
}

/* Split one line (comment cut off) into tokens; -1 if there are too many. */
static int tokenize(const char *s, size_t len, struct mlf_token *toks)
{
	size_t i = 0;
	int n = 0;

	while (i < len) {
		size_t start;

		while (i < len && is_space(s[i]))
			i++;
		if (i == len || s[i] == '#')
			break;
		if (n == MLF_TRACE_MAX_FIELDS)
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

/* 'nodes N pool P', within the format's bounds */
static bool parse_header(struct mlf_trace_parser *p, int n)
{
	const struct mlf_token *t = p->toks;
	unsigned long nodes, pool;

	if (n != 4 || !mlf_token_is(&t[0], "nodes") ||
	    !mlf_token_is(&t[2], "pool")) {
		mlf_trace_fail(
			p,
			"expected the header 'nodes N pool P' before the first op");
		return false;
	}
	if (!mlf_trace_parse_uint(t[1].s, t[1].len, 1000000, &nodes) ||
	    !nodes || nodes > (unsigned long)p->f->max_nodes) {
		mlf_trace_fail(p, "nodes must be 1 to %d", p->f->max_nodes);
		return false;
	}
	if (!mlf_trace_parse_uint(t[3].s, t[3].len, 1000000, &pool) || !pool ||
	    pool > (unsigned long)p->f->max_pool) {
		mlf_trace_fail(p, "pool must be 1 to %d", p->f->max_pool);
		return false;
	}
	*p->nr_nodes = nodes;
	*p->pool_size = pool;
	return true;
}

void mlf_trace_begin(struct mlf_trace_parser *p,
		     const struct mlf_trace_format *f, const char *text,
		     size_t len, size_t cap, int *nr_nodes, int *pool_size,
		     struct mlf_trace_error *err)
{
	memset(p, 0, sizeof(*p));
	memset(err, 0, sizeof(*err));
	p->err = err;
	p->f = f;
	p->text = text;
	p->len = len;
	p->cap = cap < f->max_ops ? cap : f->max_ops;
	p->nr_nodes = nr_nodes;
	p->pool_size = pool_size;
}

int mlf_trace_next_op(struct mlf_trace_parser *p)
{
	while (p->pos < p->len) {
		const char *line = p->text + p->pos;
		const char *nl = mlf_trace_find(line, p->len - p->pos, '\n');
		size_t llen = nl ? (size_t)(nl - line) : p->len - p->pos;
		const char *foreign, *magic;
		int nt;

		p->pos += llen + (nl != NULL);
		p->line++;
		foreign = foreign_magic(p->f, line, llen, &magic);
		if (foreign) {
			mlf_trace_fail(p, "a %s trace ('%s'), not a %s trace",
				       foreign, magic, p->f->target);
			return -1;
		}
		nt = tokenize(line, llen, p->toks);
		if (nt < 0) {
			mlf_trace_fail(p, "more than %d fields",
				       MLF_TRACE_MAX_FIELDS);
			return -1;
		}
		if (!nt)
			continue;
		if (!p->have_header) {
			if (!parse_header(p, nt))
				return -1;
			p->have_header = true;
			continue;
		}
		if (mlf_token_is(&p->toks[0], "nodes")) {
			mlf_trace_fail(p, "a second header");
			return -1;
		}
		if (p->nr_ops == p->cap) {
			mlf_trace_fail(p, "more than %zu ops", p->cap);
			return -1;
		}
		p->nr_ops++;
		return nt;
	}
	if (!p->have_header) {
		p->err->line = 0;
		snprintf(p->err->what, sizeof(p->err->what),
			 "no header 'nodes N pool P'");
		snprintf(p->err->msg, sizeof(p->err->msg), "trace: %s",
			 p->err->what);
		return -1;
	}
	return 0;
}

int mlf_trace_parse_draws(struct mlf_trace_parser *p, const char *kind,
			  bool bins, int limit, unsigned long max,
			  const char *s, size_t len, unsigned char *draws)
{
	char buf[40];
	size_t i = 0;
	int n = 0;

	for (;;) {
		size_t start = i;
		unsigned long v;

		while (i < len && s[i] != ',')
			i++;
		if (n == limit) {
			mlf_trace_fail(p, "%s takes at most %d draw%s", kind,
				       limit, limit == 1 ? "" : "s");
			return -1;
		}
		if (!mlf_trace_parse_uint(s + start, i - start, max, &v)) {
			struct mlf_token t = { s + start, i - start };

			mlf_trace_fail(p, "bad %s value '%s' (want 0 to %lu)",
				       bins ? "bin" : "draw",
				       mlf_token_show(&t, buf, sizeof(buf)),
				       max);
			return -1;
		}
		draws[n++] = v;
		if (i == len)
			break;
		i++; /* the comma */
	}
	return n;
}
