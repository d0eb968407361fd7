#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Does coldcache's line classifier read each warm working set in the level
# it was sized for?  RUNS (default 3) runs of `coldcache --methods warm`
# in the tool's default mode (user and kernel when the module answers and
# the caller may use it, user otherwise; MODE=user|kernel|both to choose),
# then, per run, mode and warm set, the share of its lines the classifier
# put in that set's own level, and whether it is at least 90 %.
#
# The default warm sets are half of L1d, half of L2 and the last level's
# set (measuring.md), one per data-cache level, so the k-th smallest set
# stands for the k-th level of the classifier: sizes and levels both come
# from this machine's topology, none from here.  A level merged into the
# next (-1) cannot hold 90 % of anything: it counts as a miss.
# Not part of make check: it measures, and a loaded host moves it.  OUT
# keeps the files; with REUSE=1 the runs already in OUT are judged again.
#
# Usage: tests/stats/warm-levels.sh [PATH-OF-cacheprobe-run]
# Exit status 0 when every set of every run reached 90 %, 1 otherwise.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
program=${1:-$top/user/build/cacheprobe-run}
runs=${RUNS:-3}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
mode=()
[ -n "${MODE:-}" ] && mode=(--mode "$MODE")

echo "machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) CPUs"
echo "runs: $runs of coldcache --methods warm ${mode[*]}, files in $out"
for i in $(seq 1 "$runs"); do
	[ "${REUSE:-0}" = 1 ] && [ -s "$out/run$i.json" ] && continue
	"$program" run coldcache --methods warm "${mode[@]}" --quiet \
		--json "$out/run$i.json"
done

python3 - "$out" "$runs" <<'PY'
import json, sys

out, runs = sys.argv[1], int(sys.argv[2])
WANT = 900000
passed = {}
total = {}
for i in range(1, runs + 1):
    with open(f"{out}/run{i}.json") as f:
        results = json.load(f)
    for mode in ("user", "kernel"):
        sets = sorted((m for m in results["measurements"]
                       if m["area"] == "coldcache" and m["mode"] == mode
                       and m["name"].startswith("warm ")
                       and m["name"].endswith(" first pass")),
                      key=lambda m: m["params"]["size_bytes"])
        if not sets:
            continue
        cells = []
        for k, m in enumerate(sets):
            levels = [p for p in m["params"] if p.endswith("_ppm")
                      and not p.startswith("cached_")]
            size = m["name"][len("warm "):-len(" first pass")]
            total[mode] = total.get(mode, 0) + 1
            if k >= len(levels) - 1:
                cells.append(f"{size}: no level of its own")
                continue
            share = m["params"][levels[k]]
            name = levels[k][:-len("_ppm")]
            if name[0] == "l" and name[1:2].isdigit():
                name = "L" + name[1:]
            if share < 0:
                cells.append(f"{size} {name}: merged")
                continue
            ok = share >= WANT
            passed[mode] = passed.get(mode, 0) + ok
            cells.append(f"{size} {name} {share / 1e4:.1f} %"
                         + ("" if ok else " (under 90 %)"))
        print(f"run {i} {mode}: " + ", ".join(cells))
if not total:
    print("no warm first pass in the results")
    sys.exit(1)
print("warm sets in their own level, at least 90 %: " +
      ", ".join(f"{mode} {passed.get(mode, 0)} of {n}"
                for mode, n in total.items()))
sys.exit(0 if all(passed.get(m, 0) == n for m, n in total.items()) else 1)
PY
