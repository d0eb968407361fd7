#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cacheprobe-run keeps to the CPUs it was allowed: under taskset it never
# picks another CPU, a CPU asked for outside the affinity is refused (exit
# 2) as not allowed, an area that needs two CPUs is refused when named
# and left out of the default run (which says so and succeeds).  A cgroup
# cpuset is played by an hwloc XML topology (HWLOC_XMLFILE) whose allowed
# set holds one CPU, as hwloc reports a cpuset.  A run records the round
# trip between the first two CPUs it may use (none with one).  CPU
# numbers come from `info`.  Prints TAP.
#
# Usage: affinity.sh PATH-OF-cacheprobe-run

program=${1:?usage: affinity.sh PATH-OF-cacheprobe-run}
# Absolute: the default run is made in the work directory.
program=$(cd "$(dirname "$program")" && pwd)/$(basename "$program")
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/tap.sh"
unset HWLOC_SYNTHETIC HWLOC_XMLFILE

run() {
	"$@" >"$work/out" 2>"$work/err"
	status=$?
}

# expect NAME STATUS TEXT -- COMMAND...: exit STATUS and TEXT (a fixed
# string; none when empty) on standard error.
expect() {
	name=$1 want_status=$2 text=$3
	shift 4
	run "$@"
	if [ "$status" -ne "$want_status" ]; then
		not_ok "$name" "exit status $status, expected $want_status"
	elif [ -n "$text" ] && ! grep -qF -- "$text" "$work/err"; then
		not_ok "$name" "stderr lacks: $text"
	else
		ok "$name"
	fi
}

# "0-2,5" as "0 1 2 5".
expand_list() {
	printf '%s\n' "$1" | tr ',' '\n' |
		awk -F- '{ last = NF > 1 ? $2 : $1; for (c = $1; c <= last; c++) print c }'
}

