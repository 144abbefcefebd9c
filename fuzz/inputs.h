/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which files of a corpus or regression directory are inputs (fuzz/README.md):
 * everything but hidden files, READMEs, traces and notes, and the marker
 * files; the lists are fuzz/targets.json's "inputs" (mlf_targets.h). Shared
 * by the replay driver, mlf-trace and the selftests that read a corpus.
 */
#ifndef _MLF_FUZZ_INPUTS_H
#define _MLF_FUZZ_INPUTS_H

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mlf_targets.h" /* generated from fuzz/targets.json */

static inline bool mlf_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static inline bool mlf_is_input_name(const char *name)
{
	static const char *const skip_prefix[] = { MLF_INPUT_SKIP_PREFIXES };
	static const char *const skip_suffix[] = { MLF_INPUT_SKIP_SUFFIXES };
	static const char *const marker[] = { MLF_INPUT_MARKERS };
	size_t i;

	for (i = 0; i < sizeof(skip_prefix) / sizeof(skip_prefix[0]); i++)
		if (!strncmp(name, skip_prefix[i], strlen(skip_prefix[i])))
			return false;
	for (i = 0; i < sizeof(marker) / sizeof(marker[0]); i++)
		if (!strcmp(name, marker[i]))
			return false;
	for (i = 0; i < sizeof(skip_suffix) / sizeof(skip_suffix[0]); i++)
		if (mlf_ends_with(name, skip_suffix[i]))
			return false;
	return true;
}

/*
 * Each input of directory @dir read into @buf (its first @max bytes) and
 * handed to @fn with @arg, until @fn returns false; how many were, or -1
 * if @dir cannot be read
 */
typedef bool (*mlf_input_fn)(uint8_t *data, size_t size, void *arg);

static inline long mlf_for_each_input(const char *dir, uint8_t *buf, size_t max,
				      mlf_input_fn fn, void *arg)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];
	long nr = 0;
	FILE *in;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_type != DT_REG || !mlf_is_input_name(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		in = fopen(path, "rb");
		if (!in)
			continue;
		nr++;
		if (!fn(buf, fread(buf, 1, max, in), arg)) {
			fclose(in);
			break;
		}
		fclose(in);
	}
	closedir(d);
	return nr;
}

#endif
