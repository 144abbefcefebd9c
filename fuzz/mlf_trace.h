/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of mlf-trace share: the targets that have a trace, a
 * target's codec behind one interface (mlf_trace_memcg_lru.c,
 * mlf_trace_reclaim.c, mlf_trace_concurrent.c), and the helpers of the command
 * line (mlf_trace_main.c, mlf_trace_files.c), whose roundtrip and selftest
 * commands are mlf_trace_roundtrip.c.
 */
#ifndef _MLF_FUZZ_MLF_TRACE_H
#define _MLF_FUZZ_MLF_TRACE_H

#include <stdbool.h>
#include <stdio.h>

#include "memcg_lru_codec.h"
#include "concurrent_trace.h"
#include "memcg_lru_trace.h"
#ifdef MLF_TRACE_RECLAIM
#include "reclaim_trace.h"
#endif

/*
 * The targets with a trace (reclaim's only when its codec is linked);
 * T_NONE: a TARGET file names one without.
 */
enum target { T_MEMCG_LRU, T_RECLAIM, T_CONCURRENT, T_NONE };

extern const char *const cli_target_names[];

#define NR_TARGETS T_NONE

/* The concurrent target's header: what its run line says, beside nodes. */
struct sched_header {
	int nr_nodes, pool_size;
	int nr_writers, nr_readers, nr_initial;
	enum mlf_sched_policy policy;
	u32 seed;
};

/*
 * A target's header. Each begins with { nr_nodes, pool_size }: same()
 * reads them through .lru whatever the target (a common initial
 * sequence), and the rest with the codec's header_equal, if any.
 */
union header {
	struct mlf_header lru;
#ifdef MLF_TRACE_RECLAIM
	struct mlf_reclaim_header reclaim;
#endif
	struct sched_header sched;
};
#ifdef MLF_TRACE_RECLAIM
_Static_assert(sizeof(struct mlf_reclaim_header) == sizeof(struct mlf_header),
	       "same() compares only nr_nodes and pool_size");
#endif

/*
 * A target's codec and trace, for the commands that treat both targets
 * alike. Its functions take its own op type behind the void pointers.
 */
struct codec {
	void *ops, *again; /* an input's ops, and what a round trip makes */
	u8 *bytes; /* room to encode all of ops */
	/* how to make a seed's .trace twin again */
	const char *regenerate;
	size_t (*decode)(const u8 *data, size_t size, union header *h,
			 void *ops);
	void (*print)(FILE *out, const union header *h, const void *ops,
		      size_t n);
	long (*parse)(const char *text, size_t len, union header *h, void *ops,
		      struct mlf_trace_error *err);
	size_t (*encode)(const union header *h, const void *ops, size_t n,
			 u8 *out);
	/* ops[i] of @a and @b are equal */
	bool (*op_equal)(const void *a, const void *b, size_t i);
	/* the headers beyond nodes and pool are equal; NULL: nothing more */
	bool (*header_equal)(const union header *a, const union header *b);
};

/* the codecs (mlf_trace_memcg_lru.c, mlf_trace_reclaim.c, mlf_trace_concurrent.c) */
extern const struct codec mlf_trace_codec_lru;
#ifdef MLF_TRACE_RECLAIM
extern const struct codec mlf_trace_codec_reclaim;
#endif
extern const struct codec mlf_trace_codec_sched;
/* by target; NULL for one this mlf-trace has no codec for */
extern const struct codec *const cli_codecs[NR_TARGETS];

/* mlf_trace_main.c: "mlf-trace: " and the message; returns 1 */
__attribute__((format(printf, 1, 2))) int cli_error(const char *fmt, ...);
/* the target named @name, if this mlf-trace has its codec; else T_NONE */
enum target cli_target_of(const char *name);
/* "memcg_lru, reclaim, concurrent": the targets it has a codec for */
const char *cli_target_list(void);
/* Take "--target T" out of @argv; -1 after an error, else 0. */
int cli_take_target(int *argc, char **argv, enum target *target, bool *given);

/* mlf_trace_files.c; each returns non-zero after an error it reported */
int cli_read_file(const char *path, char **data, size_t *size);
/* @len bytes to @out; an existing @out only with @force */
int cli_write_file(const char *out, const u8 *data, size_t len, bool force);
/* the trace at @path into c->ops; *@n: how many */
int cli_parse_file(const struct codec *c, const char *path, union header *h,
		   long *n);
/* The target of the trace at @path by its magic line; T_NONE if unreadable. */
enum target cli_trace_target(const char *path);

/* mlf_trace_roundtrip.c: the commands */
int cmd_roundtrip(int argc, char **argv);
int cmd_selftest(int argc, char **argv);

#endif
