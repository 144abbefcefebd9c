/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lexing the trace parsers share (memcg_lru_trace.c for memcg_lru, reclaim_trace.c
 * for reclaim, concurrent_trace.c for concurrent): lines, tokens, numbers and
 * draw lists, the header line 'nodes N pool P', the magic lines that tell
 * the targets' traces apart, and the one-line error that names the bad
 * line. What an op line means is each parser's own.
 */
#ifndef _MLF_FUZZ_TRACE_LEX_H
#define _MLF_FUZZ_TRACE_LEX_H

#include <stdbool.h>
#include <stddef.h>

/* the most tokens a line may have */
#define MLF_TRACE_MAX_FIELDS 16

struct mlf_trace_error {
	int line; /* 1-based; 0 when not tied to a line */
	char what[200]; /* what is wrong, one line */
	char msg[256]; /* "trace:LINE: " + what */
};

/* a word of a line: @len bytes at @s, not NUL-terminated */
struct mlf_token {
	const char *s;
	size_t len;
};

/* What a trace of one target may hold, beyond its op lines. */
struct mlf_trace_format {
	int max_nodes; /* the header's bounds: 1 .. max */
	int max_pool;
	size_t max_ops; /* caps the caller's cap */
	/*
	 * The target whose trace this is ("memcg_lru"): a line that is
	 * another target's magic line (fuzz/targets.json; trailing blanks
	 * allowed) is an error wherever it appears.
	 */
	const char *target;
};

/* A parse in progress: mlf_trace_begin(), then mlf_trace_next_op(). */
struct mlf_trace_parser {
	struct mlf_trace_error *err;
	int line; /* the current line, 1-based */
	struct mlf_token toks[MLF_TRACE_MAX_FIELDS]; /* its tokens */
	/* the rest is mlf_trace_next_op()'s */
	const struct mlf_trace_format *f;
	const char *text;
	size_t len, pos;
	size_t cap, nr_ops;
	int *nr_nodes, *pool_size;
	bool have_header;
};

/*
 * Start parsing @len bytes of @text (no NUL needed) as a trace of format
 * @f with at most @cap ops: clears @err; the header line will go to
 * @nr_nodes and @pool_size.
 */
void mlf_trace_begin(struct mlf_trace_parser *p,
		     const struct mlf_trace_format *f, const char *text,
		     size_t len, size_t cap, int *nr_nodes, int *pool_size,
		     struct mlf_trace_error *err);

/*
 * Read on to the next op line; the header line and lines without tokens
 * (blank, comments) are taken on the way. Returns how many tokens it has
 * (in p->toks), 0 at the end of a good text, or -1 with the error filled:
 * too many tokens on a line, a bad, missing or second header, more than
 * the cap of op lines, or another target's magic line.
 */
int mlf_trace_next_op(struct mlf_trace_parser *p);

/* Fill the error for the current line. */
__attribute__((format(printf, 2, 3))) void
mlf_trace_fail(struct mlf_trace_parser *p, const char *fmt, ...);

/*
 * @t is the string @word. By hand, and inline: strlen() and memcmp() go
 * through ASan's interceptors and libFuzzer's memcmp hook, and the trace
 * round trip of memcg_lru compares every token of every input with the
 * names of the ops, one after another.
 */
static inline bool mlf_token_is(const struct mlf_token *t, const char *word)
{
	size_t i;

	for (i = 0; i < t->len; i++)
		if (!word[i] || word[i] != t->s[i])
			return false;
	return !word[t->len];
}

/*
 * The first @c in @len bytes at @s, or NULL: memchr() by hand, for
 * memchr() goes through ASan's interceptor, and the trace round trip of
 * memcg_lru looks for every line's end and every token's '='.
 */
static inline const char *mlf_trace_find(const char *s, size_t len, char c)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] == c)
			return s + i;
	return NULL;
}

/*
 * A token quoted in a message, in @buf: cut long ones, never print raw
 * control bytes.
 */
const char *mlf_token_show(const struct mlf_token *t, char *buf, size_t size);

/* Decimal, no sign, at most @max. */
bool mlf_trace_parse_uint(const char *s, size_t len, unsigned long max,
			  unsigned long *val);

/* @s (@len bytes) is @line once trailing blanks are cut */
bool mlf_trace_line_is(const char *s, size_t len, const char *line);

/*
 * The target whose magic line (fuzz/targets.json) @len bytes of text
 * begin with, among the comments and blank lines before their first
 * other line; NULL if none.
 */
const char *mlf_trace_target_of(const char *text, size_t len);

/*
 * The value of bin= or draw= (@bins: which), a comma-separated list of
 * numbers 0 to @max, for an op named @kind that takes at most @limit of
 * them. Returns how many it wrote to @draws, or -1 after an error.
 */
int mlf_trace_parse_draws(struct mlf_trace_parser *p, const char *kind,
			  bool bins, int limit, unsigned long max,
			  const char *s, size_t len, unsigned char *draws);

#endif
