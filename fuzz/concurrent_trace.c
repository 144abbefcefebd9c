// SPDX-License-Identifier: GPL-2.0
/*
 * Printing and parsing concurrent traces (concurrent_trace.h). The printer
 * writes one canonical form; the parser accepts it plus a few conveniences
 * (operands in any order, omitted flags, bin and target absent) and
 * rejects, with one message naming the line, whatever the byte format
 * cannot carry (a value out of range, an op its task cannot run, a task
 * beyond the run line's, a switch under PCT), so that a hand-edited
 * reproducer never silently means something other than what it says. The
 * op names are the engine's (sched_op_name()) and the rotations the
 * port's (check/op.h), from the port library every program linking this
 * one links after it.
 */
#include "concurrent_trace.h"

#include <string.h>

#include "check/op.h"
#include "mm/mmzone.h"

static const char *const policy_names[] = {
	[MLF_SCHED_INPUT] = "input",
	[MLF_SCHED_PCT] = "pct",
};

/* the shrink flags of online and set, as words (their bits in order) */
static const char *const flag_names[] = { "min", "low", "success",
					  "sizable" };

#define MAX_SEED 0xffffffu /* 3 bytes */
#define MAX_DELAY 1024u /* 1 + 255 + 256 * 3 */
#define MAX_RECLAIMED 15 /* the flags' high nibble */

/* ---- printing ---- */

void mlf_sched_trace_print_run(FILE *out, const struct sched_input *in)
{
	fprintf(out, "run writers=%d readers=%d initial=%d policy=%s seed=%u",
		in->nr_writers, in->nr_readers, in->nr_initial,
		in->policy == MLF_SCHED_PCT ? "pct" : "input", in->seed);
}

static void print_flags(FILE *out, u8 flags)
{
	unsigned int b;

	for (b = 0; b < ARRAY_SIZE(flag_names); b++)
		if (flags & (1u << b))
			fprintf(out, " %s", flag_names[b]);
	if (flags >> 4)
		fprintf(out, " reclaimed=%u", flags >> 4);
}

void mlf_sched_trace_print_op(FILE *out, const struct sched_input *in, int i)
{
	const struct sched_op *op = &in->ops[i];

	fprintf(out, "t%u %s", op->task, sched_op_name(op->kind));
	switch (op->kind) {
	case SOP_ONLINE:
		fprintf(out, " m%u", op->slot);
		print_flags(out, op->arg);
		break;
	case SOP_SET:
		fprintf(out, " m%u", op->slot);
		print_flags(out, op->arg);
		break;
	case SOP_ROTATE:
		fprintf(out, " m%u n%u %s", op->slot, op->node,
			mlf_rotate_op_name(mlf_rotation(op->arg % MLF_NR_ROTATIONS)));
		break;
	case SOP_SOFT:
		fprintf(out, " m%u n%u%s", op->slot, op->node,
			op->arg & 1 ? " softirq" : "");
		break;
	case SOP_RECLAIM:
		fprintf(out, " n%u target=%u", op->node, op->target);
		break;
	case SOP_DROP:
		break;
	default: /* offline, release, hold */
		fprintf(out, " m%u", op->slot);
		break;
	}
	if (op->bin)
		fprintf(out, " bin=%u", op->bin - 1);
}

void mlf_sched_trace_print_decision(FILE *out, const struct sched_input *in,
				    int i)
{
	const struct mlf_sched_decision *d = &in->decisions[i];

	if (in->policy == MLF_SCHED_PCT) {
		fprintf(out, "change after=%u", d->delay);
		return;
	}
	fprintf(out, "switch after=%u to=", d->delay);
	if (d->task == in->nr_writers + in->nr_readers)
		fputs("rcu", out);
	else
		fprintf(out, "t%u", d->task);
}

void mlf_sched_trace_print_weak(FILE *out, const struct sched_input *in,
				int i)
{
	fprintf(out, "weak after=%u back=%u", in->weak[i].delay,
		in->weak[i].back);
}

