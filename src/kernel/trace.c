// SPDX-License-Identifier: GPL-2.0
/* The probe attached to the port's tracepoints (none by default). */
#include "trace.h"

mlf_walk_probe_t mlf_walk_probe;
