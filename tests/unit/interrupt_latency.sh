#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# SIGTERM at 20 moments spread over the six areas, 3 into a run of
# four areas taking turns and 2 into coldcache and latency taking turns:
# each run ends at once
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

# interrupt MOMENT ARGS...: prints "STATUS MS" (MS: how long it took to
# end) or "ended" when the run had ended before the signal.
interrupt() {
	at=$1
	shift
	"$program" "$@" --quiet --json "$work/r.json" \
		>"$work/out" 2>"$work/err" &
	pid=$!
	sleep "$at"
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

# Every area runs for seconds: 100 samples of 2 ms a measurement, and
# c2c (whose samples fill a budget) a budget of 10 s, since it may end
# well before its budget (3 s took 1.2 s on a 2-vCPU Xeon).  xcore's 100
# took only 1.0 s on an AMD EPYC guest, against moments up to 1 s: 300.
area_args() {
	case $1 in
	c2c) echo "c2c --budget 10" ;;
	xcore) echo "xcore --samples 300" ;;
	*) echo "$1 --samples 100" ;;
	esac
}

# check NAME MOMENT ARGS...: one signalled run, tried once more when it
# took too long, judged.
check() {
	name=$1
	shift
	rm -f "$work/r.json"
	result=$(interrupt "$@")
	case $result in
	143\ *)
		if [ "${result#* }" -gt "$bound_ms" ]; then
			name="$name (first try ${result#* } ms)"
			rm -f "$work/r.json"
			result=$(interrupt "$@")
		fi
		;;
	esac
	number=$((number + 1))
	# Every run lasts seconds: one that had ended tested nothing.
	case $result in
	ended)
		failures=$((failures + 1))
		echo "not ok $number - $name: the run had already ended"
		return
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
}

i=0
while [ "$i" -lt 20 ]; do
	set -- $areas
	shift $((i % 6))
	at=$(moment "$i")
	# shellcheck disable=SC2046 # the area's words
	check "SIGTERM $at s into $1" "$at" $(area_args "$1")
	i=$((i + 1))
done
# Areas taking turns (cli/run_turns.h): a signal while the others wait
# for their turn in the middle of their measurements ends them all as
# fast.  With 10 samples, and latency's sizes up to 4 MiB, a round lasts
# a fraction of a second and the run some 7 s: these moments fall after
# several turns.
for at in 1.3 2.2 3.1; do
	check "SIGTERM $at s into four areas taking turns" "$at" \
		run latency bounce align xcore --samples 10 --max-size 4M
done
# coldcache takes rounds too, and keeps its garbage readers and working
# sets across the other areas' turns.  Its rounds are cheaper where the
# last level is smaller (20 repetitions took 5.6 s with an L3 of 32 MiB,
# more with 480): 100 of them, with latency at 40 samples, outlast both
# moments on any machine; a run is ended at the signal, so what is not
# reached costs nothing.
for at in 4.1 6.5; do
	check "SIGTERM $at s into coldcache and latency taking turns" "$at" \
		run coldcache latency --repeats 100 --samples 40 --max-size 4M
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
