// SPDX-License-Identifier: GPL-2.0
/*
 * The weak memory model of a scheduled run (wmm.h): the locations' store
 * histories, the tasks' views, and what orderings hand on.
 */
#include "wmm.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rcu_model.h"
#include "report.h"
#include "sanitizer.h"
#include "schedule.h"

#define NR_TASKS (MLF_SCHED_MAX_TASKS + 1)
#define MAX_LOCS 16384
#define MAX_STORES 65535
#define MLF_WMM_MAX_OPTIONS 255
#define RECENT 32
#define MAX_PROMISES 4
#define MAX_CANDIDATES 16
#define MAX_TOUCHED 64
#define CERTIFY_STEPS 10000

int mlf_wmm_on;
int mlf_wmm_promising;

/*
 * The model's own copies, out of ThreadSanitizer's sight: its functions
 * are (MLF_NO_TSAN), but the C library's memcpy() and memset() are
 * intercepted, and the tasks' fibers share the model's arrays with no
 * happens-before (what orders them is the scheduler).
 */
static inline void copy_n(void *dst, const void *src, size_t n)
{
	mlf_tsan_ignore_begin();
	memcpy(dst, src, n);
	mlf_tsan_ignore_end();
}

static inline void move_n(void *dst, const void *src, size_t n)
{
	mlf_tsan_ignore_begin();
	memmove(dst, src, n);
	mlf_tsan_ignore_end();
}

static inline void zero_n(void *dst, size_t n)
{
	mlf_tsan_ignore_begin();
	memset(dst, 0, n);
	mlf_tsan_ignore_end();
}

/*
 * A view: per location id, the co-latest store seen (its id + 1; 0 none).
 * Snapshots are immutable, cover the locations there were when taken, and
 * live in the run's arena; a task's own views are dense and mutable.
 */
struct view {
	int n;
	u16 s[];
};

struct store {
	u64 value;
	int task;			/* the storing slot; -1: before the run */
	int rank;			/* position in co */
	const struct view *carried;	/* what an acquire of it joins */
	u32 token;			/* ThreadSanitizer's sync object */
	bool rmw;			/* a read-modify-write's */
	bool promise;			/* a promise not kept yet */
	/* WRITE_ONCE_DEP()'s: ThreadSanitizer's object of what it orders */
	const void *dep;
	unsigned long step;		/* mlf_sched_step() when it was made */
};

struct loc {
	uintptr_t addr;
	int size;
	int nr, cap;
	struct store *st;		/* by id, in the order they were made */
	u16 *co;			/* store ids in co order */
	u16 base;		/* id + 1 of a store every task has seen, or 0 */
	bool fresh;		/* in memory allocated in this run */
};

struct task_views {
	u16 *floor;		/* the co-latest store seen, per location */
	u16 *own;		/* the task's own latest store, per location */
	u16 *pending;		/* what stores read since the last rmb carried */
	const struct view *carry;	/* what its relaxed stores carry */
	const struct view *locked;	/* its view when it last took a lock */
	const struct view *unlocked;	/* its own stores at its last unlock */
	/* its last loads: where, what they read (wmm.h) */
	struct {
		uintptr_t addr;
		struct mlf_wmm_read r;
	} recent[RECENT];
	unsigned int nr_recent;
	unsigned long stale_ptr;	/* pointer loads that read an older store */
	unsigned long gp_joined;	/* the gp_version it last joined */
	/* the snapshots it joined lately: joined again, they add nothing */
	const struct view *joined[8];
	unsigned int nr_joined;
	bool pending_dirty;	/* pending has entries */
	int promised;		/* its promise not kept yet, or -1 */
	bool stored;		/* it stored since it promised */
	u64 read_hash;		/* of the values its loads read, in order */
};

struct keyed {			/* a lock's or a grace period's view */
	const void *key;
	const struct view *view;	/* a lock's release; a GP's readers */
	const struct view *start;	/* a grace period's starter's */
};

static struct {
	u32 run;
	int nr_tasks;
	/* locations: by id, and a hash of address -> id for this run */
	struct loc locs[MAX_LOCS];
	int nr_locs;
	struct {
		uintptr_t addr;
		u32 run;
		int id;
	} *hash;
	size_t hash_cap, hash_used;
	struct task_views t[NR_TASKS];
	u16 *mb_view;		/* what the smp_mb()s so far saw */
	u16 *gp_view;		/* what the grace periods' starters saw */
	unsigned long gp_version;	/* its changes in this run */
	u16 *exit_view;		/* what the readers saw when they left */
	u16 *scratch;		/* a dense view to build a snapshot in */
	struct keyed *keyed;
	size_t keyed_cap, nr_keyed;
	/* the run's arena of snapshots */
	char *arena;
	size_t arena_cap, arena_used;
	unsigned long stale_reads;
	/* the memory allocated in this run, as far as there is room */
	struct {
		uintptr_t start, end;
	} fresh[1024];
	int nr_fresh;
	u32 next_token;
	/* the run's promises: where, which store, whose; how many it may make */
	struct {
		int loc, sid, task;
	} promise[MAX_PROMISES];
	int nr_promises, max_promises;
	unsigned long promise_points, promise_offers;	/* schedule.h */
	bool discarded;		/* a promise was broken */
} W;

/*
 * A certifying child (fork()ed by __mlf_wmm_promise_point()): the task it
 * runs alone, the pipe it reports the stores it may promise to, and the
 * locations the task has touched since (a store there cannot go first).
 */
