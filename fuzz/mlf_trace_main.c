// SPDX-License-Identifier: GPL-2.0
/*
 * mlf-trace: between fuzz inputs and their traces.
 *
 *   mlf-trace decode FILE...               print each input's trace
 *   mlf-trace encode FILE.trace -o OUT [--force]
 *                                          write the canonical bytes
 *   mlf-trace roundtrip PATH...            every input: decode -> print ->
 *                                          parse -> encode -> decode is
 *                                          the identity; a FILE.trace twin
 *                                          encodes to exactly FILE's bytes
 *   mlf-trace selftest [N]                 the same on N pseudo-random inputs
 *
 * Errors are one line and a non-zero exit; an existing OUT is never
 * overwritten without --force.
 */
#define _GNU_SOURCE	/* asprintf, open_memstream */
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

#define MAX_BYTES (MLF_FUZZ_HEADER_BYTES + MLF_FUZZ_MAX_OPS * MLF_FUZZ_MAX_OP_BYTES)

static struct mlf_op ops[MLF_FUZZ_MAX_OPS], again[MLF_FUZZ_MAX_OPS];
static u8 bytes[MAX_BYTES];
static unsigned long nr_checked, nr_twins;

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

static size_t encode_all(const struct mlf_header *h, const struct mlf_op *o,
			 size_t n, u8 *out)
{
	size_t len = mlf_encode_header(h, out), i;

	for (i = 0; i < n; i++)
		len += mlf_encode_op(h, &o[i], out + len);
	return len;
}

static int cmd_decode(int argc, char **argv)
{
	struct mlf_header h;
	int i, bad = 0;

	if (!argc)
		return error("usage: mlf-trace decode FILE...");
	for (i = 0; i < argc; i++) {
		char *data;
		size_t size, n;

		if (read_file(argv[i], &data, &size)) {
			bad = 1;
			continue;
		}
		n = mlf_decode((u8 *)data, size, &h, ops, MLF_FUZZ_MAX_OPS);
		free(data);
		if (argc > 1)
			printf("%s# %s\n", i ? "\n" : "", argv[i]);
		mlf_trace_print(stdout, &h, ops, n);
	}
	return bad;
}

static int parse_file(const char *path, struct mlf_header *h, long *n)
{
	struct mlf_trace_error err;
	size_t size;
	char *text;

	if (read_file(path, &text, &size))
		return 1;
	*n = mlf_trace_parse(text, size, h, ops, MLF_FUZZ_MAX_OPS, &err);
	free(text);
	if (*n < 0) {
		if (err.line)
			return error("%s:%d: %s", path, err.line, err.what);
		return error("%s: %s", path, err.what);
	}
	return 0;
}

