// SPDX-License-Identifier: GPL-2.0
/*
 * The concurrent engine (see concurrent.h): a pool of threads created once
 * and parked between runs, the ops each thread applies to the port, the
 * walk probe that checks readers as they go, and the checks at quiescence.
 *
 * The harness's own bookkeeping (which slot holds which memcg, in which
 * stage of its life) has a mutex per slot, held only while deciding, never
 * around a call into the port's LRU code, so the port's own locking is what
 * keeps it right. A thread that uses a memcg holds a reference while it
 * does; "dead" is refcnt == 0, which is permanent, and the one thread that
 * claims a dead memcg (OFFLINE -> RELEASING under the slot mutex) calls
 * css_release(), which frees it after a grace period.
 */
#define _GNU_SOURCE
#include "concurrent.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/checks.h"

enum conc_slot_state {
	CS_EMPTY,
	CS_ONLINING,
	CS_ONLINE,
	CS_OFFLINING,
	CS_OFFLINE,
	CS_RELEASING,
};

struct conc_slot {
	pthread_mutex_t lock;
	int state;			/* enum conc_slot_state, atomic */
	struct mem_cgroup *memcg;	/* under lock */
};

static struct mlf_world world;
static struct conc_config cfg;

static int clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}
static struct conc_slot *slots;
static int slots_cap;
static unsigned long seq_start[MAX_NUMNODES];

/* ---- counters: per thread, added into the totals when a job ends ---- */

static struct conc_stats totals;
static __thread struct conc_stats tl;

static void stats_flush(void)
{
	unsigned long *from = (unsigned long *)&tl;
	unsigned long *to = (unsigned long *)&totals;
	size_t i;

	for (i = 0; i < sizeof(tl) / sizeof(unsigned long); i++)
		__atomic_fetch_add(&to[i], from[i], __ATOMIC_RELAXED);
	memset(&tl, 0, sizeof(tl));
}

void conc_stats_read(struct conc_stats *s)
{
	unsigned long *from = (unsigned long *)&totals;
	unsigned long *to = (unsigned long *)s;
	size_t i;

	for (i = 0; i < sizeof(*s) / sizeof(unsigned long); i++)
		to[i] = __atomic_load_n(&from[i], __ATOMIC_RELAXED);
	s->frees = s->allocs - mem_cgroup_nr_allocated();
}

const struct mlf_world *conc_world(void)
{
	return &world;
}

/* ---- the walk probe: checks on every reader, as it goes ---- */

#define POISON_LONG 0x6b6b6b6b6b6b6b6bUL
#define POISON_INT 0x6b6b6b6b
#define MAX_RESTARTS 10000UL

static __thread struct {
	unsigned long visits, restarts, bins;
	unsigned long moves_at_start;
} walk;

/*
 * Moves of lrugens by anyone: a visit (the reader rotates what it visited,
 * at most once) and every writer op that links or rotates. A walk meets
 * an entry again in the same pass only if it was moved since.
 */
static unsigned long moves;

static void count_moves(unsigned long n)
{
	__atomic_fetch_add(&moves, n, __ATOMIC_RELAXED);
}

/* Moves by the other threads since this walk started. */
static unsigned long others_moves(void)
{
	unsigned long all = __atomic_load_n(&moves, __ATOMIC_RELAXED) -
			    walk.moves_at_start;

	return all > walk.visits ? all - walk.visits : 0;
}

/* A pointer a freed object would hold: MLF_FREE_POISON or exit's marker. */
static bool poisoned(const void *p)
{
	return (unsigned long)p == POISON_LONG || p == LIST_POISON1;
}

/* Relaxed loads: writers update these fields concurrently (WRITE_ONCE). */
static void check_memcg_alive(struct mem_cgroup *memcg, const char *when)
{
	int id = READ_ONCE(memcg->id);
	void *pn = READ_ONCE(memcg->nodeinfo[0]);
	u8 online = READ_ONCE(*(u8 *)&memcg->online);

	if (id == POISON_INT || poisoned(pn) || online == MLF_FREE_POISON)
		mlf_fail_simple("rcu.uaf",
				"%s: memcg %p is freed (id %#x, nodeinfo[0] %p, online byte %#x)",
				when, (void *)memcg, (unsigned int)id, pn,
				online);
}