static struct {
	bool on;
	bool stored;		/* the task stored since the fork */
	int fd;
	unsigned long steps;
	uintptr_t touched[MAX_TOUCHED];
	int nr_touched;
} C;

/* A store the task makes when it runs alone: what it may promise. */
struct candidate {
	uintptr_t addr;
	int size;
	u64 value;
};

/*
 * Certifications made, by what decides their outcome: the task, where it
 * stands, what its loads read so far (its own state, the code being
 * deterministic) and the newest value of every location (what it reads
 * alone). A run of an exploration meets the same ones again and again.
 */
#define CERTIFIED_SLOTS 4096
static struct certified {
	u64 key;
	u8 nr;
	bool used;
	struct candidate c[MAX_CANDIDATES];
} *certified;
static int nr_certified;

/* ThreadSanitizer's sync objects for the stores: addresses, never read */
static char tsan_tokens[1 << 16];

static void fail_harness(const char *what)
{
	mlf_fail_simple("harness", "the memory model: %s", what);
}

/* ---- views ---- */

MLF_NO_TSAN static inline int rank_of(int id, u16 s)
{
	return W.locs[id].st[s - 1].rank;
}

/*
 * Join @src (its first @n entries) into the dense @dst. Most entries are
 * equal or none: four at a time are skipped then (a run's views are
 * joined thousands of times, each the length of its locations).
 */
MLF_NO_TSAN static void join(u16 *dst, const u16 *src, int n)
{
	int i = 0, k;

	for (; i + 4 <= n; i += 4) {
		u64 a, b;

		memcpy(&a, &src[i], sizeof(a));
		memcpy(&b, &dst[i], sizeof(b));
		if (!a || a == b)
			continue;
		for (k = i; k < i + 4; k++)
			if (src[k] != dst[k] && src[k] &&
			    (!dst[k] || rank_of(k, src[k]) > rank_of(k, dst[k])))
				dst[k] = src[k];
	}
	for (; i < n; i++)
		if (src[i] != dst[i] && src[i] &&
		    (!dst[i] || rank_of(i, src[i]) > rank_of(i, dst[i])))
			dst[i] = src[i];
}

MLF_NO_TSAN static inline void join_view(u16 *dst, const struct view *v)
{
	if (v)
		join(dst, v->s, v->n);
}

/*
 * Join the snapshot @v into @t's view, unless it did lately: a snapshot
 * never changes and a view only grows.
 */
MLF_NO_TSAN static void join_floor(struct task_views *t, const struct view *v)
{
	unsigned int i;

	if (!v)
		return;
	for (i = 0; i < ARRAY_SIZE(t->joined); i++)
		if (t->joined[i] == v)
			return;
	join(t->floor, v->s, v->n);
	t->joined[t->nr_joined++ % ARRAY_SIZE(t->joined)] = v;
}

/* What the stores its relaxed loads read carried, into its view. */
MLF_NO_TSAN static void take_pending(struct task_views *t)
{
	if (!t->pending_dirty)
		return;
	join(t->floor, t->pending, W.nr_locs);
	zero_n(t->pending, W.nr_locs * sizeof(u16));
	t->pending_dirty = false;
}

/* Note what a relaxed load's store @s carried, for the next rmb or mb. */
MLF_NO_TSAN static void add_pending(struct task_views *t, const struct store *s)
{
	if (!s->carried)
		return;
	join_view(t->pending, s->carried);
	t->pending_dirty = true;
}

MLF_NO_TSAN static void *arena_alloc(size_t size)
{
	void *p;

	size = (size + 7) & ~(size_t)7;
	if (W.arena_used + size > W.arena_cap)
		fail_harness("the run's views outgrew their arena");
	p = W.arena + W.arena_used;
	W.arena_used += size;
	return p;
}

MLF_NO_TSAN static const struct view *snapshot(const u16 *dense)
{
	struct view *v = arena_alloc(sizeof(*v) + W.nr_locs * sizeof(u16));

	v->n = W.nr_locs;
	copy_n(v->s, dense, W.nr_locs * sizeof(u16));
	return v;
}

/* A snapshot of the join of @v and the dense @dense. */
MLF_NO_TSAN static const struct view *snapshot_join(const struct view *v,
						    const u16 *dense)
{
	struct view *j = arena_alloc(sizeof(*j) + W.nr_locs * sizeof(u16));

	j->n = W.nr_locs;
	copy_n(j->s, dense, W.nr_locs * sizeof(u16));
	join_view(j->s, v);
	return j;
}

/* ---- locations ---- */

MLF_NO_TSAN static inline size_t hash_of(uintptr_t addr)
{
	return (size_t)((addr * 0x9e3779b97f4a7c15ULL) >> 17) & (W.hash_cap - 1);
}

/*
 * The accesses themselves, instrumented: ThreadSanitizer sees a relaxed
 * atomic access there, racing with any plain one it is not ordered with.
 */
__attribute__((noinline)) static u64 mem_read(const volatile void *p, int size)
{
	switch (size) {
	case 1:
		return __atomic_load_n((const volatile u8 *)p, __ATOMIC_RELAXED);
	case 2:
		return __atomic_load_n((const volatile u16 *)p, __ATOMIC_RELAXED);
	case 4:
		return __atomic_load_n((const volatile u32 *)p, __ATOMIC_RELAXED);
	default:
		return __atomic_load_n((const volatile u64 *)p, __ATOMIC_RELAXED);
	}
}

