/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Block plugging (<linux/blkdev.h>): reclaim plugs the queue around a pass
 * to batch its writeback. The port writes nothing back to a device, so a
 * plug holds nothing and the calls do nothing.
 */
#ifndef _MLF_KERNEL_BLKDEV_H
#define _MLF_KERNEL_BLKDEV_H

struct blk_plug {
	int unused;
};

static inline void blk_start_plug(struct blk_plug *plug)
{
	(void)plug;
}

static inline void blk_finish_plug(struct blk_plug *plug)
{
	(void)plug;
}

#endif
