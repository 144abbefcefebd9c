/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kswapd.failures: a node's kswapd_failures counts the kswapd runs on it
 * that reclaimed nothing since reclaim last made progress there.
 *
 * The specification: include/linux/mmzone.h, "int kswapd_failures; Number
 * of 'reclaimed == 0' runs"; balance_pgdat() counts a run that reclaimed
 * nothing, and node reclaim resets the count when it reclaims ("Kswapd
 * gives up on balancing particular nodes after too many failures to
 * reclaim anything from them and goes to sleep. On reclaim progress, reset
 * the failure counter. A successful direct reclaim run will revive a
 * dormant kswapd.", shrink_node()). A reset by a run that reclaimed
 * nothing keeps kswapd from ever giving up on a node it cannot reclaim
 * from: 100% CPU (b130ba4a6259, "mm/mglru: only clear kswapd_failures if
 * reclaimable").
 *
 * The check counts from what the harness sees, not from the port: whether
 * the run was kswapd's, and the pages the run freed (the harness owns
 * their memory).
 */
#ifndef _MLF_CHECK_KSWAPD_CHECKS_H
#define _MLF_CHECK_KSWAPD_CHECKS_H

#include "kernel/nodemask.h"
#include "kernel/report.h"

struct mlf_kswapd_check {
	/* kswapd runs that reclaimed nothing since the last progress */
	int fruitless[MAX_NUMNODES];
};

void mlf_kswapd_check_init(struct mlf_kswapd_check *k);

/*
 * A reclaim run on node @nid ended (after balance_pgdat()'s count, for a
 * kswapd run): by kswapd or not (@kswapd), having freed @freed pages; the
 * node's kswapd_failures is now @failures. False and @f on a failure.
 */
bool check_kswapd_failures(struct mlf_kswapd_check *k, int nid, bool kswapd,
			   unsigned long freed, int failures,
			   struct mlf_failure *f);

#endif
