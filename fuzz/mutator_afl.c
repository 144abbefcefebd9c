// SPDX-License-Identifier: GPL-2.0
/*
 * The structure-aware mutator (mutator.h) as an AFL++ custom mutator:
 * fuzz/CMakeLists.txt builds lib<target>_afl_mutator.so from this file,
 * mutator.c, the target's format and its codec, and tools/mlf fuzz
 * --engine afl hands it to afl-fuzz (AFL_CUSTOM_MUTATOR_LIBRARY) unless
 * --mutator bytes. AFL++ then calls it beside its own havoc; with a splice
 * partner (add_buf) it crosses the two over.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mutator.h"

struct afl_mutator {
	unsigned int seed;
	uint8_t *out;
	size_t cap;
};

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size,
		       uint8_t **out_buf, uint8_t *add_buf, size_t add_buf_size,
		       size_t max_size);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed)
{
	struct afl_mutator *m = calloc(1, sizeof(*m));

	(void)afl;
	if (m)
		m->seed = seed;
	return m;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size,
		       uint8_t **out_buf, uint8_t *add_buf, size_t add_buf_size,
		       size_t max_size)
{
	struct afl_mutator *m = data;
	unsigned int seed = m->seed = m->seed * 1103515245u + 12345u;

	if (m->cap < max_size) {
		uint8_t *out = realloc(m->out, max_size);

		if (!out) {
			*out_buf = buf;
			return buf_size;
		}
		m->out = out;
		m->cap = max_size;
	}
	if (add_buf && add_buf_size && seed % 4 == 0) {
		*out_buf = m->out;
		return mlf_cross_over(&mlf_target_format, buf, buf_size, add_buf,
				      add_buf_size, m->out, max_size, seed >> 2);
	}
	if (buf_size > max_size)
		buf_size = max_size;
	memcpy(m->out, buf, buf_size);
	*out_buf = m->out;
	return mlf_mutate(&mlf_target_format, m->out, buf_size, max_size, seed,
			  NULL);
}

void afl_custom_deinit(void *data)
{
	struct afl_mutator *m = data;

	free(m->out);
	free(m);
}

/*
 * The reclaim codec's printer names ops through the reclaim port, which
 * this library does not link; the mutator never prints.
 */
__attribute__((weak)) const char *mlf_reclaim_op_name(int kind)
{
	(void)kind;
	return "?";
}
