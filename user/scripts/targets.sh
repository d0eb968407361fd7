#!/usr/bin/env bash
# `make targets`: the figures the project's performance targets are judged
# by, measured on this machine in user mode and printed together:
#
#   library    libcacheprobe's planned garbage evict (worst of 20 at 512
#              KiB and 4 MiB, against a one-thread stream of the same
#              bytes and the naive 64 MiB/CPU read), its own cost a call,
#              verify of 4 MiB beside the coldcache area's view of warm
#              and clflush, and what evict and exec add as commands;
#   coldcache  residual warmth per method (worst of 20) at half L1 and
#              half L2 (1 MiB here), the planned/naive cost and bytes, and
#              from the factor sweep (measured side by side with naive)
#              the cheapest planned factor no warmer than naive in its
#              worst case and the one reading naive's bytes, against
#              naive's time and turn by turn;
#   bounce     the classic case (side by side, against one line and
#              against padded counters), RUNS runs, and their spread;
#   align      split against aligned 8- and 32-byte loads, latency and
#              throughput, the classic pattern and the detected line size;
#   c2c        the round trip of CPUs 0 and 1, CAS and flag, RUNS runs and
#              their coefficient of variation;
#   xcore      ns per line, read against modify, by block size.
#
# Every figure comes from this run; nothing is stored.  Takes a few
# minutes.  RUNS (default 5 for c2c, twice that for bounce) and OUT (the
# directory kept for the JSON files, default a temporary one) may be set.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/user/build/cacheprobe-run"
runs=${RUNS:-5}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
py=/usr/bin/python3
[ -x "$py" ] || py=python3

section() {
	printf '\n== %s\n' "$*"
}

# summarize KIND FILE...: one line of figures out of the JSON files.
summarize() {
	"$py" - "$@" <<'EOF'
import json, statistics, sys

kind, files = sys.argv[1], sys.argv[2:]

def measurements(path):
    with open(path) as f:
        return json.load(f)["measurements"]

def param(m, name, fallback=None):
    return m.get("params", {}).get(name, fallback)

def spread(values):
    mean = statistics.mean(values)
    cv = statistics.stdev(values) / mean * 100 if len(values) > 1 else 0
    return "mean %.3f, min %.3f, max %.3f, CV %.1f %%, spread (max-min)/mean %.1f %%" % (
        mean, min(values), max(values), cv,
        (max(values) - min(values)) / mean * 100)

if kind == "bounce":
    for key in ("classic_milli", "classic_padded_milli"):
        ratios = [param(m, key) / 1000 for f in files for m in measurements(f)
                  if m["mode"] == "user" and param(m, key) is not None]
        if ratios:
            print("  %s over %d runs: %s" % (key[:-6].replace("_", " "),
                                              len(ratios), spread(ratios)))
elif kind == "c2c":
    by_variant = {}
    for f in files:
        for m in measurements(f):
            if (m["mode"] == "user" and param(m, "first") == 0
                    and param(m, "second") == 1):
                by_variant.setdefault(m["name"], []).append(m["stats_ns"]["median"])
    for name, medians in sorted(by_variant.items()):
        print("  %s, median ns over %d runs: %s" % (name, len(medians),
                                                      spread(medians)))
EOF
}

section "coldcache (20 repetitions, the factor sweep; the targets block at the end)"
"$bin" coldcache --repeats 20 --sweep-factor --max-size 1M \
	--json "$out/coldcache.json" |
	sed -n '/residual warmth after eviction/,$p'

section "libcacheprobe: the library's planned garbage evict, verify, evict and exec"
make -s -C "$top/user" library-targets
"$top/user/build/library-targets" "$bin" 20
echo "  the coldcache area on the same machine, for verify's view (4 MiB rows):"
"$bin" coldcache --methods warm,clflush --repeats 20 --max-size 4M \
	--json "$out/coldcache-4m.json" |
	sed -n '/residual warmth after eviction/,/^$/p' | grep -E 'working set|4 MiB'

section "bounce: the classic case, $((2 * runs)) runs"
for i in $(seq 1 $((2 * runs))); do
	"$bin" bounce --cpus 0,1 --ops plain --width 4 --distances 4,64 \
		--quiet --json "$out/bounce-$i.json"
done
"$bin" bounce --cpus 0,1 --ops plain --width 4 --distances 4,64 |
	grep -A1 'classic case'
summarize bounce "$out"/bounce-*.json

section "align: 8- and 32-byte loads, split against aligned"
"$bin" align --access-widths 8,32 --access-kinds load-latency,load-throughput \
	--samples 41 --sample-time 1000 --json "$out/align.json" |
	sed -n '/^align: split/,$p'

section "c2c: CPUs 0 and 1, $runs runs"
for i in $(seq 1 "$runs"); do
	"$bin" c2c --cpus 0,1 --quiet --json "$out/c2c-$i.json"
done
summarize c2c "$out"/c2c-*.json

section "xcore: read against modify, CPU 0 to CPU 1"
"$bin" xcore --pairs 0:1 --max-size 4M --json "$out/xcore.json" |
	sed -n '/^xcore: consumer/,$p'

echo
echo "JSON files: $out"
