#!/bin/bash -eu
# SPDX-License-Identifier: GPL-2.0
# Runs fuzz/oss_fuzz_build.sh the way OSS-Fuzz / ClusterFuzzLite would (its
# environment variables, a fresh $OUT) and checks what lands in $OUT: every
# target as an executable that runs its seeds, <target>_seed_corpus.zip where
# corpus/<target> exists, and the .dict / .options files fuzz/ has.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CC=${OSS_CC:-clang} CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address,fuzzer-no-link"
export LIB_FUZZING_ENGINE=-fsanitize=fuzzer SANITIZER=address FUZZING_ENGINE=libfuzzer
export SRC=$ROOT/.. OUT=$tmp/out WORK=$tmp/work
unset CXX
mkdir -p "$OUT" "$WORK"
"$ROOT/fuzz/oss_fuzz_build.sh"

fail() { echo "FAIL: $*"; exit 1; }
targets=$(python3 -c '
import json, sys
print(" ".join(t["name"] for t in json.load(open(sys.argv[1]))["targets"]))' "$ROOT/fuzz/targets.json")
[ -n "$targets" ] || fail "no targets in fuzz/targets.json"
for t in $targets; do
	[ -x "$OUT/$t" ] || fail "$OUT/$t is missing or not executable"
	for ext in dict options; do
		if [ -f "$ROOT/fuzz/$t.$ext" ]; then
			cmp -s "$ROOT/fuzz/$t.$ext" "$OUT/$t.$ext" || fail "$t.$ext not copied"
		fi
	done
	seeds=$tmp/seeds-$t
	mkdir -p "$seeds"
	if [ -d "$ROOT/corpus/$t" ]; then
		[ -f "$OUT/${t}_seed_corpus.zip" ] || fail "${t}_seed_corpus.zip missing"
		python3 -m zipfile -e "$OUT/${t}_seed_corpus.zip" "$seeds"
		n=$(find "$seeds" -type f | wc -l)
		[ "$n" -gt 0 ] || fail "${t}_seed_corpus.zip is empty"
		if find "$seeds" -name '*.trace' | grep -q .; then
			fail "${t}_seed_corpus.zip holds .trace files"
		fi
	fi
	# -runs=0: run every seed once, as ClusterFuzzLite's first step does;
	# from $OUT, so the .options file's "dict = <t>.dict" resolves
	(cd "$OUT" && ./"$t" -runs=0 "$seeds") > "$tmp/$t.log" 2>&1 ||
		{ cat "$tmp/$t.log"; fail "$t does not run its seeds"; }
	grep -q "^Done [0-9]* runs" "$tmp/$t.log" || { cat "$tmp/$t.log"; fail "$t: no Done line"; }
	if ldd "$OUT/$t" | grep -q liburcu; then
		fail "$t needs the liburcu shared library (the runner image lacks it)"
	fi
	echo "ok: $t ($(find "$seeds" -type f | wc -l) seeds)"
done
echo PASS
