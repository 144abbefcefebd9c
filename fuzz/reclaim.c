// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target reclaim: folios, protections, reclaim walks that run the real
 * MGLRU eviction, evictions parked between isolation and writeback, and
 * memcgs going offline and away in between. reclaim_world checks the memcg
 * LRU structure, isolation accounting, the throttle, the shadow budget and
 * stat reparenting after every op and at the eviction probes. A failure
 * aborts through mlf_fail(); the context printer shows the trace around it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "engine_counters.h"
#include "harness/states.h"
#include "kernel/bitops.h"
#include "reclaim_codec.h"
#include "reclaim_meetings.h"

#define CONTEXT_BEFORE 8

static struct mlf_reclaim_header header;
static struct mlf_reclaim_op ops[MLF_RECLAIM_MAX_OPS];
static size_t nr_ops;
static struct mlf_reclaim_world world;

static void print_header(FILE *out)
{
	mlf_reclaim_print_header(out, &header);
}

static void print_op(FILE *out, size_t i)
{
	mlf_reclaim_print_op(out, &ops[i]);
}

/* the kernel function of the code under test each op runs (none: NULL) */
static const char *const op_kernel_functions[RECLAIM_OP_NR] = {
	[RECLAIM_OP_ONLINE] = "lru_gen_online_memcg",
	[RECLAIM_OP_OFFLINE] = "mem_cgroup_css_offline",
	[RECLAIM_OP_RELEASE] = "mem_cgroup_css_released",
	[RECLAIM_OP_RECLAIM] = "lru_gen_shrink_node",
};

static void print_context(void)
{
	long at = mlf_current_op;

	if (at >= 0 && at < (long)nr_ops && ops[at].kind < RECLAIM_OP_NR)
		mlf_print_tree_where(op_kernel_functions[ops[at].kind]);
	mlf_print_trace_context(at, nr_ops, CONTEXT_BEFORE, print_header, print_op);
}

/* the state coverage as the engine's extra coverage (memcg_lru.c) */
static unsigned char state_feedback[ST_NR_COUNTERS]
	__attribute__((section("__libfuzzer_extra_counters"), used));

/*
 * Where each memcg stands after each op, on the memcg LRU and in the
 * tree, whether or not an op meets it there, as counters of their own (not
 * state coverage): an input that leaves a memcg in a new place is kept,
 * for a meeting to find it there and put in the ops that meet it (the
 * places that take several ops to build: a stale walk's young tail, then
 * the memcg dying in it; a memcg under two offline ancestors)
 */
static unsigned char stood_feedback[ST_NR_LRU_PLACES + ST_NR_TREE_PLACES]
	__attribute__((section("__libfuzzer_extra_counters"), used));

/*
 * The size of the LRU each reclaim starts on (fls_long() of the pages the
 * folio model has charged in its node's zones) by the priority it asks, as
 * counters of their own: reclaim's arithmetic on sizes
 * (set_initial_priority()'s estimate, get_nr_to_scan()'s shift,
 * lruvec_is_sizable()) turns on magnitudes that no branch marks until
 * they are reached, so an input that takes a node's LRU to a size not
 * reclaimed at that priority before is kept.
 */
#define SIZE_ORDERS (MLF_RECLAIM_MAX_ORDER + 11)
_Static_assert((MLF_RECLAIM_MAX_FOLIOS << MLF_RECLAIM_MAX_ORDER) <
		       1 << SIZE_ORDERS,
	       "every size has its counter");
static unsigned char size_feedback[SIZE_ORDERS * (DEF_PRIORITY + 1)]
	__attribute__((section("__libfuzzer_extra_counters"), used));

static void reclaim_size(const struct mlf_reclaim_op *op)
{
	const long *zone_pages = world.rcs.model.zone_pages[op->node];
	unsigned long pages = 0;
	int z;

	for (z = 0; z < MAX_NR_ZONES; z++)
		pages += zone_pages[z];
	size_feedback[fls_long(pages) * (DEF_PRIORITY + 1) +
		      op->priority] = 1;
}

/*
 * Places just found: an input this process ran that took a memcg, before
 * its op @at, to a place where none had stood before. The engine picks the
 * inputs to mutate among all it keeps, and a meeting looks at a few places
 * of each, so a place that only a long history builds (one input of
 * thousands, before one op of hundreds) would wait long for a meeting:
 * meetings look there first, until it has nothing left to meet.
 */
