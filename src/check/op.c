// SPDX-License-Identifier: GPL-2.0
/*
 * The names of the ops and of the rotations they carry (op.h): one table
 * each, for every message, trace context and test that names them; and
 * the kernel function of the code under test each op runs, which a
 * failure report finds in the tree (fuzz/context.h).
 */
#include "op.h"

#include "mm/mmzone.h"

static const char *const op_kind_names[MLF_OP_NR] = {
	[MLF_OP_ONLINE] = "online",   [MLF_OP_OFFLINE] = "offline",
	[MLF_OP_GET] = "get",	      [MLF_OP_PUT] = "put",
	[MLF_OP_RELEASE] = "release", [MLF_OP_ROTATE] = "rotate",
	[MLF_OP_SOFT] = "soft",	      [MLF_OP_SET] = "set",
	[MLF_OP_RECLAIM] = "reclaim", [MLF_OP_CSS_OFFLINE] = "css_offline",
};

/* by mlf_rotation_index() (mm/mmzone.h), whatever the tree's values */
static const char *const rotate_op_names[MLF_NR_ROTATIONS] = {
	"HEAD", "TAIL", "OLD", "YOUNG",
};

/* the kernel function of the code under test each op runs (none: NULL) */
static const char *const op_kernel_functions[MLF_OP_NR] = {
	[MLF_OP_ONLINE] = "lru_gen_online_memcg",
	[MLF_OP_OFFLINE] = "mem_cgroup_css_offline",
	[MLF_OP_RELEASE] = "mem_cgroup_css_released",
	[MLF_OP_ROTATE] = "lru_gen_rotate_memcg",
	[MLF_OP_SOFT] = "lru_gen_soft_reclaim",
	[MLF_OP_RECLAIM] = "shrink_many",
	[MLF_OP_CSS_OFFLINE] = "mem_cgroup_css_offline",
};

const char *mlf_op_kernel_function(int kind)
{
	return kind >= 0 && kind < MLF_OP_NR ? op_kernel_functions[kind] : NULL;
}

const char *mlf_op_kind_name(int kind)
{
	return kind >= 0 && kind < MLF_OP_NR ? op_kind_names[kind] : "?";
}

const char *mlf_rotate_op_name(int op)
{
	int i = mlf_rotation_index(op);

	if (op == MEMCG_LRU_NOP)
		return "NOP";
	return i >= 0 ? rotate_op_names[i] : "?";
}