static void check_lruvec_alive(struct lruvec *lruvec)
{
	struct mem_cgroup_per_node *pn =
		container_of(lruvec, struct mem_cgroup_per_node, lruvec);
	/*
	 * Only what an RCU reader may read: list.next (readers follow it),
	 * never list.pprev, which writers update plainly under the lock (the
	 * kernel's hlist_nulls_add_tail_rcu() does) and a read here would be
	 * a race of the probe's own making.
	 */
	void *next = READ_ONCE(lruvec->lrugen.list.next);
	void *pgdat = READ_ONCE(lruvec->pgdat);
	struct mem_cgroup *memcg = READ_ONCE(pn->memcg);

	if (poisoned(next) || poisoned(pgdat) || poisoned(memcg))
		mlf_fail_simple("rcu.uaf",
				"shrink_one() on a freed lruvec %p (next %p, pgdat %p, memcg %p)",
				(void *)lruvec, next, pgdat, (void *)memcg);
	check_memcg_alive(memcg, "shrink_one()");
}

/*
 * Alone, a walk meets each entry of a bin at most twice per pass (its own
 * TAIL rotation may put it at the tail of the same bin; the second visit
 * sends it young or leaves it). Other threads can move entries back in
 * front of it (and two advances of seq make young the walk's generation
 * again), each move buying at most one more visit or restart. Four times
 * that is far beyond any honest walk; a cycle or an endless chase is not.
 */
static unsigned long visit_bound(void)
{
	return 4UL * (cfg.pool_size + 8) * (walk.bins + 1) +
	       4 * others_moves() + 1000;
}

static unsigned long restart_bound(void)
{
	return MAX_RESTARTS + 4 * others_moves();
}

static void walk_probe(enum mlf_walk_event event, void *obj, long arg)
{
	switch (event) {
	case MLF_WALK_START:
		memset(&walk, 0, sizeof(walk));
		walk.moves_at_start = __atomic_load_n(&moves, __ATOMIC_RELAXED);
		tl.walks++;
		if ((unsigned long)arg >= MEMCG_NR_GENS)
			mlf_fail_simple("reader.nulls",
					"shrink_many() starts on generation %ld",
					arg);
		break;
	case MLF_WALK_BIN:
		walk.bins++;
		break;
	case MLF_WALK_RESTART:
		tl.restarts++;
		if ((unsigned long)arg >= MEMCG_NR_GENS)
			mlf_fail_simple("reader.nulls",
					"a walk ended on nulls value %#lx, not a generation (0..%d)",
					(unsigned long)arg, MEMCG_NR_GENS - 1);
		if (++walk.restarts > restart_bound())
			mlf_fail_simple("reader.terminates",
					"a walk restarted %lu times (%lu visits, %lu moves by others)",
					walk.restarts, walk.visits,
					others_moves());
		break;
	case MLF_WALK_VISIT:
		tl.visits++;
		count_moves(1);
		check_lruvec_alive(obj);
		if (++walk.visits > visit_bound())
			mlf_fail_simple("reader.terminates",
					"a walk visited %lu lruvecs in %lu bin passes of a pool of %d (%lu moves by others)",
					walk.visits, walk.bins, cfg.pool_size,
					others_moves());
		break;
	case MLF_WALK_TRYGET_FAILED:
		tl.reader_releases++;
		check_memcg_alive(obj, "a failed tryget");
		break;
	case MLF_WALK_END:
		break;
	}
}

static __thread unsigned long resched_count;

/* cond_resched() is where the kernel may sleep: let the others run. */
static void resched_hook(const char *where)
{
	int every = cfg.yield_every;

	(void)where;
	if (every > 0 && ++resched_count % every == 0)
		sched_yield();
}

/* ---- slots ---- */

static int slot_state(struct conc_slot *s)
{
	return __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
}