void mlf_sched_trace_print(FILE *out, const struct sched_input *in)
{
	int i;

	fputs(MLF_SCHED_TRACE_MAGIC "\n", out);
	fprintf(out, "nodes %d pool %d\n", in->nr_nodes, in->pool_size);
	mlf_sched_trace_print_run(out, in);
	fputc('\n', out);
	for (i = 0; i < in->nr_ops; i++) {
		mlf_sched_trace_print_op(out, in, i);
		fputc('\n', out);
	}
	for (i = 0; i < in->nr_decisions; i++) {
		mlf_sched_trace_print_decision(out, in, i);
		fputc('\n', out);
	}
	for (i = 0; i < in->nr_weak; i++) {
		mlf_sched_trace_print_weak(out, in, i);
		fputc('\n', out);
	}
}

bool mlf_sched_trace_is(const char *text, size_t len)
{
	const char *target = mlf_trace_target_of(text, len);

	return target && !strcmp(target, "concurrent");
}

bool mlf_sched_input_equal(const struct sched_input *a,
			   const struct sched_input *b)
{
	int i;

	if (a->nr_nodes != b->nr_nodes || a->pool_size != b->pool_size ||
	    a->nr_writers != b->nr_writers || a->nr_readers != b->nr_readers ||
	    a->nr_initial != b->nr_initial || a->policy != b->policy ||
	    a->seed != b->seed || a->nr_ops != b->nr_ops ||
	    a->nr_decisions != b->nr_decisions || a->nr_weak != b->nr_weak)
		return false;
	for (i = 0; i < a->nr_weak; i++)
		if (a->weak[i].delay != b->weak[i].delay ||
		    a->weak[i].back != b->weak[i].back)
			return false;
	for (i = 0; i < a->nr_ops; i++) {
		const struct sched_op *x = &a->ops[i], *y = &b->ops[i];

		if (x->task != y->task || x->kind != y->kind ||
		    x->slot != y->slot || x->node != y->node ||
		    x->arg != y->arg || x->target != y->target ||
		    x->bin != y->bin)
			return false;
	}
	for (i = 0; i < a->nr_decisions; i++)
		if (a->decisions[i].delay != b->decisions[i].delay ||
		    a->decisions[i].task != b->decisions[i].task)
			return false;
	return true;
}

/* ---- parsing (the lexing: trace_lex.c) ---- */

/* key=value: @key's value as a number 0 to @max; false after an error */
static bool key_value(struct mlf_trace_parser *p, const struct mlf_token *t,
		      size_t klen, unsigned long min, unsigned long max,
		      unsigned long *v)
{
	struct mlf_token key = { t->s, klen };
	struct mlf_token val = { t->s + klen + 1, t->len - klen - 1 };
	char kbuf[40], vbuf[40];

	if (mlf_trace_parse_uint(val.s, val.len, max, v) && *v >= min)
		return true;
	mlf_trace_fail(p, "bad %s value '%s' (want %lu to %lu)",
		       mlf_token_show(&key, kbuf, sizeof(kbuf)),
		       mlf_token_show(&val, vbuf, sizeof(vbuf)), min, max);
	return false;
}

/* the length of the key of key=value, or 0 if @t has no '=' */
static size_t key_len(const struct mlf_token *t)
{
	const char *eq = memchr(t->s, '=', t->len);

	return eq ? (size_t)(eq - t->s) : 0;
}

static bool key_is(const struct mlf_token *t, size_t klen, const char *key)
{
	struct mlf_token k = { t->s, klen };

	return klen && mlf_token_is(&k, key);
}

/* a prefix and a number below @limit: m3, n1, t2 */
static bool prefixed(struct mlf_trace_parser *p, const struct mlf_token *t,
		     const char *noun, unsigned long limit, const char *what,
		     unsigned long *v)
{
	char buf[40];

	if (!mlf_trace_parse_uint(t->s + 1, t->len - 1, 1000000, v)) {
		mlf_trace_fail(p, "bad %s '%s'", noun,
			       mlf_token_show(t, buf, sizeof(buf)));
		return false;
	}
	if (*v < limit)
		return true;
	mlf_trace_fail(p, "%s is outside the %s (%lu)",
		       mlf_token_show(t, buf, sizeof(buf)), what, limit);
	return false;
}

