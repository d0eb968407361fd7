#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Output files never destroy what was not handed over for writing: a
# device node, a FIFO, a symbolic link and a file's mode stay what they
# were; two options naming one file are refused before anything is
# measured, the input left byte for byte; a run killed with SIGKILL leaves
# no temporary behind.  Device nodes are private ones made with mknod in
# a temporary directory, never the machine's own /dev.  Prints TAP.
#
# Usage: output_files.sh PATH-OF-cacheprobe-run

program=${1:?usage: output_files.sh PATH-OF-cacheprobe-run}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/tap.sh"

# A run of a few milliseconds that writes every kind of output.
quick="latency --max-size 8K -n 3 --sample-time 100 --quiet"

check() {
	name=$1
	shift
	if "$@"; then
		ok "$name"
	else
		not_ok "$name" "failed: $*"
	fi
}

# quick_run OPTION PATH...: the quick run writing there; sets status.
quick_run() {
	# shellcheck disable=SC2086 # the words of a command line
	"$program" $quick "$@" >"$work/out" 2>"$work/err"
	status=$?
}

# type_of PATH: the file type and, for devices, the numbers.
type_of() {
	stat -c '%F %t:%T' "$1"
}

device_case() {
	if ! mknod "$work/null" c 1 3 2>/dev/null; then
		skip "no private device node (mknod refused)"
		return
	fi
	before=$(type_of "$work/null")
	quick_run --json "$work/null"
	after=$(type_of "$work/null")
	if [ "$status" -eq 0 ] && [ "$before" = "$after" ]; then
		ok "a character device as --json stays one ($after)"
	else
		not_ok "a character device as --json stays one" \
			"exit $status, was '$before', now '$after'"
	fi
}

fifo_case() {
	mkfifo "$work/fifo" || return
	# Bounded: a run that never opens the FIFO leaves its reader waiting.
	timeout 10 cat "$work/fifo" >"$work/from-fifo" &
	reader=$!
	quick_run --report "$work/fifo"
	wait "$reader"
	if [ "$status" -eq 0 ] && [ -p "$work/fifo" ] &&
	   grep -q '</html>' "$work/from-fifo"; then
		ok "a FIFO as --report stays one, its reader gets the report"
	else
		not_ok "a FIFO as --report stays one, its reader gets the report" \
			"exit $status, type $(type_of "$work/fifo"), read $(wc -c <"$work/from-fifo") bytes"
	fi
}

symlink_cases() {
	mkdir "$work/runs"
	echo old >"$work/runs/today.json"
	ln -s runs/today.json "$work/latest.json"
	quick_run --json "$work/latest.json"
	check "a symbolic link as --json keeps pointing where it did" \
		test "$status" -eq 0 -a -L "$work/latest.json" -a \
		"$(readlink "$work/latest.json")" = runs/today.json
	check "the link's target gets the results" \
		grep -q '"schema"' "$work/runs/today.json"
	ln -s runs/tomorrow.json "$work/next.json"
	quick_run --csv "$work/next.json"
	check "a dangling link as --csv makes the file it points to" \
		test "$status" -eq 0 -a -L "$work/next.json" -a \
		-s "$work/runs/tomorrow.json"
}

mode_cases() {
	# Only root may replace a file it cannot write, as the shell's '>'.
	modes=600
	[ "$(id -u)" -eq 0 ] && modes="600 444"
	for mode in $modes; do
		echo old >"$work/mode$mode.json"
		chmod "$mode" "$work/mode$mode.json"
		quick_run --json "$work/mode$mode.json"
		got=$(stat -c %a "$work/mode$mode.json")
		if [ "$status" -eq 0 ] && [ "$got" = "$mode" ] &&
		   [ -f "$work/mode$mode.json" ] &&
		   grep -q '"schema"' "$work/mode$mode.json"; then
			ok "a mode-$mode file is replaced and keeps mode $mode"
		else
			not_ok "a mode-$mode file is replaced and keeps mode $mode" \
				"exit $status, mode now $got"
		fi
	done
	quick_run --json "$work"
	if [ "$status" -eq 2 ] && grep -qF "Is a directory" "$work/err"; then
		ok "a directory as --json is a usage error"
	else
		not_ok "a directory as --json is a usage error" "exit $status"
	fi
}