static void set_slot_state(struct conc_slot *s, int state)
{
	__atomic_store_n(&s->state, state, __ATOMIC_RELEASE);
}

static long memcg_refs(struct mem_cgroup *memcg)
{
	/* acquire: whoever dropped the last reference is done with it */
	return __atomic_load_n(&memcg->refcnt.counter, __ATOMIC_ACQUIRE);
}

/* A reference on the slot's memcg, or NULL if it has none to give. */
static struct mem_cgroup *pin(int i)
{
	struct conc_slot *s = &slots[i];
	struct mem_cgroup *memcg = NULL;
	int state;

	pthread_mutex_lock(&s->lock);
	state = slot_state(s);
	if ((state == CS_ONLINE || state == CS_OFFLINING ||
	     state == CS_OFFLINE) &&
	    mem_cgroup_tryget(s->memcg))
		memcg = s->memcg;
	pthread_mutex_unlock(&s->lock);
	return memcg;
}

static void set_shrink(struct mem_cgroup *memcg, u8 flags)
{
	WRITE_ONCE(memcg->shrink.below_min, !!(flags & CONC_SHRINK_BELOW_MIN));
	WRITE_ONCE(memcg->shrink.below_low, !!(flags & CONC_SHRINK_BELOW_LOW));
	WRITE_ONCE(memcg->shrink.success, !!(flags & CONC_SHRINK_SUCCESS));
	WRITE_ONCE(memcg->shrink.sizable, !!(flags & CONC_SHRINK_SIZABLE));
	WRITE_ONCE(memcg->shrink.nr_reclaimed, flags >> 4);
}

static bool do_online(int i, u8 flags)
{
	struct conc_slot *s = &slots[i];
	struct mem_cgroup *memcg;

	pthread_mutex_lock(&s->lock);
	if (slot_state(s) != CS_EMPTY) {
		pthread_mutex_unlock(&s->lock);
		return false;
	}
	set_slot_state(s, CS_ONLINING);
	pthread_mutex_unlock(&s->lock);

	memcg = mem_cgroup_alloc(i);
	tl.allocs++;
	set_shrink(memcg, flags);
	mem_cgroup_css_online(memcg);

	pthread_mutex_lock(&s->lock);
	s->memcg = memcg;
	set_slot_state(s, CS_ONLINE);
	pthread_mutex_unlock(&s->lock);
	return true;
}

static bool do_offline(int i)
{
	struct conc_slot *s = &slots[i];
	struct mem_cgroup *memcg;

	pthread_mutex_lock(&s->lock);
	if (slot_state(s) != CS_ONLINE) {
		pthread_mutex_unlock(&s->lock);
		return false;
	}
	set_slot_state(s, CS_OFFLINING);
	memcg = s->memcg;
	pthread_mutex_unlock(&s->lock);

	mem_cgroup_css_offline(memcg);

	pthread_mutex_lock(&s->lock);
	set_slot_state(s, CS_OFFLINE);
	pthread_mutex_unlock(&s->lock);
	/* the base reference: may be the last one, then it is dead */
	mem_cgroup_put(memcg);
	return true;
}

/* Claim slot @i if its memcg is dead; then css_release() it. */
static bool try_release(int i)
{
	struct conc_slot *s = &slots[i];
	struct mem_cgroup *memcg = NULL;

	if (slot_state(s) != CS_OFFLINE)
		return false;
	pthread_mutex_lock(&s->lock);
	if (slot_state(s) == CS_OFFLINE && !memcg_refs(s->memcg)) {
		memcg = s->memcg;
		set_slot_state(s, CS_RELEASING);
	}
	pthread_mutex_unlock(&s->lock);
	if (!memcg)
		return false;

	css_release(memcg);
	/*
	 * world_init() put call_rcu() in the shim's deferred mode: the
	 * callback waits on this thread's list, and rcu_barrier() runs it
	 * after a full grace period of liburcu (synchronize_rcu), while the
	 * readers go on. Same guarantee as liburcu's call_rcu thread, and
	 * the free comes soon after the release, when a reader that missed
	 * the grace period would still be near; that thread's hand-off is
	 * also invisible to ThreadSanitizer.
	 */
	rcu_barrier();
	tl.releases++;

	pthread_mutex_lock(&s->lock);
	s->memcg = NULL;
	set_slot_state(s, CS_EMPTY);
	pthread_mutex_unlock(&s->lock);
	return true;
}

