#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# coldcache measures in rounds: every method at every working-set size
# gets one repetition a round (another round for one whose first pass was
# interrupted too early), the line timer floor one batch of probes a
# round (its samples marked as rounds), and between rounds the run's
# other areas take their turn, which the progress line shows on a
# terminal (played by script(1)).  Prints TAP.
#
# Usage: coldcache_rounds.sh PATH-OF-cacheprobe-run

program=${1:?usage: coldcache_rounds.sh PATH-OF-cacheprobe-run}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/tap.sh"

repeats=3
# Probes of the line timer floor a round (COLD_FLOOR_PROBES).
floor_probes=512

# The shape of one run's coldcache measurements: prints what is wrong,
# nothing when all is right.
check_shape() {
	python3 - "$1" "$repeats" "$floor_probes" <<'PY'
import json, sys

path, repeats, probes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cold = [m for m in json.load(open(path))["measurements"]
        if m["area"] == "coldcache"]
methods = [m for m in cold if m["name"].endswith((" evict", " first pass"))]
floor = [m for m in cold if m["name"] == "line timer floor"]
if len(methods) < 4:
    print(f"{len(methods)} evict and first-pass measurements, expected 4 or more")
for m in methods:
    if len(m["samples_ns"]) != repeats:
        print(f"{m['name']}: {len(m['samples_ns'])} samples, expected {repeats}")
if len(floor) != 1:
    print(f"{len(floor)} line timer floor measurements, expected 1")
else:
    # A pass interrupted too early is taken again in a round of its own
    # (preempted_retaken): the rounds are the most any entry took.
    rounds = max(len(m["samples_ns"]) + m.get("preempted_retaken", 0)
                 for m in methods if m["name"].endswith(" evict"))
    m = floor[0]
    if len(m["samples_ns"]) != rounds * probes:
        print(f"line timer floor: {len(m['samples_ns'])} samples, expected {rounds} rounds of {probes}")
    if m.get("samples_per_round") != probes:
        print(f"line timer floor: samples_per_round {m.get('samples_per_round')}, expected {probes}")
PY
}

# Sets of at most 1 MiB: some 130 MiB in all, so that the rotation never
# splits by size (each size would take rounds of its own).
"$program" run coldcache --methods warm,clflush --repeats "$repeats" \
	--max-size 1M --quiet --json "$work/r.json" >"$work/out" 2>"$work/err"
status=$?
if [ "$status" -ne 0 ]; then
	not_ok "coldcache in rounds: the run failed" "exit status $status"
else
	wrong=$(check_shape "$work/r.json")
	if [ -z "$wrong" ]; then
		ok "coldcache in rounds: $repeats samples a method and size, $floor_probes floor probes a round"
	else
		not_ok "coldcache in rounds: the results' shape" "$wrong"
	fi
fi

# Taking turns with latency: the progress line names the areas as they
# measure; coldcache's rounds and latency's alternate, so coldcache must
# come back after latency has measured.  Small sizes keep it to seconds.
if ! command -v script >/dev/null 2>&1; then
	skip "coldcache taking turns: no script(1) to play a terminal"
else
	script -qfec "'$program' run coldcache latency --methods warm,clflush \
		--repeats $repeats --max-size 64K -n 3 \
		--json '$work/turns.json'" /dev/null >"$work/tty" 2>"$work/err"
	status=$?
	# The areas in the order the progress line named them, repeats
	# folded: "coldcache latency coldcache latency ..." when they alternate.
	order=$(tr '\r' '\n' <"$work/tty" |
		grep -ao '\(coldcache\|latency\) (area' |
		sed 's/ (area//' | uniq | tr '\n' ' ')
	spells=$(echo "$order" | wc -w)
	if [ "$status" -eq 0 ] && [ "$spells" -ge 4 ]; then
		ok "coldcache taking turns: the areas measured in $spells spells ($order)"
	else
		not_ok "coldcache taking turns: the areas alternate" \
			"exit status $status, spells: $order"
	fi
fi

echo "1..$number"
[ "$failures" -eq 0 ]
