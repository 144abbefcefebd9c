// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target nulls_list: the shim's hlist_nulls and rculist_nulls primitives
 * driven by the input against a model (per list an array of node ids, per node
 * its state), checked after every op. The memcg LRU is built on these lists; a
 * primitive that breaks a link (hlist_nulls_add_behind_rcu behind an interior
 * node, under bug-add-behind-interior) shows up here first and in one op.
 *
 * Input: a header byte (lists = 1 + (b & 3), nodes = 1 + ((b >> 2) & 31)),
 * then ops: a kind byte (mod NL_NR_KINDS) and the kind's operand bytes. Every
 * byte string decodes; bytes that run out read as zero. An op whose
 * precondition (the API's contract) does not hold is skipped.
 *
 * Checks: "nulls.links", "nulls.model", "nulls.walk". A failure prints the
 * decoded ops of the input (the trace) after the report. NULLS_LIST_TRACE=1
 * in the environment prints the trace of every input, failing or not.
 *
 * This file holds the lists under test and the entry point; nulls_list.h
 * names the files of the other parts (decoder, model, checks, ops, trace).
 */
#include <stdlib.h>
#include <string.h>

#include "nulls_list.h"

struct hlist_nulls_head nl_heads[NL_MAX_LISTS];
struct nl_item nl_pool[NL_MAX_NODES];

static void reset(void)
{
	int i;

	memset(nl_pool, 0, sizeof(nl_pool));
	for (i = 0; i < NL_MAX_NODES; i++)
		nl_pool[i].id = i;
	nl_model_reset();
	for (i = 0; i < NL_MAX_LISTS; i++)
		INIT_HLIST_NULLS_HEAD(&nl_heads[i], i);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static int trace_env = -1;
	size_t i;

	/* here, not in LLVMFuzzerInitialize(): a replay driver may not call it */
	if (trace_env < 0) {
		const char *e = getenv("NULLS_LIST_TRACE");

		trace_env = e && *e && *e != '0';
		mlf_set_context_printer(nl_print_trace);
	}
	nl_decode(data, size);
	reset();
	for (i = 0; i < nl_in.nr_ops; i++) {
		mlf_current_op = i;
		if (!nl_apply(&nl_in.ops[i]) || !nl_check_all())
			break;
	}
	if (trace_env) {
		mlf_current_op = MLF_NONE;
		nl_print_trace();
	}
	mlf_current_op = MLF_NONE;
	return 0;
}
