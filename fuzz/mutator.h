/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Structure-aware mutation: an input is a header and a list of records
 * (ops, or a schedule's decisions), each record the canonical bytes of one
 * of them, so that a mutation inserts, deletes, duplicates, swaps or
 * splices whole records, or changes one operand of one record within its
 * range, and the result is always a meaningful sequence in the same byte
 * format (the decoders read it as they read any input). Each target says
 * how its format splits into records and how to make or change one
 * (struct mlf_format, fuzz/<target>_format.c); mutator.c does the rest,
 * for libFuzzer (mutator_libfuzzer.c) and AFL++ (mutator_afl.c).
 */
#ifndef _MLF_FUZZ_MUTATOR_H
#define _MLF_FUZZ_MUTATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/prng.h"

#define MLF_MUT_MAX_HEADER 16
#define MLF_MUT_MAX_RECORD 48
#define MLF_MUT_MAX_RECORDS 4096
/* the most records one random_run makes */
#define MLF_MUT_MAX_RUN 8

/* the mutator's draws, from the engine's seed: struct mlf_rng (prng.h) */

struct mlf_record {
	uint8_t len;
	uint8_t b[MLF_MUT_MAX_RECORD];
};

struct mlf_records {
	uint8_t header[MLF_MUT_MAX_HEADER];
	size_t n;
	struct mlf_record r[MLF_MUT_MAX_RECORDS];
};

/*
 * A place in an input where an op of a kind new to it can meet a memcg
 * (mlf_target_meeting()): before record @at (the record count: after the
 * last), memcg @memcg on node @node stands in a state op @kind has not met
 * it in yet (@cell, its index in the state table, states.h); @folio and
 * @parked are one of its folios and a parked eviction of it there, for ops
 * that name those (-1: none); @draw, the value of each of the op's draws,
 * and of those of the ops of @first that draw a bin (-1: their own), but
 * @start (-1: @draw too) for the op's first draw and those of @first;
 * @zone, a zone with room for an op that allocates (-1: its own). The
 * @nr_first ops of @first go in just before it, in order: ones it needs
 * (a park for an unpark to finish, an unpark to free a park's slot, or to
 * leave a memcg nothing but its folios; a new memcg, and a zone where
 * kswapd stops, for a walk to rotate that memcg to a bin). With
 * @rework, the op is record @at itself, made anew (the format says how;
 * no first ops). The @nr_spare records of @spare, all before @at, are ops
 * the target's world skipped (they did nothing): where the input has no
 * room for the meeting's ops, they go, in that order, until it has
 * (@nr_spared of them, and @at moves up as many).
 */
#define MLF_MEETING_MAX_FIRST 4
#define MLF_MEETING_MAX_SPARE 64
struct mlf_meeting {
	size_t at;
	int kind, memcg, node, folio, parked, cell, draw, start, zone;
	bool rework;
	int nr_first;
	struct mlf_meeting_first {
		int kind, memcg, node, parked;
	} first[MLF_MEETING_MAX_FIRST];
	int nr_spare, nr_spared;
	uint16_t spare[MLF_MEETING_MAX_SPARE];
};

struct mlf_format {
	const char *name;
	size_t header_len;
	/* @data as a header and canonical records (at most max_records) */
	void (*split)(const uint8_t *data, size_t size, struct mlf_records *out);
	/* a new record that makes sense in @in (its header, its memcgs...) */
	void (*random_record)(const struct mlf_records *in, struct mlf_rng *g,
			      struct mlf_record *out);
	/*
	 * A few records that only make sense together (a building block of
	 * the target's world, which one op at a time rarely assembles), at
	 * most @max into @out; returns how many. NULL: none.
	 */
	size_t (*random_run)(const struct mlf_records *in, struct mlf_rng *g,
			     struct mlf_record *out, size_t max);
	/* one operand of @rec changed, within its range */
	void (*tweak_record)(const struct mlf_records *in, struct mlf_record *rec,
			     struct mlf_rng *g);
	/* one field of the header changed; the records follow it */
	void (*tweak_header)(struct mlf_records *in, struct mlf_rng *g);
	/*
	 * @rec, a record under header @from, made the same op under header
	 * @to (NULL: records do not depend on the header)
	 */
	void (*rehome)(const uint8_t *from, const uint8_t *to,
		       struct mlf_record *rec);
	/*
	 * The memcg @rec acts on (-1: none); with @to >= 0, @rec made to act
	 * on memcg @to instead. NULL: no twins (mutator.c).
	 */
	int (*memcg)(const uint8_t *header, struct mlf_record *rec, int to);
	/* how many memcgs the world of @header holds */
	int (*pool_size)(const uint8_t *header);
	/*
	 * the ops for @m (above) in @out: its first ops, if any, then its
	 * op; NULL: no meetings
	 */
	void (*meeting_record)(const struct mlf_records *in,
			       const struct mlf_meeting *m, struct mlf_rng *g,
			       struct mlf_record *out);
};

/*
 * Run @data (@size bytes, room for @max) in the target and pick one
 * meeting (above) at random with @seed; false if there is none. The target
 * may pick it in an input of its own choice instead (one it ran that took
 * a memcg where none had stood): then it writes that input over @data and
 * its length to @size. The fuzz target defines it if its world notes
 * states (fuzz/reclaim.c); elsewhere (AFL++'s mutator, which runs outside
 * the target, and the other targets) it is absent.
 */
bool mlf_target_meeting(uint8_t *data, size_t *size, size_t max,
			uint64_t seed, struct mlf_meeting *m)
	__attribute__((weak));

/*
 * The input (@data, @size bytes) the mutator made of the meeting
 * mlf_target_meeting() picked last, @m with @m->at where its op went (the
 * spare records it took out come off it), for the target to tell, when
 * the engine runs it, whether that meeting did what it was put in for;
 * @data NULL where the meeting's ops found no room. Weak, as
 * mlf_target_meeting().
 */
void mlf_target_meeting_made(const uint8_t *data, size_t size,
			     const struct mlf_meeting *m) __attribute__((weak));

/*
 * A meeting as a mutation: @data (@size bytes, room for @max), or the
 * input the target chose instead, with the op of the meeting the target
 * picks (@m, drawn from @g) put in; its new length in @len. False, @data
 * as it was, if there is no meeting.
 */
bool mlf_meeting_mutate(const struct mlf_format *f, uint8_t *data,
			size_t size, size_t max, struct mlf_rng *g,
			struct mlf_meeting *m, size_t *len);

/*
 * libFuzzer's own byte mutator, where the engine has one: the mutator uses
 * it on the operand bytes of one record (dictionary and comparison
 * operands included), then makes that record canonical again. NULL: none.
 */
typedef size_t (*mlf_byte_mutator)(uint8_t *data, size_t size, size_t max);

/* Mutate @data (@size bytes, room for @max) in place; returns its size. */
size_t mlf_mutate(const struct mlf_format *f, uint8_t *data, size_t size,
		  size_t max, unsigned int seed, mlf_byte_mutator bytes);

/* A cross-over of @a and @b into @out (room for @max); returns its size. */
size_t mlf_cross_over(const struct mlf_format *f, const uint8_t *a,
		      size_t a_size, const uint8_t *b, size_t b_size,
		      uint8_t *out, size_t max, unsigned int seed);

/* The format the target links (fuzz/<target>_format.c). */
extern const struct mlf_format mlf_target_format;

/*
 * Whether the structure-aware mutator is on: MLF_MUTATOR unset or "ops";
 * "bytes" turns it off (the engine's own byte mutations), to measure one
 * against the other (tools/mlf fuzz / zoo --mutator).
 */
bool mlf_mutator_enabled(void);

#endif
