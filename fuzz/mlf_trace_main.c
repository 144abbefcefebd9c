// SPDX-License-Identifier: GPL-2.0
/*
 * mlf-trace: between fuzz inputs and their traces.
 *
 *   mlf-trace decode [--target T] FILE...  print each input's trace
 *   mlf-trace encode FILE.trace -o OUT [--force] [--target T]
 *                                          write the canonical bytes
 *   mlf-trace roundtrip [--target T] PATH...
 *                                          every input: decode -> print ->
 *                                          parse -> encode -> decode is
 *                                          the identity; a FILE.trace twin
 *                                          encodes to exactly FILE's bytes
 *   mlf-trace selftest [--target T] [N]    the same on N pseudo-random inputs
 *
 * T is memcg_lru (the default), reclaim or concurrent. encode tells a
 * trace's target by its magic line (fuzz/targets.json; none: memcg_lru);
 * roundtrip takes a directory's target from its TARGET file. Errors are
 * one line and a non-zero exit; an existing OUT is never overwritten
 * without --force.
 *
 * This file is the command line, decode and encode; mlf_trace.h names the
 * files of the rest.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mlf_trace.h"

const char *const cli_target_names[] = {
	[T_MEMCG_LRU] = "memcg_lru",
	[T_RECLAIM] = "reclaim",
	[T_CONCURRENT] = "concurrent",
};

const struct codec *const cli_codecs[NR_TARGETS] = {
	[T_MEMCG_LRU] = &mlf_trace_codec_lru,
#ifdef MLF_TRACE_RECLAIM
	[T_RECLAIM] = &mlf_trace_codec_reclaim,
#endif
	[T_CONCURRENT] = &mlf_trace_codec_sched,
};

__attribute__((format(printf, 1, 2))) int cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("mlf-trace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

enum target cli_target_of(const char *name)
{
	int t;

	for (t = 0; t < NR_TARGETS; t++)
		if (cli_codecs[t] && !strcmp(name, cli_target_names[t]))
			return t;
	return T_NONE;
}

const char *cli_target_list(void)
{
	static char list[64];
	size_t len = 0;
	int t;

	if (!list[0])
		for (t = 0; t < NR_TARGETS; t++)
			if (cli_codecs[t])
				len += snprintf(list + len, sizeof(list) - len,
						"%s%s", len ? ", " : "",
						cli_target_names[t]);
	return list;
}

int cli_take_target(int *argc, char **argv, enum target *target, bool *given)
{
	int i, j;

	*target = T_MEMCG_LRU;
	if (given)
		*given = false;
	for (i = 0; i < *argc; i++) {
		if (strcmp(argv[i], "--target"))
			continue;
		if (i + 1 == *argc) {
			cli_error("--target needs a target (%s)",
				  cli_target_list());
			return -1;
		}
		*target = cli_target_of(argv[i + 1]);
		if (*target == T_NONE) {
			cli_error("no trace for target '%s' (have: %s)",
				  argv[i + 1], cli_target_list());
			return -1;
		}
		if (given)
			*given = true;
		for (j = i; j + 2 < *argc; j++)
			argv[j] = argv[j + 2];
		*argc -= 2;
		i--;
	}
	return 0;
}

static int cmd_decode(int argc, char **argv)
{
	const struct codec *c;
	enum target target;
	union header h;
	int i, bad = 0;

	if (cli_take_target(&argc, argv, &target, NULL))
		return 1;
	if (!argc)
		return cli_error("usage: mlf-trace decode [--target T] FILE...");
	c = cli_codecs[target];
	for (i = 0; i < argc; i++) {
		char *data;
		size_t size, n;

		if (cli_read_file(argv[i], &data, &size)) {
			bad = 1;
			continue;
		}
		if (argc > 1)
			printf("%s# %s\n", i ? "\n" : "", argv[i]);
		n = c->decode((u8 *)data, size, &h, c->ops);
		free(data);
		c->print(stdout, &h, c->ops, n);
	}
	return bad;
}

static int cmd_encode(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	enum target want, target;
	const struct codec *c;
	union header h;
	bool force = false, given;
	size_t len;
	long n;
	int i;

	if (cli_take_target(&argc, argv, &want, &given))
		return 1;
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--force"))
			force = true;
		else if (argv[i][0] == '-' || in)
			return cli_error("encode: unexpected argument '%s'",
					 argv[i]);
		else
			in = argv[i];
	}
	if (!in || !out)
		return cli_error(
			"usage: mlf-trace encode FILE.trace -o OUT [--force] [--target T]");
	target = cli_trace_target(in);
	if (target == T_NONE)
		return 1;
	if (given && target != want)
		return cli_error(
			"%s is a %s trace (by its magic line), not a %s one",
			in, cli_target_names[target], cli_target_names[want]);
	c = cli_codecs[target];
	if (cli_parse_file(c, in, &h, &n))
		return 1;
	len = c->encode(&h, c->ops, n, c->bytes);
	return cli_write_file(out, c->bytes, len, force);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "decode"))
		return cmd_decode(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "encode"))
		return cmd_encode(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "roundtrip"))
		return cmd_roundtrip(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "selftest"))
		return cmd_selftest(argc - 2, argv + 2);
	return cli_error(
		"usage: mlf-trace decode [--target T] FILE... | encode FILE.trace -o OUT [--force] [--target T] | roundtrip [--target T] PATH... | selftest [--target T] [N] (T: %s)",
		cli_target_list());
}
