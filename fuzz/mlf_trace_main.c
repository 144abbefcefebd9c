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
 * T is memcg_lru (the default) or reclaim. encode tells a trace's target by
 * its first line (MLF_RECLAIM_TRACE_MAGIC, else memcg_lru); roundtrip takes
 * a directory's target from its TARGET file. Errors are one line and a
 * non-zero exit; an existing OUT is never overwritten without --force.
 */
#define _GNU_SOURCE /* asprintf, open_memstream */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inputs.h"

#include "codec.h"
#include "trace.h"
#ifdef MLF_TRACE_RECLAIM
#include "reclaim_trace.h"
#endif

static unsigned long nr_checked, nr_twins, nr_skipped;

/* the targets with a trace; T_NONE: a TARGET file names one without */
enum target { T_MEMCG_LRU, T_RECLAIM, T_NONE };

static const char *const target_names[] = { "memcg_lru", "reclaim" };

#ifdef MLF_TRACE_RECLAIM
#define NR_TARGETS 2
#else
#define NR_TARGETS 1
#endif

/*
 * Either target's header. Both are { nr_nodes, pool_size }: same() reads
 * them through .lru whatever the target (a common initial sequence).
 */
union header {
	struct mlf_header lru;
#ifdef MLF_TRACE_RECLAIM
	struct mlf_reclaim_header reclaim;
#endif
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
};

/* ---- memcg_lru ---- */

#define MAX_BYTES \
	(MLF_FUZZ_HEADER_BYTES + MLF_FUZZ_MAX_OPS * MLF_FUZZ_MAX_OP_BYTES)

static struct mlf_op ops[MLF_FUZZ_MAX_OPS], again[MLF_FUZZ_MAX_OPS];
static u8 bytes[MAX_BYTES];

static size_t lru_decode(const u8 *data, size_t size, union header *h, void *o)
{
	return mlf_decode(data, size, &h->lru, o, MLF_FUZZ_MAX_OPS);
}

static void lru_print(FILE *out, const union header *h, const void *o, size_t n)
{
	mlf_trace_print(out, &h->lru, o, n);
}

static long lru_parse(const char *text, size_t len, union header *h, void *o,
		      struct mlf_trace_error *err)
{
	return mlf_trace_parse(text, len, &h->lru, o, MLF_FUZZ_MAX_OPS, err);
}

static size_t lru_encode(const union header *h, const void *o, size_t n,
			 u8 *out)
{
	const struct mlf_op *op = o;
	size_t len = mlf_encode_header(&h->lru, out), i;

	for (i = 0; i < n; i++)
		len += mlf_encode_op(&h->lru, &op[i], out + len);
	return len;
}

static bool lru_op_equal(const void *a, const void *b, size_t i)
{
	return mlf_op_equal((const struct mlf_op *)a + i,
			    (const struct mlf_op *)b + i);
}

/* ---- reclaim ---- */

#ifdef MLF_TRACE_RECLAIM
#define RECLAIM_MAX_BYTES           \
	(MLF_RECLAIM_HEADER_BYTES + \
	 MLF_RECLAIM_MAX_OPS * MLF_RECLAIM_MAX_OP_BYTES)
static struct mlf_reclaim_op rops[MLF_RECLAIM_MAX_OPS],
	ragain[MLF_RECLAIM_MAX_OPS];
static u8 rbytes[RECLAIM_MAX_BYTES];

static size_t reclaim_decode(const u8 *data, size_t size, union header *h,
			     void *o)
{
	return mlf_reclaim_decode(data, size, &h->reclaim, o,
				  MLF_RECLAIM_MAX_OPS);
}

static void reclaim_print(FILE *out, const union header *h, const void *o,
			  size_t n)
{
	mlf_reclaim_trace_print(out, &h->reclaim, o, n);
}

static long reclaim_parse(const char *text, size_t len, union header *h,
			  void *o, struct mlf_trace_error *err)
{
	return mlf_reclaim_trace_parse(text, len, &h->reclaim, o,
				       MLF_RECLAIM_MAX_OPS, err);
}

static size_t reclaim_encode(const union header *h, const void *o, size_t n,
			     u8 *out)
{
	return mlf_reclaim_encode(&h->reclaim, o, n, out);
}

static bool reclaim_op_equal(const void *a, const void *b, size_t i)
{
	return mlf_reclaim_op_equal((const struct mlf_reclaim_op *)a + i,
				    (const struct mlf_reclaim_op *)b + i);
}
#endif

static const struct codec codecs[NR_TARGETS] = {
	[T_MEMCG_LRU] = { .ops = ops,
			  .again = again,
			  .bytes = bytes,
			  .regenerate = "regenerate with tools/mlf corpus",
			  .decode = lru_decode,
			  .print = lru_print,
			  .parse = lru_parse,
			  .encode = lru_encode,
			  .op_equal = lru_op_equal },
#ifdef MLF_TRACE_RECLAIM
	[T_RECLAIM] = { .ops = rops,
			.again = ragain,
			.bytes = rbytes,
			.regenerate =
				"regenerate with fuzz/reclaim_seeds.py, or mlf-trace encode the twin",
			.decode = reclaim_decode,
			.print = reclaim_print,
			.parse = reclaim_parse,
			.encode = reclaim_encode,
			.op_equal = reclaim_op_equal },
#endif
};