static bool is_prefixed(const struct mlf_token *t, char c)
{
	return t->len > 1 && t->s[0] == c && t->s[1] >= '0' && t->s[1] <= '9';
}

/* 'run writers=W readers=R initial=I policy=P seed=S', any order */
static bool parse_run(struct mlf_trace_parser *p, const struct mlf_token *t,
		      int n, struct sched_input *in)
{
	static const char *const keys[] = { "writers", "readers", "initial",
					    "policy", "seed" };
	unsigned int seen = 0;
	unsigned long v;
	char buf[40];
	int i;

	in->nr_writers = 1;
	in->nr_readers = 1;
	for (i = 1; i < n; i++) {
		size_t klen = key_len(&t[i]);
		unsigned int k;

		for (k = 0; k < ARRAY_SIZE(keys); k++)
			if (key_is(&t[i], klen, keys[k]))
				break;
		if (k == ARRAY_SIZE(keys)) {
			struct mlf_token key = { t[i].s, klen ? klen : t[i].len };

			mlf_trace_fail(p, "unknown field '%s' in run (want writers=, readers=, initial=, policy=, seed=)",
				       mlf_token_show(&key, buf, sizeof(buf)));
			return false;
		}
		if (seen & (1u << k)) {
			mlf_trace_fail(p, "'%s' given twice", keys[k]);
			return false;
		}
		seen |= 1u << k;
		switch (k) {
		case 0:
			if (!key_value(p, &t[i], klen, 1, SCHED_MAX_WRITERS, &v))
				return false;
			in->nr_writers = v;
			break;
		case 1:
			if (!key_value(p, &t[i], klen, 1, SCHED_MAX_READERS, &v))
				return false;
			in->nr_readers = v;
			break;
		case 2:
			if (!key_value(p, &t[i], klen, 0, in->pool_size, &v))
				return false;
			in->nr_initial = v;
			break;
		case 3: {
			struct mlf_token val = { t[i].s + klen + 1,
						 t[i].len - klen - 1 };

			if (mlf_token_is(&val, policy_names[MLF_SCHED_INPUT])) {
				in->policy = MLF_SCHED_INPUT;
			} else if (mlf_token_is(&val,
						policy_names[MLF_SCHED_PCT])) {
				in->policy = MLF_SCHED_PCT;
			} else {
				mlf_trace_fail(p, "bad policy '%s' (want input or pct)",
					       mlf_token_show(&val, buf,
							      sizeof(buf)));
				return false;
			}
			break;
		}
		default:
			if (!key_value(p, &t[i], klen, 0, MAX_SEED, &v))
				return false;
			in->seed = v;
			break;
		}
	}
	return true;
}

/* 'switch after=D to=tK|rcu' (input) or 'change after=D' (pct) */
static bool parse_decision(struct mlf_trace_parser *p,
			   const struct mlf_token *t, int n,
			   struct sched_input *in)
{
	bool change = mlf_token_is(&t[0], "change");
	int tasks = in->nr_writers + in->nr_readers;
	struct mlf_sched_decision *d;
	bool have_delay = false, have_task = false;
	unsigned long v;
	char buf[40];
	int i;