# A name of standard output as an output is standard output: the file it
# was redirected to holds the JSON alone, no table around it.  The name is
# a private link made as /dev/stdout is, so that a tool that replaced it
# would not break the machine's.
standard_output_case() {
	"$program" latency --max-size 8K -n 3 --sample-time 100 \
		--json "$work/stdout" >"$work/stdout.json" 2>"$work/err"
	status=$?
	first=$(head -c 1 "$work/stdout.json")
	if [ "$status" -eq 0 ] && [ "$first" = "{" ] &&
	   [ "$(tail -n 1 "$work/stdout.json")" = "}" ] &&
	   ! grep -q '^clock:' "$work/stdout.json"; then
		ok "--json (a link to /proc/self/fd/1) into a file writes the JSON alone"
	else
		not_ok "--json (a link to /proc/self/fd/1) into a file writes the JSON alone" \
			"exit $status, starts with '$first'"
	fi
}

# refused NAME TEXT FILE ARGS...: exit 2 naming the pair, nothing measured
# (no table, no clock line), FILE byte for byte as it was.
refused() {
	name=$1 text=$2 kept=$3
	shift 3
	cp "$kept" "$work/kept-copy"
	"$program" "$@" >"$work/out" 2>"$work/err"
	status=$?
	if [ "$status" -ne 2 ]; then
		not_ok "$name" "exit $status, expected 2"
	elif ! grep -qF -- "$text" "$work/err"; then
		not_ok "$name" "stderr lacks: $text"
	elif [ -s "$work/out" ] || grep -q '^clock:' "$work/err"; then
		not_ok "$name" "it measured before refusing"
	elif ! cmp -s "$kept" "$work/kept-copy"; then
		not_ok "$name" "$kept changed"
	else
		ok "$name"
	fi
}

same_file_cases() {
	quick_run --json "$work/r.json"
	ln "$work/r.json" "$work/hard.json"
	ln -s r.json "$work/soft.json"
	refused "report r.json -o r.json is refused" \
		"RESULTS.json and --output name the same file" "$work/r.json" \
		report "$work/r.json" -o "$work/r.json"
	refused "report -o a hard link of its input is refused" \
		"RESULTS.json and --output name the same file" "$work/r.json" \
		report "$work/r.json" -o "$work/hard.json"
	refused "report -o ./a/../spelling of its input is refused" \
		"RESULTS.json and --output name the same file" "$work/r.json" \
		report "$work/r.json" -o "$work/runs/../r.json"
	refused "--json X --csv a symbolic link to X is refused" \
		"--json and --csv name the same file" "$work/r.json" \
		latency --json "$work/r.json" --csv "$work/soft.json"
	refused "--json X --report a hard link of X is refused" \
		"--json and --report name the same file" "$work/r.json" \
		latency --json "$work/r.json" --report "$work/hard.json"
	refused "c2c --json m.json --matrix m.json is refused" \
		"--json and --matrix name the same file" "$work/r.json" \
		c2c --json "$work/r.json" --matrix "$work/./r.json"
	refused "--json - with --csv (a link to /proc/self/fd/1) is refused" \
		"--json and --csv both write to standard output" "$work/r.json" \
		latency --json - --csv "$work/stdout"
}

# A run killed with SIGKILL cannot clean up: it must leave nothing, or
# (without O_TMPFILE) a temporary the next run of the same file removes.
sigkill_case() {
	mkdir "$work/killed"
	"$program" latency --samples 100 --quiet \
		--json "$work/killed/k.json" >/dev/null 2>&1 &
	pid=$!
	sleep 1
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	left=$(ls -A "$work/killed")
	if [ -z "$left" ]; then
		ok "SIGKILL during a run leaves no file behind"
		return
	fi
	quick_run --json "$work/killed/k.json"
	now=$(ls -A "$work/killed")
	if [ "$now" = "k.json" ]; then
		ok "SIGKILL left $left; the next run of k.json removed it"
	else
		not_ok "SIGKILL during a run leaves no file behind" \
			"left: $left; after the next run: $now"
	fi
}

echo "# output files: $program"
ln -s /proc/self/fd/1 "$work/stdout" || exit 1
device_case
fifo_case
symlink_cases
mode_cases
standard_output_case
same_file_cases
sigkill_case
echo "1..$number"
[ "$failures" -eq 0 ]
