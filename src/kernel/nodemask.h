/* SPDX-License-Identifier: GPL-2.0 */
/* NUMA nodes: the harness picks 1 to MAX_NUMNODES per run. */
#ifndef _MLF_KERNEL_NODEMASK_H
#define _MLF_KERNEL_NODEMASK_H

#define MAX_NUMNODES 4

extern int nr_node_ids;

#define for_each_node(nid) for ((nid) = 0; (nid) < nr_node_ids; (nid)++)

#endif