__attribute__((noinline)) static void mem_write(volatile void *p, int size, u64 v)
{
	switch (size) {
	case 1:
		__atomic_store_n((volatile u8 *)p, (u8)v, __ATOMIC_RELAXED);
		break;
	case 2:
		__atomic_store_n((volatile u16 *)p, (u16)v, __ATOMIC_RELAXED);
		break;
	case 4:
		__atomic_store_n((volatile u32 *)p, (u32)v, __ATOMIC_RELAXED);
		break;
	default:
		__atomic_store_n((volatile u64 *)p, v, __ATOMIC_RELAXED);
		break;
	}
}

/* Append a store at the end of co; its id. */
MLF_NO_TSAN static int append(struct loc *l, u64 value, int task,
			      const struct view *carried)
{
	struct store *s;

	if (l->nr == MAX_STORES)
		fail_harness("a location outgrew its history");
	if (l->nr == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->st = mlf_realloc_unseen(l->st, l->cap * sizeof(*l->st));
		l->co = mlf_realloc_unseen(l->co, l->cap * sizeof(*l->co));
	}
	s = &l->st[l->nr];
	s->value = value;
	s->task = task;
	s->rank = l->nr;
	s->carried = carried;
	s->token = W.next_token++;
	s->rmw = false;
	s->promise = false;
	s->dep = NULL;
	s->step = task < 0 ? 0 : mlf_sched_step();
	l->co[l->nr] = (u16)l->nr;
	return l->nr++;
}

/*
 * The store memory holds: the co-last one but promises not kept yet, which
 * no memory holds until their task makes the store.
 */
MLF_NO_TSAN static const struct store *memory_store(const struct loc *l)
{
	int i = l->nr - 1;

	while (i > 0 && l->st[l->co[i]].promise)
		i--;
	return &l->st[l->co[i]];
}

/* Whether @addr lies in memory allocated in this run. */
MLF_NO_TSAN static bool in_fresh(uintptr_t addr)
{
	int i;

	for (i = 0; i < W.nr_fresh; i++)
		if (addr >= W.fresh[i].start && addr < W.fresh[i].end)
			return true;
	return false;
}

/*
 * The location at @p, made (its history: what memory holds now, from
 * before the run) on the first access of this run. Memory that changed
 * since its last modelled store was written plainly: that value is the
 * newest, from no task.
 */
MLF_NO_TSAN static int loc_of(const volatile void *p, int size)
{
	uintptr_t addr = (uintptr_t)p;
	struct loc *l;
	size_t h;
	u64 now;
	int id;

	for (h = hash_of(addr); W.hash[h].run == W.run;
	     h = (h + 1) & (W.hash_cap - 1))
		if (W.hash[h].addr == addr)
			break;
	now = mem_read(p, size);
	if (W.hash[h].run == W.run && W.locs[W.hash[h].id].size == size) {
		id = W.hash[h].id;
		l = &W.locs[id];
		if (memory_store(l)->value != now)
			/*
			 * A plain write, ordered by what orders plain
			 * accesses (a data race is TSan's): every task sees
			 * it, which hides reorderings, never invents one.
			 */
			l->base = (u16)(append(l, now, -1, NULL) + 1);
		return id;
	}
	/* new, or accessed with another size: a history of its own */
	if (W.nr_locs == MAX_LOCS)
		fail_harness("too many locations in one run");
	if (W.hash[h].run != W.run && 2 * (W.hash_used + 1) > W.hash_cap)
		fail_harness("the location table is full");
	id = W.nr_locs++;
	l = &W.locs[id];
	l->addr = addr;
	l->size = size;
	l->nr = 0;
	l->base = (u16)(append(l, now, -1, NULL) + 1);
	l->fresh = in_fresh(addr);
	if (W.hash[h].run != W.run) {
		W.hash[h].addr = addr;
		W.hash[h].run = W.run;
		W.hash_used++;
	}
	W.hash[h].id = id;
	return id;
}

MLF_NO_TSAN void mlf_wmm_forget(const void *p, size_t size)
{
	uintptr_t a = (uintptr_t)p;
	int id;

	if (!mlf_wmm_running())
		return;
	if (W.nr_fresh < (int)ARRAY_SIZE(W.fresh)) {
		W.fresh[W.nr_fresh].start = a;
		W.fresh[W.nr_fresh++].end = a + size;
	}
	/*
	 * The locations in it are made anew on their next access: their hash
	 * entries keep their place (a probe goes on past them) but answer for
	 * no address.
	 */
	for (id = 0; id < W.nr_locs; id++) {
		size_t h;

		if (W.locs[id].addr < a || W.locs[id].addr >= a + size)
			continue;
		for (h = hash_of(W.locs[id].addr); W.hash[h].run == W.run;
		     h = (h + 1) & (W.hash_cap - 1))
			if (W.hash[h].addr == W.locs[id].addr &&
			    W.hash[h].id == id) {
				W.hash[h].addr = 0;
				break;
			}
		W.locs[id].addr = 0;
	}
}

/* ---- the tasks ---- */

MLF_NO_TSAN static inline struct task_views *me(void)
{
	int slot = mlf_sched_slot();

	return &W.t[slot < 0 ? 0 : slot];
}

MLF_NO_TSAN static inline int my_slot(void)
{
	return mlf_sched_slot();
}

