/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shim: everything the port may use of the kernel, and nothing else. The
 * port includes this header only; it never calls libc, pthreads or liburcu.
 */
#ifndef _MLF_KERNEL_KERNEL_H
#define _MLF_KERNEL_KERNEL_H

#include "bitops.h"
#include "blkdev.h"
#include "bug.h"
#include "compiler.h"
#include "irqflags.h"
#include "list_nulls.h"
#include "lockdep.h"
#include "nodemask.h"
#include "poison.h"
#include "random.h"
#include "rculist_nulls.h"
#include "rcupdate.h"
#include "report.h"
#include "sched.h"
#include "slab.h"
#include "spinlock.h"
#include "trace.h"
#include "types.h"

#endif
