/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <linux/const.h> for the tree's list headers, which include it but use
 * nothing of it in the memcg LRU's part; a tree that does gets a compile
 * error naming the missing macro.
 */
