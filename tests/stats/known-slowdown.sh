#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Is a real slowdown, made with the tool's own options, still caught?
# PAIRS (default 10) times: `xcore --delay 0` then `xcore --delay DELAY`
# (default 2: two dependent adds after each load), the delay dropped from
# the second run's names so that compare pairs them, then compare.  A
# pair is caught when compare exits 1 with regressions and no
# improvement.  Prints each pair's totals, then how many were caught.
# Not part of make check: it takes PAIRS times two xcore runs.
#
# Usage: tests/stats/known-slowdown.sh [PATH-OF-cacheprobe-run]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
program=${1:-$top/user/build/cacheprobe-run}
pairs=${PAIRS:-10}
delay=${DELAY:-2}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"

echo "machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) CPUs"
echo "pairs: $pairs of xcore --delay 0 against --delay $delay, files in $out"
caught=0
for i in $(seq 1 "$pairs"); do
	"$program" xcore --mode user --quiet --json "$out/base$i.json"
	"$program" xcore --mode user --quiet --delay "$delay" \
		--json "$out/delayed$i.json"
	python3 - "$out/delayed$i.json" "$out/renamed$i.json" "$delay" <<'PY'
import json, sys
source, target, delay = sys.argv[1], sys.argv[2], sys.argv[3]
run = json.load(open(source))
for m in run["measurements"]:
    m["name"] = m["name"].replace(f" delay {delay}", "")
json.dump(run, open(target, "w"))
PY
	status=0
	"$program" compare --json "$out/verdict$i.json" "$out/base$i.json" \
		"$out/renamed$i.json" >/dev/null || status=$?
	summary=$(python3 - "$out/verdict$i.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["totals"]
print(f"{t['regression']} {t['improvement']} {t['same']} {t['unclear']} "
      f"{t['compared']}")
PY
)
	read -r regressions improvements same unclear compared <<<"$summary"
	printf '  pair %-2d exit %d: %3d regressions %3d improvements %3d same %3d unclear of %d\n' \
		"$i" "$status" "$regressions" "$improvements" "$same" \
		"$unclear" "$compared"
	if [ "$status" -eq 1 ] && [ "$regressions" -gt 0 ] &&
	   [ "$improvements" -eq 0 ]; then
		caught=$((caught + 1))
	fi
done
echo "caught in $caught of $pairs pairs"
