#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# trace_cli.sh MLF_TRACE SEED WORK: mlf-trace's command line as a person
# uses it: decode -> encode -> decode gives the same text and the seed's
# own bytes, a bad line is one error naming its line, and no output is
# overwritten or left half-made. ctest's trace/cli.
set -e
trace=$1 seed=$2 w=$3
rm -rf "$w"; mkdir -p "$w"; cd "$w"
"$trace" decode "$seed" > a.trace
"$trace" encode a.trace -o a.bin
"$trace" decode a.bin > b.trace
cmp a.trace b.trace
if "$trace" encode a.trace -o a.bin 2>err; then exit 1; fi
grep -q 'not overwriting' err
cmp a.bin "$seed"
printf 'nodes 2 pool 10\nonline m1\nrotat m1 n0 HEAD\n' > bad.trace
if "$trace" encode bad.trace -o bad.bin 2>err; then exit 1; fi
test ! -e bad.bin
grep -qx "mlf-trace: bad.trace:3: unknown op 'rotat'" err
printf 'nodes 2 pool 1500\nonline m1600\n' > bad.trace
if "$trace" encode bad.trace -o bad.bin 2>err; then exit 1; fi
grep -qx "mlf-trace: bad.trace:2: m1600 is outside the pool (1500)" err
