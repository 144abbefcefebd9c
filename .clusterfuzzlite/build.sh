#!/bin/bash -eu
# SPDX-License-Identifier: GPL-2.0
# ClusterFuzzLite / OSS-Fuzz entry point: the repository's script does the
# work, so that a ctest can run the very same build (tests/campaign/).
exec "$SRC/mlf/fuzz/oss_fuzz_build.sh"
