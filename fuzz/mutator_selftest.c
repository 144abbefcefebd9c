// SPDX-License-Identifier: GPL-2.0
/*
 * mutator_selftest_<target> DIR: the structure-aware mutator (mutator.h)
 * on a target's seeds, through the AFL++ entry points (mutator_afl.c) and
 * mlf_mutate() / mlf_cross_over(): every result fits the size asked for
 * and is canonical, i.e. splits into records that join back into exactly
 * its bytes, so it is a sequence of whole ops of the target's format; a
 * chain of mutations grows and shrinks inputs. ctest mutator/<target>.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "mutator.h"

#define MAX_INPUTS 256
#define MAX_SIZE 1024
#define ROUNDS 2000

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size,
		       uint8_t **out_buf, uint8_t *add_buf, size_t add_buf_size,
		       size_t max_size);
void afl_custom_deinit(void *data);

static uint8_t inputs[MAX_INPUTS][MAX_SIZE];
static size_t sizes[MAX_INPUTS];
static int nr_inputs;
static struct mlf_records recs;

static bool keep(uint8_t *data, size_t size, void *arg)
{
	(void)arg;
	memcpy(inputs[nr_inputs], data, size);
	sizes[nr_inputs++] = size;
	return nr_inputs < MAX_INPUTS;
}

static int load(const char *dir)
{
	static uint8_t buf[MAX_SIZE];

	if (mlf_for_each_input(dir, buf, MAX_SIZE, keep, NULL) < 0) {
		fprintf(stderr, "mutator_selftest: cannot open %s\n", dir);
		return -1;
	}
	return nr_inputs;
}

/* @data splits into records that join back into exactly @data */
static int canonical(const uint8_t *data, size_t size)
{
	const struct mlf_format *f = &mlf_target_format;
	size_t len = f->header_len, i;

	if (size < f->header_len)
		return !size;
	f->split(data, size, &recs);
	if (memcmp(recs.header, data, f->header_len))
		return 0;
	for (i = 0; i < recs.n; i++) {
		if (len + recs.r[i].len > size ||
		    memcmp(recs.r[i].b, data + len, recs.r[i].len))
			return 0;
		len += recs.r[i].len;
	}
	return len == size;
}

int main(int argc, char **argv)
{
	static uint8_t buf[MAX_SIZE], out[MAX_SIZE];
	size_t size, max = 0, min = MAX_SIZE, k;
	void *afl;
	int i, bad = 0;

	if (argc != 2 || load(argv[1]) <= 0) {
		fprintf(stderr, "usage: %s DIR (a directory of %s inputs)\n",
			argv[0], mlf_target_format.name);
		return 2;
	}
	afl = afl_custom_init(NULL, 1);
	for (i = 0; i < nr_inputs; i++) {
		memcpy(buf, inputs[i], sizes[i]);
		size = sizes[i];
		for (k = 0; k < ROUNDS / nr_inputs + 1; k++) {
			uint8_t *res;
			int j = (i + k) % nr_inputs;
			size_t cap = 64 + k % (MAX_SIZE - 64);

			if (k % 3 == 0) {
				size = afl_custom_fuzz(afl, buf, size, &res,
						       inputs[j], sizes[j],
						       cap);
				memmove(buf, res, size);
			} else if (k % 3 == 1) {
				if (size > cap)
					size = cap;
				size = mlf_mutate(&mlf_target_format, buf, size,
						  cap, k, NULL);
			} else {
				size = mlf_cross_over(&mlf_target_format, buf,
						      size, inputs[j], sizes[j],
						      out, cap, k);
				memcpy(buf, out, size);
			}
			if (size > cap || !canonical(buf, size)) {
				fprintf(stderr,
					"mutator_selftest: %s: input %d, round %zu: %zu bytes (room for %zu), not canonical or too long\n",
					mlf_target_format.name, i, k, size,
					cap);
				bad++;
			}
			if (size > max)
				max = size;
			if (size < min)
				min = size;
		}
	}
	afl_custom_deinit(afl);
	printf("mutator_selftest: %s: %d seeds, sizes %zu..%zu, %d bad\n",
	       mlf_target_format.name, nr_inputs, min, max, bad);
	return bad ? 1 : 0;
}
