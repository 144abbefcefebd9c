/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A litmus test in the kernel's C litmus format, translated to C by
 * tools/mlf litmus (tools/mlflib/litmus.py) over the shim's primitives,
 * and the driver that explores every execution of it on the scheduled
 * engine (litmus.c).
 */
#ifndef _MLF_LITMUS_LITMUS_H
#define _MLF_LITMUS_LITMUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/atomic.h"
#include "kernel/compiler.h"
#include "kernel/rcupdate.h"
#include "kernel/spinlock.h"

struct litmus_test {
	const char *name;
	int nr_procs;
	/* the locations' initial values, before each execution */
	void (*init)(void);
	/* process @i's code, which saves its registers at its end */
	void (*proc)(int i);
	/* on the final state: the filter, the condition, the listing */
	bool (*filter)(void);
	bool (*cond)(void);
	void (*show)(char *buf, size_t size);
};

extern const struct litmus_test litmus_test;

#endif
