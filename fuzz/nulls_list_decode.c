// SPDX-License-Identifier: GPL-2.0
/*
 * The nulls_list target's input format: the op kinds with their operand
 * counts, and the decoder. A header byte (lists = 1 + (b & 3), nodes =
 * 1 + ((b >> 2) & 31)), then ops: a kind byte (mod NL_NR_KINDS) and the
 * kind's operand bytes, wrapped into range. Every byte string decodes;
 * bytes that run out read as zero.
 */
#include "nulls_list.h"

const struct nl_kind_info nl_kinds[NL_NR_KINDS] = {
	[NL_ADD_HEAD_RCU] = { "add_head_rcu", 2 },
	[NL_ADD_TAIL_RCU] = { "add_tail_rcu", 2 },
	[NL_ADD_BEHIND_RCU] = { "add_behind", 2 },
	[NL_ADD_HEAD] = { "add_head", 2 },
	[NL_DEL_RCU] = { "del_rcu", 1 },
	[NL_DEL_INIT_RCU] = { "del_init_rcu", 1 },
	[NL_DEL] = { "del", 1 },
	[NL_REPLACE_RCU] = { "replace_rcu", 2 },
	[NL_REPLACE_INIT_RCU] = { "replace_init_rcu", 2 },
	[NL_ADD_FAKE] = { "add_fake", 1 },
	[NL_WALK] = { "walk", 1 },
	[NL_WALK_RCU] = { "walk_rcu", 1 },
	[NL_WALK_SAFE] = { "walk_safe", 3 },
	[NL_WALK_RCU_MOVE] = { "walk_rcu_move", 4 },
	[NL_QUERY] = { "query", 2 },
};

struct nl_input nl_in;

void nl_decode(const u8 *data, size_t size)
{
	size_t pos = 1;
	u8 h = size ? data[0] : 0;

	nl_in.nr_lists = 1 + (h & 3);
	nl_in.nr_nodes = 1 + ((h >> 2) & 31);
	nl_in.nr_ops = 0;

	while (pos < size && nl_in.nr_ops < NL_MAX_OPS) {
		struct nl_op *op = &nl_in.ops[nl_in.nr_ops++];
		u8 raw[4] = { 0 };
		int i, n;

		op->kind = data[pos++] % NL_NR_KINDS;
		n = nl_kinds[op->kind].operands;
		for (i = 0; i < n; i++, pos++)
			raw[i] = pos < size ? data[pos] : 0;
		op->status = NL_PENDING;

		switch (op->kind) {
		case NL_ADD_HEAD_RCU:
		case NL_ADD_TAIL_RCU:
		case NL_ADD_HEAD:
		case NL_QUERY:
			op->a = raw[0] % nl_in.nr_nodes;
			op->b = raw[1] % nl_in.nr_lists;
			break;
		case NL_ADD_BEHIND_RCU:
		case NL_REPLACE_RCU:
		case NL_REPLACE_INIT_RCU:
			op->a = raw[0] % nl_in.nr_nodes;
			op->b = raw[1] % nl_in.nr_nodes;
			break;
		case NL_DEL_RCU:
		case NL_DEL_INIT_RCU:
		case NL_DEL:
		case NL_ADD_FAKE:
			op->a = raw[0] % nl_in.nr_nodes;
			break;
		case NL_WALK:
		case NL_WALK_RCU:
			op->a = raw[0] % nl_in.nr_lists;
			break;
		case NL_WALK_SAFE:
			op->a = raw[0] % nl_in.nr_lists;
			op->b = raw[1];
			op->c = raw[2] % 3;
			break;
		case NL_WALK_RCU_MOVE:
			op->a = raw[0] % nl_in.nr_lists;
			op->b = raw[1] % NL_MAX_NODES;
			op->c = raw[2] % nl_in.nr_lists;
			op->d = raw[3] & 1;
			break;
		}
	}
}
