/* SPDX-License-Identifier: GPL-2.0 */
/* <linux/rcupdate.h> for the tree's list headers in the floor: kernel.h has it. */
