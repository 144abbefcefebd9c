// SPDX-License-Identifier: GPL-2.0
/* Kernel warnings as named failures. */
#include "bug.h"

#include <string.h>

void mlf_vm_warn(const char *check, const char *cond, const char *file,
		 int line, const char *func)
{
	struct mlf_failure f;
	const char *base = strrchr(file, '/');

	mlf_failure_init(&f, check);
	mlf_failure_msg(&f, "%s(%s) at %s:%d in %s()",
			strcmp(check, "vm.bug") ? "VM_WARN_ON_ONCE" : "VM_BUG_ON",
			cond, base ? base + 1 : file, line, func);
	mlf_fail(&f);
}
