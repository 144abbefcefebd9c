// SPDX-License-Identifier: GPL-2.0
/*
 * The driver of a translated litmus test (litmus.h): every schedule and
 * every choice of the memory model, without bounds, each execution from
 * the test's initial state; prints the distinct final states and a
 * summary line tools/mlf litmus reads. Under the LKMM a run may make up
 * to --promises promises (load buffering, wmm.h; default 2); a run that
 * broke one is no execution and its final state does not count.
 *
 *   litmus [--memory-model lkmm|sc] [--bound N] [--weak-bound N]
 *          [--promises N]
 */
#include "litmus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/explore.h"

#define MAX_OUTCOMES 256

static struct {
	char text[256];
	unsigned long count;
	bool filtered, cond;
} outcomes[MAX_OUTCOMES];
static int nr_outcomes;

static void task(int i, void *arg)
{
	(void)arg;
	litmus_test.proc(i);
}

static void note_outcome(bool filtered, bool cond)
{
	char buf[256];
	int i;

	litmus_test.show(buf, sizeof(buf));
	for (i = 0; i < nr_outcomes; i++)
		if (!strcmp(outcomes[i].text, buf)) {
			outcomes[i].count++;
			return;
		}
	if (nr_outcomes == MAX_OUTCOMES)
		return;
	strcpy(outcomes[nr_outcomes].text, buf);
	outcomes[nr_outcomes].count = 1;
	outcomes[nr_outcomes].filtered = filtered;
	outcomes[nr_outcomes].cond = cond;
	nr_outcomes++;
}

static int usage(const char *why)
{
	fprintf(stderr, "litmus: %s\nusage: litmus [--memory-model lkmm|sc] "
			"[--bound N] [--weak-bound N] [--promises N]\n", why);
	return 2;
}

int main(int argc, char **argv)
{
	struct mlf_explore_run *run = calloc(1, sizeof(*run));
	struct mlf_explore_stats estats = { 0 };
	enum mlf_memory_model model = MLF_MM_LKMM;
	int bound = 64, weak_bound = 64, i;
	unsigned long executions = 0, filtered = 0, hits = 0, stale = 0;
	unsigned long discarded = 0, promised = 0;
	struct mlf_sched_config cfg = {
		.nr_tasks = litmus_test.nr_procs,
		.fn = task,
		.policy = MLF_SCHED_EXPLORE,
		.explore = run,
		.promises = 2,
	};

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--memory-model") && i + 1 < argc) {
			const char *m = argv[++i];

			if (!strcmp(m, "lkmm"))
				model = MLF_MM_LKMM;
			else if (!strcmp(m, "sc"))
				model = MLF_MM_SC;
			else
				return usage("--memory-model is lkmm or sc");
		} else if (!strcmp(argv[i], "--bound") && i + 1 < argc) {
			bound = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--weak-bound") && i + 1 < argc) {
			weak_bound = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--promises") && i + 1 < argc) {
			cfg.promises = atoi(argv[++i]);
		} else {
			return usage("unknown argument");
		}
	}
	if (!run)
		abort();
	cfg.memory_model = model;
	run->mode = MLF_EXPLORE_COMPLETE;
	run->max_weak = weak_bound;
	mlf_explore_begin(run, bound);
	mlf_explore_use(NULL, &estats);
	do {
		struct mlf_sched_stats stats = { 0 };
		bool f, c;

		litmus_test.init();
		mlf_sched_run(&cfg, &stats);
		if (run->truncated) {
			fprintf(stderr, "litmus: %s: a run outgrew the choice log\n",
				litmus_test.name);
			return 1;
		}
		if (stats.discarded) {
			discarded++;
			continue;
		}
		stale += stats.stale_reads;
		promised += stats.promises != 0;
		executions++;
		f = litmus_test.filter();
		c = f && litmus_test.cond();
		filtered += f;
		hits += c;
		note_outcome(f, c);
	} while (mlf_explore_next(run));
	mlf_explore_use(NULL, NULL);
	for (i = 0; i < nr_outcomes; i++)
		printf("  %s%s %lu: %s\n", outcomes[i].cond ? "*" : " ",
		       outcomes[i].filtered ? " " : "~", outcomes[i].count,
		       outcomes[i].text);
	printf("litmus-result test=%s model=%s executions=%lu filtered=%lu "
	       "cond=%lu stale_reads=%lu promised=%lu discarded=%lu\n",
	       litmus_test.name, model == MLF_MM_LKMM ? "lkmm" : "sc",
	       executions, filtered, hits, stale, promised, discarded);
	free(run);
	return 0;
}
