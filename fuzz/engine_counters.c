// SPDX-License-Identifier: GPL-2.0
/*
 * The extra counters (section __libfuzzer_extra_counters: the state cells
 * of memcg_lru and reclaim, the interleavings of concurrent) for AFL++,
 * whose afl-fuzz reads only its own map. In the build with afl-clang-fast
 * each counter byte gets a guard, registered with AFL++'s coverage
 * runtime as an instrumented module's guards are
 * (__sanitizer_cov_trace_pc_guard_init(), from a constructor: before the
 * fork server tells afl-fuzz the map's size), so that each has a map slot
 * of its own. After each input mlf_engine_counters_done() bumps each
 * counter's slot by its count through __sanitizer_cov_trace_pc_guard()
 * and clears it, as libFuzzer clears them itself before an input; AFL++'s
 * driver does not. AFL++ does not instrument that function
 * (fuzz/afl.denylist): its loop would tell again what the slots tell.
 * Under libFuzzer and in the replay drivers it does nothing.
 */
#include "engine_counters.h"

#ifdef __AFL_COMPILER
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sections.h"

MLF_SECTION_BOUNDS(__libfuzzer_extra_counters);

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop);
void __sanitizer_cov_trace_pc_guard(uint32_t *guard);

static uint32_t *guards;

static size_t nr_counters(void)
{
	if (!__start___libfuzzer_extra_counters ||
	    __stop___libfuzzer_extra_counters <=
		    __start___libfuzzer_extra_counters)
		return 0;
	return __stop___libfuzzer_extra_counters -
	       __start___libfuzzer_extra_counters;
}

__attribute__((constructor)) static void register_counters(void)
{
	size_t n = nr_counters();

	if (!n)
		return;
	guards = calloc(n, sizeof(*guards));
	if (!guards)
		abort();
	__sanitizer_cov_trace_pc_guard_init(guards, guards + n);
}

void mlf_engine_counters_done(void)
{
	unsigned char *c = __start___libfuzzer_extra_counters;
	size_t n = nr_counters(), i = 0;
	uint64_t word;

	if (!guards)
		return;
	while (i < n) {
		/* eight at a time where they are all zero, as most are */
		if (i + sizeof(word) <= n) {
			memcpy(&word, c + i, sizeof(word));
			if (!word) {
				i += sizeof(word);
				continue;
			}
		}
		while (c[i]) {
			__sanitizer_cov_trace_pc_guard(&guards[i]);
			c[i]--;
		}
		i++;
	}
}
#else
void mlf_engine_counters_done(void)
{
}
#endif
