// SPDX-License-Identifier: GPL-2.0
/*
 * Printing and parsing traces. The printer emits one canonical form; the
 * parser accepts it plus a few conveniences (key order, omitted zero
 * fields, bin= and draw= spellings) and rejects anything else with one
 * message naming the line, so a hand-edited reproducer never silently
 * means something other than what it says. The names of the ops and
 * rotations are check/op.h's, from the port library that every program
 * linking this one links after it.
 */
#include "memcg_lru_trace.h"

#include <string.h>

#include "mm/mmzone.h"

/* ---- printing ---- */

/*
 * @prefix, then @v in decimal. memcg_lru prints every input's trace (its
 * round trip): an fprintf() per number, which ASan's interceptor parses
 * and checks, was a third of the printing.
 */
static void put_uint(FILE *out, const char *prefix, unsigned int v)
{
	char buf[24];
	int i = sizeof(buf) - 1, k = 0;

	buf[i] = '\0';
	do
		buf[--i] = '0' + v % 10;
	while (v /= 10);
	/* a prefix is a few characters: " m", " n", "," */
	while (prefix[k])
		k++;
	while (k && i)
		buf[--i] = prefix[--k];
	fputs(buf + i, out);
}

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
		fputs(list ? " bins=" : " bin=", out);
	else
		fputs(list ? " draws=" : " draw=", out);
	for (i = 0; i < op->nr_draws; i++)
		put_uint(out, i ? "," : "", op->draws[i]);
}

void mlf_trace_print_header(FILE *out, const struct mlf_header *h)
{
	fprintf(out, "nodes %d pool %d\n", h->nr_nodes, h->pool_size);
}

