#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A run's interval of each median reaches at least one timer step past
# the median on each side: the timer's granularity over the
# measurement's count times scale, in ns at the run's TSC rate.  Samples
# are whole numbers of steps, so rounds that all land on one number give
# a bootstrap of no width while the next run lands a step away.  The
# granularity and rate are the run's own (its JSON).  Prints TAP.
#
# Usage: interval_step.sh PATH-OF-cacheprobe-run

program=${1:?usage: interval_step.sh PATH-OF-cacheprobe-run}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/tap.sh"

# narrower FILE: each measurement whose interval stops short of a step
# on either side, one line each; nothing when all reach it.
narrower() {
	python3 - "$1" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
granularity = run["clock"]["timer_granularity_ticks"]
tsc_hz = run["clock"]["tsc_hz"]
for m in run["measurements"]:
    operations = m["count"] * m["scale"]
    if not operations:
        continue
    step = granularity / operations * 1e9 / tsc_hz
    low, high = m["stats_ns"]["median_ci95"]
    median = m["stats_ns"]["median"]
    slack = 1e-9 * abs(median) + 1e-15
    if median - low < step - slack or high - median < step - slack:
        print(f"{m['name']}: {low!r} .. {high!r} around {median!r}, "
              f"step {step!r} ns")
PY
}

"$program" latency --max-size 16K --sample-time 100 --quiet \
	--json "$work/run.json" >"$work/out" 2>"$work/err"
status=$?
if [ "$status" -ne 0 ]; then
	not_ok "a quick latency run" "exit status $status"
elif ! narrower "$work/run.json" >"$work/narrow"; then
	not_ok "the run's JSON reads" "python3 failed"
elif [ -s "$work/narrow" ]; then
	not_ok "every interval reaches a timer step past its median" \
		"$(cat "$work/narrow")"
else
	ok "every interval reaches a timer step past its median"
fi

echo "1..$number"
[ "$failures" -eq 0 ]
