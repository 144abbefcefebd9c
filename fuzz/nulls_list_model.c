// SPDX-License-Identifier: GPL-2.0
/*
 * The nulls_list target's model: per list an array of node ids, head
 * first, and per node the state the last primitive left it in, from which
 * its expected pprev follows. Plain arrays, no hlist.
 */
#include <string.h>

#include "nulls_list.h"

int nl_list[NL_MAX_LISTS][NL_MAX_NODES];
int nl_len[NL_MAX_LISTS];
enum nl_state nl_state[NL_MAX_NODES];
int nl_list_of[NL_MAX_NODES];

int nl_model_pos(int l, int id)
{
	int i;

	for (i = 0; i < nl_len[l]; i++)
		if (nl_list[l][i] == id)
			return i;
	return -1;
}

void nl_model_insert(int l, int at, int id)
{
	memmove(&nl_list[l][at + 1], &nl_list[l][at],
		(nl_len[l] - at) * sizeof(nl_list[l][0]));
	nl_list[l][at] = id;
	nl_len[l]++;
	nl_state[id] = NL_LISTED;
	nl_list_of[id] = l;
}

void nl_model_remove(int id)
{
	int l = nl_list_of[id];
	int at = nl_model_pos(l, id);

	memmove(&nl_list[l][at], &nl_list[l][at + 1],
		(nl_len[l] - at - 1) * sizeof(nl_list[l][0]));
	nl_len[l]--;
	nl_list_of[id] = -1;
}

void nl_model_reset(void)
{
	int i;

	memset(nl_len, 0, sizeof(nl_len));
	for (i = 0; i < NL_MAX_NODES; i++) {
		nl_state[i] = NL_UNHASHED;
		nl_list_of[i] = -1;
	}
}
