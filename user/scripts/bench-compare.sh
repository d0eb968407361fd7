#!/usr/bin/env bash
# How long `cacheprobe-run compare` takes on two large runs: MEASUREMENTS
# (default 200000) per side, 15 samples each (distinct, as timings are:
# ties would cost the U test its exact p-value), the new run listing them
# in the opposite order, one of them 10 % slower.  Prints the time and
# whether that one slowdown, and nothing else, was found.
#
# Usage: bench-compare.sh PATH-OF-cacheprobe-run
set -euo pipefail
program=${1:?usage: bench-compare.sh PATH-OF-cacheprobe-run}
count=${MEASUREMENTS:-200000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# write_run ORDER FACTOR: a results file on stdout; ORDER up or down.
write_run() {
	awk -v count="$count" -v order="$1" -v factor="$2" 'BEGIN {
		slow = int(count / 2)
		printf "{\"schema\":\"cacheprobe-results/1\",\"measurements\":["
		for (k = 0; k < count; k++) {
			i = order == "up" ? k : count - 1 - k
			center = i == slow ? 10 * factor : 10
			printf "%s{\"area\":\"latency\",\"name\":\"m %07d\",", \
				k ? "," : "", i
			printf "\"mode\":\"user\",\"samples_ns\":["
			for (s = 0; s < 15; s++)
				printf "%s%.4f", s ? "," : "", \
					center * (1 + 0.002 * ((s * 7 + i) % 15 - 7))
			printf "],\"samples_ticks\":["
			for (s = 0; s < 15; s++)
				printf "%s%.4f", s ? "," : "", 2 * center
			printf "]}"
		}
		print "]}"
	}'
}

write_run up 1 >"$work/base.json"
write_run down 1.10 >"$work/new.json"
start=$(date +%s%N)
status=0
"$program" compare "$work/base.json" "$work/new.json" >"$work/out" ||
	status=$?
end=$(date +%s%N)
elapsed=$(awk -v ns=$((end - start)) 'BEGIN { printf "%.2f", ns / 1e9 }')
summary=$(grep -m1 " measurements: " "$work/out" || true)
echo "compare: $count measurements per side in $elapsed s ($summary)"
if [ "$status" -ne 1 ] || ! grep -q "^$count measurements: 1 regressions" \
		"$work/out"; then
	echo "compare: expected exactly one regression and exit 1, got exit $status" >&2
	exit 1
fi