static int cmd_encode(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	struct mlf_header h;
	bool force = false;
	size_t len, done = 0;
	long n;
	int i, fd;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--force"))
			force = true;
		else if (argv[i][0] == '-' || in)
			return error("encode: unexpected argument '%s'", argv[i]);
		else
			in = argv[i];
	}
	if (!in || !out)
		return error("usage: mlf-trace encode FILE.trace -o OUT [--force]");
	if (parse_file(in, &h, &n))
		return 1;
	len = encode_all(&h, ops, n, bytes);

	fd = open(out, O_WRONLY | O_CREAT | (force ? O_TRUNC : O_EXCL), 0644);
	if (fd < 0) {
		if (errno == EEXIST)
			return error("%s exists; not overwriting it (use --force)",
				     out);
		return error("%s: %s", out, strerror(errno));
	}
	while (done < len) {
		ssize_t w = write(fd, bytes + done, len - done);

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

static bool same(const struct mlf_header *h1, const struct mlf_op *a,
		 size_t na, const struct mlf_header *h2, const struct mlf_op *b,
		 size_t nb, size_t *where)
{
	size_t i;

	*where = 0;
	if (h1->nr_nodes != h2->nr_nodes || h1->pool_size != h2->pool_size)
		return false;
	for (i = 0; i < na && i < nb; i++) {
		*where = i;
		if (!mlf_op_equal(&a[i], &b[i]))
			return false;
	}
	*where = i;
	return na == nb;
}

/* decode -> print -> parse -> encode -> decode; report the first change */
static int roundtrip_bytes(const char *name, const u8 *data, size_t size)
{
	struct mlf_trace_error err;
	struct mlf_header h, h2;
	char *text = NULL;
	size_t len = 0, n, where;
	FILE *out;
	long n2;

	n = mlf_decode(data, size, &h, ops, MLF_FUZZ_MAX_OPS);
	out = open_memstream(&text, &len);
	if (!out)
		return error("out of memory");
	mlf_trace_print(out, &h, ops, n);
	fclose(out);
	n2 = mlf_trace_parse(text, len, &h2, again, MLF_FUZZ_MAX_OPS, &err);
	free(text);
	if (n2 < 0)
		return error("%s: its trace does not parse back: %s", name,
			     err.msg);
	if (!same(&h, ops, n, &h2, again, n2, &where))
		return error("%s: print -> parse changes op %zu", name, where);

	len = encode_all(&h, ops, n, bytes);
	n2 = mlf_decode(bytes, len, &h2, again, MLF_FUZZ_MAX_OPS);
	if (!same(&h, ops, n, &h2, again, n2, &where))
		return error("%s: encode -> decode changes op %zu", name, where);
	nr_checked++;
	return 0;
}

/* a seed's .trace twin must encode to exactly its bytes */
static int roundtrip_twin(const char *path, const char *data, size_t size)
{
	char *twin;
	struct mlf_header h;
	struct stat st;
	size_t len;
	long n;
	int bad;

	if (asprintf(&twin, "%s.trace", path) < 0)
		return error("out of memory");
	if (stat(twin, &st)) {
		free(twin);
		return 0;
	}
	bad = parse_file(twin, &h, &n);
	if (!bad) {
		len = encode_all(&h, ops, n, bytes);
		if (len != size || memcmp(bytes, data, len))
			bad = error("%s does not encode to the bytes of %s (regenerate with tools/mlf corpus)",
				    twin, path);
		else
			nr_twins++;
	}
	free(twin);
	return bad;
}

static int roundtrip_path(const char *path)
{
	struct dirent **names;
	struct stat st;
	int n, i, bad = 0;
	size_t size;
	char *data;

	if (stat(path, &st))
		return error("%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		n = scandir(path, &names, NULL, alphasort);
		if (n < 0)
			return error("%s: %s", path, strerror(errno));
		for (i = 0; i < n; i++) {
			char *sub;

			if (strcmp(names[i]->d_name, ".") &&
			    strcmp(names[i]->d_name, "..") &&
			    mlf_is_input_name(names[i]->d_name) &&
			    asprintf(&sub, "%s/%s", path, names[i]->d_name) >= 0) {
				bad |= roundtrip_path(sub);
				free(sub);
			}
			free(names[i]);
		}
		free(names);
		return bad;
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	if (read_file(path, &data, &size))
		return 1;
	bad = roundtrip_bytes(path, (u8 *)data, size);
	bad |= roundtrip_twin(path, data, size);
	free(data);
	return bad;
}

static int cmd_roundtrip(int argc, char **argv)
{
	int i, bad = 0;

	if (!argc)
		return error("usage: mlf-trace roundtrip PATH...");
	for (i = 0; i < argc; i++)
		bad |= roundtrip_path(argv[i]);
	printf("roundtrip: %lu inputs, %lu .trace twins\n", nr_checked,
	       nr_twins);
	return bad;
}

/*
 * Random inputs, biased towards short ones and towards op kinds' own byte
 * values so that every op kind and every operand shows up.
 */
static int cmd_selftest(int argc, char **argv)
{
	unsigned long count = argc ? strtoul(argv[0], NULL, 0) : 20000, i;
	u64 x = 0x2545f4914f6cdd1dULL;
	static u8 input[4096];
	int bad = 0;

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
		bad = roundtrip_bytes(name, input, len);
	}
	printf("selftest: %lu random inputs round-trip\n", nr_checked);
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
	return error("usage: mlf-trace decode FILE... | encode FILE.trace -o OUT [--force] | roundtrip PATH... | selftest [N]");
}
