// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer's hooks for the structure-aware mutator (mutator.h): with a
 * custom mutator libFuzzer mutates only through it and the cross-over
 * below. MLF_MUTATOR=bytes hands every mutation back to libFuzzer's own
 * (LLVMFuzzerMutate), and the cross-over then declines, so that the run
 * is libFuzzer's byte-level fuzzing, to compare against. The replay
 * drivers link this file too; there LLVMFuzzerMutate is absent and the
 * hooks are never called.
 *
 * libFuzzer turns its length control off when a custom mutator is there
 * (-len_control defaults to 0): inputs may grow to max_len from the start.
 * That is kept for the mutator: a record list grows by one op per
 * insertion anyway, and the zoo measured with -len_control=10 and 30 took
 * three to ten times the executions to find bug-throttle-any-type and
 * bug-young-skip-any-seg. With MLF_MUTATOR=bytes the run gets libFuzzer's
 * default back (-len_control=100, unless the command line sets one), so
 * that it is libFuzzer as it runs without a custom mutator.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mutator.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
	__attribute__((weak));

int LLVMFuzzerInitialize(int *argc, char ***argv);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
				 const uint8_t *data2, size_t size2,
				 uint8_t *out, size_t max_out_size,
				 unsigned int seed);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static char flag[] = "-len_control=100";
	char **args;
	int i;

	if (mlf_mutator_enabled())
		return 0;
	for (i = 1; i < *argc; i++)
		if (!strncmp((*argv)[i], "-len_control=", 13))
			return 0;
	args = malloc((*argc + 2) * sizeof(*args));
	if (!args)
		return 0;
	memcpy(args, *argv, *argc * sizeof(*args));
	args[(*argc)++] = flag;
	args[*argc] = NULL;
	*argv = args;
	return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	if (!mlf_mutator_enabled())
		return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) :
					  size;
	return mlf_mutate(&mlf_target_format, data, size, max_size, seed,
			  LLVMFuzzerMutate);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
				 const uint8_t *data2, size_t size2,
				 uint8_t *out, size_t max_out_size,
				 unsigned int seed)
{
	if (!mlf_mutator_enabled())
		return 0;
	return mlf_cross_over(&mlf_target_format, data1, size1, data2, size2,
			      out, max_out_size, seed);
}