void mlf_trace_print_op(FILE *out, const struct mlf_header *h,
			const struct mlf_op *op)
{
	int kind = op->kind < MLF_OP_NR ? op->kind : MLF_OP_GET;

	fputs(mlf_op_kind_name(kind), out);
	if (kind != MLF_OP_RECLAIM)
		put_uint(out, " m", op->memcg);
	switch (kind) {
	case MLF_OP_ONLINE:
		print_draws(out, op, false);
		break;
	case MLF_OP_OFFLINE:
	case MLF_OP_CSS_OFFLINE:
		print_draws(out, op, true);
		break;
	case MLF_OP_ROTATE:
		put_uint(out, " n", op->node);
		fputc(' ', out);
		fputs(mlf_rotation_index(op->rotate_op) >= 0 ?
			      mlf_rotate_op_name(op->rotate_op) :
			      "?",
		      out);
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

/* ---- parsing (the lexing: trace_lex.c) ---- */

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
	[MLF_OP_CSS_OFFLINE] = F_MEMCG | F_DRAWS,
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
	if (kind == MLF_OP_OFFLINE || kind == MLF_OP_CSS_OFFLINE)
		return h->nr_nodes;
	if (kind == MLF_OP_RECLAIM)
		return MLF_OP_MAX_DRAWS;
	return 1;
}

static bool parse_draws(struct mlf_trace_parser *p, const struct mlf_header *h,
			struct mlf_op *op, const struct mlf_token *key,
			const char *s, size_t len)
{
	bool bins = key->s[0] == 'b';
	int n = mlf_trace_parse_draws(p, mlf_op_kind_name(op->kind), bins,
				      max_draws(h, op->kind),
				      bins ? MEMCG_NR_BINS - 1 : 255, s, len,
				      op->draws);

	if (n < 0)
		return false;
	op->nr_draws = n;
	return true;
}

static bool parse_op(struct mlf_trace_parser *p, const struct mlf_token *t,
		     int n, const struct mlf_header *h, struct mlf_op *op)
{
	unsigned int seen = 0, fields, set_seen = 0;
	char buf[40];
	int kind, i, j;

	memset(op, 0, sizeof(*op));
	for (kind = 0; kind < MLF_OP_NR; kind++)
		if (mlf_token_is(&t[0], mlf_op_kind_name(kind)))
			break;
	if (kind == MLF_OP_NR) {
		mlf_trace_fail(p, "unknown op '%s'",
			       mlf_token_show(&t[0], buf, sizeof(buf)));
		return false;
	}
	op->kind = kind;
	fields = kind_fields[kind];

	for (i = 1; i < n; i++) {
		const struct mlf_token *tok = &t[i];
		const char *eq = mlf_trace_find(tok->s, tok->len, '=');
		unsigned int field = 0;
		unsigned long v;

		if (eq) {
			struct mlf_token key = { tok->s, eq - tok->s };
			const char *val = eq + 1;
			size_t vlen = tok->len - key.len - 1;

			if (mlf_token_is(&key, "bin") ||
			    mlf_token_is(&key, "bins") ||
			    mlf_token_is(&key, "draw") ||
			    mlf_token_is(&key, "draws")) {
				field = F_DRAWS;
			} else if (mlf_token_is(&key, "target")) {
				field = F_TARGET;
			} else {
				for (j = 0; j < 5; j++)
					if (mlf_token_is(&key, set_keys[j]))
						field = F_SET;
				if (!field) {
					mlf_trace_fail(
						p, "unknown field '%s' in %s",
						mlf_token_show(&key, buf,
							       sizeof(buf)),
						mlf_op_kind_name(kind));
					return false;
				}
			}
			if (!(fields & field)) {
				mlf_trace_fail(
					p, "%s takes no '%s'",
					mlf_op_kind_name(kind),
					mlf_token_show(&key, buf, sizeof(buf)));
				return false;
			}
			if (field == F_SET) {
				for (j = 0; !mlf_token_is(&key, set_keys[j]);
				     j++)
					;
				if (set_seen & 1u << j) {
					mlf_trace_fail(p, "'%s' given twice",
						       set_keys[j]);
					return false;
				}
				set_seen |= 1u << j;
				v = j == 4 ? MLF_SET_NR_RECLAIMED_MAX : 1;
				if (!mlf_trace_parse_uint(val, vlen, v, &v)) {
					struct mlf_token vt = { val, vlen };

					mlf_trace_fail(
						p,
						"bad %s value '%s' (want 0 to %u)",
						set_keys[j],
						mlf_token_show(&vt, buf,
							       sizeof(buf)),
						j == 4 ?
							MLF_SET_NR_RECLAIMED_MAX :
							1);
					return false;
				}
				*set_field(op, j) = v;
				continue;
			}
			if (seen & field) {
				mlf_trace_fail(p, "'%s' given twice",
					       mlf_token_show(&key, buf,
							      sizeof(buf)));
				return false;
			}
			seen |= field;
			if (field == F_DRAWS) {
				if (!parse_draws(p, h, op, &key, val, vlen))
					return false;
				continue;
			}
			if (!mlf_trace_parse_uint(val, vlen, 255, &v)) {
				struct mlf_token vt = { val, vlen };

				mlf_trace_fail(
					p, "bad target '%s' (want 0 to 255)",
					mlf_token_show(&vt, buf, sizeof(buf)));
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
				mlf_trace_fail(p, "%s takes no %s",
					       mlf_op_kind_name(kind),
					       memcg ? "memcg" : "node");
				return false;
			}
			if (seen & field) {
				mlf_trace_fail(p, "more than one %s",
					       memcg ? "memcg" : "node");
				return false;
			}
			seen |= field;
			if (!mlf_trace_parse_uint(tok->s + 1, tok->len - 1,
						  1000000, &v)) {
				mlf_trace_fail(p, "bad %s '%s'",
					       memcg ? "memcg" : "node",
					       mlf_token_show(tok, buf,
							      sizeof(buf)));
				return false;
			}
			if (memcg && v >= h->pool_size) {
				mlf_trace_fail(p, "%s is outside the pool (%d)",
					       mlf_token_show(tok, buf,
							      sizeof(buf)),
					       h->pool_size);
				return false;
			}
			if (!memcg && v >= h->nr_nodes) {
				mlf_trace_fail(
					p, "%s is outside the nodes (%d)",
					mlf_token_show(tok, buf, sizeof(buf)),
					h->nr_nodes);
				return false;
			}
			if (memcg)
				op->memcg = v;
			else
				op->node = v;
			continue;
		}

		if (mlf_token_is(tok, "softirq")) {
			field = F_SOFTIRQ;
		} else {
			for (j = 0; j < MLF_NR_ROTATIONS; j++)
				if (mlf_token_is(tok, mlf_rotate_op_name(mlf_rotation(j))))
					field = F_ROTATE;
		}
		if (!field) {
			mlf_trace_fail(p, "unknown field '%s' in %s",
				       mlf_token_show(tok, buf, sizeof(buf)),
				       mlf_op_kind_name(kind));
			return false;
		}
		if (!(fields & field)) {
			mlf_trace_fail(p, "%s takes no '%s'",
				       mlf_op_kind_name(kind),
				       mlf_token_show(tok, buf, sizeof(buf)));
			return false;
		}
		if (seen & field) {
			mlf_trace_fail(p, "'%s' after '%s': one %s only",
				       mlf_token_show(tok, buf, sizeof(buf)),
				       field == F_SOFTIRQ ?
					       "softirq" :
					       mlf_rotate_op_name(op->rotate_op),
				       field == F_SOFTIRQ ? "softirq" :
							    "rotation");
			return false;
		}
		seen |= field;
		if (field == F_SOFTIRQ) {
			op->softirq = 1;
		} else {
			for (j = 0;
			     !mlf_token_is(tok, mlf_rotate_op_name(mlf_rotation(j))); j++)
				;
			op->rotate_op = mlf_rotation(j);
		}
	}

	/* what a line must say; draws and flags default to zero */
	fields &= F_MEMCG | F_NODE | F_ROTATE;
	if (fields & ~seen) {
		unsigned int missing = fields & ~seen;

		mlf_trace_fail(p, "%s needs %s", mlf_op_kind_name(kind),
			       missing & F_MEMCG ?
				       "a memcg (m<N>)" :
			       missing & F_NODE ?
				       "a node (n<N>)" :
				       "a rotation (HEAD, TAIL, OLD or YOUNG)");
		return false;
	}
	/* the bytes always carry these draws; missing ones read as zero */
	if (kind != MLF_OP_RECLAIM)
		op->nr_draws =
			max_draws(h, kind) * !!(kind_fields[kind] & F_DRAWS);
	return true;
}

long mlf_trace_parse(const char *text, size_t len, struct mlf_header *h,
		     struct mlf_op *ops, size_t cap,
		     struct mlf_trace_error *err)
{
	static const struct mlf_trace_format format = {
		.max_nodes = MLF_FUZZ_MAX_NODES,
		.max_pool = MLF_FUZZ_MAX_POOL,
		.max_ops = MLF_FUZZ_MAX_OPS,
		.target = "memcg_lru",
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