MLF_NO_TSAN void mlf_wmm_begin(int nr_tasks, int promises)
{
	int i;

	if (!W.hash) {
		W.hash_cap = 2 * MAX_LOCS;
		W.hash = calloc(W.hash_cap, sizeof(*W.hash));
		W.mb_view = calloc(MAX_LOCS, sizeof(u16));
		W.gp_view = calloc(MAX_LOCS, sizeof(u16));
		W.exit_view = calloc(MAX_LOCS, sizeof(u16));
		W.scratch = calloc(MAX_LOCS, sizeof(u16));
		W.arena_cap = 64UL << 20;
		W.arena = malloc(W.arena_cap);
		if (!W.hash || !W.mb_view || !W.gp_view || !W.exit_view || !W.scratch ||
		    !W.arena)
			abort();
		for (i = 0; i < NR_TASKS; i++) {
			W.t[i].floor = calloc(MAX_LOCS, sizeof(u16));
			W.t[i].own = calloc(MAX_LOCS, sizeof(u16));
			W.t[i].pending = calloc(MAX_LOCS, sizeof(u16));
			if (!W.t[i].floor || !W.t[i].own || !W.t[i].pending)
				abort();
		}
	}
	/* clear what the last run used */
	for (i = 0; i < NR_TASKS; i++) {
		zero_n(W.t[i].floor, W.nr_locs * sizeof(u16));
		zero_n(W.t[i].own, W.nr_locs * sizeof(u16));
		zero_n(W.t[i].pending, W.nr_locs * sizeof(u16));
		W.t[i].carry = W.t[i].locked = W.t[i].unlocked = NULL;
		W.t[i].nr_recent = 0;
		W.t[i].stale_ptr = 0;
		W.t[i].gp_joined = 0;
		W.t[i].pending_dirty = false;
		W.t[i].promised = -1;
		W.t[i].read_hash = 0;
		zero_n(W.t[i].joined, sizeof(W.t[i].joined));
	}
	zero_n(W.mb_view, W.nr_locs * sizeof(u16));
	zero_n(W.gp_view, W.nr_locs * sizeof(u16));
	W.gp_version = 0;
	zero_n(W.exit_view, W.nr_locs * sizeof(u16));
	if (!++W.run)
		W.run = 1;
	W.nr_tasks = nr_tasks;
	W.nr_locs = 0;
	W.hash_used = 0;
	W.nr_keyed = 0;
	W.nr_fresh = 0;
	W.arena_used = 0;
	W.stale_reads = 0;
	W.nr_promises = 0;
	W.promise_points = W.promise_offers = 0;
	W.max_promises = min(promises, MAX_PROMISES);
	W.discarded = false;
	__atomic_store_n(&mlf_wmm_on, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&mlf_wmm_promising, W.max_promises > 0,
			 __ATOMIC_RELAXED);
}

/* A promise of the run not kept (yet). */
MLF_NO_TSAN static bool promise_unkept(void)
{
	int i;

	for (i = 0; i < W.nr_promises; i++)
		if (W.locs[W.promise[i].loc].st[W.promise[i].sid].promise)
			return true;
	return false;
}

MLF_NO_TSAN void mlf_wmm_end(struct mlf_sched_stats *stats)
{
	__atomic_store_n(&mlf_wmm_on, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&mlf_wmm_promising, 0, __ATOMIC_RELAXED);
	if (promise_unkept())
		W.discarded = true;	/* never kept */
	stats->promises = W.nr_promises;
	stats->promise_points = W.promise_points;
	stats->promise_offers = W.promise_offers;
	stats->discarded = W.discarded;
}

unsigned long mlf_wmm_stale_reads(void)
{
	return W.stale_reads;
}

MLF_NO_TSAN static void tsan_release_store(const struct store *s)
{
	mlf_tsan_release(&tsan_tokens[s->token % sizeof(tsan_tokens)]);
}

MLF_NO_TSAN static void tsan_acquire_store(const struct store *s)
{
	mlf_tsan_acquire(&tsan_tokens[s->token % sizeof(tsan_tokens)]);
	if (s->dep)
		mlf_tsan_acquire(s->dep);
}

/* ---- promises: load buffering (wmm.h) ---- */

MLF_NO_TSAN bool mlf_wmm_certifying(void)
{
	return C.on;
}

MLF_NO_TSAN bool mlf_wmm_promise_pending(void)
{
	return mlf_wmm_running() && (promise_unkept() || W.discarded);
}

/* The child's report is in the pipe: it ends, with nothing to clean up. */
MLF_NO_TSAN void mlf_wmm_certify_stop(void)
{
	_exit(0);
}

static void certify_failed(const struct mlf_failure *f)
{
	(void)f;
	mlf_wmm_certify_stop();
}

MLF_NO_TSAN void mlf_wmm_certify_point(bool go_on)
{
	if (!go_on || ++C.steps > CERTIFY_STEPS)
		mlf_wmm_certify_stop();
}

MLF_NO_TSAN static bool touched(uintptr_t addr)
{
	int i;

	for (i = 0; i < C.nr_touched; i++)
		if (C.touched[i] == addr)
			return true;
	return false;
}

MLF_NO_TSAN static void touch(uintptr_t addr)
{
	if (touched(addr))
		return;
	if (C.nr_touched == MAX_TOUCHED)
		mlf_wmm_certify_stop();
	C.touched[C.nr_touched++] = addr;
}

/*
 * The current task runs on alone, in a child: the relaxed stores it makes
 * to locations it has not touched since, before any ordering of its own
 * (a barrier, an acquire, a release, a lock, RCU, a read-modify-write)
 * stops it, are what it may promise. Its loads read the newest stores its
 * view allows. The parent's count of them, in @c.
 */
