#!/bin/bash -eu
# SPDX-License-Identifier: GPL-2.0
# Builds every fuzz target the OSS-Fuzz way (ClusterFuzzLite's build.sh calls
# this; so does the ctest that checks it): compiler and flags from $CC and
# $CFLAGS, the engine from $LIB_FUZZING_ENGINE, and into $OUT each <target>,
# <target>_seed_corpus.zip, <target>.dict and <target>.options. No cmake: the
# sources are compiled directly, as OSS-Fuzz projects usually do.
#
# The code under test is the vendored cut of the default kernel tree at
# p1-5-lockrand (kernel/vendored/, its provenance in PROVENANCE.json; ctest
# kernel/vendored keeps it the cut of the installed tree): the build needs
# no kernel tree and no network. With MLF_VARIANT (another level),
# MLF_BUG (a bug-* variant: zoo/<bug>.patch) or MLF_KERNEL_TREE (a tree;
# default /usr/src/linux-source-6.12.tar.xz) it cuts a tree instead, as the
# CMake build does (kernel/tree.py). MLF_ISO (reclaim target; default
# iso-throttle) picks the eviction model's variant. The targets and their
# flavours are fuzz/targets.json's.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${CC:=clang}" "${CFLAGS:=}" "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
: "${OUT:?OUT must name the output directory}" "${WORK:=$(mktemp -d)}"
# OSS-Fuzz links with $CXX: an engine library such as AFL++'s driver is C++
LINKER=${CXX:-$CC}
VARIANT=${MLF_VARIANT:-p1-5-lockrand}
BUG=${MLF_BUG:-}

macro() {	# iso-throttle -> ISO_THROTTLE (as CMakeLists.txt derives it)
	echo "$1" | tr 'a-z.-' 'A-Z__'
}
defs="-DMLF_VARIANT_NAME=\"$VARIANT\""
# the code under test: the vendored cut, or a tree cut here (kernel/tree.py)
CUT=$ROOT/kernel/vendored
if [ -n "$BUG" ] || [ "$VARIANT" != p1-5-lockrand ] || [ -n "${MLF_KERNEL_TREE:-}" ]; then
	python3 "$ROOT/kernel/tree.py" --tree "${MLF_KERNEL_TREE:-/usr/src/linux-source-6.12.tar.xz}" \
		--out "$WORK/kernel" --variants "$VARIANT" --need "$VARIANT" \
		--zoo "$ROOT/zoo" --quiet >&2
	CUT=$WORK/kernel/cut/$VARIANT
	if [ -n "$BUG" ]; then
		CUT=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["bugs"][sys.argv[2]]["cut"])' "$WORK/kernel/manifest.json" "$BUG") ||
			{ echo "oss_fuzz_build: zoo/$BUG.patch does not apply to the tree" >&2; exit 1; }
	fi
fi
# the sources: src/, or a copy with the bug's src/ diffs applied (the one
# patch applier, kernel/patch_tree.py)
SRC=$ROOT/src
if [ -n "$BUG" ] && grep -q '^+++ b/src/' "$ROOT/zoo/$BUG.patch"; then
	python3 "$ROOT/kernel/patch_tree.py" --quiet --copy "$ROOT/src" --out "$WORK/zoo/src" \
		--only src/ "$ROOT/zoo/$BUG.patch" ||
		{ echo "oss_fuzz_build: zoo/$BUG.patch no longer applies to src/" >&2; exit 1; }
	SRC=$WORK/zoo/src
fi
# the code under test and what is compiled around it take the tree's list
# headers and the glue's hooks (kernel/mlf_tree.h); the shim does not
tree="-include $ROOT/kernel/mlf_tree.h -I$CUT/include -I$ROOT/kernel/include -I$ROOT/kernel"
# mlf_targets.h, generated from fuzz/targets.json as the CMake build does
python3 "$ROOT/tools/mlflib/targets.py" --header "$WORK/gen/mlf_targets.h"

# liburcu statically: the OSS-Fuzz runner image does not have the library
urcu_cflags=$(pkg-config --cflags liburcu-memb)
urcu_libdir=$(pkg-config --variable=libdir liburcu-memb)
urcu_libs="$urcu_libdir/liburcu-memb.a $urcu_libdir/liburcu-common.a"