static bool do_release(int from)
{
	int k;

	for (k = 0; k < cfg.pool_size; k++)
		if (try_release((from + k) % cfg.pool_size))
			return true;
	return false;
}

/* ---- references a writer holds across ops ---- */

#define MAX_HELD 16

static __thread struct mem_cgroup *held[MAX_HELD];
static __thread int nr_held;

static bool do_hold(int i)
{
	struct mem_cgroup *memcg;

	if (nr_held == MAX_HELD)
		return false;
	memcg = pin(i);
	if (!memcg)
		return false;
	held[nr_held++] = memcg;
	return true;
}

static bool do_drop(void)
{
	if (!nr_held)
		return false;
	mem_cgroup_put(held[0]);
	memmove(&held[0], &held[1], --nr_held * sizeof(held[0]));
	return true;
}

static void drop_all(void)
{
	while (do_drop())
		;
}

/* ---- ops ---- */

static unsigned long spin_sink;

static void do_yield(u8 arg)
{
	int i;

	if (arg & 1) {
		sched_yield();
		return;
	}
	for (i = 0; i < arg * 16; i++)
		(void)__atomic_load_n(&spin_sink, __ATOMIC_RELAXED);
}

bool conc_apply(int thread, const struct conc_op *op)
{
	int i = op->slot % cfg.pool_size;
	int nid = op->node % cfg.nr_nodes;
	struct mem_cgroup *memcg = NULL;
	bool applied = true;

	(void)thread;
	if (op->draws)
		mlf_entropy_bytes(op->draws, op->nr_draws);

	switch (op->kind) {
	case CONC_ONLINE:
		applied = do_online(i, op->arg);
		break;
	case CONC_OFFLINE:
		applied = do_offline(i);
		break;
	case CONC_RELEASE:
		applied = do_release(i);
		break;
	case CONC_ROTATE:
		memcg = pin(i);
		if (!memcg)
			break;
		mlf_rotate_memcg(get_lruvec(memcg, nid),
				 MEMCG_LRU_HEAD + op->arg % 4);
		break;
	case CONC_SOFT:
		memcg = pin(i);
		if (!memcg)
			break;
		if (op->arg & 1)
			mlf_softirq_enter();
		lru_gen_soft_reclaim(memcg, nid);
		if (op->arg & 1)
			mlf_softirq_exit();
		break;
	case CONC_SET:
		memcg = pin(i);
		if (memcg)
			set_shrink(memcg, op->arg);
		break;
	case CONC_HOLD:
		applied = do_hold(i);
		break;
	case CONC_DROP:
		applied = do_drop();
		break;
	case CONC_RECLAIM: {
		struct scan_control sc = {
			.nr_to_reclaim = op->target,
			.priority = 12,
			.proactive = 1,
		};

		mlf_shrink_many(NODE_DATA(nid), &sc);
		break;
	}
	case CONC_YIELD:
		do_yield(op->arg);
		break;
	default:
		applied = false;
		break;
	}

	if (applied && (op->kind == CONC_ONLINE || op->kind == CONC_OFFLINE))
		count_moves(cfg.nr_nodes);
	if (memcg && (op->kind == CONC_ROTATE || op->kind == CONC_SOFT))
		count_moves(1);
	if (op->kind == CONC_ROTATE || op->kind == CONC_SOFT ||
	    op->kind == CONC_SET) {
		applied = memcg != NULL;
		mem_cgroup_put(memcg);
	}
	if (applied)
		tl.ops++;
	else
		tl.skipped++;
	return applied;
}