MLF_NO_TSAN static int certify(struct candidate *c)
{
	size_t have = 0, want = MAX_CANDIDATES * sizeof(*c);
	int fds[2], status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	if (pipe(fds))
		fail_harness("no pipe for a promise's certification");
	pid = fork();
	if (pid < 0)
		fail_harness("no fork for a promise's certification");
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		close(fds[0]);
		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		mlf_set_fail_handler(certify_failed);
		C.on = true;
		C.fd = fds[1];
		C.steps = 0;
		C.stored = false;
		C.nr_touched = 0;
		return -1;
	}
	close(fds[1]);
	while (have < want) {
		ssize_t got = read(fds[0], (char *)c + have, want - have);

		if (got <= 0)
			break;
		have += got;
	}
	close(fds[0]);
	waitpid(pid, &status, 0);
	return (int)(have / sizeof(*c));
}

/* In the child: a relaxed store the task makes alone. */
MLF_NO_TSAN static void certify_store(const volatile void *p, int size,
				      u64 value)
{
	struct candidate c = {
		.addr = (uintptr_t)p, .size = size, .value = value,
	};

	if (!touched(c.addr) &&
	    write(C.fd, &c, sizeof(c)) != (ssize_t)sizeof(c))
		mlf_wmm_certify_stop();
	touch(c.addr);
	C.stored = true;
}

/*
 * The current task orders its accesses (a barrier, an acquire, a release,
 * a lock, RCU, a read-modify-write): a certifying child stops, and a
 * promise not kept yet is broken, for the promised store could not go
 * before this.
 */
MLF_NO_TSAN static void ordered(struct task_views *t)
{
	if (C.on)
		mlf_wmm_certify_stop();
	if (t->promised >= 0)
		W.discarded = true;
}

MLF_NO_TSAN static u64 certify_key(const struct task_views *t)
{
	u64 h = (u64)(t - W.t) * 0x9e3779b97f4a7c15ULL ^ t->read_hash ^
		((u64)mlf_sched_task_points() << 32);
	int id;

	h ^= (u64)(uintptr_t)mlf_sched_task_site() * 0xc2b2ae3d27d4eb4fULL;
	for (id = 0; id < W.nr_locs; id++) {
		const struct loc *l = &W.locs[id];

		h = (h ^ l->addr ^ l->st[l->co[l->nr - 1]].value) *
			    0xff51afd7ed558ccdULL + (u64)id;
	}
	return h | 1;
}

/* What @t may promise here: @c's first entries, or -1 in the child. */
MLF_NO_TSAN static int candidates(const struct task_views *t,
				  struct candidate *c)
{
	u64 key = certify_key(t);
	struct certified *e;
	size_t h;
	int nr;

	if (!certified && !(certified = calloc(CERTIFIED_SLOTS,
					       sizeof(*certified))))
		abort();
	for (h = key % CERTIFIED_SLOTS; certified[h].used;
	     h = (h + 1) % CERTIFIED_SLOTS)
		if (certified[h].key == key) {
			copy_n(c, certified[h].c, certified[h].nr * sizeof(*c));
			return certified[h].nr;
		}
	nr = certify(c);
	/* at most half full: a probe ends at a free slot */
	if (nr >= 0 && nr_certified < CERTIFIED_SLOTS / 2) {
		nr_certified++;
		e = &certified[h];
		e->used = true;
		e->key = key;
		e->nr = (u8)nr;
		copy_n(e->c, c, nr * sizeof(*c));
	}
	return nr;
}

MLF_NO_TSAN void __mlf_wmm_promise_point(void)
{
	struct candidate c[MAX_CANDIDATES];
	struct task_views *t;
	struct loc *l;
	int nr, k, id, sid;

	if (!mlf_wmm_running() || C.on || W.discarded || mlf_sched_slot() < 0)
		return;
	t = me();
	if (t->promised >= 0 || W.nr_promises == W.max_promises)
		return;
	nr = candidates(t, c);
	if (nr < 0)
		return;		/* the child */
	W.promise_points++;
	if (!nr)
		return;
	W.promise_offers++;
	/* 0: no promise; else which */
	k = mlf_sched_weak_choice(nr + 1);
	if (!k--)
		return;
	id = loc_of((volatile void *)c[k].addr, c[k].size);
	l = &W.locs[id];
	sid = append(l, c[k].value, my_slot(), t->carry);
	l->st[sid].promise = true;
	W.promise[W.nr_promises].loc = id;
	W.promise[W.nr_promises].sid = sid;
	W.promise[W.nr_promises].task = my_slot();
	t->promised = W.nr_promises++;
	t->stored = false;
	/*
	 * The step writes a location beyond its point's, which other tasks'
	 * marked reads read: for the reduction it depends on every step.
	 */
	mlf_sched_observe();
}

/*
 * The promising task's own access of @id: a relaxed store of the promised
 * value keeps the promise (true: the store is made); any other access of
 * the location breaks it.
 */
MLF_NO_TSAN static bool keep_promise(struct task_views *t, int id, bool store,
				     u64 value, volatile void *p)
{
	int sid = W.promise[t->promised].sid;
	struct loc *l = &W.locs[id];
	struct store *s = &l->st[sid];

	if (W.promise[t->promised].loc != id)
		return false;
	t->promised = -1;
	/* coherence: the task saw a store after its promise */
	if (!store || s->value != value ||
	    (t->floor[id] && rank_of(id, t->floor[id]) > s->rank)) {
		W.discarded = true;
		return false;
	}
	s->promise = false;
	t->floor[id] = t->own[id] = (u16)(sid + 1);
	if (memory_store(l) == s)
		mem_write(p, l->size, value);
	return true;
}

MLF_NO_TSAN void mlf_wmm_task_done(void)
{
	if (!mlf_wmm_running())
		return;
	if (C.on)
		mlf_wmm_certify_stop();
	if (me()->promised >= 0)
		W.discarded = true;
}

