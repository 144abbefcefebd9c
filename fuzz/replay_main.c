// SPDX-License-Identifier: GPL-2.0
/*
 * The replay driver: "just another engine". Linked with any target in place
 * of libFuzzer, it runs each file, or each input file under each directory
 * (recursively, in name order), through LLVMFuzzerTestOneInput once. It
 * builds with gcc too, so corpora and reproducers run in every build. A
 * failing input aborts with the check's report; the driver names the file.
 * Arguments that start with '-' are engine flags and are ignored, so a
 * libFuzzer command line replays unchanged.
 */
#define _GNU_SOURCE	/* asprintf, open_memstream */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inputs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);
__attribute__((weak)) void
__sanitizer_set_death_callback(void (*callback)(void));
/* a target's own last words when a sanitizer ends the run (concurrent.c) */
__attribute__((weak)) void mlf_on_sanitizer_death(void);

static const char *current;
static unsigned long replayed;

static void say_current(void)
{
	static const char what[] = "replay: the failing input is ";

	if (!current)
		return;
	/* async-signal-safe: this runs from SIGABRT */
	if (write(2, what, sizeof(what) - 1) < 0 ||
	    write(2, current, strlen(current)) < 0 || write(2, "\n", 1) < 0)
		return;
}

static void on_sanitizer_death(void)
{
	mlf_on_sanitizer_death();
	say_current();
}

static void on_abort(int sig)
{
	say_current();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data;
	long size;

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "replay: %s: cannot size it\n", path);
		fclose(f);
		return 1;
	}
	/* exactly the input's size, so a read past its end is caught */
	data = malloc(size ? size : 1);
	if (!data || fread(data, 1, size, f) != (size_t)size) {
		fprintf(stderr, "replay: %s: read failed\n", path);
		free(data);
		fclose(f);
		return 1;
	}
	fclose(f);
	current = path;
	LLVMFuzzerTestOneInput(data, size);
	current = NULL;
	free(data);
	replayed++;
	return 0;
}

static int run_path(const char *path)
{
	struct dirent **names;
	struct stat st;
	int n, i, bad = 0;

	if (stat(path, &st)) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (!S_ISDIR(st.st_mode))
		return S_ISREG(st.st_mode) ? run_file(path) : 0;

	n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char *sub;

		if (strcmp(name, ".") && strcmp(name, "..") &&
		    mlf_is_input_name(name) &&
		    asprintf(&sub, "%s/%s", path, name) >= 0) {
			bad |= run_path(sub);
			free(sub);
		}
		free(names[i]);
	}
	free(names);
	return bad;
}

int main(int argc, char **argv)
{
	int i, bad = 0, paths = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	signal(SIGABRT, on_abort);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(mlf_on_sanitizer_death ?
					       on_sanitizer_death : say_current);

	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;
		paths++;
		bad |= run_path(argv[i]);
	}
	if (!paths) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	printf("replayed %lu inputs\n", replayed);
	return bad;
}
