// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer's hooks for the structure-aware mutator (mutator.h): with a
 * custom mutator libFuzzer mutates only through it and the cross-over
 * below. MLF_MUTATOR=bytes hands every mutation back to libFuzzer's own
 * (LLVMFuzzerMutate), and the cross-over then declines, so that the run
 * is libFuzzer's byte-level fuzzing, to compare against. The replay
 * drivers link this file too; there LLVMFuzzerMutate is absent and the
 * hooks are never called.
 */
#include <stddef.h>
#include <stdint.h>

#include "mutator.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
	__attribute__((weak));

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
				 const uint8_t *data2, size_t size2,
				 uint8_t *out, size_t max_out_size,
				 unsigned int seed);

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
