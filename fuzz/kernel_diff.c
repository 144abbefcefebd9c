// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target kernel_diff: the same input on the port's v6.12 variant and
 * on a kernel tree's code (kernel/, built with MLF_KERNEL_TREE), both in
 * this binary. Each side runs its own world, checks and model; after every
 * op both must hold the same bins (memcg ids, in order), nr_memcgs[], seq,
 * life-cycle states and per-memcg gen / seg, and agree on whether the op
 * applied. A divergence is the failure "kernel.diff", which shows both
 * sides. Both get the same draws: each world_apply() takes them from the op.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "context.h"
#include "diff_side.h"
#include "kernel/report.h"
#include "trace.h"

#define CONTEXT_BEFORE 5

static struct mlf_header header;
static struct mlf_op ops[MLF_FUZZ_MAX_OPS];
static size_t nr_ops;
static long cur_op = MLF_NONE;
static struct mlf_diff_snapshot port, tree;

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
	mlf_print_trace_context(cur_op, nr_ops, CONTEXT_BEFORE, print_header,
				print_op);
}

/* "[m1 m4 m2]" into @buf, cut short with "..." when it does not fit */
static const char *show_bin(char *buf, size_t size, const int *ids, int len)
{
	size_t at = 0;
	int i;

	at += snprintf(buf + at, size - at, "[");
	for (i = 0; i < len && at + 16 < size; i++) {
		if (ids[i] < 0)
			at += snprintf(buf + at, size - at, "%s?", i ? " " : "");
		else
			at += snprintf(buf + at, size - at, "%sm%d",
				       i ? " " : "", ids[i]);
	}
	snprintf(buf + at, size - at, "%s]", i < len ? " ..." : "");
	return buf;
}

static void diverged(struct mlf_failure *f, int nid, int gen, int bin,
		     int memcg)
{
	f->node = nid;
	f->gen = gen;
	f->bin = bin;
	f->memcg = memcg;
	f->op = cur_op;
	mlf_fail(f);
}

static void compare(void)
{
	static const char *const states[] = { "empty", "online", "offline",
					      "dead" };
	const char *pn = mlf_diff_side_name(), *tn = kernel_mlf_diff_side_name();
	struct mlf_failure f;
	char a[200], b[200];
	int nid, gen, bin, i;

	mlf_failure_init(&f, "kernel.diff");
	if (port.applied != tree.applied) {
		mlf_failure_msg(&f, "the op %s on %s but %s on %s",
				port.applied ? "applied" : "was skipped", pn,
				tree.applied ? "applied" : "was skipped", tn);
		diverged(&f, MLF_NONE, MLF_NONE, MLF_NONE, MLF_NONE);
	}
	for (nid = 0; nid < port.nr_nodes; nid++) {
		if (port.seq[nid] != tree.seq[nid]) {
			mlf_failure_msg(&f, "seq: %lu on %s, %lu on %s",
					port.seq[nid], pn, tree.seq[nid], tn);
			diverged(&f, nid, MLF_NONE, MLF_NONE, MLF_NONE);
		}
		for (gen = 0; gen < MLF_DIFF_GENS; gen++) {
			if (port.nr_memcgs[nid][gen] != tree.nr_memcgs[nid][gen]) {
				mlf_failure_msg(&f,
						"nr_memcgs[%d]: %lu on %s, %lu on %s",
						gen, port.nr_memcgs[nid][gen], pn,
						tree.nr_memcgs[nid][gen], tn);
				diverged(&f, nid, gen, MLF_NONE, MLF_NONE);
			}
			for (bin = 0; bin < MLF_DIFF_BINS; bin++) {
				int len = port.len[nid][gen][bin];

				if (len == tree.len[nid][gen][bin] &&
				    !memcmp(port.ids[nid][gen][bin],
					    tree.ids[nid][gen][bin],
					    len * sizeof(int)))
					continue;
				mlf_failure_msg(&f, "bin: %s on %s, %s on %s",
						show_bin(a, sizeof(a), port.ids[nid][gen][bin], len),
						pn,
						show_bin(b, sizeof(b), tree.ids[nid][gen][bin],
							 tree.len[nid][gen][bin]),
						tn);
				diverged(&f, nid, gen, bin, MLF_NONE);
			}
		}
	}
	for (i = 0; i < port.pool_size; i++) {
		if (port.state[i] != tree.state[i]) {
			mlf_failure_msg(&f, "state: %s on %s, %s on %s",
					states[port.state[i] & 3], pn,
					states[tree.state[i] & 3], tn);
			diverged(&f, MLF_NONE, MLF_NONE, MLF_NONE, i);
		}
		for (nid = 0; nid < port.nr_nodes; nid++) {
			if (port.gen[i][nid] == tree.gen[i][nid] &&
			    port.seg[i][nid] == tree.seg[i][nid])
				continue;
			mlf_failure_msg(&f,
					"gen/seg: %d/%d on %s, %d/%d on %s",
					port.gen[i][nid], port.seg[i][nid], pn,
					tree.gen[i][nid], tree.seg[i][nid], tn);
			diverged(&f, nid, MLF_NONE, MLF_NONE, i);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t i;

	mlf_set_context_printer(print_context);
	nr_ops = mlf_decode(data, size, &header, ops, MLF_FUZZ_MAX_OPS);

	mlf_diff_side_init(header.nr_nodes, header.pool_size);
	kernel_mlf_diff_side_init(header.nr_nodes, header.pool_size);
	for (i = 0; i < nr_ops; i++) {
		cur_op = i;
		port.applied = mlf_diff_side_apply(&ops[i]);
		tree.applied = kernel_mlf_diff_side_apply(&ops[i]);
		mlf_diff_side_snapshot(&port);
		kernel_mlf_diff_side_snapshot(&tree);
		compare();
	}
	cur_op = MLF_NONE;
	mlf_diff_side_finish();
	kernel_mlf_diff_side_finish();
	mlf_diff_side_destroy();
	kernel_mlf_diff_side_destroy();
	return 0;
}