/* ---- loads, stores, read-modify-writes ---- */

/* The co position of the oldest store of @id that @t may still read. */
MLF_NO_TSAN static int lowest_rank(const struct task_views *t, int id)
{
	int r = t->floor[id] ? rank_of(id, t->floor[id]) : 0;
	int b = W.locs[id].base ? rank_of(id, W.locs[id].base) : 0;

	return r > b ? r : b;
}

MLF_NO_TSAN u64 mlf_wmm_load(const volatile void *p, int size,
			     enum mlf_wmm_order order)
{
	struct task_views *t = me();
	int id = loc_of(p, size), lowest = 0, k = 0, nr;
	struct loc *l = &W.locs[id];
	const struct store *s;

	if (C.on) {
		if (order == MLF_WMM_ACQUIRE)
			mlf_wmm_certify_stop();
		touch((uintptr_t)p);
	}
	if (t->promised >= 0) {
		if (order == MLF_WMM_ACQUIRE)
			ordered(t);
		else
			keep_promise(t, id, false, 0, NULL);
	}
	/* any store no older than the newest the task has seen */
	lowest = lowest_rank(t, id);
	nr = l->nr - lowest;
	if (nr > 1)
		k = mlf_sched_weak_choice(nr);
	if (k) {
		W.stale_reads++;
		if (order == MLF_WMM_ACQUIRE)
			t->stale_ptr++;
	}
	s = &l->st[l->co[l->nr - 1 - k]];
	/*
	 * A pointer from before its object was set up: the kernel's oops
	 * when it is followed, named now, before the code under test does
	 * arithmetic on NULL
	 */
	if (order == MLF_WMM_ACQUIRE && k && !s->value && l->fresh &&
	    s == &l->st[0])
		mlf_fail_simple("vm.null",
				"a load of the pointer at %p read NULL, its value from before its object was set up (the newest store is %#llx): a NULL pointer dereference to come",
				(void *)p,
				(unsigned long long)l->st[l->co[l->nr - 1]].value);
	t->floor[id] = (u16)(s - l->st + 1);
	t->recent[t->nr_recent % RECENT].addr = (uintptr_t)p;
	/* what a certification's key knows the task by (promising only) */
	if (W.max_promises)
		t->read_hash = (t->read_hash ^ s->value) * 0x100000001b3ULL + 1;
	t->recent[t->nr_recent++ % RECENT].r = (struct mlf_wmm_read){
		.value = s->value, .step = s->step, .stale = k > 0,
	};
	if (order == MLF_WMM_ACQUIRE) {
		join_floor(t, s->carried);
		tsan_acquire_store(s);
	} else {
		add_pending(t, s);
	}
	return s->value;
}

/* Make a store of @value by the current task @k places before co's end. */
MLF_NO_TSAN static void store_at(int id, u64 value, int k,
				 const struct view *carried, bool release,
				 volatile void *p)
{
	struct task_views *t = me();
	struct loc *l = &W.locs[id];
	int sid = append(l, value, my_slot(), carried), pos = l->nr - 1 - k, i;

	if (k) {
		/* into co before the k newest: they move up */
		move_n(&l->co[pos + 1], &l->co[pos], k * sizeof(*l->co));
		l->co[pos] = (u16)sid;
		for (i = pos; i < l->nr; i++)
			l->st[l->co[i]].rank = i;
	}
	t->floor[id] = t->own[id] = (u16)(sid + 1);
	/* ThreadSanitizer's happens-before follows the release's reads-from */
	if (release)
		tsan_release_store(&l->st[sid]);
	if (!k)
		mem_write(p, l->size, value);
}

/*
 * Where in co a store of the current task goes: k places before its end,
 * after the newest store the task has seen, and never between a
 * read-modify-write's store and the store it read (atomicity).
 */
MLF_NO_TSAN static int store_place(const struct task_views *t, int id)
{
	const struct loc *l = &W.locs[id];
	int n = l->nr, lowest = lowest_rank(t, id), k, nr = 0;
	u8 ks[MLF_WMM_MAX_OPTIONS];

	for (k = 0; k < n - lowest && nr < MLF_WMM_MAX_OPTIONS; k++)
		if (!k || !l->st[l->co[n - k]].rmw)
			ks[nr++] = (u8)k;
	return nr > 1 ? ks[mlf_sched_weak_choice(nr)] : 0;
}

MLF_NO_TSAN void mlf_wmm_store(volatile void *p, int size, u64 value,
			       enum mlf_wmm_order order)
{
	struct task_views *t = me();
	int id = loc_of(p, size), k;
	const struct view *carried = t->carry;

	if (order == MLF_WMM_RELEASE)
		ordered(t);
	else if (C.on)
		certify_store(p, size, value);
	else if (t->promised >= 0 && keep_promise(t, id, true, value, p))
		return;
	else if (t->promised >= 0)
		t->stored = true;
	k = store_place(t, id);
	if (order == MLF_WMM_RELEASE)
		carried = snapshot(t->floor);
	store_at(id, value, k, carried, order == MLF_WMM_RELEASE, p);
}

