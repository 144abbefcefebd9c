// SPDX-License-Identifier: GPL-2.0
/*
 * mlf-trace's files: reading inputs and traces, parsing a trace with a
 * target's codec, telling a trace's target by its magic line (trace_lex.h),
 * and writing an output that is never overwritten without --force.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlf_trace.h"

int cli_read_file(const char *path, char **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0;
	char *buf;

	if (!f)
		return cli_error("%s: %s", path, strerror(errno));
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
		return cli_error("%s: read failed", path);
	}
	fclose(f);
	*data = buf;
	*size = n;
	return 0;
}

/* a parse error, "PATH:LINE: what" */
static int parse_error(const char *path, const struct mlf_trace_error *err)
{
	if (err->line)
		return cli_error("%s:%d: %s", path, err->line, err->what);
	return cli_error("%s: %s", path, err->what);
}

int cli_parse_file(const struct codec *c, const char *path, union header *h,
		   long *n)
{
	struct mlf_trace_error err;
	size_t size;
	char *text;

	if (cli_read_file(path, &text, &size))
		return 1;
	*n = c->parse(text, size, h, c->ops, &err);
	free(text);
	if (*n < 0)
		return parse_error(path, &err);
	return 0;
}

enum target cli_trace_target(const char *path)
{
	enum target target = T_MEMCG_LRU;
	const char *name;
	size_t size;
	char *text;

	if (cli_read_file(path, &text, &size))
		return T_NONE;
	name = mlf_trace_target_of(text, size);
	if (name) {
		target = cli_target_of(name);
		if (target == T_NONE)
			cli_error("%s: a %s trace, and this mlf-trace has no %s codec",
				  path, name, name);
	}
	free(text);
	return target;
}

int cli_write_file(const char *out, const u8 *data, size_t len, bool force)
{
	size_t done = 0;
	int fd;

	fd = open(out, O_WRONLY | O_CREAT | (force ? O_TRUNC : O_EXCL), 0644);
	if (fd < 0) {
		if (errno == EEXIST)
			return cli_error(
				"%s exists; not overwriting it (use --force)",
				out);
		return cli_error("%s: %s", out, strerror(errno));
	}
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);

		if (w <= 0) {
			close(fd);
			return cli_error("%s: write failed", out);
		}
		done += w;
	}
	if (close(fd))
		return cli_error("%s: %s", out, strerror(errno));
	return 0;
}
