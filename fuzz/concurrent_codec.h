/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The byte format of the concurrent target (the scheduled engine,
 * src/harness/sched_engine.h). Every byte string decodes; bytes that run
 * out read as zero, a partial record at the end is ignored.
 *
 *   header, 8 bytes
 *     0  nodes = 1 + b % 4
 *     1  pool = 1 + b % SCHED_MAX_POOL
 *     2  writers = 1 + b % 3, readers = 1 + (b >> 2) % 2
 *     3  memcgs onlined before the run: b % (pool + 1)
 *     4  policy: bit 0 clear, the input's decisions; set, PCT
 *     5-7  seed (little-endian): the ops' draws, PCT's priorities
 *   then records of 5 bytes, in order:
 *     [t k s n a], t < 0xc0  an op of task t % tasks: writers kind
 *                            k % 8 (online offline release rotate soft
 *                            set hold drop) on slot s, node n % nodes
 *                            (n >> 4: 0, draws from the seed; else the
 *                            op's first draw, a bin, is (n >> 4) - 1,
 *                            modulo 8), arg a
 *                            (rotate: mlf_rotation(a % 4); soft:
 *                            softirq a & 1; online, set: shrink flags);
 *                            readers reclaim node n, target s pages
 *     [t d e u -], 0xc0 <= t < 0xe0  a decision: after 1 + d + 256 *
 *                            (e % 4) more points, task u % (tasks + 1)
 *                            runs (the last: rcu's callbacks); PCT: the
 *                            delays are its change points, u unused
 *     [t d e b -], t >= 0xe0  a weak choice (the weak memory model's,
 *                            kernel/wmm.h): after 1 + d + 256 * (e % 4)
 *                            more weak choice points (marked accesses
 *                            with a choice), the load reads the store
 *                            1 + b % 8 before the newest it may read (the
 *                            oldest, if fewer), or the store goes that
 *                            far back in coherence; unused under
 *                            --memory-model sc
 *
 * The decoded input is canonical: what a kind does not read is zero (the
 * node but for rotate, soft and reclaim; the bin but for online, rotate,
 * soft and reclaim; the arg bits above). mlf_sched_encode() writes its
 * canonical bytes (ops, then decisions, then weak choices), which decode
 * to the same input; its trace is concurrent_trace.h.
 */
#ifndef _MLF_FUZZ_SCHED_CODEC_H
#define _MLF_FUZZ_SCHED_CODEC_H

#include <stddef.h>

#include "harness/sched_engine.h"

#define MLF_SCHED_HEADER_LEN 8
#define MLF_SCHED_RECORD_LEN 5
#define MLF_SCHED_DECISION 0xc0
#define MLF_SCHED_WEAK 0xe0
#define MLF_SCHED_MAX_BACK 8

void mlf_sched_decode(const u8 *data, size_t size, struct sched_input *in);
/* The canonical bytes of @in into @out (room for mlf_sched_encoded_len()). */
size_t mlf_sched_encode(const struct sched_input *in, u8 *out);
size_t mlf_sched_encoded_len(const struct sched_input *in);

#endif