	if (change != (in->policy == MLF_SCHED_PCT)) {
		mlf_trace_fail(p, change ?
			       "'change' is a change point of policy=pct; policy=input switches ('switch after=D to=T')" :
			       "'switch' is a decision of policy=input; policy=pct has change points ('change after=D')");
		return false;
	}
	if (in->nr_decisions == SCHED_MAX_OPS) {
		mlf_trace_fail(p, "more than %d decisions", SCHED_MAX_OPS);
		return false;
	}
	d = &in->decisions[in->nr_decisions];
	memset(d, 0, sizeof(*d));
	for (i = 1; i < n; i++) {
		size_t klen = key_len(&t[i]);

		if (key_is(&t[i], klen, "after") && !have_delay) {
			if (!key_value(p, &t[i], klen, 1, MAX_DELAY, &v))
				return false;
			d->delay = v;
			have_delay = true;
		} else if (key_is(&t[i], klen, "to") && !change && !have_task) {
			struct mlf_token val = { t[i].s + klen + 1,
						 t[i].len - klen - 1 };

			if (mlf_token_is(&val, "rcu")) {
				d->task = tasks;
			} else if (is_prefixed(&val, 't')) {
				if (!prefixed(p, &val, "task", tasks, "tasks",
					      &v))
					return false;
				d->task = v;
			} else {
				mlf_trace_fail(p, "bad task '%s' (want t0 to t%d or rcu)",
					       mlf_token_show(&val, buf,
							      sizeof(buf)),
					       tasks - 1);
				return false;
			}
			have_task = true;
		} else {
			struct mlf_token key = { t[i].s,
						 klen ? klen : t[i].len };

			if (key_is(&t[i], klen, "after") ||
			    (!change && key_is(&t[i], klen, "to")))
				mlf_trace_fail(p, "'%s' given twice",
					       mlf_token_show(&key, buf,
							      sizeof(buf)));
			else
				mlf_trace_fail(p, "%s takes no '%s'",
					       change ? "change" : "switch",
					       mlf_token_show(&key, buf,
							      sizeof(buf)));
			return false;
		}
	}
	if (!have_delay || (!change && !have_task)) {
		mlf_trace_fail(p, change ? "change needs after=D (1 to %u)" :
			       "switch needs after=D (1 to %u) and to=T (a task or rcu)",
			       MAX_DELAY);
		return false;
	}
	in->nr_decisions++;
	return true;
}

/* 'weak after=D back=B': the weak memory model's choice (concurrent_codec.h) */
static bool parse_weak(struct mlf_trace_parser *p, const struct mlf_token *t,
		       int n, struct sched_input *in)
{
	struct mlf_sched_weak *w;
	unsigned long v;
	char buf[40];
	int i;

	if (in->nr_weak == SCHED_MAX_OPS) {
		mlf_trace_fail(p, "more than %d weak choices", SCHED_MAX_OPS);
		return false;
	}
	w = &in->weak[in->nr_weak];
	memset(w, 0, sizeof(*w));
	for (i = 1; i < n; i++) {
		size_t klen = key_len(&t[i]);
		struct mlf_token key = { t[i].s, klen ? klen : t[i].len };

		if (key_is(&t[i], klen, "after") && !w->delay) {
			if (!key_value(p, &t[i], klen, 1, MAX_DELAY, &v))
				return false;
			w->delay = v;
		} else if (key_is(&t[i], klen, "back") && !w->back) {
			if (!key_value(p, &t[i], klen, 1, MLF_SCHED_MAX_BACK,
				       &v))
				return false;
			w->back = v;
		} else {
			mlf_trace_fail(p, key_is(&t[i], klen, "after") ||
					  key_is(&t[i], klen, "back") ?
					  "'%s' given twice" :
					  "weak takes no '%s'",
				       mlf_token_show(&key, buf, sizeof(buf)));
			return false;
		}
	}
	if (!w->delay || !w->back) {
		mlf_trace_fail(p, "weak needs after=D (1 to %u) and back=B (1 to %d)",
			       MAX_DELAY, MLF_SCHED_MAX_BACK);
		return false;
	}
	in->nr_weak++;
	return true;
}

/* What an op kind takes; every other operand is an error. */
#define F_MEMCG 0x01
#define F_NODE 0x02
#define F_ROTATION 0x04
#define F_SOFTIRQ 0x08
#define F_FLAGS 0x10
#define F_BIN 0x20
#define F_TARGET 0x40

static const struct {
	unsigned int takes, needs;
} kind_fields[SOP_NR] = {
	[SOP_ONLINE] = { F_MEMCG | F_FLAGS | F_BIN, F_MEMCG },
	[SOP_OFFLINE] = { F_MEMCG, F_MEMCG },
	[SOP_RELEASE] = { F_MEMCG, F_MEMCG },
	[SOP_ROTATE] = { F_MEMCG | F_NODE | F_ROTATION | F_BIN,
			 F_MEMCG | F_NODE | F_ROTATION },
	[SOP_SOFT] = { F_MEMCG | F_NODE | F_SOFTIRQ | F_BIN,
		       F_MEMCG | F_NODE },
	[SOP_SET] = { F_MEMCG | F_FLAGS, F_MEMCG },
	[SOP_HOLD] = { F_MEMCG, F_MEMCG },
	[SOP_DROP] = { 0, 0 },
	[SOP_RECLAIM] = { F_NODE | F_TARGET | F_BIN, F_NODE },
};

