/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which files of a corpus or regression directory are inputs (fuzz/README.md):
 * everything but hidden files, READMEs, traces and notes, and the marker
 * files; the lists are fuzz/targets.json's "inputs" (mlf_targets.h). Shared
 * by the replay driver and mlf-trace.
 */
#ifndef _MLF_FUZZ_INPUTS_H
#define _MLF_FUZZ_INPUTS_H

#include <stdbool.h>
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

#endif
