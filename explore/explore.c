// SPDX-License-Identifier: GPL-2.0
/*
 * mlf_explore: the schedules of a small scenario (scenarios.h) on the
 * scheduled engine, depth-first up to a preemption bound (kernel/explore.h),
 * with every check of the engine on each. Prints the schedules explored,
 * the choice points, the distinct states, the runs cut, the final states,
 * the failures and the time. A failure prints its report, the schedule's
 * last steps and the schedule as a string that --replay runs again.
 *
 *   mlf_explore_<variant> [--scenario NAME] [--bound N] [--weak-bound W]
 *                         [--memory-model lkmm|sc]
 *                         [--complete | --heuristic]
 *                         [--replay SCHEDULE] [--expect CHECK[|CHECK]]
 *                         [--promises N] [--keep-going] [--list]
 *   mlf_explore_<variant> --pct RUNS [--depth D] [--seed S] [--steps K]
 *                         [--scenario NAME] [--expect CHECK[|CHECK]]
 *
 * --pct samples instead: RUNS runs under PCT as published (schedule.h,
 * MLF_SCHED_PCT_RANDOM), seeds S.., D - 1 change points over K steps (by
 * default the length of the run with none); each run finds a bug of depth
 * D with probability >= 1 / (n K^(D-1)), if the run is no longer than K.
 *
 * Under the weak memory model (lkmm, the default; kernel/wmm.h) a marked
 * load may read an older store, a store go before newer ones: each such
 * weak choice other than the newest spends one of --weak-bound (default
 * 1), as a preemption spends one of --bound (default 2). --memory-model sc
 * runs every execution sequentially consistent. --promises N lets a run
 * make up to N promises (load buffering, wmm.h): each run is then a forked
 * child, and one whose promise is broken, or that fails a check while a
 * promise is not kept yet, is discarded (it is no execution of the model),
 * not counted.
 *
 * Modes: the reduction (default; sound, docs/explore.md), --complete (every
 * schedule within the bound) and --heuristic (state hashing, which may
 * miss schedules). --keep-going goes on past failures and prints the
 * checks that failed, for comparing the modes. With no --scenario, every
 * scenario in turn, to the first failure.
 *
 * A schedule string lists the choices that are not the default, each as
 * "choice-point:option" (the option's index at that point; 0, the default,
 * lets the current task go on), comma-separated; "-" is the default
 * schedule. Exit status: 0 when no explored schedule failed (or
 * --expect's check failed), 1 on a failure, 2 on a bad argument.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel/report.h"
#include "kernel/wmm.h"
#include "scenarios.h"

#ifndef MLF_EXPLORE_BUILD
#define MLF_EXPLORE_BUILD "?"
#endif

static struct sched_input input;
static struct mlf_explore_run *run;
static const struct explore_scenario *scenario;
static const char *expect;
static unsigned long schedules;
static bool keep_going;
/* --promises: how many a run may make; its runs forked, some discarded */
static int promises;
static unsigned long discarded, promise_points, promise_offers;
/* the memory model, and the most weak choices other than the newest */
static enum mlf_memory_model memory_model = MLF_MM_LKMM;
static long weak_bound = 1;
/* --pct: the run's seed, the depth, the steps, or 0 when enumerating */
static struct {
	u64 seed;
	int depth;
	unsigned long steps;
} pct;

/*
 * --keep-going: the checks that failed (the first failure of each run),
 * and in how many runs. Each run is a forked child, which ends at its
 * failure (what follows a failure is its consequence, and may crash);
 * the exploration's records (the run's choices, the states met, the
 * counts) are in memory the child shares, and so is the run's outcome.
 */
#define MAX_FAILED 32
static struct {
	const char *check;
	unsigned long runs;
} failed[MAX_FAILED];
static int nr_failed, total_failed;
static struct outcome {
	const char *check;	/* the failure's (a name in this binary) */
	u64 final_state;	/* else the state at quiescence */
	struct sched_stats engine;
	struct mlf_explore_stats stats;
	bool discarded;		/* --promises: no execution (wmm.h) */
} *outcome;

/* The final states met, as a set of the engine's hashes at quiescence. */
static struct {
	u64 *keys;
	size_t cap, nr;
	u64 digest;
} finals;
static void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "mlf_explore: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " ([--scenario NAME] [--bound N] [--complete | "
			"--heuristic] [--replay SCHEDULE] "
			"[--expect CHECK[|CHECK]] [--keep-going] "
			"[--memory-model lkmm|sc] [--weak-bound N] | --list)\n");
	exit(2);
}