/* One operand of @op; false after an error. */
static bool parse_operand(struct mlf_trace_parser *p,
			  const struct mlf_token *t, struct sched_input *in,
			  struct sched_op *op, unsigned int *seen)
{
	const char *kind = sched_op_name(op->kind);
	unsigned int takes = kind_fields[op->kind].takes, field, b;
	size_t klen = key_len(t);
	int rotation = 0;
	unsigned long v;
	char buf[40];

	if (is_prefixed(t, 'm'))
		field = F_MEMCG;
	else if (is_prefixed(t, 'n'))
		field = F_NODE;
	else if (mlf_token_is(t, "softirq"))
		field = F_SOFTIRQ;
	else if (key_is(t, klen, "bin"))
		field = F_BIN;
	else if (key_is(t, klen, "target"))
		field = F_TARGET;
	else
		field = 0;
	for (v = 0; !field && v < MLF_NR_ROTATIONS; v++)
		if (mlf_token_is(t, mlf_rotate_op_name(mlf_rotation(v)))) {
			field = F_ROTATION;
			rotation = v;
		}
	for (b = 0; !field && b < ARRAY_SIZE(flag_names); b++)
		if (mlf_token_is(t, flag_names[b]))
			field = F_FLAGS;
	if (!field && key_is(t, klen, "reclaimed"))
		field = F_FLAGS;
	if (!field) {
		struct mlf_token key = { t->s, klen ? klen : t->len };

		mlf_trace_fail(p, "unknown field '%s' in %s",
			       mlf_token_show(&key, buf, sizeof(buf)), kind);
		return false;
	}
	if (!(takes & field)) {
		struct mlf_token key = { t->s, klen ? klen : t->len };

		mlf_trace_fail(p, "%s takes no '%s'", kind,
			       mlf_token_show(&key, buf, sizeof(buf)));
		return false;
	}
	if (field != F_FLAGS && (*seen & field)) {
		static const char *const what[] = { "memcg", "node",
						    "rotation", "softirq",
						    "flags", "bin", "target" };

		mlf_trace_fail(p, "more than one %s",
			       what[__builtin_ctz(field)]);
		return false;
	}
	*seen |= field;
	switch (field) {
	case F_MEMCG:
		if (!prefixed(p, t, "memcg", in->pool_size, "pool", &v))
			return false;
		op->slot = v;
		return true;
	case F_NODE:
		if (!prefixed(p, t, "node", in->nr_nodes, "nodes", &v))
			return false;
		op->node = v;
		return true;
	case F_ROTATION:
		op->arg = rotation;
		return true;
	case F_SOFTIRQ:
		op->arg = 1;
		return true;
	case F_BIN:
		if (!key_value(p, t, klen, 0, MEMCG_NR_BINS - 1, &v))
			return false;
		op->bin = v + 1;
		return true;
	case F_TARGET:
		if (!key_value(p, t, klen, 0, 255, &v))
			return false;
		op->target = v;
		return true;
	}
	/* F_FLAGS: a word, or reclaimed=N */
	if (klen) {
		if (op->arg >> 4) {
			mlf_trace_fail(p, "'reclaimed' given twice");
			return false;
		}
		if (!key_value(p, t, klen, 0, MAX_RECLAIMED, &v))
			return false;
		op->arg |= v << 4;
		return true;
	}
	for (b = 0; b < ARRAY_SIZE(flag_names); b++)
		if (mlf_token_is(t, flag_names[b]))
			break;
	if (op->arg & (1u << b)) {
		mlf_trace_fail(p, "'%s' given twice", flag_names[b]);
		return false;
	}
	op->arg |= 1u << b;
	return true;
}

