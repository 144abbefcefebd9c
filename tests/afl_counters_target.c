// SPDX-License-Identifier: GPL-2.0
/*
 * A target for tests/afl_counters.sh: a one-byte input bumps the extra
 * counter its byte names, as memcg_lru's and reclaim's state cells do,
 * and the same code runs for every one-byte input (no edge tells them
 * apart): only the counters can.
 */
#include <stddef.h>
#include <stdint.h>

#include "engine_counters.h"

static unsigned char counters[64]
	__attribute__((section("__libfuzzer_extra_counters"), used));

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	counters[(size ? data[0] : 0) % sizeof(counters)] += size == 1;
	mlf_engine_counters_done();
	return 0;
}