static void print_schedule_string(FILE *out, const struct mlf_choice *log,
				  int nr)
{
	bool any = false;
	int i;

	for (i = 0; i < nr; i++) {
		if (!log[i].chosen)
			continue;
		fprintf(out, "%s%d:%d", any ? "," : "", i, log[i].chosen);
		any = true;
	}
	if (!any)
		fputc('-', out);
}

/* "-" or "i:o,i:o,..." with rising i -> run->prefix; false if malformed */
static bool parse_schedule(const char *s, struct mlf_explore_run *r)
{
	int last = -1;

	memset(r->prefix, 0, sizeof(r->prefix));
	r->nr_prefix = 0;
	if (!strcmp(s, "-"))
		return true;
	for (;;) {
		char *end;
		long i, o;

		errno = 0;
		i = strtol(s, &end, 10);
		if (end == s || *end != ':' || errno || i <= last ||
		    i >= MLF_EXPLORE_MAX_CHOICES)
			return false;
		s = end + 1;
		o = strtol(s, &end, 10);
		if (end == s || errno || o < 1 ||
		    o > MLF_EXPLORE_MAX_WEAK_OPTIONS)
			return false;
		r->prefix[i] = (u8)o;
		r->nr_prefix = (int)i + 1;
		last = (int)i;
		if (!*end)
			return true;
		if (*end != ',')
			return false;
		s = end + 1;
	}
}

static void print_op(FILE *out, const struct sched_op *op)
{
	fprintf(out, "t%d %s", op->task, sched_op_name(op->kind));
	if (op->kind == SOP_RECLAIM)
		fprintf(out, " n%d target=%d", op->node, op->target);
	else if (op->kind != SOP_RELEASE)
		fprintf(out, " m%d n%d arg=%d", op->slot, op->node, op->arg);
	else
		fprintf(out, " m%d", op->slot);
}

static void print_scenario(FILE *out)
{
	int i;

	fprintf(out, "scenario %s: %s\n", scenario->name, scenario->what);
	fprintf(out, "  nodes %d pool %d writers %d readers %d initial %d (bin %d)\n",
		input.nr_nodes, input.pool_size, input.nr_writers,
		input.nr_readers, input.nr_initial, input.initial_bin - 1);
	for (i = 0; i < input.nr_ops; i++) {
		fprintf(out, "  op %d: ", i);
		print_op(out, &input.ops[i]);
		fprintf(out, " bin=%d\n", input.ops[i].bin - 1);
	}
}

/* @check is one of the '|'-separated names of --expect */
static bool is_expected(const char *check)
{
	size_t len = strlen(check);
	const char *p = expect;

	while (p) {
		const char *bar = strchr(p, '|');
		size_t n = bar ? (size_t)(bar - p) : strlen(p);

		if (n == len && !strncmp(p, check, len))
			return true;
		p = bar ? bar + 1 : NULL;
	}
	return false;
}

static void note_failed(const char *check)
{
	int i;

	for (i = 0; i < nr_failed; i++)
		if (!strcmp(failed[i].check, check))
			break;
	if (i == nr_failed) {
		if (nr_failed == MAX_FAILED)
			return;
		failed[nr_failed++].check = check;
	}
	failed[i].runs++;
}

/* A check failed in the run: report it with the schedule that replays it. */
static void on_failure(const struct mlf_failure *f)
{
	bool expected = expect && is_expected(f->check);

	/* a failure of a run that may be none: its promise is not kept yet */
	if (promises && mlf_wmm_promise_pending()) {
		outcome->discarded = true;
		_exit(0);
	}
	if (promises)
		outcome->check = f->check;	/* the parent stops, as we do */
	if (keep_going) {
		/* in the run's child */
		outcome->check = f->check;
		_exit(1);
	}

	mlf_print_failure(f);
	print_scenario(stderr);
	mlf_sched_print_recent(60);
	if (pct.steps) {
		fprintf(stderr, "PCT run %lu: seed %llu depth %d steps %lu\n"
			"replay: tools/mlf explore --scenario %s --pct 1 --seed %llu --depth %d --steps %lu (%s)\n",
			schedules + 1, (unsigned long long)pct.seed, pct.depth,
			pct.steps, scenario->name,
			(unsigned long long)pct.seed, pct.depth, pct.steps,
			MLF_EXPLORE_BUILD);
		goto out;
	}
	fprintf(stderr, "schedule (after %lu schedules): ", schedules + 1);
	print_schedule_string(stderr, run->log, run->nr_log);
	fprintf(stderr, "\nreplay: tools/mlf explore --scenario %s%s",
		scenario->name,
		memory_model == MLF_MM_SC ? " --memory-model sc" : "");
	if (promises)
		fprintf(stderr, " --promises %d", promises);
	fprintf(stderr, " --replay '");
	print_schedule_string(stderr, run->log, run->nr_log);
	fprintf(stderr, "' (%s)\n", MLF_EXPLORE_BUILD);
out:
	if (expect)
		fprintf(stderr, "mlf explore: %s %s (expected %s)\n",
			expected ? "caught" : "failed with", f->check, expect);
	fflush(stderr);
	_exit(expected ? 0 : 1);
}

