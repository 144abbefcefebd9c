// SPDX-License-Identifier: GPL-2.0
/*
 * The shape of seed 004's experiment in userspace: N threads fault and
 * touch pages of a working set three times the limit of one small memcg
 * (anon, as the seed's 48 MB in 16 MB); a fault over the limit runs direct
 * reclaim on the memcg (try_to_shrink_lruvec at priorities 12..0 until 32
 * pages, as try_to_free_mem_cgroup_pages asks), and each freed folio costs
 * a delay (the slow swap device) while its batch stays isolated. A fault
 * whose reclaim finds nothing five sweeps in a row counts as an OOM (the
 * proxy) and gives the page up. Prints one JSON line:
 *
 *   touches, faults, throttle events, peak isolated folios, empty sweeps,
 *   oom proxies
 *
 * Built once per iso variant (bench_isolation_iso-count / -iso-throttle).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel/prng.h"
#include "mm/eviction.h"

#define SWAP_CLUSTER_MAX 32
#define OOM_RETRIES 5

static struct pglist_data pgdat;
static struct mem_cgroup *root, *memcg;
static struct folio *folios;
static u8 *state;		/* 0 absent, 1 resident, 2 faulting */
static long limit = 256, wss = 768, delay_us = 200;
static volatile bool stop;
static long peak_isolated;

struct worker {
	pthread_t thread;
	int id;
	unsigned long touches, faults, empty_sweeps, ooms;
};

static void free_hook(struct folio *folio)
{
	/* the write to swap: the batch stays isolated meanwhile */
	if (delay_us)
		usleep(delay_us);
	__atomic_store_n(&state[folio->id], 0, __ATOMIC_RELEASE);
}

static void throttle_hook(struct pglist_data *p, unsigned long timeout_us)
{
	usleep(timeout_us);
}

static void evict_probe(enum mlf_evict_event event, struct lruvec *lruvec,
			const void *arg)
{
	long v, old;

	if (event != MLF_EVICT_ISOLATED)
		return;
#ifdef CONFIG_LRU_GEN_ISO_COUNT
	v = node_page_state(&pgdat, NR_ISOLATED_ANON);
#else
	v = 0;
#endif
	old = __atomic_load_n(&peak_isolated, __ATOMIC_RELAXED);
	while (v > old && !__atomic_compare_exchange_n(&peak_isolated, &old, v,
						       false, __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED))
		;
}

/*
 * should_abort_scan() for this memcg reclaim: not kswapd, so only the
 * target stops it (6.12.118 no longer exempts memcg reclaim)
 */
static bool target_met(struct lruvec *lruvec, struct scan_control *sc)
{
	(void)lruvec;
	return sc->nr_reclaimed >= sc->nr_to_reclaim;
}

/* try_to_free_mem_cgroup_pages(), reduced to the MGLRU lruvec */
static unsigned long reclaim(struct lruvec *lruvec)
{
	struct scan_control sc = { .nr_to_reclaim = SWAP_CLUSTER_MAX };
	int prio;

	for (prio = DEF_PRIORITY; prio >= 0; prio--) {
		sc.priority = prio;
		lru_gen_try_to_shrink_lruvec(lruvec, &sc, target_met);
		if (sc.nr_reclaimed >= sc.nr_to_reclaim)
			break;
	}
	return sc.nr_reclaimed;
}

