// SPDX-License-Identifier: GPL-2.0
/*
 * mlf-trace roundtrip and selftest: every input (or N pseudo-random ones)
 * goes decode -> print -> parse -> encode -> decode and must come back the
 * same; a seed's FILE.trace twin must encode to exactly FILE's bytes.
 */
#define _GNU_SOURCE /* asprintf, open_memstream */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "inputs.h"
#include "kernel/prng.h"
#include "mlf_trace.h"

static unsigned long nr_checked, nr_twins, nr_skipped;

/*
 * Whether c->ops (@na of them, under @h1) and c->again (@nb, under @h2) are
 * the same; *@where: the first op that is not.
 */
static bool same(const struct codec *c, const union header *h1, size_t na,
		 const union header *h2, size_t nb, size_t *where)
{
	size_t i;

	*where = 0;
	if (h1->lru.nr_nodes != h2->lru.nr_nodes ||
	    h1->lru.pool_size != h2->lru.pool_size ||
	    (c->header_equal && !c->header_equal(h1, h2)))
		return false;
	for (i = 0; i < na && i < nb; i++) {
		*where = i;
		if (!c->op_equal(c->ops, c->again, i))
			return false;
	}
	*where = i;
	return na == nb;
}

/* decode -> print -> parse -> encode -> decode; report the first change */
static int roundtrip_bytes(const struct codec *c, const char *name,
			   const u8 *data, size_t size)
{
	struct mlf_trace_error err;
	union header h, h2;
	char *text = NULL;
	size_t len = 0, n, where;
	FILE *out;
	long n2;

	n = c->decode(data, size, &h, c->ops);
	out = open_memstream(&text, &len);
	if (!out)
		return cli_error("out of memory");
	c->print(out, &h, c->ops, n);
	fclose(out);
	n2 = c->parse(text, len, &h2, c->again, &err);
	free(text);
	if (n2 < 0)
		return cli_error("%s: its trace does not parse back: %s", name,
				 err.msg);
	if (!same(c, &h, n, &h2, n2, &where))
		return cli_error("%s: print -> parse changes op %zu", name, where);

	len = c->encode(&h, c->ops, n, c->bytes);
	n2 = c->decode(c->bytes, len, &h2, c->again);
	if (!same(c, &h, n, &h2, n2, &where))
		return cli_error("%s: encode -> decode changes op %zu", name,
				 where);
	nr_checked++;
	return 0;
}

/* a seed's .trace twin must be a trace of its target and encode to its bytes */
static int roundtrip_twin(enum target target, const char *path, const u8 *data,
			  size_t size)
{
	const struct codec *c = cli_codecs[target];
	size_t len, n2, where = 0;
	enum target twin_target;
	union header h, h2;
	struct stat st;
	char *twin;
	long n;
	int bad;

	if (asprintf(&twin, "%s.trace", path) < 0)
		return cli_error("out of memory");
	if (stat(twin, &st)) {
		free(twin);
		return 0;
	}
	twin_target = cli_trace_target(twin);
	if (twin_target != target) {
		if (twin_target != T_NONE)
			cli_error("%s is a %s trace (by its magic line), but %s is read as a %s input (choose with --target or a TARGET file beside it)",
				  twin, cli_target_names[twin_target], path,
				  cli_target_names[target]);
		free(twin);
		return 1;
	}
	bad = cli_parse_file(c, twin, &h, &n);
	if (!bad) {
		len = c->encode(&h, c->ops, n, c->bytes);
		if (len == size && !memcmp(c->bytes, data, len)) {
			nr_twins++;
		} else {
			n2 = c->decode(data, size, &h2, c->again);
			same(c, &h, n, &h2, n2, &where);
			bad = cli_error(
				"%s does not encode to the bytes of %s (first op that differs: %zu; %s)",
				twin, path, where, c->regenerate);
		}
	}
	free(twin);
	return bad;
}

/* the target a directory's TARGET file names, else @target */
/*
 * Without a TARGET file, a directory named after a target (corpus/<target>)
 * holds that target's inputs; the targets without a trace are skipped.
 */
static enum target dir_name_target(const char *dir, enum target target)
{
	static const char *const no_trace[] = { "nulls_list", "trace_parser" };
	char *copy = strdup(dir), *base;
	size_t i, len = copy ? strlen(copy) : 0;
	enum target found = target;