static void note_final(u64 key)
{
	size_t h;

	if (!key)
		key = 1;
	if (2 * (finals.nr + 1) > finals.cap) {
		u64 *old = finals.keys;
		size_t old_cap = finals.cap, i;

		finals.cap = old_cap ? 2 * old_cap : 1024;
		finals.keys = calloc(finals.cap, sizeof(*finals.keys));
		if (!finals.keys)
			abort();
		for (i = 0; i < old_cap; i++) {
			if (!old[i])
				continue;
			for (h = old[i] & (finals.cap - 1); finals.keys[h];
			     h = (h + 1) & (finals.cap - 1))
				;
			finals.keys[h] = old[i];
		}
		free(old);
	}
	for (h = key & (finals.cap - 1); finals.keys[h];
	     h = (h + 1) & (finals.cap - 1))
		if (finals.keys[h] == key)
			return;
	finals.keys[h] = key;
	finals.nr++;
	finals.digest += key * 0x9e3779b97f4a7c15ULL;
}

static void *shared_zalloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mlf_explore: mmap");
		exit(2);
	}
	return p;
}

/*
 * --keep-going or --promises: one run in a child; its outcome in *outcome.
 * Without --keep-going the child reported its failure: the parent ends
 * with its status.
 */
static void run_forked(struct mlf_explore_visited *visited)
{
	int status;
	pid_t pid;

	mlf_explore_visited_reserve(visited, MLF_EXPLORE_MAX_CHOICES + 1);
	outcome->check = NULL;
	outcome->final_state = 0;
	outcome->discarded = false;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		perror("mlf_explore: fork");
		exit(2);
	}
	if (!pid) {
		/* a loop with no scheduling point in it never ends otherwise */
		alarm(2);
		mlf_explore_use(visited, &outcome->stats);
		sched_engine_explore(&input, run, &outcome->engine);
		outcome->final_state = outcome->engine.final_state;
		outcome->discarded = outcome->engine.sched.discarded;
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("mlf_explore: waitpid");
		exit(2);
	}
	promise_points += outcome->engine.sched.promise_points;
	promise_offers += outcome->engine.sched.promise_offers;
	if (outcome->discarded) {
		discarded++;
		return;
	}
	if (!keep_going && (outcome->check || !WIFEXITED(status) ||
			    WEXITSTATUS(status))) {
		if (!outcome->check)
			fprintf(stderr, "mlf explore: the run died (%s)\n",
				WIFSIGNALED(status) ?
					strsignal(WTERMSIG(status)) : "exit");
		exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
	}
	if (outcome->check)
		note_failed(outcome->check);
	else if (!WIFEXITED(status) || WEXITSTATUS(status))
		/* not by a check: a crash is a failure of its own */
		note_failed(WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) :
						  "exit");
	else
		note_final(outcome->final_state);
}

/*
 * --pct: @runs runs of @sc from @seed on, @depth - 1 change points over
 * @steps (0: the length of the run with none, an estimate).
 */
static void sample(const struct explore_scenario *sc, unsigned long runs,
		   u64 seed, int depth, unsigned long steps)
{
	struct sched_stats engine = { 0 };
	unsigned long longest = 0, longer = 0, r;
	double p = 1, miss = 1;
	int n, d;

	scenario = sc;
	sc->fill(&input);
	input.memory_model = memory_model;
	schedules = 0;
	if (!steps) {
		sched_engine_pct(&input, 0, 1, 1, &engine);
		steps = engine.sched.steps;
	}
	pct.depth = depth;
	pct.steps = steps;
	for (r = 0; r < runs; r++) {
		pct.seed = seed + r;
		sched_engine_pct(&input, pct.seed, depth, steps, &engine);
		schedules++;
		if (engine.sched.steps > longest)
			longest = engine.sched.steps;
		if (engine.sched.steps > steps)
			longer++;
	}
	/* n: the harness's tasks and rcu's */
	n = input.nr_writers + input.nr_readers + 1;
	for (d = 1; d < depth; d++)
		p /= (double)steps;
	p /= n;
	for (r = 0; r < runs; r++)
		miss *= 1 - p;
	printf("mlf explore: build=%s scenario=%s pct depth=%d steps=%lu seeds=%llu..%llu\n",
	       MLF_EXPLORE_BUILD, sc->name, depth, steps,
	       (unsigned long long)seed,
	       (unsigned long long)(seed + runs - 1));
	printf("  runs %lu  failures 0  longest run %lu steps  runs longer than %lu: %lu\n",
	       runs, longest, steps, longer);
	printf("  a bug of depth %d in a run of at most %lu steps: found with probability >= %.3g per run, >= %.3g in %lu runs\n",
	       depth, steps, p, 1 - miss, runs);
	fflush(stdout);
	pct.steps = 0;
}

