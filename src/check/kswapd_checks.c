// SPDX-License-Identifier: GPL-2.0
/* The check kswapd.failures (kswapd_checks.h). */
#include "kswapd_checks.h"

#include <string.h>

void mlf_kswapd_check_init(struct mlf_kswapd_check *k)
{
	memset(k, 0, sizeof(*k));
}

bool check_kswapd_failures(struct mlf_kswapd_check *k, int nid, bool kswapd,
			   unsigned long freed, int failures,
			   struct mlf_failure *f)
{
	int was = k->fruitless[nid];

	if (freed)
		k->fruitless[nid] = 0;
	else if (kswapd)
		k->fruitless[nid]++;
	if (failures == k->fruitless[nid])
		return true;
	mlf_failure_at(f, "kswapd.failures", nid, MLF_NONE, MLF_NONE, MLF_NONE);
	mlf_failure_msg(f,
		"after a %s run that reclaimed %lu pages, node %d's kswapd_failures is %d, but %d kswapd runs reclaimed nothing since reclaim last made progress there (%d before this run)%s",
		kswapd ? "kswapd" : "direct reclaim", freed, nid, failures,
		k->fruitless[nid], was,
		!freed && failures < k->fruitless[nid] ?
			": a run that reclaimed nothing reset it, so kswapd never gives up on the node" :
			"");
	return false;
}