MLF_NO_TSAN void mlf_wmm_fence(enum mlf_wmm_fence fence)
{
	struct task_views *t = me();

	/*
	 * smp_rmb() orders loads only, smp_wmb() stores only: a promised
	 * store may go before one, if no store of its task is to go before
	 * it, and carries what its task's own stores carry after it.
	 */
	if (fence == MLF_WMM_MB ||
	    (fence == MLF_WMM_WMB &&
	     (C.on ? C.stored : t->promised >= 0 && t->stored)))
		ordered(t);

	switch (fence) {
	case MLF_WMM_MB:
		mlf_sched_note_fence();
		take_pending(t);
		/* the smp_mb()s see each other's views in the order they ran */
		join(t->floor, W.mb_view, W.nr_locs);
		copy_n(W.mb_view, t->floor, W.nr_locs * sizeof(u16));
		t->carry = snapshot(t->floor);
		break;
	case MLF_WMM_RMB:
		take_pending(t);
		break;
	case MLF_WMM_WMB:
		t->carry = snapshot(t->own);
		if (t->promised >= 0)
			W.locs[W.promise[t->promised].loc]
				.st[W.promise[t->promised].sid]
				.carried = t->carry;
		break;
	}
}

MLF_NO_TSAN u64 mlf_wmm_rmw(volatile void *p, int size,
			    bool (*op)(u64 old, u64 arg, u64 arg2, u64 *new),
			    u64 arg, u64 arg2, bool full)
{
	struct task_views *t;
	int id;
	struct loc *l;
	const struct store *s;
	u64 old, new;
	bool stores;

	ordered(me());
	id = loc_of(p, size);
	l = &W.locs[id];
	/* a promise there: where it would go against the RMW is not modelled */
	if (memory_store(l) != &l->st[l->co[l->nr - 1]])
		W.discarded = true;
	/* atomic: it reads the newest, and its store comes right after */
	s = &l->st[l->co[l->nr - 1]];
	old = s->value;
	stores = op(old, arg, arg2, &new);
	/* one that does not store (a failed cmpxchg()) is not ordered */
	full = full && stores;
	if (full)
		mlf_wmm_fence(MLF_WMM_MB);
	t = me();
	t->floor[id] = (u16)(s - l->st + 1);
	if (full) {
		join_floor(t, s->carried);
		tsan_acquire_store(s);
	} else {
		add_pending(t, s);
	}
	if (stores) {
		store_at(id, new, 0, full ? NULL : t->carry, full, p);
		l->st[l->nr - 1].rmw = true;
	}
	if (full) {
		/*
		 * The full barrier after it: nothing ran since the one before
		 * but the read-modify-write, whose store carries what it is
		 * ordered after, itself included (no matter)
		 */
		t->carry = snapshot(t->floor);
		if (stores)
			l->st[l->nr - 1].carried = t->carry;
		copy_n(W.mb_view, t->floor, W.nr_locs * sizeof(u16));
	}
	return old;
}

/* ---- what the checks ask ---- */

/* The current task's last load of @addr (any address: 0), or of @value. */
MLF_NO_TSAN static bool last_load(uintptr_t addr, bool by_value, u64 value,
				  struct mlf_wmm_read *r)
{
	struct task_views *t;
	unsigned int i;

	if (!mlf_wmm_running() || mlf_sched_slot() < 0)
		return false;
	t = me();
	for (i = 0; i < RECENT && i < t->nr_recent; i++) {
		unsigned int k = (t->nr_recent - 1 - i) % RECENT;

		if (by_value ? t->recent[k].r.value == value :
			       t->recent[k].addr == addr) {
			*r = t->recent[k].r;
			return true;
		}
	}
	return false;
}

MLF_NO_TSAN bool mlf_wmm_last_load(const volatile void *addr,
				   struct mlf_wmm_read *r)
{
	return last_load((uintptr_t)addr, false, 0, r);
}

MLF_NO_TSAN bool mlf_wmm_last_load_of(u64 value, struct mlf_wmm_read *r)
{
	return last_load(0, true, value, r);
}

MLF_NO_TSAN unsigned long mlf_wmm_stale_pointer_loads(void)
{
	if (!mlf_wmm_running() || mlf_sched_slot() < 0)
		return 0;
	return me()->stale_ptr;
}

/* The location @p of @size bytes, if it has a history in this run: its id. */
MLF_NO_TSAN static int loc_find(const volatile void *p, int size)
{
	uintptr_t addr = (uintptr_t)p;
	size_t h;

	for (h = hash_of(addr); W.hash[h].run == W.run;
	     h = (h + 1) & (W.hash_cap - 1))
		if (W.hash[h].addr == addr)
			return W.locs[W.hash[h].id].size == size ? W.hash[h].id :
								   -1;
	return -1;
}

MLF_NO_TSAN u64 mlf_wmm_peek(const volatile void *p, int size)
{
	u64 now = mem_read(p, size);
	const struct loc *l;
	int id;

	if (!mlf_wmm_running() || mlf_sched_slot() < 0)
		return now;
	id = loc_find(p, size);
	if (id < 0)
		return now;
	l = &W.locs[id];
	/* a plain write since the last modelled store: every task sees it */
	if (memory_store(l)->value != now)
		return now;
	return l->st[l->co[lowest_rank(me(), id)]].value;
}

/* ---- locks and RCU: views kept by key ---- */

MLF_NO_TSAN static struct keyed *keyed(const void *key)
{
	size_t i;

	for (i = 0; i < W.nr_keyed; i++)
		if (W.keyed[i].key == key)
			return &W.keyed[i];
	if (W.nr_keyed == W.keyed_cap) {
		W.keyed_cap = W.keyed_cap ? 2 * W.keyed_cap : 64;
		W.keyed = mlf_realloc_unseen(W.keyed,
					     W.keyed_cap * sizeof(*W.keyed));
	}
	W.keyed[W.nr_keyed].key = key;
	W.keyed[W.nr_keyed].view = NULL;
	W.keyed[W.nr_keyed].start = NULL;
	return &W.keyed[W.nr_keyed++];
}

