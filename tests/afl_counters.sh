#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# afl_counters.sh ROOT WORK: the extra counters reach afl-fuzz's map
# (fuzz/engine_counters.c). Three one-byte inputs run by afl-showmap in
# one go: a and c bump the same counter, b another. a's map and b's
# differ (the counters have slots of their own; the target's edges are the
# same for all three), and c's is a's (b's count was cleared after b).
# ctest's fuzz/afl-counters; skipped without AFL++.
set -e
root=$1 w=$2
if ! command -v afl-clang-fast >/dev/null || ! command -v afl-showmap >/dev/null; then
	echo "afl_counters: no afl-clang-fast / afl-showmap: skipped"
	exit 77
fi
rm -rf "$w"; mkdir -p "$w/in"; cd "$w"
# as the afl preset builds it (CMakePresets.json)
AFL_QUIET=1 AFL_LLVM_DENYLIST="$root/fuzz/afl.denylist" afl-clang-fast -fsanitize=fuzzer -I"$root/fuzz" -o target \
	"$root/tests/afl_counters_target.c" "$root/fuzz/engine_counters.c"
printf '\005' > in/a
printf '\011' > in/b
printf '\105' > in/c
AFL_QUIET=1 afl-showmap -q -i in -o maps -- ./target >/dev/null 2>&1 || true
test -s maps/a && test -s maps/b && test -s maps/c
if cmp -s maps/a maps/b; then
	echo "afl_counters: a's and b's maps are the same: the counters never reached it"
	exit 1
fi
if ! cmp -s maps/a maps/c; then
	echo "afl_counters: c's map is not a's: a counter was left over from before"
	exit 1
fi
echo "afl_counters: counters in the map, each input's own"
