// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target kernel_diff: the same input on a port variant and on a
 * kernel tree's code (kernel/, built with MLF_KERNEL_TREE), both in this
 * binary: kernel_diff is v6.12 against the tree, kernel_diff-<level> the
 * port's <level> against the tree with that level of the seed series
 * applied. Each side runs its own world, checks and model; after every op
 * both must agree on whether it applied, the draws it consumed, and hold
 * the same bins (memcg ids, in order), nr_memcgs[], seq, life-cycle states,
 * per-memcg gen / seg, where each
 * unlinked lrugen's next still points and whether its pprev is NULL; a
 * walk must have visited the same memcgs in the same order, decided the
 * same rotation for each, and counted the same nr_reclaimed / nr_scanned.
 * A divergence is the failure "kernel.diff", which shows both sides. Both
 * get the same draws: each world_apply() takes them from the op.
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

static const char *show_visit(char *buf, size_t size,
			      const struct mlf_diff_snapshot *s, int i)
{
	if (i >= s->nr_visits)
		return "nothing";
	if (i >= MLF_DIFF_MAX_VISITS)
		return "?";
	snprintf(buf, size, "m%d on node %d -> %s", s->visits[i].memcg,
		 s->visits[i].node,
		 s->visits[i].op ? mlf_rotate_op_name(s->visits[i].op) : "no rotation");
	return buf;
}

/* What the op did on the way: draws, the walk's visits and counts. */
static void compare_op(struct mlf_failure *f, const char *pn, const char *tn)
{
	char a[80], b[80];
	int i, n;

	if (port.draws != tree.draws) {
		mlf_failure_msg(f, "draws consumed: %lu on %s, %lu on %s",
				port.draws, pn, tree.draws, tn);
		diverged(f, MLF_NONE, MLF_NONE, MLF_NONE, MLF_NONE);
	}
	n = max(port.nr_visits, tree.nr_visits);
	for (i = 0; i < n && i < MLF_DIFF_MAX_VISITS; i++) {
		if (i < port.nr_visits && i < tree.nr_visits &&
		    !memcmp(&port.visits[i], &tree.visits[i], sizeof(port.visits[i])))
			continue;
		mlf_failure_msg(f, "visit %d of the walk: %s on %s, %s on %s", i,
				show_visit(a, sizeof(a), &port, i), pn,
				show_visit(b, sizeof(b), &tree, i), tn);
		diverged(f, MLF_NONE, MLF_NONE, MLF_NONE,
			 i < port.nr_visits ? port.visits[i].memcg :
					      tree.visits[i].memcg);
	}
	if (port.nr_visits != tree.nr_visits) {
		mlf_failure_msg(f, "the walk visited %d memcgs on %s, %d on %s",
				port.nr_visits, pn, tree.nr_visits, tn);
		diverged(f, MLF_NONE, MLF_NONE, MLF_NONE, MLF_NONE);
	}
	if (port.nr_reclaimed != tree.nr_reclaimed ||
	    port.nr_scanned != tree.nr_scanned) {
		mlf_failure_msg(f,
				"nr_reclaimed / nr_scanned: %lu / %lu on %s, %lu / %lu on %s",
				port.nr_reclaimed, port.nr_scanned, pn,
				tree.nr_reclaimed, tree.nr_scanned, tn);
		diverged(f, MLF_NONE, MLF_NONE, MLF_NONE, MLF_NONE);
	}
}

static void compare_unlinked(struct mlf_failure *f, const char *pn,
			     const char *tn, int i, int nid)
{
	if (port.unlinked[i][nid] != tree.unlinked[i][nid]) {
		mlf_failure_msg(f, "%s on %s, %s on %s",
				port.unlinked[i][nid] ? "unlinked" : "linked", pn,
				tree.unlinked[i][nid] ? "unlinked" : "linked", tn);
		diverged(f, nid, MLF_NONE, MLF_NONE, i);
	}
	if (port.unlinked_next[i][nid] != tree.unlinked_next[i][nid] ||
	    port.unlinked_pprev_null[i][nid] != tree.unlinked_pprev_null[i][nid]) {
		mlf_failure_msg(f,
				"unlinked lrugen: next %d, pprev %s on %s; next %d, pprev %s on %s (next: a memcg id, %d NULL, %d unknown, %d + a nulls value)",
				port.unlinked_next[i][nid],
				port.unlinked_pprev_null[i][nid] ? "NULL" : "set", pn,
				tree.unlinked_next[i][nid],
				tree.unlinked_pprev_null[i][nid] ? "NULL" : "set", tn,
				MLF_DIFF_LINK_NULL, MLF_DIFF_LINK_UNKNOWN,
				MLF_DIFF_LINK_NULLS);
		diverged(f, nid, MLF_NONE, MLF_NONE, i);
	}
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
	compare_op(&f, pn, tn);
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
			compare_unlinked(&f, pn, tn, i, nid);
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
