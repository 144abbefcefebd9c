// SPDX-License-Identifier: GPL-2.0
/*
 * Happens-before of an explored run (sched_hb.h): a vector clock per step,
 * the last clocks per location, and the trace key.
 */
#include "sched_hb.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sanitizer.h"

typedef u32 vclock[MLF_HB_TASKS];

/* The locations the steps of a run touched: the clocks of their accesses. */
struct hb_loc {
	uintptr_t key;		/* address >> 3 (an aligned word) */
	u32 run;		/* the run it belongs to: older ones are free */
	vclock w, r;		/* joins of the writes, of the reads */
};

struct hb_step {
	bool open, computed;
	unsigned int marks;
	u64 note;		/* the memory model's choices in it */
	enum mlf_hb_access access;
	uintptr_t loc;
	vclock vc;		/* once computed */
};

static struct {
	int nr;			/* slots 0..nr - 1; MLF_HB_TASKS - 1 is rcu's */
	u32 run;
	vclock last[MLF_HB_TASKS];	/* each task's last step */
	u32 nr_steps[MLF_HB_TASKS];
	struct hb_step step[MLF_HB_TASKS];
	/* joins of: every step, ALL's, writes (marked, PORT_WRITE), looks */
	vclock every, all, writes, looks;
	vclock rcu_r, rcu_w;	/* ... RCU_READ's, RCU_WRITE's */
	vclock fences;		/* ... FENCE's (they share a view) */
	struct hb_loc *locs;
	size_t cap, used;
	u64 key[2];
} H;

MLF_NO_TSAN static inline void join(vclock to, const vclock from)
{
	int i;

	for (i = 0; i < MLF_HB_TASKS; i++)
		if (from[i] > to[i])
			to[i] = from[i];
}

MLF_NO_TSAN static inline int hb_slot(int slot)
{
	/* rcu's task comes after the harness's, whose number varies */
	return slot >= H.nr ? MLF_HB_TASKS - 1 : slot;
}

MLF_NO_TSAN static inline size_t loc_hash(uintptr_t key, size_t cap)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & (cap - 1);
}

MLF_NO_TSAN static void locs_grow(void)
{
	struct hb_loc *old = H.locs;
	size_t old_cap = H.cap, i;

	H.cap = old_cap ? old_cap * 2 : 1024;
	H.locs = calloc(H.cap, sizeof(*H.locs));
	if (!H.locs)
		abort();
	for (i = 0; i < old_cap; i++) {
		size_t h;

		if (old[i].run != H.run)
			continue;
		for (h = loc_hash(old[i].key, H.cap); H.locs[h].run == H.run;
		     h = (h + 1) & (H.cap - 1))
			;
		H.locs[h] = old[i];
	}
	free(old);
}

/* The location @key of this run, made if new. */
MLF_NO_TSAN static struct hb_loc *loc_of(uintptr_t key)
{
	size_t h;

	if (2 * (H.used + 1) > H.cap)
		locs_grow();
	for (h = loc_hash(key, H.cap); H.locs[h].run == H.run;
	     h = (h + 1) & (H.cap - 1))
		if (H.locs[h].key == key)
			return &H.locs[h];
	memset(&H.locs[h], 0, sizeof(H.locs[h]));
	H.locs[h].key = key;
	H.locs[h].run = H.run;
	H.used++;
	return &H.locs[h];
}

MLF_NO_TSAN void mlf_hb_begin(int nr_tasks)
{
	H.nr = nr_tasks;
	/* a new run: every location of the last one is free (run 0: never) */
	if (!++H.run)
		H.run = 1;
	H.used = 0;
	memset(H.last, 0, sizeof(H.last));
	memset(H.nr_steps, 0, sizeof(H.nr_steps));
	memset(H.step, 0, sizeof(H.step));
	memset(H.every, 0, sizeof(H.every));
	memset(H.all, 0, sizeof(H.all));
	memset(H.writes, 0, sizeof(H.writes));
	memset(H.looks, 0, sizeof(H.looks));
	memset(H.rcu_r, 0, sizeof(H.rcu_r));
	memset(H.rcu_w, 0, sizeof(H.rcu_w));
	memset(H.fences, 0, sizeof(H.fences));
	H.key[0] = H.key[1] = 0;
	if (!H.locs)
		locs_grow();
}

MLF_NO_TSAN void mlf_hb_step_begin(int slot, enum mlf_hb_access access,
				   const volatile void *addr,
				   unsigned int marks)
{
	struct hb_step *s = &H.step[hb_slot(slot)];

	s->open = true;
	s->computed = false;
	s->marks = marks;
	s->note = 0;
	/* rcu's task runs the callbacks and the model's queue */
	if (hb_slot(slot) == MLF_HB_TASKS - 1)
		s->marks |= MLF_HB_ALL;
	s->access = addr ? access : MLF_HB_NONE;
	s->loc = (uintptr_t)addr >> 3;
}