#define FRESH_PLACES 64
static struct fresh_place {
	uint8_t *data;
	size_t size, at;
	int slot;
} fresh[FRESH_PLACES];
static unsigned int fresh_first, nr_fresh;
static bool stood_before[ARRAY_SIZE(stood_feedback)];
/* the input run() runs, and the op it is before; the mutator's last's hash */
static const uint8_t *run_data;
static size_t run_size, run_at;
static uint64_t run_hash;
/* of the last run, the ops the world skipped, and each op's crowded_bin */
static bool skipped[MLF_RECLAIM_MAX_OPS];
static int crowded[MLF_RECLAIM_MAX_OPS];

/*
 * A meeting that may take a memcg to a place with cells to meet, without
 * a cell of its own (reclaim_meetings.c), is a guess: a walk may rotate
 * the memcgs it needs elsewhere, an eviction may not take the last
 * charges. The engine's run of what the mutator made of it tells whether
 * the memcg stands there after the meeting's ops; if not, the next
 * meetings guess again at that place of that input, GUESS_AGAIN times,
 * before a guess there counts as the place's next try. Otherwise the first
 * inputs that come near a place use up its tries with guesses right one
 * time in several.
 */
#define GUESS_AGAIN 8
static struct guess {
	/* the input the meeting went in (NULL: none), before its op @at */
	uint8_t *data;
	size_t size, at;
	/* the op after the meeting's; the memcg, its node and the place */
	size_t end;
	int slot, nid, goal;
	/* what the meeting's ops do to take it there */
	enum reclaim_move move;
	/* the input the mutator made of it, not yet run (0: none) */
	uint64_t made;
	/* whether run() runs that input; the guesses left */
	bool judging;
	int again;
} guess;

/* by move: the guesses judged, and those that came true */
static unsigned long guesses_judged[RECLAIM_NR_MOVES];
static unsigned long guesses_true[RECLAIM_NR_MOVES];

void reclaim_guesses(enum reclaim_move move, unsigned long *judged,
		     unsigned long *came_true)
{
	*judged = guesses_judged[move];
	*came_true = guesses_true[move];
}

static void guess_drop(void)
{
	free(guess.data);
	guess = (struct guess){ 0 };
}

/* whether @guess's memcg stands at its place after the op run() applied */
static bool guess_came_true(void)
{
	struct mlf_state_cell c;
	int place;

	mlf_state_cell_of(&world.w.cs, guess.slot, guess.nid, 0, &c);
	place = guess.goal >= ST_NR_LRU_PLACES ?
			ST_NR_LRU_PLACES + mlf_state_tree_place(&c) :
			mlf_state_place(&c);
	return place == guess.goal;
}

/* the oldest place gives way when the queue is full */
static void fresh_pop(void)
{
	free(fresh[fresh_first].data);
	fresh[fresh_first].data = NULL;
	fresh_first = (fresh_first + 1) % FRESH_PLACES;
	nr_fresh--;
}

static void fresh_push(int slot)
{
	struct fresh_place *fp;

	if (nr_fresh == FRESH_PLACES)
		fresh_pop();
	fp = &fresh[(fresh_first + nr_fresh) % FRESH_PLACES];
	fp->data = malloc(run_size ? run_size : 1);
	if (!fp->data)
		return;
	memcpy(fp->data, run_data, run_size);
	fp->size = run_size;
	fp->at = run_at;
	fp->slot = slot;
	nr_fresh++;
}

/* whether no memcg had stood at @place before */
static bool stand(int place)
{
	bool first = !stood_before[place];

	stood_feedback[place] = 1;
	stood_before[place] = true;
	return first;
}

static void stood(void *arg, const struct reclaim_stand *s)
{
	bool lru, tree;

	(void)arg;
	lru = stand(mlf_state_place(s->c));
	tree = stand(ST_NR_LRU_PLACES + mlf_state_tree_place(s->c));
	if (lru || tree)
		fresh_push(s->slot);
}

/*
 * The memcg op @i names, where a meeting always looks (the state it met
 * there may last only until that op); -1 if it names none (a walk: its
 * memcgs are the places looked at at random)
 */
static int op_memcg(size_t i)
{
	if (i >= nr_ops || !mlf_reclaim_op_names_memcg(ops[i].kind))
		return -1;
	return ops[i].memcg % header.pool_size;
}