	if (!copy)
		return target;
	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0'; /* corpus/reclaim/ */
	base = strrchr(copy, '/');
	base = base ? base + 1 : copy;
	if (cli_target_of(base) != T_NONE)
		found = cli_target_of(base);
	for (i = 0; i < ARRAY_SIZE(no_trace); i++)
		if (!strcmp(base, no_trace[i]))
			found = T_NONE;
	free(copy);
	return found;
}

static enum target dir_target(const char *dir, enum target target)
{
	char *marker, line[64] = "";
	size_t len;
	FILE *f;

	if (asprintf(&marker, "%s/TARGET", dir) < 0)
		return target;
	f = fopen(marker, "r");
	free(marker);
	if (!f)
		return dir_name_target(dir, target);
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	len = strlen(line);
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' ||
		       line[len - 1] == ' ' || line[len - 1] == '\t'))
		line[--len] = '\0';
	return cli_target_of(line);
}

static int roundtrip_path(const char *path, enum target target)
{
	struct dirent **names;
	struct stat st;
	int n, i, bad = 0;
	size_t size;
	char *data;

	if (stat(path, &st))
		return cli_error("%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		target = dir_target(path, target);
		n = scandir(path, &names, NULL, alphasort);
		if (n < 0)
			return cli_error("%s: %s", path, strerror(errno));
		for (i = 0; i < n; i++) {
			char *sub;

			if (strcmp(names[i]->d_name, ".") &&
			    strcmp(names[i]->d_name, "..") &&
			    mlf_is_input_name(names[i]->d_name) &&
			    asprintf(&sub, "%s/%s", path, names[i]->d_name) >=
				    0) {
				bad |= roundtrip_path(sub, target);
				free(sub);
			}
			free(names[i]);
		}
		free(names);
		return bad;
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	if (target == T_NONE) {
		/* a TARGET file names a target without a trace (nulls_list) */
		nr_skipped++;
		return 0;
	}
	if (cli_read_file(path, &data, &size))
		return 1;
	bad = roundtrip_bytes(cli_codecs[target], path, (u8 *)data, size);
	bad |= roundtrip_twin(target, path, (u8 *)data, size);
	free(data);
	return bad;
}

int cmd_roundtrip(int argc, char **argv)
{
	enum target target;
	struct stat st;
	int i, bad = 0;

	if (cli_take_target(&argc, argv, &target, NULL))
		return 1;
	if (!argc)
		return cli_error("usage: mlf-trace roundtrip [--target T] PATH...");
	for (i = 0; i < argc; i++) {
		enum target t = target;

		/* a file of a directory with a TARGET file is that target's */
		if (!stat(argv[i], &st) && !S_ISDIR(st.st_mode)) {
			char *dir = strdup(argv[i]), *slash = strrchr(dir, '/');

			if (slash) {
				*slash = '\0';
				t = dir_target(*dir ? dir : "/", t);
			} else {
				t = dir_target(".", t);
			}
			free(dir);
		}
		bad |= roundtrip_path(argv[i], t);
	}
	printf("roundtrip: %lu inputs, %lu .trace twins", nr_checked, nr_twins);
	if (nr_skipped)
		printf(", %lu inputs of targets without a trace skipped",
		       nr_skipped);
	printf("\n");
	return bad;
}

/*
 * Random inputs, biased towards short ones and towards op kinds' own byte
 * values so that every op kind and every operand shows up.
 */
int cmd_selftest(int argc, char **argv)
{
	struct mlf_rng g = mlf_rng_seeded(0x2545f4914f6cdd1dULL);
	static u8 input[4096];
	unsigned long count, i;
	enum target target;
	int bad = 0;

	if (cli_take_target(&argc, argv, &target, NULL))
		return 1;
	count = argc ? strtoul(argv[0], NULL, 0) : 20000;
	for (i = 0; i < count && !bad; i++) {
		size_t len, j;
		char name[32];

		len = mlf_rng_below(&g, i % 16 == 0 ? sizeof(input) : 64);
		for (j = 0; j < len; j++)
			input[j] = mlf_rng_next(&g);
		snprintf(name, sizeof(name), "selftest #%lu", i);
		bad = roundtrip_bytes(cli_codecs[target], name, input, len);
	}
	printf("selftest: %lu random %s%sinputs round-trip\n", nr_checked,
	       target == T_MEMCG_LRU ? "" : cli_target_names[target],
	       target == T_MEMCG_LRU ? "" : " ");
	return bad;
}
