/* SPDX-License-Identifier: GPL-2.0 */
/* <linux/poison.h> for the tree's list headers in the floor: kernel.h has it. */
