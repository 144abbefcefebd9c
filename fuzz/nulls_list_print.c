// SPDX-License-Identifier: GPL-2.0
/*
 * The nulls_list target's trace: the decoded ops of the input, one per
 * line, up to the op that failed (marked), printed after a failure's
 * report (and of every input with NULLS_LIST_TRACE=1).
 */
#include <stdio.h>

#include "nulls_list.h"

/* how a _safe walk deletes (operand mod 3) */
static const char *const nl_del_names[] = { "del_rcu", "del_init_rcu", "del" };

static void print_op(FILE *f, const struct nl_op *op)
{
	const char *name = nl_kinds[op->kind].name;

	switch (op->kind) {
	case NL_ADD_HEAD_RCU:
	case NL_ADD_TAIL_RCU:
	case NL_ADD_HEAD:
	case NL_QUERY:
		fprintf(f, "%s n%d l%d", name, op->a, op->b);
		break;
	case NL_ADD_BEHIND_RCU:
		fprintf(f, "%s n%d after n%d", name, op->a, op->b);
		break;
	case NL_REPLACE_RCU:
	case NL_REPLACE_INIT_RCU:
		fprintf(f, "%s n%d with n%d", name, op->a, op->b);
		break;
	case NL_WALK:
	case NL_WALK_RCU:
		fprintf(f, "%s l%d", name, op->a);
		break;
	case NL_WALK_SAFE:
		fprintf(f, "%s l%d del=0x%02x via %s", name, op->a, op->b,
			nl_del_names[op->c]);
		break;
	case NL_WALK_RCU_MOVE:
		fprintf(f, "%s l%d at=%d to l%d %s", name, op->a, op->b, op->c,
			op->d ? "tail" : "head");
		break;
	default:
		fprintf(f, "%s n%d", name, op->a);
		break;
	}
}

void nl_print_trace(void)
{
	size_t i, upto = nl_in.nr_ops;

	if (mlf_current_op != MLF_NONE && mlf_current_op < (long)nl_in.nr_ops)
		upto = mlf_current_op + 1;
	fprintf(stderr, "nulls_list trace: lists=%d nodes=%d ops=%zu\n",
		nl_in.nr_lists, nl_in.nr_nodes, nl_in.nr_ops);
	for (i = 0; i < upto; i++) {
		const struct nl_op *op = &nl_in.ops[i];

		fprintf(stderr, "  #%zu ", i);
		print_op(stderr, op);
		if (op->status == NL_SKIPPED)
			fprintf(stderr, "  (skipped)");
		if ((long)i == mlf_current_op)
			fprintf(stderr, "  <-- current op");
		fputc('\n', stderr);
	}
	if (upto < nl_in.nr_ops)
		fprintf(stderr, "  ... %zu more ops not run\n", nl_in.nr_ops - upto);
}