/* ---- the thread pool ---- */

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_start = PTHREAD_COND_INITIALIZER;
static pthread_cond_t gate_done = PTHREAD_COND_INITIALIZER;
static unsigned long gate_gen;		/* bumped to start a run */
static int gate_nr;			/* threads taking part in this run */
static int gate_finished;
static bool thread_finished[CONC_MAX_THREADS];
static conc_job_t gate_job;
static void *gate_arg;
static int nr_pool_threads;
static pthread_t pool_threads[CONC_MAX_THREADS];
static bool reuse_pool = true;

void conc_set_pool(bool reuse)
{
	reuse_pool = reuse;
}

static enum conc_role role_of(int thread)
{
	return thread < cfg.nr_writers ? CONC_WRITER : CONC_READER;
}

static void run_job(int thread)
{
	mlf_current_op = MLF_NONE;
	resched_count = 0;
	mlf_entropy_seed(cfg.seed * 0x100000001b3ULL + thread + 1);
	gate_job(thread, role_of(thread), gate_arg);
	drop_all();
	stats_flush();
}

static void finish(int thread)
{
	pthread_mutex_lock(&gate_lock);
	thread_finished[thread] = true;
	if (++gate_finished == gate_nr)
		pthread_cond_signal(&gate_done);
	pthread_mutex_unlock(&gate_lock);
}

static void *pool_thread(void *arg)
{
	int thread = (int)(long)arg;
	unsigned long seen = 0;

	pthread_mutex_lock(&gate_lock);
	for (;;) {
		while (gate_gen == seen)
			pthread_cond_wait(&gate_start, &gate_lock);
		seen = gate_gen;
		if (thread >= gate_nr)
			continue;
		pthread_mutex_unlock(&gate_lock);
		run_job(thread);
		finish(thread);
		pthread_mutex_lock(&gate_lock);
	}
	return NULL;
}

static void *one_shot_thread(void *arg)
{
	int thread = (int)(long)arg;

	run_job(thread);
	finish(thread);
	return NULL;
}

static void start_thread(pthread_t *t, void *(*fn)(void *), int thread)
{
	if (pthread_create(t, NULL, fn, (void *)(long)thread))
		mlf_fail_simple("harness", "pthread_create failed");
}

static void watchdog_fail(void)
{
	char stuck[256] = "";
	size_t len = 0;
	bool reader = false;
	int t;

	for (t = 0; t < gate_nr; t++) {
		if (thread_finished[t])
			continue;
		reader |= role_of(t) == CONC_READER;
		len += snprintf(stuck + len, len < sizeof(stuck) ?
				sizeof(stuck) - len : 0, " %d (%s)", t,
				role_of(t) == CONC_READER ? "reader" : "writer");
		if (len >= sizeof(stuck))
			break;
	}
	mlf_fail_simple(reader ? "reader.terminates" : "writer.terminates",
			"threads still running after %u s:%s", cfg.deadline_s,
			stuck);
}

void conc_run(conc_job_t job, void *arg)
{
	int n = cfg.nr_writers + cfg.nr_readers;
	pthread_t one_shot[CONC_MAX_THREADS];
	struct timespec deadline;
	int t, err = 0;

	__atomic_fetch_add(&totals.runs, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&gate_lock);
	gate_job = job;
	gate_arg = arg;
	gate_nr = n;
	gate_finished = 0;
	memset(thread_finished, 0, sizeof(thread_finished));
	if (reuse_pool) {
		for (; nr_pool_threads < n; nr_pool_threads++)
			start_thread(&pool_threads[nr_pool_threads],
				     pool_thread, nr_pool_threads);
		gate_gen++;
		pthread_cond_broadcast(&gate_start);
	} else {
		for (t = 0; t < n; t++)
			start_thread(&one_shot[t], one_shot_thread, t);
	}

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += cfg.deadline_s;
	while (gate_finished < n && err != ETIMEDOUT)
		err = pthread_cond_timedwait(&gate_done, &gate_lock, &deadline);
	if (gate_finished < n)
		watchdog_fail();
	pthread_mutex_unlock(&gate_lock);

	if (!reuse_pool)
		for (t = 0; t < n; t++)
			pthread_join(one_shot[t], NULL);
}

/* ---- set-up, quiescence, tear-down ---- */

