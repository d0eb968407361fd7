#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Do the intervals hold from one run to the next, and does compare cry
# wolf?  RUNS (default 10) back-to-back user-mode runs of AREAS (default:
# the areas of the default run), then:
#   - per area, the share of measurements whose median in run i+1 lies
#     outside run i's 95 % interval of the median (about 17 % if the
#     intervals described the run-to-run variation of two estimates of one
#     spread, far more when they describe one run's arrangement only),
#     also over the pairs of runs on one placement throughout (neither
#     on placements apart nor moved during either run);
#   - compare of each consecutive pair: its totals and exit status;
#   - compare of consecutive pairs of pairs (runs pooled two a side);
#   - each run's round trip between its first two CPUs at its start and
#     end: where the host placed the vCPUs (machine/placement.h);
#   - the same share and compares in core cycles (compare --cycles), where
#     both runs measured the core clock: what is left once the clock's
#     own moves between runs are out.
# Not part of make check: it takes RUNS times a run.  OUT keeps the files;
# with REUSE=1 the runs already in OUT are judged again, not taken.
#
# Usage: tests/stats/run-to-run.sh [PATH-OF-cacheprobe-run]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
program=${1:-$top/user/build/cacheprobe-run}
runs=${RUNS:-10}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
read -r -a areas <<<"${AREAS:-}"

echo "machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) CPUs"
echo "runs: $runs of ${AREAS:-the default run}, files in $out"
for i in $(seq 1 "$runs"); do
	[ "${REUSE:-0}" = 1 ] && [ -s "$out/run$i.json" ] && continue
	"$program" run "${areas[@]}" --mode user --quiet --json "$out/run$i.json"
done

python3 - "$out" "$runs" "$program" <<'PY'
import json, subprocess, sys
from collections import defaultdict

out, runs, program = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def read(i):
    with open(f"{out}/run{i}.json") as f:
        return json.load(f)
docs = [read(i) for i in range(1, runs + 1)]
files = [{(m["area"], m["name"], m["mode"]): m for m in d["measurements"]}
         for d in docs]

# Where the host placed the vCPUs (machine/placement.h): every figure
# across two CPUs follows it, and no interval of one run covers a move
# that holds for the whole run.  Two runs are on placements apart when
# compare names the difference, and a run moved when compare says so
# (its rules, not a copy of them here).
def readings(doc):
    probe = doc["environment"].get("placement")
    return [v for v in probe["round_trip_ns"] if v > 0] if probe else []
def placement(i):
    verdict = subprocess.run(
        [program, "compare", "--json=-", f"{out}/run{i}.json",
         f"{out}/run{i + 1}.json"], capture_output=True, text=True)
    judged = json.loads(verdict.stdout)
    apart = any(d["what"] == "CPU placement (round trip)"
                for d in judged["environment_differences"])
    moved = any(judged[side].get("placement_moved", False)
                for side in ("baseline", "new"))
    return apart, moved
placements = [placement(i) for i in range(1, runs)]

outside, cycles, total = defaultdict(int), defaultdict(int), defaultdict(int)
still_out, still = defaultdict(int), defaultdict(int)
for i, (a, b) in enumerate(zip(files, files[1:])):
    elsewhere = any(placements[i])
    for key, m in a.items():
        if key not in b or m["area"] == "harness":
            continue
        low, high = m["stats_ns"]["median_ci95"]
        median = b[key]["stats_ns"]["median"]
        total[key[0]] += 1
        outside[key[0]] += not (low <= median <= high)
        if not elsewhere:
            still[key[0]] += 1
            still_out[key[0]] += not (low <= median <= high)
        # In cycles: each run's ns times its own core clock.
        ra = m.get("core_cycles_per_tick") or 0
        rb = b[key].get("core_cycles_per_tick") or 0
        if ra > 0 and rb > 0:
            low, high, median = low * ra, high * ra, median * rb
        cycles[key[0]] += not (low <= median <= high)
moves = sum(apart for apart, _ in placements)
moved = sum(during and not apart for apart, during in placements)
print("\nnext run's median outside this run's 95 % interval (in ns; in core")
print("cycles where both runs measured the core clock; in ns over the")
print(f"{runs - 1 - moves - moved} pairs on one placement throughout, "
      "below):")
for area in sorted(total):
    share = (f"{100 * still_out[area] / still[area]:5.1f} %"
             if still[area] else "    -  ")
    print(f"  {area:10s}{outside[area]:5d} of {total[area]:5d}"
          f" {100 * outside[area] / total[area]:5.1f} %"
          f"  cycles {cycles[area]:5d}"
          f" {100 * cycles[area] / total[area]:5.1f} %"
          f"  one placement {share}")

print("\nround trip between the first two CPUs, ns (start/end of each run):")
texts = [f"run{i} " + ("/".join(f"{v:.0f}" for v in readings(d)) or "-")
         for i, d in enumerate(docs, 1)]
for i in range(0, len(texts), 5):
    print("  " + ", ".join(texts[i:i + 5]))
print(f"  {moves} of {runs - 1} consecutive pairs on placements apart "
      "(more than 1.5 times),")
print(f"  {moved} more with a run whose placement moved during it")
PY

verdicts() {
	local status=0
	"$program" compare --json "$out/verdict.json" "$@" >/dev/null || status=$?
	python3 - "$out/verdict.json" "$status" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["totals"]
print(f"exit {sys.argv[2]}: {t['regression']:4d} regressions "
      f"{t['improvement']:4d} improvements {t['same']:5d} same "
      f"{t['unclear']:5d} unclear of {t['compared']}")
PY
	return "$status"
}

for unit in ns cycles; do
	flag=()
	[ "$unit" = cycles ] && flag=(--cycles)
	echo
	echo "compare ${flag[*]} of consecutive runs:"
	clean=0
	for i in $(seq 1 $((runs - 1))); do
		printf '  run%-2d vs run%-2d ' "$i" $((i + 1))
		verdicts "${flag[@]}" "$out/run$i.json" \
			"$out/run$((i + 1)).json" && clean=$((clean + 1))
	done
	echo "  $clean of $((runs - 1)) pairs exit 0"
done

echo
echo "compare of consecutive pairs of runs, pooled two a side:"
clean=0 pairs=0
for i in $(seq 1 4 $((runs - 3))); do
	printf '  run%d+%d vs run%d+%d ' "$i" $((i + 1)) $((i + 2)) $((i + 3))
	pairs=$((pairs + 1))
	verdicts "$out/run$i.json" "$out/run$((i + 1)).json" -- \
		"$out/run$((i + 2)).json" "$out/run$((i + 3)).json" &&
		clean=$((clean + 1))
done
echo "  $clean of $pairs pooled pairs exit 0"
