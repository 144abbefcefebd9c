/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The extra counters a target bumps (state cells, interleavings), handed
 * to an engine that does not read them itself (engine_counters.c).
 */
#ifndef _MLF_FUZZ_ENGINE_COUNTERS_H
#define _MLF_FUZZ_ENGINE_COUNTERS_H

/* At the end of each input: the counters to the engine, then cleared. */
void mlf_engine_counters_done(void);

#endif