void conc_setup(const struct conc_config *in)
{
	int i, nid;

	cfg = *in;
	cfg.nr_nodes = clamp_int(cfg.nr_nodes, 1, MAX_NUMNODES);
	cfg.pool_size = clamp_int(cfg.pool_size, 1, MLF_MAX_POOL);
	cfg.nr_writers = clamp_int(cfg.nr_writers, 0, CONC_MAX_THREADS);
	cfg.nr_readers = clamp_int(cfg.nr_readers, 0,
				   CONC_MAX_THREADS - cfg.nr_writers);
	cfg.nr_initial = clamp_int(cfg.nr_initial, 0, cfg.pool_size);
	if (!cfg.deadline_s)
		cfg.deadline_s = 20;

	/* with the shim's deferred call_rcu (see try_release()) */
	world_init(&world, cfg.nr_nodes, cfg.pool_size);
	if (cfg.pool_size > slots_cap) {
		slots = realloc(slots, cfg.pool_size * sizeof(*slots));
		if (!slots)
			abort();
		for (i = slots_cap; i < cfg.pool_size; i++)
			pthread_mutex_init(&slots[i].lock, NULL);
		slots_cap = cfg.pool_size;
	}
	for (i = 0; i < cfg.pool_size; i++) {
		slots[i].state = CS_EMPTY;
		slots[i].memcg = NULL;
	}
	for (nid = 0; nid < cfg.nr_nodes; nid++)
		seq_start[nid] = world.cs.nodes[nid].memcg_lru.seq;

	mlf_walk_probe = walk_probe;
	mlf_set_resched_hook(resched_hook);
	mlf_current_op = MLF_NONE;

	mlf_entropy_seed(cfg.seed);
	for (i = 0; i < cfg.nr_initial; i++)
		do_online(i, get_random_u32() & 0xff);
	stats_flush();
}

static const char *const state_names[] = {
	[CS_EMPTY] = "empty",	     [CS_ONLINING] = "onlining",
	[CS_ONLINE] = "online",	     [CS_OFFLINING] = "offlining",
	[CS_OFFLINE] = "offline",    [CS_RELEASING] = "releasing",
};