# The kernel build's warnings, without -Werror: the flags are not ours here.
warn="-Wall -Wextra -Wno-sign-compare -Wno-unused-parameter"
# One archive per port flavour: the reclaim target's port is the same
# sources built with the eviction model on (src/mm/reclaim.cmake).
ISO=${MLF_ISO:-iso-throttle}
flavour_defs() {
	case "$1" in
	reclaim) echo "$defs -DMLF_EVICTION -DMLF_$(macro "$ISO")" ;;
	*) echo "$defs" ;;
	esac
}
build_archive() {	# build_archive FLAVOUR -> $WORK/mlf-obj-FLAVOUR/libmlf.a
	local dir=$WORK/mlf-obj-$1 fdefs src obj objs=()
	fdefs=$(flavour_defs "$1")
	rm -rf "$dir"
	mkdir -p "$dir"
	for src in "$SRC"/kernel/*.c "$CUT"/mlf_tree_vmscan.c "$CUT"/mlf_tree_memcg.c \
		   "$ROOT"/kernel/tree_glue.c "$SRC"/mm/*.c "$SRC"/harness/*.c \
		   "$SRC"/check/*.c "$ROOT"/fuzz/memcg_lru_codec.c "$ROOT"/fuzz/memcg_lru_trace.c \
		   "$ROOT"/fuzz/concurrent_codec.c "$ROOT"/fuzz/concurrent_trace.c \
		   "$ROOT"/fuzz/trace_lex.c \
		   $( [ "$1" = reclaim ] && echo "$ROOT/fuzz/reclaim_codec.c $ROOT/fuzz/reclaim_trace.c" ); do
		obj=$dir/$(basename "$(dirname "$src")")_$(basename "${src%.c}").o
		# the checks, model and drivers: edge counters, no trace-cmp
		# hooks (fuzz/CMakeLists.txt says why)
		nocmp=
		case "$src" in
		*/check/*.c | */harness/world.c | */harness/reclaim_world.c)
			nocmp=-fno-sanitize-coverage=trace-cmp ;;
		esac
		# the shim and the codecs: the shim's lists; the rest: the tree's
		prefix=$tree
		case "$src" in
		"$SRC"/kernel/*.c | "$ROOT"/fuzz/*.c) prefix= ;;
		esac
		# shellcheck disable=SC2086
		$CC $CFLAGS $nocmp -std=gnu11 $warn $fdefs $urcu_cflags $prefix -I"$SRC" \
			-I"$CUT" -I"$ROOT/fuzz" -I"$WORK/gen" -c "$src" -o "$obj"
		objs+=("$obj")
	done
	ar rcs "$dir/libmlf.a" "${objs[@]}"
}
mkdir -p "$OUT"

# the targets: "name port source..." per line of fuzz/targets.json (a
# target's sources are files of fuzz/, its entry point among them)
table=$(python3 -c '
import json, sys
for t in json.load(open(sys.argv[1]))["targets"]:
    print(t["name"], t["port"], *t["sources"])' "$ROOT/fuzz/targets.json")
while read -r t port sources; do
	echo "oss_fuzz_build: $t"
	flavour=default tdefs=
	# the reclaim port; trace_parser also fuzzes the reclaim trace's parser
	[ "$port" = reclaim ] && flavour=reclaim tdefs=-DMLF_TRACE_RECLAIM
	[ -f "$WORK/mlf-obj-$flavour/libmlf.a" ] || build_archive $flavour
	objs=()
	for src in $sources; do
		obj=$WORK/target_${t}_${src%.c}.o
		# shellcheck disable=SC2086,SC2046
		$CC $CFLAGS -std=gnu11 $warn $(flavour_defs $flavour) $tdefs $urcu_cflags \
			-I"$SRC" -I"$CUT" -I"$ROOT/fuzz" -I"$WORK/gen" -c "$ROOT/fuzz/$src" -o "$obj"
		objs+=("$obj")
	done
	# shellcheck disable=SC2086
	$LINKER $CFLAGS "${objs[@]}" "$WORK/mlf-obj-$flavour/libmlf.a" \
		$LIB_FUZZING_ENGINE $urcu_libs -lpthread -o "$OUT/$t"
	for ext in dict options; do
		if [ -f "$ROOT/fuzz/$t.$ext" ]; then
			cp "$ROOT/fuzz/$t.$ext" "$OUT/$t.$ext"
		fi
	done
	# seeds: every input file of corpus/<t> (not the .trace twins or notes),
	# flat, as OSS-Fuzz unpacks <target>_seed_corpus.zip into one directory
	if [ -d "$ROOT/corpus/$t" ]; then
		rm -f "$OUT/${t}_seed_corpus.zip"
		python3 - "$ROOT" "$ROOT/corpus/$t" "$OUT/${t}_seed_corpus.zip" <<'PY'
import os, sys, zipfile
sys.path.insert(0, os.path.join(sys.argv[1], "tools"))
from mlflib import targets  # the input-file rules of fuzz/targets.json
src, dst = sys.argv[2], sys.argv[3]
with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
    for top, dirs, files in os.walk(src):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if not targets.is_input_name(name):
                continue
            path = os.path.join(top, name)
            z.write(path, os.path.relpath(path, src).replace(os.sep, "_"))
PY
	fi
done <<<"$table"
