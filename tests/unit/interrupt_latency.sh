#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# SIGTERM at 20 moments spread over the six areas: each run ends at once
# (exit 143), its JSON written and marked interrupted by SIGTERM.  How long
# each took to end is printed; the test fails above 250 ms, so that a loop
# that stops looking at the flag (c2c once took 8 to 20 s) cannot pass.
# A run over the bound is tried once more at the same moment, and both
# times are printed: a loop that does not look at the flag is slow every
# time, a machine busy for a moment is not.  Last, a run cut short by a
# failed allocation keeps what it measured, marked.  Prints TAP.
#
# Usage: interrupt_latency.sh PATH-OF-cacheprobe-run

program=${1:?usage: interrupt_latency.sh PATH-OF-cacheprobe-run}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

number=0
failures=0
areas="latency bounce coldcache align xcore c2c"
bound_ms=250

now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# The moment of the @1-th signal: 0.1 to 1 s into the run, spread by a
# fixed sequence so that a failure can be repeated.
moment() {
	awk -v i="$1" 'BEGIN { printf "%.2f\n", 0.1 + (i * 0.37) % 0.9 }'
}

# interrupt AREA MOMENT: prints "STATUS MS" (MS: how long it took to end)
# or "ended" when the run had ended before the signal.
interrupt() {
	# Every area runs for seconds: 100 samples of 2 ms a measurement, and
	# c2c (whose samples fill a budget) a budget of 10 s, since it may
	# end well before its budget (3 s took 1.2 s on a 2-vCPU Xeon).
	extra="--samples 100"
	[ "$1" = c2c ] && extra="--budget 10"
	# shellcheck disable=SC2086 # two words
	"$program" "$1" --quiet $extra --json "$work/r.json" \
		>"$work/out" 2>"$work/err" &
	pid=$!
	sleep "$2"
	start=$(now_ms)
	if ! kill -TERM "$pid" 2>/dev/null; then
		wait "$pid"
		echo ended
		return
	fi
	wait "$pid"
	status=$?
	echo "$status $(($(now_ms) - start))"
}

i=0
while [ "$i" -lt 20 ]; do
	set -- $areas
	shift $((i % 6))
	area=$1
	at=$(moment "$i")
	rm -f "$work/r.json"
	result=$(interrupt "$area" "$at")
	name="SIGTERM $at s into $area"
	case $result in
	143\ *)
		if [ "${result#* }" -gt "$bound_ms" ]; then
			name="$name (first try ${result#* } ms)"
			rm -f "$work/r.json"
			result=$(interrupt "$area" "$at")
		fi
		;;
	esac
	number=$((number + 1))
	i=$((i + 1))
	# Every run lasts seconds: one that had ended tested nothing.
	case $result in
	ended)
		failures=$((failures + 1))
		echo "not ok $number - $name: the run had already ended"
		continue
		;;
	esac
	status=${result% *} ms=${result#* }
	if [ "$status" -eq 143 ] && [ "$ms" -le "$bound_ms" ] &&
	   grep -q '"interrupted":true' "$work/r.json" &&
	   grep -q '"interrupted_reason":"SIGTERM"' "$work/r.json"; then
		echo "ok $number - $name: ended in $ms ms, results marked"
	else
		failures=$((failures + 1))
		echo "not ok $number - $name: exit $status after $ms ms (at most $bound_ms), results marked: $(grep -o '"interrupted":[a-z]*' "$work/r.json" 2>/dev/null || echo 'no file')"
		sed 's/^/# stderr: /' "$work/err" | tail -n 3
	fi
done
# A run cut short by a failed allocation (an address-space limit the
# smaller working sets fit in) writes what it measured, marked interrupted
# with the reason, and exits 1.  A sanitizer build cannot start under the
# limit at all (its shadow memory): then there is nothing to test.
allocation_case() {
	name="a failed allocation mid-run: results kept, marked, exit 1"
	rm -f "$work/r.json"
	(
		ulimit -v 120000
		exec "$program" latency --min-size 8M --max-size 1G -n 3 \
			--sample-time 100 --quiet --json "$work/r.json"
	) >"$work/out" 2>"$work/err"
	status=$?
	number=$((number + 1))
	if [ ! -s "$work/r.json" ] && ! grep -q 'cannot build' "$work/err"; then
		echo "ok $number # SKIP $name: the program cannot start under a 120 MB address-space limit (exit $status)"
		return
	fi
	if [ "$status" -eq 1 ] &&
	   grep -q '"interrupted":true' "$work/r.json" &&
	   grep -q '"interrupted_reason":"latency: cannot build a [0-9]*-byte chase' "$work/r.json" &&
	   grep -q '"name":"chase 8 MiB"' "$work/r.json"; then
		echo "ok $number - $name"
	else
		failures=$((failures + 1))
		echo "not ok $number - $name: exit $status, $(grep -o '"interrupted[a-z_]*":[^,]*' "$work/r.json" 2>/dev/null | tr '\n' ' ')"
		sed 's/^/# stderr: /' "$work/err" | tail -n 3
	fi
}

allocation_case
echo "1..$number"
[ "$failures" -eq 0 ]
