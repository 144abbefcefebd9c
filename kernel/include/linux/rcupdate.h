/* SPDX-License-Identifier: GPL-2.0 */
/* <linux/rcupdate.h> for the tree's rculist_nulls.h: the shim's RCU. */
#include "kernel/rcupdate.h"