__attribute__((format(printf, 1, 2))) static int error(const char *fmt, ...)
{
	va_list ap;

	fputs("mlf-trace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

/* the target named @name, or T_NONE */
static enum target target_of(const char *name)
{
	int t;

	for (t = 0; t < NR_TARGETS; t++)
		if (!strcmp(name, target_names[t]))
			return t;
	return T_NONE;
}

/* Take "--target T" out of @argv; -1 after an error, else 0. */
static int take_target(int *argc, char **argv, enum target *target, bool *given)
{
	int i, j;

	*target = T_MEMCG_LRU;
	if (given)
		*given = false;
	for (i = 0; i < *argc; i++) {
		if (strcmp(argv[i], "--target"))
			continue;
		if (i + 1 == *argc) {
			error("--target needs a target (memcg_lru%s)",
			      NR_TARGETS > 1 ? " or reclaim" : "");
			return -1;
		}
		*target = target_of(argv[i + 1]);
		if (*target == T_NONE) {
			error("no trace for target '%s' (have: memcg_lru%s)",
			      argv[i + 1], NR_TARGETS > 1 ? ", reclaim" : "");
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

static int read_file(const char *path, char **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0;
	char *buf;

	if (!f)
		return error("%s: %s", path, strerror(errno));
	buf = malloc(cap);
	for (;;) {
		size_t got;

		if (n == cap)
			buf = realloc(buf, cap *= 2);
		got = fread(buf + n, 1, cap - n, f);
		if (!got)
			break;
		n += got;
	}
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return error("%s: read failed", path);
	}
	fclose(f);
	*data = buf;
	*size = n;
	return 0;
}

static int cmd_decode(int argc, char **argv)
{
	const struct codec *c;
	enum target target;
	union header h;
	int i, bad = 0;

	if (take_target(&argc, argv, &target, NULL))
		return 1;
	if (!argc)
		return error("usage: mlf-trace decode [--target T] FILE...");
	c = &codecs[target];
	for (i = 0; i < argc; i++) {
		char *data;
		size_t size, n;

		if (read_file(argv[i], &data, &size)) {
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

/* a parse error, "PATH:LINE: what" */
static int parse_error(const char *path, const struct mlf_trace_error *err)
{
	if (err->line)
		return error("%s:%d: %s", path, err->line, err->what);
	return error("%s: %s", path, err->what);
}

/* the trace at @path into c->ops */
static int parse_file(const struct codec *c, const char *path, union header *h,
		      long *n)
{
	struct mlf_trace_error err;
	size_t size;
	char *text;

	if (read_file(path, &text, &size))
		return 1;
	*n = c->parse(text, size, h, c->ops, &err);
	free(text);
	if (*n < 0)
		return parse_error(path, &err);
	return 0;
}

/* The target of the trace at @path by its magic line; T_NONE if unreadable. */
static enum target trace_target(const char *path)
{
	enum target target = T_MEMCG_LRU;
	size_t size;
	char *text;

	if (read_file(path, &text, &size))
		return T_NONE;
#ifdef MLF_TRACE_RECLAIM
	if (mlf_reclaim_trace_is(text, size))
		target = T_RECLAIM;
#else
	if (size >= 14 && !memcmp(text, "# mlf reclaim ", 14)) {
		free(text);
		error("%s: a reclaim trace, and this mlf-trace has no reclaim codec",
		      path);
		return T_NONE;
	}
#endif
	free(text);
	return target;
}

static int write_file(const char *out, const u8 *data, size_t len, bool force)
{
	size_t done = 0;
	int fd;

	fd = open(out, O_WRONLY | O_CREAT | (force ? O_TRUNC : O_EXCL), 0644);
	if (fd < 0) {
		if (errno == EEXIST)
			return error(
				"%s exists; not overwriting it (use --force)",
				out);
		return error("%s: %s", out, strerror(errno));
	}
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);

		if (w <= 0) {
			close(fd);
			return error("%s: write failed", out);
		}
		done += w;
	}
	if (close(fd))
		return error("%s: %s", out, strerror(errno));
	return 0;
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

	if (take_target(&argc, argv, &want, &given))
		return 1;
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--force"))
			force = true;
		else if (argv[i][0] == '-' || in)
			return error("encode: unexpected argument '%s'",
				     argv[i]);
		else
			in = argv[i];
	}
	if (!in || !out)
		return error(
			"usage: mlf-trace encode FILE.trace -o OUT [--force] [--target T]");
	target = trace_target(in);
	if (target == T_NONE)
		return 1;
	if (given && target != want)
		return error(
			"%s is a %s trace (by its magic line), not a %s one",
			in, target_names[target], target_names[want]);
	c = &codecs[target];
	if (parse_file(c, in, &h, &n))
		return 1;
	len = c->encode(&h, c->ops, n, c->bytes);
	return write_file(out, c->bytes, len, force);
}

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
	    h1->lru.pool_size != h2->lru.pool_size)
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
		return error("out of memory");
	c->print(out, &h, c->ops, n);
	fclose(out);
	n2 = c->parse(text, len, &h2, c->again, &err);
	free(text);
	if (n2 < 0)
		return error("%s: its trace does not parse back: %s", name,
			     err.msg);
	if (!same(c, &h, n, &h2, n2, &where))
		return error("%s: print -> parse changes op %zu", name, where);

	len = c->encode(&h, c->ops, n, c->bytes);
	n2 = c->decode(c->bytes, len, &h2, c->again);
	if (!same(c, &h, n, &h2, n2, &where))
		return error("%s: encode -> decode changes op %zu", name,
			     where);
	nr_checked++;
	return 0;
}

/* a seed's .trace twin must be a trace of its target and encode to its bytes */
static int roundtrip_twin(enum target target, const char *path, const u8 *data,
			  size_t size)
{
	const struct codec *c = &codecs[target];
	size_t len, n2, where = 0;
	enum target twin_target;
	union header h, h2;
	struct stat st;
	char *twin;
	long n;
	int bad;

	if (asprintf(&twin, "%s.trace", path) < 0)
		return error("out of memory");
	if (stat(twin, &st)) {
		free(twin);
		return 0;
	}
	twin_target = trace_target(twin);
	if (twin_target != target) {
		if (twin_target != T_NONE)
			error("%s is a %s trace (by its magic line), but %s is read as a %s input (choose with --target or a TARGET file beside it)",
			      twin, target_names[twin_target], path,
			      target_names[target]);
		free(twin);
		return 1;
	}
	bad = parse_file(c, twin, &h, &n);
	if (!bad) {
		len = c->encode(&h, c->ops, n, c->bytes);
		if (len == size && !memcmp(c->bytes, data, len)) {
			nr_twins++;
		} else {
			n2 = c->decode(data, size, &h2, c->again);
			same(c, &h, n, &h2, n2, &where);
			bad = error(
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
	static const char *const no_trace[] = { "nulls_list", "concurrent",
						"trace_parser" };
	char *copy = strdup(dir), *base;
	size_t i, len = copy ? strlen(copy) : 0;
	enum target found = target;

	if (!copy)
		return target;
	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0'; /* corpus/reclaim/ */
	base = strrchr(copy, '/');
	base = base ? base + 1 : copy;
	if (target_of(base) != T_NONE)
		found = target_of(base);
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
	return target_of(line);
}

static int roundtrip_path(const char *path, enum target target)
{
	struct dirent **names;
	struct stat st;
	int n, i, bad = 0;
	size_t size;
	char *data;

	if (stat(path, &st))
		return error("%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		target = dir_target(path, target);
		n = scandir(path, &names, NULL, alphasort);
		if (n < 0)
			return error("%s: %s", path, strerror(errno));
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
	if (read_file(path, &data, &size))
		return 1;
	bad = roundtrip_bytes(&codecs[target], path, (u8 *)data, size);
	bad |= roundtrip_twin(target, path, (u8 *)data, size);
	free(data);
	return bad;
}

static int cmd_roundtrip(int argc, char **argv)
{
	enum target target;
	struct stat st;
	int i, bad = 0;

	if (take_target(&argc, argv, &target, NULL))
		return 1;
	if (!argc)
		return error("usage: mlf-trace roundtrip [--target T] PATH...");
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
static int cmd_selftest(int argc, char **argv)
{
	u64 x = 0x2545f4914f6cdd1dULL;
	static u8 input[4096];
	unsigned long count, i;
	enum target target;
	int bad = 0;

	if (take_target(&argc, argv, &target, NULL))
		return 1;
	count = argc ? strtoul(argv[0], NULL, 0) : 20000;
	for (i = 0; i < count && !bad; i++) {
		size_t len, j;
		char name[32];

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		len = (x >> 8) % (i % 16 == 0 ? sizeof(input) : 64);
		for (j = 0; j < len; j++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			input[j] = x >> 32;
		}
		snprintf(name, sizeof(name), "selftest #%lu", i);
		bad = roundtrip_bytes(&codecs[target], name, input, len);
	}
	printf("selftest: %lu random %sinputs round-trip\n", nr_checked,
	       target == T_RECLAIM ? "reclaim " : "");
	return bad;
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
	return error(
		"usage: mlf-trace decode [--target T] FILE... | encode FILE.trace -o OUT [--force] [--target T] | roundtrip [--target T] PATH... | selftest [--target T] [N] (T: memcg_lru%s)",
		NR_TARGETS > 1 ? " or reclaim" : "");
}