/* 'tK kind operands...' */
static bool parse_op(struct mlf_trace_parser *p, const struct mlf_token *t,
		     int n, struct sched_input *in)
{
	int tasks = in->nr_writers + in->nr_readers;
	unsigned int seen = 0, missing;
	struct sched_op *op;
	unsigned long task;
	char buf[40];
	int kind, i;

	if (!prefixed(p, &t[0], "task", tasks, "tasks", &task))
		return false;
	if (n < 2) {
		mlf_trace_fail(p, "t%lu: no op", task);
		return false;
	}
	for (kind = 0; kind < SOP_NR; kind++)
		if (mlf_token_is(&t[1], sched_op_name(kind)))
			break;
	if (kind == SOP_NR) {
		mlf_trace_fail(p, "unknown op '%s'",
			       mlf_token_show(&t[1], buf, sizeof(buf)));
		return false;
	}
	if ((task >= (unsigned long)in->nr_writers) != (kind == SOP_RECLAIM)) {
		if (kind == SOP_RECLAIM)
			mlf_trace_fail(p, "t%lu is a writer (writers=%d): reclaim is a reader's op",
				       task, in->nr_writers);
		else
			mlf_trace_fail(p, "t%lu is a reader (writers=%d): a reader only reclaims",
				       task, in->nr_writers);
		return false;
	}
	if (in->nr_ops == SCHED_MAX_OPS) {
		mlf_trace_fail(p, "more than %d ops", SCHED_MAX_OPS);
		return false;
	}
	op = &in->ops[in->nr_ops];
	memset(op, 0, sizeof(*op));
	op->task = task;
	op->kind = kind;
	for (i = 2; i < n; i++)
		if (!parse_operand(p, &t[i], in, op, &seen))
			return false;
	missing = kind_fields[kind].needs & ~seen;
	if (missing) {
		static const char *const want[] = {
			"a memcg (m<N>)", "a node (n<N>)",
			"a rotation (HEAD, TAIL, OLD or YOUNG)",
		};

		mlf_trace_fail(p, "%s needs %s", sched_op_name(kind),
			       want[__builtin_ctz(missing)]);
		return false;
	}
	in->nr_ops++;
	return true;
}

long mlf_sched_trace_parse(const char *text, size_t len,
			   struct sched_input *in,
			   struct mlf_trace_error *err)
{
	static const struct mlf_trace_format format = {
		.max_nodes = 4,
		.max_pool = SCHED_MAX_POOL,
		/* the op, decision and weak lines, and the run line */
		.max_ops = 3 * SCHED_MAX_OPS + 1,
		.target = "concurrent",
	};
	struct mlf_trace_parser p;
	bool have_run = false;
	int nt;

	memset(in, 0, sizeof(*in));
	mlf_trace_begin(&p, &format, text, len, format.max_ops, &in->nr_nodes,
			&in->pool_size, err);
	while ((nt = mlf_trace_next_op(&p)) > 0) {
		const struct mlf_token *t = p.toks;
		bool ok;

		if (mlf_token_is(&t[0], "run")) {
			if (have_run) {
				mlf_trace_fail(&p, "a second run line");
				return -1;
			}
			have_run = true;
			ok = parse_run(&p, t, nt, in);
		} else if (!have_run) {
			mlf_trace_fail(&p, "expected the run line 'run writers=W readers=R initial=I policy=P seed=S' after the header");
			return -1;
		} else if (mlf_token_is(&t[0], "switch") ||
			   mlf_token_is(&t[0], "change")) {
			ok = parse_decision(&p, t, nt, in);
		} else if (mlf_token_is(&t[0], "weak")) {
			ok = parse_weak(&p, t, nt, in);
		} else if (is_prefixed(&t[0], 't')) {
			ok = parse_op(&p, t, nt, in);
		} else {
			char buf[40];

			mlf_trace_fail(&p, "unknown line '%s' (want tK OP ..., switch, change or weak)",
				       mlf_token_show(&t[0], buf, sizeof(buf)));
			ok = false;
		}
		if (!ok)
			return -1;
	}
	if (nt < 0)
		return -1;
	if (!have_run) {
		err->line = 0;
		snprintf(err->what, sizeof(err->what),
			 "no run line 'run writers=W readers=R initial=I policy=P seed=S'");
		snprintf(err->msg, sizeof(err->msg), "trace: %s", err->what);
		return -1;
	}
	return in->nr_ops + in->nr_decisions + in->nr_weak;
}