static void *worker_fn(void *arg)
{
	struct worker *wk = arg;
	struct lruvec *lruvec = get_lruvec(memcg, 0);
	struct mlf_rng g = mlf_rng_seeded(MLF_RNG_GOLDEN * (wk->id + 1));

	mlf_entropy_seed(0x150000ULL + wk->id);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		u8 absent = 0;
		long i;
		int tries = 0;

		i = mlf_rng_below(&g, wss);
		if (__atomic_load_n(&state[i], __ATOMIC_ACQUIRE) == 1) {
			folio_set(&folios[i], PG_referenced);
			wk->touches++;
			continue;
		}
		if (!__atomic_compare_exchange_n(&state[i], &absent, 2, false,
						 __ATOMIC_ACQUIRE,
						 __ATOMIC_RELAXED))
			continue;
		/* the charge: reclaim while over the limit */
		while (atomic_long_read(&memcg->memory.usage) >= limit) {
			if (reclaim(lruvec))
				continue;
			wk->empty_sweeps++;
			if (++tries == OOM_RETRIES)
				break;
		}
		if (tries == OOM_RETRIES) {
			wk->ooms++;
			__atomic_store_n(&state[i], 0, __ATOMIC_RELEASE);
			continue;
		}
		__atomic_store_n(&folios[i].flags, BIT(PG_swapbacked) |
						   BIT(PG_swapcache),
				 __ATOMIC_RELAXED);
		folios[i].gen = 0;
		folios[i].zone = 0;
		lru_gen_add_new_folio(lruvec, &folios[i]);
		__atomic_store_n(&state[i], 1, __ATOMIC_RELEASE);
		wk->faults++;
		wk->touches++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker *wk;
	struct worker sum = { 0 };
	double seconds = 10;
	int threads = 64;
	int i;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--threads"))
			threads = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--time"))
			seconds = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "--limit"))
			limit = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--wss"))
			wss = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--delay-us"))
			delay_us = atol(argv[i + 1]);
		else {
			fprintf(stderr, "usage: %s [--threads N] [--time S] [--limit P] [--wss P] [--delay-us U]\n",
				argv[0]);
			return 2;
		}
	}
	if (threads < 1 || wss < 1 || limit < 1)
		return 2;

	nr_node_ids = 1;
	pgdat.node_id = 0;
	lru_gen_init_pgdat(&pgdat);
	node_data[0] = &pgdat;
	mlf_entropy_seed(42);
	root = mem_cgroup_alloc(-1);
	WRITE_ONCE(root->online, true);
	root_mem_cgroup = root;
	memcg = mem_cgroup_alloc(1);
	mem_cgroup_link_parent(memcg, root);
	memcg->swappiness = 60;
	mem_cgroup_css_online(memcg);
	folios = calloc(wss, sizeof(*folios));
	state = calloc(wss, 1);
	wk = calloc(threads, sizeof(*wk));
	if (!folios || !state || !wk)
		return 1;
	for (i = 0; i < wss; i++)
		folios[i].id = i;
	mlf_free_folio_hook = free_hook;
	mlf_reclaim_throttle_hook = throttle_hook;
	mlf_evict_probe = evict_probe;

	for (i = 0; i < threads; i++) {
		wk[i].id = i;
		pthread_create(&wk[i].thread, NULL, worker_fn, &wk[i]);
	}
	usleep((useconds_t)(seconds * 1e6));
	__atomic_store_n(&stop, true, __ATOMIC_RELAXED);
	for (i = 0; i < threads; i++) {
		pthread_join(wk[i].thread, NULL);
		sum.touches += wk[i].touches;
		sum.faults += wk[i].faults;
		sum.empty_sweeps += wk[i].empty_sweeps;
		sum.ooms += wk[i].ooms;
	}
	printf("{\"iso\": \"%s\", \"threads\": %d, \"seconds\": %g, \"limit\": %ld, "
	       "\"wss\": %ld, \"delay_us\": %ld, \"touches\": %lu, \"faults\": %lu, "
	       "\"throttled\": %ld, \"peak_isolated\": %ld, \"empty_sweeps\": %lu, "
	       "\"oom\": %lu}\n",
	       MLF_ISO_NAME, threads, seconds, limit, wss, delay_us, sum.touches,
	       sum.faults, atomic_long_read(&pgdat.nr_throttled_isolated),
	       peak_isolated, sum.empty_sweeps, sum.ooms);
	return 0;
}