/* "memory-model=lkmm weak-bound=W", for the summary */
static const char *weak_bound_str(void)
{
	static char buf[48];

	snprintf(buf, sizeof(buf), "memory-model=lkmm weak-bound=%ld",
		 weak_bound);
	return buf;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The schedules of @sc within @bound in @mode (or the one of @replay). */
static void explore(const struct explore_scenario *sc, int bound,
		    enum mlf_explore_mode mode, const char *replay)
{
	struct mlf_explore_visited *visited = NULL;
	struct mlf_explore_stats stats = { 0 };
	struct sched_stats engine = { 0 };
	double start, secs;
	int i;

	scenario = sc;
	sc->fill(&input);
	input.memory_model = memory_model;
	schedules = 0;
	nr_failed = 0;
	free(finals.keys);
	memset(&finals, 0, sizeof(finals));
	memset(run, 0, sizeof(*run));
	mlf_explore_begin(run, bound);
	run->max_weak = weak_bound;
	run->mode = mode;
	if (replay && !parse_schedule(replay, run))
		usage_error("--replay %s: not a schedule (\"-\" or "
			    "\"point:option,...\" with rising points)", replay);
	discarded = promise_points = promise_offers = 0;
	input.promises = memory_model == MLF_MM_LKMM ? promises : 0;
	if (keep_going || promises) {
		visited = mlf_explore_visited_new_shared();
		memset(outcome, 0, sizeof(*outcome));
	} else if (!replay) {
		visited = mlf_explore_visited_new();
	}
	mlf_explore_use(visited, &stats);
	start = now();
	do {
		if (keep_going || promises) {
			run_forked(visited);
		} else {
			sched_engine_explore(&input, run, &engine);
			note_final(engine.final_state);
		}
		schedules++;
		if (run->truncated)
			stats.truncated++;
	} while (!replay && mlf_explore_next(run));
	secs = now() - start;
	if (keep_going || promises) {
		unsigned long truncated = stats.truncated;

		stats = outcome->stats;
		stats.truncated = truncated;
		engine = outcome->engine;
	}
	mlf_explore_use(NULL, NULL);
	mlf_explore_visited_free(visited);
	printf("mlf explore: build=%s scenario=%s bound=%d %s mode=%s%s\n",
	       MLF_EXPLORE_BUILD, sc->name, bound,
	       memory_model == MLF_MM_SC ? "memory-model=sc" :
					   weak_bound_str(),
	       mlf_explore_mode_name(mode), replay ? " replay" : "");
	if (input.promises)
		printf("  promises %d  loads that could promise %lu, with a store to promise %lu  discarded runs %lu (of the schedules below; their final states and failures are not counted)\n",
		       input.promises, promise_points, promise_offers,
		       discarded);
	printf("  schedules %lu  choice points %lu  distinct states %lu  "
	       "pruned %lu  truncated %lu\n",
	       schedules, stats.choice_points, stats.states, stats.pruned,
	       stats.truncated);
	printf("  final states %zu (digest %016llx)  failures %d  time %.2f s  "
	       "schedules/s %.0f  steps/schedule %.0f  walks %lu\n",
	       finals.nr, (unsigned long long)finals.digest, nr_failed, secs,
	       secs > 0 ? schedules / secs : 0.0,
	       (double)engine.steps_total / schedules, engine.walks);
	for (i = 0; i < nr_failed; i++)
		printf("  failed %s in %lu schedules\n", failed[i].check,
		       failed[i].runs);
	total_failed += nr_failed;
	fflush(stdout);
}

int main(int argc, char **argv)
{
	enum mlf_explore_mode mode = MLF_EXPLORE_REDUCED;
	const char *replay = NULL;
	unsigned long pct_runs = 0, pct_steps = 0, pct_seed = 1;
	long bound = 2, depth = 2;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--list")) {
			int k;

			for (k = 0; k < explore_nr_scenarios; k++)
				printf("%-12s %s\n", explore_scenarios[k].name,
				       explore_scenarios[k].what);
			return 0;
		} else if (!strcmp(a, "--complete")) {
			mode = MLF_EXPLORE_COMPLETE;
		} else if (!strcmp(a, "--no-hash")) {
			fprintf(stderr, "mlf_explore: --no-hash is now --complete\n");
			mode = MLF_EXPLORE_COMPLETE;
		} else if (!strcmp(a, "--heuristic")) {
			mode = MLF_EXPLORE_HEURISTIC;
		} else if (!strcmp(a, "--keep-going")) {
			keep_going = true;
		} else if (!strcmp(a, "--promises")) {
			char *end;
			long n;

			if (!v)
				usage_error("%s needs a value", a);
			i++;
			n = strtol(v, &end, 10);
			if (*end || end == v || n < 0 || n > 4)
				usage_error("--promises %s: not 0..4", v);
			promises = (int)n;
		} else if (!strcmp(a, "--memory-model")) {
			if (!v || (strcmp(v, "lkmm") && strcmp(v, "sc")))
				usage_error("%s needs lkmm or sc", a);
			i++;
			memory_model = strcmp(v, "lkmm") ? MLF_MM_SC : MLF_MM_LKMM;
		} else if (!strcmp(a, "--weak-bound")) {
			char *end;

			if (!v)
				usage_error("%s needs a value", a);
			i++;
			weak_bound = strtol(v, &end, 10);
			if (*end || end == v || weak_bound < 0 || weak_bound > 15)
				usage_error("--weak-bound %s: not 0..15", v);
		} else if (!strcmp(a, "--pct") || !strcmp(a, "--depth") ||
			   !strcmp(a, "--seed") || !strcmp(a, "--steps")) {
			char *end;
			unsigned long n;

			if (!v)
				usage_error("%s needs a value", a);
			i++;
			errno = 0;
			n = strtoul(v, &end, 10);
			if (*end || end == v || errno || *v == '-' ||
			    (strcmp(a, "--seed") && !n) ||
			    (!strcmp(a, "--depth") && n > 256))
				usage_error("%s: not a number in range", v);
			if (!strcmp(a, "--pct"))
				pct_runs = n;
			else if (!strcmp(a, "--depth"))
				depth = (long)n;
			else if (!strcmp(a, "--seed"))
				pct_seed = n;
			else
				pct_steps = n;
		} else if (!strcmp(a, "--scenario") || !strcmp(a, "--bound") ||
			   !strcmp(a, "--replay") || !strcmp(a, "--expect")) {
			if (!v)
				usage_error("%s needs a value", a);
			i++;
			if (!strcmp(a, "--scenario")) {
				scenario = explore_scenario(v);
				if (!scenario)
					usage_error("no scenario %s (--list)", v);
			} else if (!strcmp(a, "--bound")) {
				char *end;

				bound = strtol(v, &end, 10);
				if (*end || end == v || bound < 0 || bound > 20)
					usage_error("--bound %s: not 0..20", v);
			} else if (!strcmp(a, "--replay")) {
				replay = v;
			} else {
				expect = v;
			}
		} else {
			usage_error("unknown argument %s", a);
		}
	}
	if (replay && !scenario)
		usage_error("%s", "--replay needs a --scenario");
	if (keep_going || promises) {
		run = shared_zalloc(sizeof(*run));
		outcome = shared_zalloc(sizeof(*outcome));
	} else {
		run = calloc(1, sizeof(*run));
		if (!run)
			abort();
	}
	mlf_set_fail_handler(on_failure);
	if (keep_going && (expect || replay))
		usage_error("%s", "--keep-going goes with neither --expect nor --replay");
	if (pct_runs && promises)
		usage_error("%s", "--pct goes without --promises");
	if (pct_runs && (keep_going || replay))
		usage_error("%s", "--pct goes with neither --keep-going nor --replay");
	if (pct_runs && scenario)
		sample(scenario, pct_runs, pct_seed, (int)depth, pct_steps);
	else if (pct_runs)
		for (i = 0; i < explore_nr_scenarios; i++)
			sample(&explore_scenarios[i], pct_runs, pct_seed,
			       (int)depth, pct_steps);
	else if (scenario)
		explore(scenario, (int)bound, mode, replay);
	else
		for (i = 0; i < explore_nr_scenarios; i++)
			explore(&explore_scenarios[i], (int)bound, mode, NULL);
	/* a failure ends the process in on_failure(), unless --keep-going */
	if (keep_going)
		return total_failed ? 1 : 0;
	if (expect) {
		printf("mlf explore: %s never failed (expected)\n", expect);
		return 1;
	}
	return 0;
}
