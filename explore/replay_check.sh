#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# replay_check.sh EXPLORE CHECK[|CHECK]: EXPLORE (an mlf_explore binary of a
# bug variant) must find a failure by CHECK within one preemption, or else
# two (under the weak memory model, one weak choice), and the schedule it
# prints must replay to the same check (a ThreadSanitizer race, which ends
# the process, by running the exploration again). For ctest explore/zoo/*.
bin=$1
check=$2
bound=1
out=$("$bin" --bound 1 --expect "$check" 2>&1)
rc=$?
if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q '^mlf explore: .* never failed'; then
	bound=2
	out=$("$bin" --bound 2 --expect "$check" 2>&1)
	rc=$?
fi
# ThreadSanitizer ends the run at the race (halt_on_error): when a race is
# what CHECK allows, the same exploration must meet the same race again
summary=$(printf '%s\n' "$out" | grep -m1 '^SUMMARY: ThreadSanitizer: data race')
if [ $rc -ne 0 ] && [ -n "$summary" ] &&
   printf '%s\n' "$check" | tr '|' '\n' | grep -qx race; then
	i=0
	while [ $i -lt 3 ]; do
		again=$("$bin" --bound $bound --expect "$check" 2>&1 |
			grep -m1 '^SUMMARY: ThreadSanitizer: data race')
		if [ "$again" != "$summary" ]; then
			echo "replay_check: $bin met '$summary', then '$again'"
			exit 1
		fi
		i=$((i + 1))
	done
	echo "replay_check: found race ($summary); replayed 3/3"
	exit 0
fi
if [ $rc -ne 0 ]; then
	printf '%s\n' "$out" | grep -v '^    step' | tail -20
	echo "replay_check: $bin did not fail by $check (exit $rc)"
	exit 1
fi
line=$(printf '%s\n' "$out" | grep '^replay: ')
scenario=$(printf '%s\n' "$line" | sed -n "s/.*--scenario \([^ ]*\) .*/\1/p")
schedule=$(printf '%s\n' "$line" | sed -n "s/.*--replay '\([^']*\)'.*/\1/p")
found=$(printf '%s\n' "$out" | sed -n 's/^MLF FAILURE: check=\([^ ]*\).*/\1/p')
if [ -z "$scenario" ] || [ -z "$schedule" ] || [ -z "$found" ]; then
	printf '%s\n' "$out" | tail -20
	echo "replay_check: no failure report with a schedule in the output"
	exit 1
fi
i=0
while [ $i -lt 3 ]; do
	again=$("$bin" --scenario "$scenario" --replay "$schedule" --expect "$found" 2>&1)
	if [ $? -ne 0 ]; then
		printf '%s\n' "$again" | grep -v '^    step' | tail -20
		echo "replay_check: --scenario $scenario --replay '$schedule' did not fail by $found again"
		exit 1
	fi
	i=$((i + 1))
done
echo "replay_check: found $found in scenario $scenario, schedule '$schedule'; replayed 3/3"