static void fail_conservation(int nid, int gen, int bin, int memcg,
			      const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void fail_conservation(int nid, int gen, int bin, int memcg,
			      const char *fmt, ...)
{
	struct mlf_failure f;
	va_list ap;

	mlf_failure_at(&f, "conservation", nid, gen, bin, memcg);
	va_start(ap, fmt);
	vsnprintf(f.msg, sizeof(f.msg), fmt, ap);
	va_end(ap);
	mlf_fail(&f);
}

static int *seen_count;
static int seen_cap;

static int slot_of_node(int nid, const struct hlist_nulls_node *pos)
{
	const struct lruvec *lruvec =
		container_of(pos, struct lruvec, lrugen.list);
	int i;

	/* compare addresses only: @pos may be anything */
	for (i = 0; i < cfg.pool_size; i++)
		if (slots[i].memcg &&
		    get_lruvec(slots[i].memcg, nid) == lruvec)
			return i;
	return -1;
}

/* Each live memcg sits exactly once on every node; nothing else does. */
static void check_conservation(void)
{
	int nid, gen, bin, i;

	if (cfg.pool_size > seen_cap) {
		free(seen_count);
		seen_count = calloc(cfg.pool_size, sizeof(*seen_count));
		if (!seen_count)
			abort();
		seen_cap = cfg.pool_size;
	}
	for (i = 0; i < cfg.pool_size; i++) {
		struct mem_cgroup *memcg = slots[i].memcg;
		long refs;

		if (slots[i].state != CS_ONLINE && slots[i].state != CS_EMPTY)
			fail_conservation(MLF_NONE, MLF_NONE, MLF_NONE, i,
					  "m%d is %s at quiescence with %ld references (a reference was leaked)",
					  i, state_names[slots[i].state],
					  memcg ? memcg_refs(memcg) : 0);
		if (!memcg)
			continue;
		refs = memcg_refs(memcg);
		if (refs != 1)
			fail_conservation(MLF_NONE, MLF_NONE, MLF_NONE, i,
					  "online m%d holds %ld references at quiescence, not 1",
					  i, refs);
	}

	for (nid = 0; nid < cfg.nr_nodes; nid++) {
		memset(seen_count, 0, cfg.pool_size * sizeof(*seen_count));
		for (gen = 0; gen < MEMCG_NR_GENS; gen++) {
			for (bin = 0; bin < MEMCG_NR_BINS; bin++) {
				const struct hlist_nulls_node *pos =
					world.cs.nodes[nid].memcg_lru.fifo[gen][bin].first;
				int k = 0;

				for (; !is_a_nulls(pos); pos = pos->next, k++) {
					int slot;

					if (k > cfg.pool_size) {
						fail_conservation(nid, gen, bin, MLF_NONE,
								  "fifo[%d][%d] has more entries than the pool (%d): a cycle",
								  gen, bin, cfg.pool_size);
						return;
					}
					slot = slot_of_node(nid, pos);
					if (slot < 0) {
						fail_conservation(nid, gen, bin, MLF_NONE,
								  "fifo[%d][%d] entry %d (%p) is the lrugen of no live memcg: a released or freed memcg is still linked",
								  gen, bin, k, (void *)pos);
						return;
					}
					seen_count[slot]++;
				}
			}
		}
		for (i = 0; i < cfg.pool_size; i++) {
			if (!slots[i].memcg || seen_count[i] == 1)
				continue;
			fail_conservation(nid, MLF_NONE, MLF_NONE, i,
					  "live m%d is linked %d times on node %d, not once",
					  i, seen_count[i], nid);
		}
	}
}

void conc_check(void)
{
	struct mlf_failure f;
	int i, nid;

	mlf_current_op = MLF_NONE;
	/* what died and was not claimed yet: the quiescent cleanup claims it */
	for (i = 0; i < cfg.pool_size; i++)
		try_release(i);
	stats_flush();

	check_conservation();

	for (i = 0; i < cfg.pool_size; i++) {
		world.cs.slots[i].memcg = slots[i].memcg;
		world.cs.slots[i].state = slots[i].memcg ? SLOT_ONLINE : SLOT_EMPTY;
		world.cs.slots[i].refs = 0;
	}
	mlf_lrugen_map_fill(&world.cs.map, world.cs.slots, world.cs.pool_size,
			    world.cs.nr_nodes);
	for (nid = 0; nid < cfg.nr_nodes; nid++) {
		world.cs.seq_before[nid] = seq_start[nid];
		if (!check_seq_monotonic(&world.cs, nid, &f) ||
		    !check_structure(&world.cs, nid, &f))
			mlf_fail(&f);
		seq_start[nid] = world.cs.nodes[nid].memcg_lru.seq;
	}
}

void conc_teardown(void)
{
	int i;

	mlf_current_op = MLF_NONE;
	for (i = 0; i < cfg.pool_size; i++) {
		struct mem_cgroup *memcg = slots[i].memcg;

		if (!memcg)
			continue;
		if (slots[i].state == CS_ONLINE) {
			mem_cgroup_css_offline(memcg);
			mem_cgroup_put(memcg);
		}
		if (memcg_refs(memcg))
			fail_conservation(MLF_NONE, MLF_NONE, MLF_NONE, i,
					  "m%d still holds %ld references at tear-down",
					  i, memcg_refs(memcg));
		css_release(memcg);
		tl.releases++;
		slots[i].memcg = NULL;
		slots[i].state = CS_EMPTY;
		world.cs.slots[i].memcg = NULL;
		world.cs.slots[i].state = SLOT_EMPTY;
		world.cs.slots[i].refs = 0;
	}
	stats_flush();
	/* rcu_barrier(): every css_free has run */
	world_destroy(&world);
	mlf_walk_probe = NULL;
	if (mem_cgroup_nr_allocated())
		fail_conservation(MLF_NONE, MLF_NONE, MLF_NONE, MLF_NONE,
				  "%ld memcgs still allocated after every one was released and a grace period passed",
				  mem_cgroup_nr_allocated());
}