MLF_NO_TSAN void mlf_hb_step_mark(int slot, unsigned int marks)
{
	struct hb_step *s = &H.step[hb_slot(slot)];

	if (s->open && (s->marks | marks) != s->marks) {
		s->marks |= marks;
		s->computed = false;
	}
}

MLF_NO_TSAN void mlf_hb_step_note(int slot, u64 v)
{
	struct hb_step *s = &H.step[hb_slot(slot)];

	if (s->open)
		s->note = s->note * 0x100000001b3ULL + v + 1;
}

/* The clock of task @i's open step: what it depends on, and itself. */
MLF_NO_TSAN static void compute(int i)
{
	struct hb_step *s = &H.step[i];
	unsigned int m = s->marks;

	memcpy(s->vc, H.last[i], sizeof(s->vc));
	s->vc[i] = H.nr_steps[i] + 1;
	s->computed = true;
	if (m & MLF_HB_ALL) {
		join(s->vc, H.every);
		return;
	}
	join(s->vc, H.all);
	if (s->access != MLF_HB_NONE) {
		struct hb_loc *l = loc_of(s->loc);

		join(s->vc, l->w);
		if (s->access == MLF_HB_WRITE) {
			join(s->vc, l->r);
			join(s->vc, H.looks);
		}
	}
	if (m & MLF_HB_PORT_WRITE)
		join(s->vc, H.looks);
	if (m & MLF_HB_LOOK) {
		join(s->vc, H.writes);
		join(s->vc, H.looks);
	}
	if (m & (MLF_HB_RCU_READ | MLF_HB_RCU_WRITE))
		join(s->vc, H.rcu_w);
	if (m & MLF_HB_RCU_WRITE)
		join(s->vc, H.rcu_r);
	if (m & MLF_HB_FENCE)
		join(s->vc, H.fences);
}

MLF_NO_TSAN static inline u64 mix64(u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

MLF_NO_TSAN void mlf_hb_step_end(int slot)
{
	int i = hb_slot(slot), k;
	struct hb_step *s = &H.step[i];
	unsigned int m = s->marks;
	u64 h0, h1;

	if (!s->open)
		return;
	h0 = 0x6a09e667f3bcc908ULL ^ (u64)i ^ s->note;
	h1 = 0xbb67ae8584caa73bULL + (u64)i + s->note * 0x9e3779b97f4a7c15ULL;
	if (!s->computed)
		compute(i);
	memcpy(H.last[i], s->vc, sizeof(s->vc));
	H.nr_steps[i]++;
	join(H.every, s->vc);
	if (m & MLF_HB_ALL) {
		join(H.all, s->vc);
	} else {
		if (s->access == MLF_HB_READ) {
			join(loc_of(s->loc)->r, s->vc);
		} else if (s->access == MLF_HB_WRITE) {
			join(loc_of(s->loc)->w, s->vc);
			join(H.writes, s->vc);
		}
		if (m & MLF_HB_PORT_WRITE)
			join(H.writes, s->vc);
		if (m & MLF_HB_LOOK)
			join(H.looks, s->vc);
		if (m & MLF_HB_RCU_READ)
			join(H.rcu_r, s->vc);
		if (m & MLF_HB_RCU_WRITE)
			join(H.rcu_w, s->vc);
		if (m & MLF_HB_FENCE)
			join(H.fences, s->vc);
	}
	/*
	 * The trace is the set of its steps with their clocks: a sum of a
	 * hash of each, two ways, is the same in whatever order they ran.
	 */
	for (k = 0; k < MLF_HB_TASKS; k++) {
		h0 = mix64(h0 ^ s->vc[k]);
		h1 = (h1 ^ s->vc[k]) * 0x100000001b3ULL;
	}
	H.key[0] += h0;
	H.key[1] += mix64(h1);
	s->open = false;
}

MLF_NO_TSAN unsigned long mlf_hb_clock(int slot)
{
	int i = hb_slot(slot), k;
	struct hb_step *s = &H.step[i];
	const u32 *vc = H.every;
	unsigned long sum = 0;

	if (s->open) {
		if (!s->computed)
			compute(i);
		vc = s->vc;
	}
	for (k = 0; k < MLF_HB_TASKS; k++)
		sum += vc[k];
	return sum;
}

MLF_NO_TSAN void mlf_hb_key(u64 key[2])
{
	key[0] = H.key[0];
	key[1] = H.key[1];
}

MLF_NO_TSAN u64 mlf_hb_open_note(int slot)
{
	const struct hb_step *s = &H.step[hb_slot(slot)];

	return s->open ? s->note : 0;
}