# Two CPUs this process may use: the first pair of the pair classes
# `info` names, or when the tests themselves run restricted (info then
# shows the allowed CPUs), the first two of those.
pick_cpus() {
	run "$program" info
	allowed=$(sed -n 's/^  allowed cpus: [0-9]* (\([^)]*\)).*/\1/p' "$work/out")
	if [ -n "$allowed" ]; then
		set -- $(expand_list "$allowed")
		FIRST=${1-} SECOND=${2-}
	else
		pair=$(sed -n 's/^  cpu pair classes: [^ ]* \([0-9]*\):\([0-9]*\).*/\1 \2/p' \
			"$work/out")
		FIRST=${pair% *} SECOND=${pair#* }
	fi
}

# hwloc's bitmap form of the CPUs "$@": 32-bit words, highest first.
hwloc_mask() {
	top=0
	for c in "$@"; do
		[ $((c / 32)) -gt "$top" ] && top=$((c / 32))
	done
	mask= w=$top
	while [ "$w" -ge 0 ]; do
		v=0
		for c in "$@"; do
			[ $((c / 32)) -eq "$w" ] && v=$((v | (1 << (c % 32))))
		done
		mask="$mask${mask:+,}$(printf '0x%08x' "$v")"
		w=$((w - 1))
	done
	echo "$mask"
}

# An hwloc XML machine of two cores, CPUs $FIRST and $SECOND, of which a
# cgroup cpuset allows only $FIRST: hwloc exports a cpuset's restriction
# as the root's allowed_cpuset.
write_cpuset_topology() {
	all=$(hwloc_mask "$FIRST" "$SECOND")
	one=$(hwloc_mask "$FIRST")
	two=$(hwloc_mask "$SECOND")
	node='nodeset="0x00000001" complete_nodeset="0x00000001"'
	cat >"$1" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE topology SYSTEM "hwloc2.dtd">
<topology version="2.0">
  <object type="Machine" os_index="0" cpuset="$all" complete_cpuset="$all" allowed_cpuset="$one" $node allowed_nodeset="0x00000001" gp_index="1">
    <object type="Package" os_index="0" cpuset="$all" complete_cpuset="$all" $node gp_index="2">
      <object type="NUMANode" os_index="0" cpuset="$all" complete_cpuset="$all" $node gp_index="3" local_memory="1073741824"/>
      <object type="L3Cache" cpuset="$all" complete_cpuset="$all" $node gp_index="4" cache_size="16777216" depth="3" cache_linesize="64" cache_associativity="16" cache_type="0">
        <object type="Core" os_index="0" cpuset="$one" complete_cpuset="$one" $node gp_index="5">
          <object type="PU" os_index="$FIRST" cpuset="$one" complete_cpuset="$one" $node gp_index="6"/>
        </object>
        <object type="Core" os_index="1" cpuset="$two" complete_cpuset="$two" $node gp_index="7">
          <object type="PU" os_index="$SECOND" cpuset="$two" complete_cpuset="$two" $node gp_index="8"/>
        </object>
      </object>
    </object>
  </object>
</topology>
EOF
}

# Named, an area that needs two CPUs is an error before anything is
# written; a CPU outside the affinity is refused as not allowed.
named_cases() {
	f="$work/files/r.json"
	mkdir -p "$work/files"
	expect "taskset one CPU: bounce refused, naming the area and the CPU" 2 \
		"bounce needs two CPUs and this process may use only CPU $FIRST (taskset/cpuset)" \
		-- taskset -c "$FIRST" "$program" bounce --json "$f"
	if [ -e "$f" ] || [ -n "$(ls -A "$work/files")" ]; then
		not_ok "taskset one CPU: the refused bounce run wrote no file" \
			"left: $(ls -A "$work/files")"
	else
		ok "taskset one CPU: the refused bounce run wrote no file"
	fi
	expect "taskset one CPU: xcore refused" 2 \
		"xcore needs two CPUs and this process may use only CPU $FIRST" \
		-- taskset -c "$FIRST" "$program" xcore --pairs "$FIRST:$SECOND" --json "$f"
	expect "taskset one CPU: c2c refused" 2 \
		"c2c needs two CPUs and this process may use only CPU $FIRST" \
		-- taskset -c "$FIRST" "$program" c2c --json "$f"
	expect "taskset one CPU: --cpus outside it refused as not allowed" 2 \
		"--cpus '$SECOND': CPU $SECOND is not in this process's allowed CPUs (taskset/cpuset: $FIRST)" \
		-- taskset -c "$FIRST" "$program" latency --cpus "$SECOND" --json "$f"
	expect "taskset one CPU: flush --cpus outside it refused before the module" 2 \
		"CPU $SECOND is not in this process's allowed CPUs (taskset/cpuset: $FIRST)" \
		-- taskset -c "$FIRST" "$program" flush --cpus "$SECOND"
	# latency runs on the first CPU of the selection: "all" must not
	# reach below the one allowed.
	expect "taskset one CPU: latency --cpus all runs" 0 "" \
		-- taskset -c "$SECOND" "$program" latency --cpus all \
		--max-size 8K --samples 3 --sample-time 100 --quiet --json "$f"
	cpus=$(grep -o '"cpu":[0-9]*' "$f" 2>/dev/null | sort -u)
	if [ "$cpus" = "\"cpu\":$SECOND" ]; then
		ok "taskset one CPU: --cpus all is CPU $SECOND, the one allowed"
	else
		not_ok "taskset one CPU: --cpus all is CPU $SECOND, the one allowed" \
			"cpus in the JSON: $(echo $cpus)"
	fi
	rm -f "$f"
}

# The run made with no area named measures what one CPU can, says which
# areas it left out and why, and succeeds (as the man page says).  Made
# in the work directory, in case it writes its default files there.
default_run_case() {
	f="$work/default.json"
	cd "$work" || exit 1
	run taskset -c "$FIRST" "$program" --samples 3 --sample-time 100 \
		--max-size 64K --repeats 1 --budget 0.2 --quiet --json "$f"
	cd - >/dev/null || exit 1
	line="bounce, xcore, c2c skipped: they need two CPUs and this process may use only CPU $FIRST (taskset/cpuset)"
	if [ "$status" -eq 0 ] && grep -qF -- "$line" "$work/err"; then
		ok "taskset one CPU: the default run says what it skipped and why, exit 0"
	else
		not_ok "taskset one CPU: the default run says what it skipped and why, exit 0" \
			"exit status $status; expected on stderr: $line"
	fi
	reasons=$(grep -c '"reason":"it needs two CPUs and this process may use only CPU '"$FIRST"' (taskset/cpuset)"' "$f" 2>/dev/null)
	notes=$("$program" compare "$f" "$f" 2>/dev/null |
		grep -c "^note: the new run left out \(bounce\|xcore\|c2c\): it needs two CPUs")
	if [ "$reasons" = 3 ] && [ "$notes" = 3 ]; then
		ok "taskset one CPU: the JSON records the three areas left out and why"
	else
		not_ok "taskset one CPU: the JSON records the three areas left out and why" \
			"reasons in skipped_areas: $reasons, compare notes: $notes"
	fi
	# The measurements' areas (an "area" followed by a "name"), not the
	# summary's or the area notes'.
	areas=$(awk 'match(prev, /"area":"[a-z0-9]*"/) && /"name":/ {
			print substr(prev, RSTART, RLENGTH) } { prev = $0 }' \
		"$f" 2>/dev/null | sort -u | tr '\n' ' ')
	if [ "$areas" = '"area":"align" "area":"coldcache" "area":"latency" ' ]; then
		ok "taskset one CPU: the default run measured latency, coldcache and align only"
	else
		not_ok "taskset one CPU: the default run measured latency, coldcache and align only" \
			"areas in the JSON: $areas"
	fi
	cpus=$(grep -o '"cpu":[0-9]*' "$f" 2>/dev/null | sort -u)
	if [ "$cpus" = "\"cpu\":$FIRST" ]; then
		ok "taskset one CPU: every measurement of the default run on CPU $FIRST"
	else
		not_ok "taskset one CPU: every measurement of the default run on CPU $FIRST" \
			"cpus in the JSON: $(echo $cpus)"
	fi
}

# Two CPUs allowed: c2c measures their pair and no other CPU.
two_cpus_case() {
	f="$work/c2c.json"
	run taskset -c "$FIRST,$SECOND" "$program" c2c --mode user --budget 0.3 \
		--quiet --json "$f"
	named=$(grep -o '"\(first\|second\)":[0-9]*' "$f" 2>/dev/null |
		sed 's/.*://' | sort -un | tr '\n' ' ')
	want=$(printf '%s\n' "$FIRST" "$SECOND" | sort -n | tr '\n' ' ')
	if [ "$status" -eq 0 ] && [ "$named" = "$want" ]; then
		ok "taskset two CPUs: c2c measures CPUs $FIRST and $SECOND only"
	else
		not_ok "taskset two CPUs: c2c measures CPUs $FIRST and $SECOND only" \
			"exit status $status, CPUs in the JSON: $named"
	fi
}

# "A B START END" of the run's placement probe in JSON file $1, "none"
# without one.
placement_of() {
	python3 - "$1" <<'PY' 2>/dev/null
import json, sys
probe = json.load(open(sys.argv[1]))["environment"].get("placement")
if probe is None:
    print("none")
else:
    print(*probe["cpus"], *probe["round_trip_ns"])
PY
}

# TAP line $1: the run that wrote $f (exit status $status) recorded the
# round trip between CPUs $FIRST and $SECOND in ascending order, read
# above 0 at its start and at its end.
expect_placement() {
	name=$1
	set -- $(placement_of "$f")
	want=$(printf '%s\n' "$FIRST" "$SECOND" | sort -n | tr '\n' ' ')
	if [ "$status" -eq 0 ] && [ $# -eq 4 ] && [ "$1 $2 " = "$want" ] &&
	   awk -v a="$3" -v b="$4" 'BEGIN { exit !(a > 0 && b > 0) }'; then
		ok "$name"
	else
		not_ok "$name" "exit status $status, placement: $*"
	fi
}

# A run records where the host put its CPUs: one line's round trip
# between the first two it may use, at its start and at its end; with
# one CPU, nothing.  --cpus is a set, not a list: its first two are the
# lowest, whatever order they were written in.
placement_cases() {
	f="$work/placement.json"
	run taskset -c "$FIRST,$SECOND" "$program" latency --max-size 8K \
		--samples 3 --sample-time 100 --quiet --json "$f"
	expect_placement "taskset two CPUs: the run's round trip between CPUs $FIRST and $SECOND, at start and end"
	rm -f "$f"
	run "$program" latency --cpus "$SECOND,$FIRST" --max-size 8K \
		--samples 3 --sample-time 100 --quiet --json "$f"
	expect_placement "--cpus $SECOND,$FIRST: the round trip between the two in ascending order, at start and end"
	name="taskset one CPU: no round trip recorded"
	run taskset -c "$FIRST" "$program" latency --max-size 8K \
		--samples 3 --sample-time 100 --quiet --json "$f"
	if [ "$status" -eq 0 ] && [ "$(placement_of "$f")" = none ]; then
		ok "$name"
	else
		not_ok "$name" "exit status $status, placement: $(placement_of "$f")"
	fi
}

# A cgroup cpuset of one CPU, as hwloc reports it: the other CPU is
# online, and refused as not allowed rather than as offline.
cpuset_cases() {
	xml="$work/cpuset.xml"
	write_cpuset_topology "$xml"
	export HWLOC_XMLFILE="$xml"
	run "$program" info
	if [ "$status" -eq 0 ] &&
	   grep -qF "  allowed cpus: 1 ($FIRST), this process's taskset/cpuset" "$work/out"; then
		ok "cpuset one CPU: info shows the allowed CPU"
	else
		not_ok "cpuset one CPU: info shows the allowed CPU" "exit status $status"
	fi
	expect "cpuset one CPU: --cpus outside it refused as not allowed, not offline" 2 \
		"CPU $SECOND is not in this process's allowed CPUs (taskset/cpuset: $FIRST)" \
		-- "$program" latency --cpus "$SECOND"
	expect "cpuset one CPU: c2c refused" 2 \
		"c2c needs two CPUs and this process may use only CPU $FIRST (taskset/cpuset)" \
		-- "$program" c2c
	unset HWLOC_XMLFILE
}

pick_cpus
if ! command -v taskset >/dev/null 2>&1; then
	skip "no taskset here"
elif [ -z "$FIRST" ] || [ -z "$SECOND" ]; then
	skip "fewer than two CPUs this process may use"
else
	named_cases
	default_run_case
	two_cpus_case
	placement_cases
	cpuset_cases
fi
echo "1..$number"
[ "$failures" -eq 0 ]
