// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target memcg_lru: decode an input into ops, apply them one by one to
 * a fresh world (port + reference model), which runs every structure check
 * and the model comparison after each op. A failure aborts through mlf_fail()
 * with the check name and op index; the context printer below then shows the
 * trace around that op, so the report can be read without tools.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memcg_lru_codec.h"
#include "context.h"
#include "engine_counters.h"
#include "harness/states.h"
#include "harness/world.h"
#include "memcg_lru_trace.h"

#define CONTEXT_BEFORE 5

static struct mlf_header header;
static struct mlf_op ops[MLF_FUZZ_MAX_OPS];
static size_t nr_ops;
static struct mlf_world world;

static void print_header(FILE *out)
{
	mlf_trace_print_header(out, &header);
}

static void print_op(FILE *out, size_t i)
{
	mlf_trace_print_op(out, &header, &ops[i]);
}

static void print_context(void)
{
	long at = mlf_current_op;

	if (at >= 0 && at < (long)nr_ops)
		mlf_print_tree_where(mlf_op_kernel_function(ops[at].kind));
	mlf_print_trace_context(at, nr_ops, CONTEXT_BEFORE, print_header, print_op);
}

/*
 * parse(print(decode(bytes))) == decode(bytes), on every input fuzzed. One
 * memory stream serves every input (rewound, not reopened): opening one
 * per input was a tenth of the time of a short one.
 */
static void check_trace_roundtrip(void)
{
	static struct mlf_op again[MLF_FUZZ_MAX_OPS];
	static char *text;
	static size_t len;
	static FILE *out;
	struct mlf_trace_error err;
	struct mlf_header h;
	size_t i;
	long n;

	if (!out) {
		out = open_memstream(&text, &len);
		if (!out)
			abort();
	}
	rewind(out);
	mlf_trace_print(out, &header, ops, nr_ops);
	/* the text ends where this input's does: len is the position */
	if (fflush(out))
		abort();
	n = mlf_trace_parse(text, len, &h, again, MLF_FUZZ_MAX_OPS, &err);
	if (n < 0)
		mlf_fail_simple("trace.roundtrip", "printed trace does not parse: %s",
				err.msg);
	if (n != (long)nr_ops || h.nr_nodes != header.nr_nodes ||
	    h.pool_size != header.pool_size)
		mlf_fail_simple("trace.roundtrip",
				"printed trace parses to %ld ops (%d nodes, pool %d), not %zu (%d, %d)",
				n, h.nr_nodes, h.pool_size, nr_ops,
				header.nr_nodes, header.pool_size);
	for (i = 0; i < nr_ops; i++)
		if (!mlf_op_equal(&ops[i], &again[i]))
			mlf_fail_simple("trace.roundtrip",
					"op %zu changes through print and parse",
					i);
}

/*
 * The state coverage (src/harness/states.h) as extra coverage: libFuzzer
 * reads this section after every input as it reads its edge counters, so
 * a state no input met before keeps the input that met it. Elsewhere (the
 * replay driver, AFL++) it is an array that nobody reads.
 */
static unsigned char state_feedback[ST_NR_COUNTERS]
	__attribute__((section("__libfuzzer_extra_counters"), used));

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool attached;
	size_t i;

	if (!attached) {
		world_states_attach(state_feedback, sizeof(state_feedback));
		attached = true;
	}
	mlf_set_context_printer(print_context);
	nr_ops = mlf_decode(data, size, &header, ops, MLF_FUZZ_MAX_OPS);
	check_trace_roundtrip();

	world_init(&world, header.nr_nodes, header.pool_size);
	for (i = 0; i < nr_ops; i++)
		world_apply(&world, &ops[i]);
	world_destroy(&world);
	mlf_engine_counters_done();
	return 0;
}