/* where a meeting looks before op @i; false: nothing more to look at */
static bool look(struct reclaim_meeting_pick *pick, size_t i)
{
	int only;

	if (reclaim_meeting_looks(pick, i, nr_ops))
		only = -1; /* every memcg */
	else if (pick->focus >= 0)
		only = i == pick->focus_at ? pick->focus : -2;
	else
		only = op_memcg(i) >= 0 ? op_memcg(i) : -2;
	if (only >= -1)
		reclaim_world_stands(&world, only, true, reclaim_meeting_stand,
				     pick);
	return pick->focus < 0 || i < pick->focus_at;
}

/*
 * The engine's run of the input (@engine: the feedback), a meeting's
 * (@pick: it looks where memcgs stand as it goes), or the mutator's own.
 * The mutator's runs go to the end as the engine's did even when they
 * have nothing more to look at: the world's teardown checks what the
 * input left, and a failure there that the engine's run did not see
 * would be a failure of the mutator's, with no input to replay.
 */
static void run(const uint8_t *data, size_t size,
		struct reclaim_meeting_pick *pick, bool engine)
{
	bool looking = pick;
	size_t i;

	mlf_set_context_printer(print_context);
	nr_ops = mlf_reclaim_decode(data, size, &header, ops,
				    MLF_RECLAIM_MAX_OPS);
	reclaim_world_init(&world, header.nr_nodes, header.pool_size);
	run_data = data;
	run_size = size;
	/* the mutator's runs only (reclaim_crowded_bin()) */
	run_hash = engine ? 0 : reclaim_meeting_hash(data, size);
	for (i = 0; i < nr_ops || (looking && i == nr_ops); i++) {
		if (looking && !look(pick, i))
			looking = false;
		if (i == nr_ops)
			break;
		if (engine && ops[i].kind == RECLAIM_OP_RECLAIM)
			reclaim_size(&ops[i]);
		skipped[i] = !reclaim_world_apply(&world, &ops[i]);
		crowded[i] = world.crowded_bin;
		run_at = i + 1;
		if (engine)
			reclaim_world_stands(&world, -1, false, stood, NULL);
		if (engine && guess.judging && run_at == guess.end) {
			guesses_judged[guess.move]++;
			if (guess_came_true()) {
				guesses_true[guess.move]++;
				guess_drop();
			}
		}
	}
	reclaim_world_destroy(&world);
}

/* @want >= 0: a guess again at that place (struct guess) */
static bool meeting(const uint8_t *data, size_t size, uint64_t seed,
		    int focus, size_t focus_at, int want, struct mlf_meeting *m)
{
	struct reclaim_meeting_pick pick;
	size_t i;

	if (!reclaim_meeting_begin(&pick, data, size, seed, focus, focus_at))
		return false;
	pick.want = want;
	run(data, size, &pick, false);
	if (!reclaim_meeting_end(&pick, m))
		return false;
	/*
	 * What the world skipped may go to make room: nothing it does
	 * depends on an op that did nothing (not even the others' draws,
	 * resched_hook())
	 */
	for (i = m->at; i-- && m->nr_spare < MLF_MEETING_MAX_SPARE;)
		if (skipped[i])
			m->spare[m->nr_spare++] = i;
	if (!pick.advance)
		return true;
	if (want < 0) {
		guess_drop();
		guess.data = malloc(size ? size : 1);
		if (!guess.data)
			return true;
		memcpy(guess.data, data, size);
		guess.size = size;
		guess.at = m->at;
		guess.goal = pick.goal;
		guess.again = GUESS_AGAIN;
	}
	guess.slot = pick.subject;
	guess.nid = pick.subject_node;
	guess.move = pick.move;
	return true;
}

void mlf_target_meeting_made(const uint8_t *data, size_t size,
			     const struct mlf_meeting *m)
{
	if (!guess.data)
		return;
	/* a guess whose ops found no room would not come true again */
	if (!data) {
		guess_drop();
		return;
	}
	guess.made = reclaim_meeting_hash(data, size);
	guess.end = m->at + 1 + m->nr_first;
}

/* a guess again at the last guess's place, if it did not come true */
static bool guess_again(uint8_t *data, size_t *size, size_t max,
			uint64_t seed, struct mlf_meeting *m)
{
	/* a guess the engine has not run is given up */
	if (!guess.data || guess.made || !guess.again || guess.size > max ||
	    !meeting(guess.data, guess.size, seed, guess.slot, guess.at,
		     guess.goal, m)) {
		guess_drop();
		return false;
	}
	guess.again--;
	memcpy(data, guess.data, guess.size);
	*size = guess.size;
	return true;
}

