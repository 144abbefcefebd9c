/* SPDX-License-Identifier: GPL-2.0 */
/*
 * VM_WARN_ON_ONCE / VM_BUG_ON / WARN_ON_ONCE. In the kernel a warning is a
 * splat in dmesg; here it is a named failure ("vm.warn", "vm.bug") that
 * names the condition and where it fired, so a fuzzer stops on it.
 */
#ifndef _MLF_KERNEL_BUG_H
#define _MLF_KERNEL_BUG_H

#include "report.h"

void mlf_vm_warn(const char *check, const char *cond, const char *file,
		 int line, const char *func);

#define VM_WARN_ON_ONCE(cond)                                                \
	({                                                                   \
		bool __ret = !!(cond);                                       \
		if (unlikely(__ret))                                         \
			mlf_vm_warn("vm.warn", #cond, __FILE__, __LINE__,    \
				    __func__);                               \
		unlikely(__ret);                                             \
	})
#define VM_WARN_ON(cond) VM_WARN_ON_ONCE(cond)
#define WARN_ON_ONCE(cond) VM_WARN_ON_ONCE(cond)
#define WARN_ON(cond) VM_WARN_ON_ONCE(cond)
/* the message is the kernel log's; the failure names the condition */
#define WARN_ONCE(cond, fmt, ...) VM_WARN_ON_ONCE(cond)

#define VM_BUG_ON(cond)                                                      \
	do {                                                                 \
		if (unlikely(cond))                                          \
			mlf_vm_warn("vm.bug", #cond, __FILE__, __LINE__,     \
				    __func__);                               \
	} while (0)
#define BUG_ON(cond) VM_BUG_ON(cond)

#endif
