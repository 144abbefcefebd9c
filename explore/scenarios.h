/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scenarios of tools/mlf explore: small inputs of the scheduled engine
 * (two writers and a reader, a few ops each, one node, one bin) whose every
 * schedule the exploration can enumerate. Each one aims at a way the cached
 * tail of a bin (seed 000) could go stale under concurrency.
 */
#ifndef _MLF_EXPLORE_SCENARIOS_H
#define _MLF_EXPLORE_SCENARIOS_H

#include "harness/sched_engine.h"

struct explore_scenario {
	const char *name;
	const char *what;	/* one line: what the writers race on */
	void (*fill)(struct sched_input *in);
};

extern const struct explore_scenario explore_scenarios[];
extern const int explore_nr_scenarios;

const struct explore_scenario *explore_scenario(const char *name);

#endif