/*
 * A stale walk of the input (one that others= leave behind), its draws
 * made to name one bin in one meeting in REWORK_ONE_IN, and in a meeting
 * that finds nothing else to meet. What such a walk
 * rotates goes to the bins its draws name, in the young generation, on
 * the tail segment for a memcg with nothing to reclaim there; only where
 * the walk goes on to that bin does it meet that memcg again, behind the
 * memcgs it met there first. The bin is that of the walk's generation
 * with the most memcgs once the others have run in its yield (its
 * crowded_bin), but one time in CROWDED_NOT one at random: of the stale
 * walks of 400 inputs of a minute's corpus (seed 82's, at 9504ad0), each
 * re-drawn to each bin in turn, 6 of the 3,408 met a cell of an offline
 * memcg in a young 3+ bin that the input did not, each at its crowded
 * bin. The walk's draws come after its yield and the others draw their
 * own, so that bin is the same once the draws name it. One meeting in
 * two, not four: of 36 one-minute campaigns from empty (seeds 81-86,
 * 91-96, 101-112, 141-152, at 927d57e), 15 met their last cell after 30 s
 * or never with one in four, 8 with one in two; the cell last met (or
 * missed) was mostly a walk's visit of an offline memcg in a young bin
 * of three or more.
 */
#define REWORK_ONE_IN 2
#define CROWDED_NOT 4

int reclaim_crowded_bin(const uint8_t *data, size_t size, size_t at)
{
	/* a meeting that found nothing to meet may have run it just now */
	if (reclaim_meeting_hash(data, size) != run_hash)
		run(data, size, NULL, false);
	return at < nr_ops && ops[at].kind == RECLAIM_OP_RECLAIM ? crowded[at] :
								   -1;
}

static bool rework_stale_walk(const uint8_t *data, size_t size, uint64_t seed,
			      int one_in, struct mlf_meeting *m)
{
	/* draws of its own: the meetings draw from @seed too */
	struct mlf_rng g = mlf_rng_seeded(seed ^ 0x7265776f726bULL);
	size_t i, seen = 0, pick = 0;
	int bin;

	if (!mlf_rng_one_in(&g, one_in))
		return false;
	nr_ops = mlf_reclaim_decode(data, size, &header, ops,
				    MLF_RECLAIM_MAX_OPS);
	for (i = 0; i < nr_ops; i++)
		if (ops[i].kind == RECLAIM_OP_RECLAIM && ops[i].others >= 2 &&
		    !mlf_rng_below(&g, ++seen))
			pick = i;
	if (!seen)
		return false;
	bin = mlf_rng_one_in(&g, CROWDED_NOT) ?
		      -1 :
		      reclaim_crowded_bin(data, size, pick);
	if (bin < 0)
		bin = mlf_rng_below(&g, MEMCG_NR_BINS);
	*m = (struct mlf_meeting){ .at = pick,
				   .kind = RECLAIM_OP_RECLAIM,
				   .memcg = -1,
				   .node = ops[pick].node,
				   .folio = -1,
				   .parked = -1,
				   .cell = -1,
				   .draw = bin,
				   .start = -1,
				   .zone = -1,
				   .rework = true };
	return true;
}

bool mlf_target_meeting(uint8_t *data, size_t *size, size_t max,
			uint64_t seed, struct mlf_meeting *m)
{
	if (guess_again(data, size, max, seed, m))
		return true;
	if (rework_stale_walk(data, *size, seed, REWORK_ONE_IN, m))
		return true;
	while (nr_fresh) {
		struct fresh_place *fp = &fresh[fresh_first];

		if (fp->size <= max &&
		    meeting(fp->data, fp->size, seed, fp->slot, fp->at, -1, m)) {
			memcpy(data, fp->data, fp->size);
			*size = fp->size;
			return true;
		}
		fresh_pop();
	}
	if (meeting(data, *size, seed, -1, 0, -1, m))
		return true;
	/*
	 * Nothing to meet in this input (most, once a campaign has met the
	 * places its inputs reach): the meeting's turn goes to a stale walk
	 */
	return rework_stale_walk(data, *size, ~seed, 1, m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool attached;

	if (!attached) {
		reclaim_world_states_attach(state_feedback,
					    sizeof(state_feedback));
		attached = true;
	}
	guess.judging = guess.made &&
			guess.made == reclaim_meeting_hash(data, size);
	if (guess.judging)
		guess.made = 0;
	run(data, size, NULL, true);
	guess.judging = false;
	mlf_engine_counters_done();
	return 0;
}
