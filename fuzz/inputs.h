/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which files of a corpus or regression directory are inputs (fuzz/README.md):
 * everything but hidden files, READMEs, traces and notes, and the markers
 * TARGET, EXPECT and FLAKY. Shared by the replay driver and mlf-trace.
 */
#ifndef _MLF_FUZZ_INPUTS_H
#define _MLF_FUZZ_INPUTS_H

#include <stdbool.h>
#include <string.h>

static inline bool mlf_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static inline bool mlf_is_input_name(const char *name)
{
	static const char *const skip_suffix[] = { ".trace", ".md", ".txt",
						   ".dict", ".options" };
	size_t i;

	if (name[0] == '.' || !strncmp(name, "README", 6) ||
	    !strcmp(name, "TARGET") || !strcmp(name, "EXPECT") ||
	    !strcmp(name, "FLAKY"))
		return false;
	for (i = 0; i < sizeof(skip_suffix) / sizeof(skip_suffix[0]); i++)
		if (mlf_ends_with(name, skip_suffix[i]))
			return false;
	return true;
}

#endif
