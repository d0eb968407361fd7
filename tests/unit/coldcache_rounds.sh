#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# coldcache measures in rounds: every method at every working-set size
# gets one repetition a round (another round for one whose first pass was
# interrupted too early), the line timer floor one batch of probes a
# round (its samples marked as rounds), and between rounds the run's
# other areas take their turn, which the progress line shows on a
# terminal (played by script(1)).  Where the working sets would span more
# than half the memory free, each size takes its rounds in turn: with
# AVPHYS-SHIM (shims/avphys_pages.c) preloaded to say that almost no
# memory is free, the run says so and its results keep their shape and
# their order.  Prints TAP.
#
# Usage: coldcache_rounds.sh PATH-OF-cacheprobe-run [AVPHYS-SHIM]

program=${1:?usage: coldcache_rounds.sh PATH-OF-cacheprobe-run [AVPHYS-SHIM]}
shim=${2:-}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/tap.sh"

repeats=3
# Probes of the line timer floor a round (COLD_FLOOR_PROBES).
floor_probes=512

# The shape of one run's coldcache measurements, taken in one rotation
# or ("split") one size at a time: prints what is wrong, nothing when all
# is right.
check_shape() {
	python3 - "$1" "$repeats" "$floor_probes" "${2:-}" <<'PY'
import json, sys
from collections import defaultdict

path, repeats, probes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
split = sys.argv[4] == "split"
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
    # (preempted_retaken): a rotation's rounds are the most any of its
    # entries took, and one size at a time each size is a rotation.
    taken = defaultdict(int)
    for m in methods:
        if m["name"].endswith(" evict"):
            group = m["params"]["size_bytes"] if split else 0
            taken[group] = max(taken[group], len(m["samples_ns"]) +
                               m.get("preempted_retaken", 0))
    rounds = sum(taken.values())
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

# One size at a time: the same run on a machine that says one page is
# free.  The sets of every size are measured, the note says why they
# were taken one size at a time, and the measurements come in the order
# of the run that took them all at once.
names() {
	python3 -c 'import json, sys
for m in json.load(open(sys.argv[1]))["measurements"]:
    if m["area"] == "coldcache":
        print(m["name"])' "$1"
}
if [ -z "$shim" ]; then
	skip "coldcache one size at a time: no AVPHYS-SHIM given"
elif ! [ -s "$work/r.json" ]; then
	not_ok "coldcache one size at a time: no run taken all at once to compare"
else
	CACHEPROBE_TEST_AVPHYS_PAGES=1 LD_PRELOAD="$shim" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$program" run coldcache --methods warm,clflush \
		--repeats "$repeats" --max-size 1M --quiet \
		--json "$work/split.json" >"$work/out" 2>"$work/err"
	status=$?
	wrong=
	[ "$status" -eq 0 ] || wrong="exit status $status: $(cat "$work/err")"
	[ -n "$wrong" ] || wrong=$(check_shape "$work/split.json" split)
	if [ -z "$wrong" ] &&
	   ! grep -q "working sets measured one size at a time" "$work/split.json"; then
		wrong="no note that the sets were measured one size at a time"
	fi
	if [ -z "$wrong" ] &&
	   [ "$(names "$work/split.json")" != "$(names "$work/r.json")" ]; then
		wrong="the measurements are not in the order of a run taken at once"
	fi
	if [ -z "$wrong" ]; then
		ok "coldcache one size at a time: every size measured, in order, and the note says why"
	else
		not_ok "coldcache one size at a time" "$wrong"
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

# One size at a time, taking turns: between one size's last round and the
# next size's first, the turn passes too.  One repetition a size makes
# every size a single round, so only that pass lets latency in between.
if [ -z "$shim" ]; then
	skip "coldcache one size at a time, taking turns: no AVPHYS-SHIM given"
elif ! command -v script >/dev/null 2>&1; then
	skip "coldcache one size at a time, taking turns: no script(1)"
else
	CACHEPROBE_TEST_AVPHYS_PAGES=1 LD_PRELOAD="$shim" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		script -qfec "'$program' run coldcache latency --methods warm \
		--repeats 1 --max-size 1M -n 3 \
		--json '$work/split-turns.json'" /dev/null >"$work/tty" 2>"$work/err"
	status=$?
	order=$(tr '\r' '\n' <"$work/tty" |
		grep -ao '\(coldcache\|latency\) (area' |
		sed 's/ (area//' | uniq | tr '\n' ' ')
	sizes=$(grep -c '"name":"warm .* first pass"' "$work/split-turns.json" 2>/dev/null)
	coldcache_spells=$(echo "$order" | tr ' ' '\n' | grep -c '^coldcache$')
	if [ "$status" -eq 0 ] && [ "${sizes:-0}" -ge 2 ] &&
	   [ "$coldcache_spells" -ge "$sizes" ]; then
		ok "coldcache one size at a time, taking turns: $sizes sizes in $coldcache_spells spells ($order)"
	else
		not_ok "coldcache one size at a time, taking turns" \
			"exit status $status, $sizes sizes, spells: $order"
	fi
fi

echo "1..$number"
[ "$failures" -eq 0 ]
