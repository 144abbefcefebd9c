/* SPDX-License-Identifier: GPL-2.0 */
/* <linux/poison.h> for the tree's list headers: the shim's poison values. */
#include "kernel/poison.h"