static bool set_locked(u64 old, u64 unused, u64 unused2, u64 *new)
{
	(void)old;
	(void)unused;
	(void)unused2;
	*new = 1;
	return true;
}

MLF_NO_TSAN void mlf_wmm_lock_acquired(const void *lock, int *word)
{
	const struct view *view;
	struct task_views *t;

	if (!mlf_wmm_running())
		return;
	ordered(me());
	t = me();
	view = keyed(lock)->view;
	join_floor(t, view);
	/*
	 * Its later stores carry what the lock's last holder released: a CPU
	 * that sees a store of this critical section, and then orders its
	 * loads, sees the earlier critical sections' (the LKMM's ISA2 and
	 * Z6.0 tests with locks). Not the task's own earlier stores, nor its
	 * own store to the lock word, which only smp_mb__after_spinlock()
	 * orders before them. And the task's own stores before its last
	 * unlock, of any lock (po-unlock-lock-po).
	 */
	if (view || t->unlocked) {
		u16 *dense = W.scratch;

		zero_n(dense, W.nr_locs * sizeof(u16));
		join_view(dense, t->carry);
		join_view(dense, t->unlocked);
		t->carry = snapshot_join(view, dense);
	}
	t->locked = snapshot(t->floor);
	mlf_wmm_rmw(word, sizeof(*word), set_locked, 0, 0, false);
}

MLF_NO_TSAN void mlf_wmm_lock_released(const void *lock, int *word)
{
	if (!mlf_wmm_running())
		return;
	ordered(me());
	keyed(lock)->view = snapshot(me()->floor);
	me()->unlocked = snapshot(me()->own);
	mlf_wmm_store(word, sizeof(*word), 0, MLF_WMM_RELAXED);
}

/*
 * RCU's guarantee, in views (explanation.txt, "RCU"): a read-side section
 * that began before a grace period began is over, as a whole, before the
 * grace period's end, so its waiter (or callback) joins the views its
 * readers left with, the pre-existing readers' and those that had left
 * before it began; and a section that begins after the grace period began,
 * which the grace period does not wait for, comes after its start as a
 * whole: it sees everything the starter saw before it began.
 */
MLF_NO_TSAN void mlf_wmm_gp_begin(const void *gp, bool strong)
{
	struct keyed *k;

	if (!mlf_wmm_running())
		return;
	ordered(me());
	/* synchronize_rcu() is a strong fence; call_rcu() orders its caller less */
	if (strong)
		mlf_wmm_fence(MLF_WMM_MB);
	k = keyed(gp);
	k->start = snapshot(me()->floor);
	k->view = snapshot(W.exit_view);
	join_view(W.gp_view, k->start);
	W.gp_version++;
}

MLF_NO_TSAN void mlf_wmm_rcu_read_lock(void)
{
	struct task_views *t;

	if (!mlf_wmm_running())
		return;
	ordered(me());
	/* a view only grows: what it joined of gp_view it still has */
	t = me();
	if (t->gp_joined == W.gp_version)
		return;
	join(t->floor, W.gp_view, W.nr_locs);
	t->gp_joined = W.gp_version;
}

MLF_NO_TSAN void mlf_wmm_rcu_read_unlock(void)
{
	if (!mlf_wmm_running())
		return;
	ordered(me());
	join(W.exit_view, me()->floor, W.nr_locs);
}

MLF_NO_TSAN void mlf_wmm_gp_reader_left(const void *gp)
{
	struct keyed *k;

	if (!mlf_wmm_running())
		return;
	ordered(me());
	k = keyed(gp);
	k->view = snapshot_join(k->view, me()->floor);
}

MLF_NO_TSAN void mlf_wmm_gp_over(const void *gp)
{
	struct keyed *k;

	if (!mlf_wmm_running())
		return;
	ordered(me());
	k = keyed(gp);
	join_floor(me(), k->view);
	join_floor(me(), k->start);
	mlf_wmm_fence(MLF_WMM_MB);
}

MLF_NO_TSAN void mlf_wmm_handover_release(const void *key)
{
	struct keyed *k;

	if (!mlf_wmm_running() || mlf_sched_slot() < 0)
		return;
	ordered(me());
	k = keyed(key);
	k->view = snapshot_join(k->view, me()->floor);
}

MLF_NO_TSAN void mlf_wmm_handover_acquire(const void *key)
{
	if (!mlf_wmm_running() || mlf_sched_slot() < 0)
		return;
	ordered(me());
	join_floor(me(), keyed(key)->view);
}

MLF_NO_TSAN void mlf_wmm_acquire_newest(const volatile void *p, int size)
{
	const struct loc *l;
	int id;

	if (!mlf_wmm_running() || mlf_sched_slot() < 0)
		return;
	ordered(me());
	id = loc_find(p, size);
	if (id < 0)
		return;
	l = &W.locs[id];
	me()->floor[id] = (u16)(l->co[l->nr - 1] + 1);
	join_floor(me(), l->st[l->co[l->nr - 1]].carried);
}

MLF_NO_TSAN void mlf_wmm_store_dep(volatile void *p, int size, u64 value)
{
	struct task_views *t = me();
	int id, k;

	ordered(t);
	id = loc_of(p, size);
	k = store_place(t, id);

	store_at(id, value, k, t->locked ? t->locked : t->carry, false, p);
	W.locs[id].st[W.locs[id].nr - 1].dep = mlf_rcu_model_dep_token();
}
