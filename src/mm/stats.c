// SPDX-License-Identifier: GPL-2.0
/*
 * Stat counters of the eviction port: node counters, memcg-local lruvec
 * counters, global vm events, and the dying-memcg redirection of seed 001
 * (patches 2-3, reconstructed from the cover letter: for every hierarchy,
 * and the walk up the parents only on the dying path; stats.h says what
 * is inferred).
 */
/*
 * Only the reclaim port (src/mm/reclaim.cmake) defines MLF_EVICTION; a
 * build that compiles every file of src/ gets an empty object here.
 */
#ifdef MLF_EVICTION
#include "stats.h"

void __mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item idx,
			   long val)
{
	atomic_long_add(val, &pgdat->vm_stat[idx]);
}

void mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item idx,
			 long val)
{
	__mod_node_page_state(pgdat, idx, val);
}

/* per cpu in the kernel (vm_event_states); one global sum here */
static atomic_long_t vm_events[NR_VM_EVENT_ITEMS];

void __count_vm_events(enum vm_event_item item, long delta)
{
	atomic_long_add(delta, &vm_events[item]);
}

void count_vm_events(enum vm_event_item item, long delta)
{
	__count_vm_events(item, delta);
}

unsigned long global_vm_event(enum vm_event_item item)
{
	return atomic_long_read(&vm_events[item]);
}

unsigned long node_page_state(struct pglist_data *pgdat,
			      enum node_stat_item idx)
{
	long x = atomic_long_read(&pgdat->vm_stat[idx]);

	return x < 0 ? 0 : x;
}

long node_page_state_raw(const struct pglist_data *pgdat,
			 enum node_stat_item idx)
{
	return atomic_long_read(&pgdat->vm_stat[idx]);
}

/*
 * The memcg part of the update goes to the nearest ancestor that is not
 * dying: a dying memcg's local counters are about to be freed with it, and
 * an update that lands there is lost to whoever reads the parent's.
 */
static struct lruvec *stat_lruvec(struct lruvec *lruvec,
				  enum node_stat_item idx)
{
	struct mem_cgroup *memcg = lruvec_memcg(lruvec);

	if (!memcg_stat_redirected(idx) || likely(!memcg_is_dying(memcg)))
		return lruvec;

	rcu_read_lock();
	while (memcg_is_dying(memcg))
		memcg = parent_mem_cgroup(memcg);
	rcu_read_unlock();
	return mem_cgroup_lruvec(memcg, lruvec_pgdat_of(lruvec));
}

void __mod_lruvec_state(struct lruvec *lruvec, enum node_stat_item idx,
			long val)
{
	__mod_node_page_state(lruvec_pgdat_of(lruvec), idx, val);
	atomic_long_add(val, &stat_lruvec(lruvec, idx)->state_local[idx]);
}

void mod_lruvec_state(struct lruvec *lruvec, enum node_stat_item idx,
		      long val)
{
	__mod_lruvec_state(lruvec, idx, val);
}

unsigned long lruvec_page_state_local(struct lruvec *lruvec,
				      enum node_stat_item idx)
{
	long x = atomic_long_read(&lruvec->state_local[idx]);

	return x < 0 ? 0 : x;
}

long lruvec_page_state_local_raw(const struct lruvec *lruvec,
				 enum node_stat_item idx)
{
	return atomic_long_read(&lruvec->state_local[idx]);
}

unsigned long lruvec_lru_size(struct lruvec *lruvec, enum lru_list lru,
			      int zone_idx)
{
	unsigned long size = 0;
	int zid;

	for (zid = 0; zid <= zone_idx && zid < MAX_NR_ZONES; zid++)
		size += READ_ONCE(lruvec->lru_zone_size[lru][zid]);
	return size;
}

#endif /* MLF_EVICTION */
