/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read-only questions to the reference model that the per-op checks ask:
 * how many memcgs a generation holds, and where a memcg sits. They read
 * struct mlf_model's fields only, so model.c stays the model's one writer.
 */
#ifndef _MLF_CHECK_MODEL_QUERY_H
#define _MLF_CHECK_MODEL_QUERY_H

#include "model.h"

/*
 * Entries in all bins of @gen on @nid, as model.c keeps them (the full
 * check, fast_bins(), counts the bins afresh and compares the port's
 * nr_memcgs with that, so a count kept wrong here cannot hide a defect).
 */
static inline unsigned long model_gen_count(const struct mlf_model *m, int nid,
					    int gen)
{
	return m->nodes[nid].nr[gen];
}

/* Linked entries on every node: what a full check walks. */
static inline unsigned long model_nr_linked(const struct mlf_model *m)
{
	return m->nr_linked;
}

/*
 * Where memcg @id sits on @nid: true and *@gen, *@bin if the model has it
 * linked there.
 */
static inline bool model_where(const struct mlf_model *m, int id, int nid,
			       int *gen, int *bin)
{
	const struct mlf_model_memcg *mc;

	if (id < 0 || id >= m->pool_size)
		return false;
	mc = &m->memcgs[id];
	if (!mc->allocated || !mc->linked[nid])
		return false;
	*gen = mc->gen[nid];
	*bin = mc->bin[nid];
	return true;
}

/* The position of memcg @id in its bin on @nid, or -1 if not linked there. */
static inline int model_index(const struct mlf_model *m, int id, int nid)
{
	const struct mlf_model_bin *b;
	int i;

	if (!m->memcgs[id].linked[nid])
		return -1;
	b = &m->nodes[nid].bins[m->memcgs[id].gen[nid]][m->memcgs[id].bin[nid]];
	for (i = 0; i < b->len; i++)
		if (b->ids[i] == id)
			return i;
	return -1;
}

/* The first memcg id >= @from the model has allocated, or -1. */
static inline int model_next_allocated(const struct mlf_model *m, int from)
{
	int word = from / 64, words = (m->pool_size + 63) / 64;
	u64 bits;

	if (from < 0 || from >= m->pool_size)
		return -1;
	bits = m->allocated[word] & (~0ULL << (from % 64));
	while (!bits) {
		if (++word >= words)
			return -1;
		bits = m->allocated[word];
	}
	return word * 64 + __builtin_ctzll(bits);
}

#endif
