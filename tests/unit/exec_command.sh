#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cacheprobe-run exec: misuse exits 2 naming what was wrong and writes
# nothing; a run that fails stops the series with the command's status
# (128+N for signal N; 127 not found, 126 not executable); SIGTERM passes
# to the run in progress and nothing else, and leaves marked partial
# results; --both alternates cold and warm runs, as the JSON records, and
# compare and report take that JSON; auto falls back to garbage without
# the module and says why, wbinvd names the module it needs.  Timings are
# never judged: the commands are true and sh, so the test takes a few
# seconds on any machine, most of it setting up two evictions (a small
# --factor keeps their garbage small).  Prints TAP.
#
# Usage: exec_command.sh PATH-OF-cacheprobe-run

program=${1:?usage: exec_command.sh PATH-OF-cacheprobe-run}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/tap.sh"

# Eviction reads a hundredth of each last-level cache: the cold runs are
# about behaviour here, not coldness.
small="--factor 0.01"

run() {
	"$program" exec "$@" >"$work/out" 2>"$work/err"
	status=$?
}

# expect NAME STATUS STREAM TEXT -- ARG...: `exec ARG...` exits STATUS
# with TEXT (a fixed string) in STREAM (out or err).
expect() {
	name=$1 want_status=$2 stream=$3 text=$4
	shift 5
	run "$@"
	if [ "$status" -ne "$want_status" ]; then
		not_ok "$name" "exit status $status, expected $want_status"
	elif ! grep -qF -- "$text" "$work/$stream"; then
		not_ok "$name" "std$stream lacks: $text"
	else
		ok "$name"
	fi
}

# param FILE MEASUREMENT KEY: the integer parameter KEY of the measurement
# named MEASUREMENT in the results FILE (as the writer lays it out).
param() {
	awk -v name="\"name\":\"$2\"," -v key="\"$3\":" '
		index($0, name) { inside = 1 }
		inside && index($0, "\"samples_ticks\"") { exit }
		inside && index($0, key) {
			sub(/.*:/, ""); sub(/,$/, ""); print; exit
		}' "$1"
}

# samples FILE MEASUREMENT: how many samples it has.
samples() {
	awk -v name="\"name\":\"$2\"," '
		index($0, name) { inside = 1 }
		inside && index($0, "\"samples_ns\"") { counting = 1; next }
		counting && index($0, "]") { print n + 0; exit }
		counting { n++ }' "$1"
}

# A command that exits 7 on its run number $1 and 0 before, counting its
# runs in $work/count.
counting_command() {
	echo "n=\$(cat '$work/count' 2>/dev/null || echo 0); n=\$((n + 1));" \
	     "echo \$n >'$work/count'; [ \$n -lt $1 ] || exit 7"
}

misuse() {
	expect "no command" 2 err "no command to run" -- --warm
	expect "nothing after --" 2 err "no command to run" -- --warm --
	expect "--runs 0" 2 err "--runs: 0 is out of range (1 to 1000)" -- \
		--warm -n 0 -- true
	expect "--runs not a number" 2 err "--runs: '3x' is not a number" -- \
		--warm --runs 3x -- true
	expect "--runs absurd" 2 err "out of range (1 to 1000)" -- \
		--warm -n 1000000 -- true
	expect "unknown method" 2 err "--method: unknown value 'bogus'" -- \
		--method bogus -- true
	expect "clflush is not for a command" 2 err "clflush" -- \
		--method clflush -- true
	expect "bad CPU list" 2 err "--cpus '0-'" -- --cpus 0- -- true
	expect "CPU not usable" 2 err "--cpus '4096'" -- --cpus 4096 -- true
	expect "--cold with --warm" 2 err \
		"--cold and --warm cannot be combined" -- --cold --warm -- true
	expect "--warm with --method" 2 err "--warm evicts nothing" -- \
		--warm --method garbage -- true
	expect "--factor out of range" 2 err "--factor" -- --factor 0 -- true
	expect "--factor with wbinvd" 2 err "--method wbinvd reads none" -- \
		--method wbinvd --factor 2 -- true
	expect "unknown option" 2 err "option '--frob' is unknown" -- \
		--frob -- true
	run --warm -n 0 --json "$work/misuse.json" -- true
	if [ "$status" -eq 2 ] && [ ! -e "$work/misuse.json" ]; then
		ok "misuse writes no file"
	else
		not_ok "misuse writes no file" "exit status $status"
	fi
}

# Our outputs never replace the command or a file its arguments name.
outputs_kept_apart() {
	printf 'data\n' >"$work/input.txt"
	expect "--json over an argument of the command" 2 err \
		"name the same file" -- --warm --json "$work/input.txt" -- \
		cat "$work/input.txt"
	if [ "$(cat "$work/input.txt")" = data ]; then
		ok "the argument's file is left as it was"
	else
		not_ok "the argument's file is left as it was"
	fi
	printf '#!/bin/sh\n' >"$work/script"
	chmod +x "$work/script"
	expect "--report over the command" 2 err "name the same file" -- \
		--warm --report "$work/script" -- "$work/script"
}

failures() {
	rm -f "$work/count"
	expect "a run that fails stops the series with its status" 7 err \
		"run 3 of 5 (warm)" -- --warm -n 5 --json "$work/fail.json" -- \
		sh -c "$(counting_command 3)"
	if [ "$(cat "$work/count")" = 3 ]; then
		ok "no run after the failed one"
	else
		not_ok "no run after the failed one" \
			"runs: $(cat "$work/count")"
	fi
	if grep -q '"interrupted":true' "$work/fail.json" &&
	   [ "$(samples "$work/fail.json" "warm wall")" = 2 ]; then
		ok "the runs before the failure are written, marked"
	else
		not_ok "the runs before the failure are written, marked"
	fi
	expect "a run killed by a signal: 128+N" 137 err \
		"killed by signal 9 (SIGKILL)" -- --warm -n 3 -- \
		sh -c 'kill -KILL $$'
	expect "command not found: 127" 127 err "No such file or directory" \
		-- --warm -n 2 -- "$work/no-such-command"
	printf '#!/bin/sh\n' >"$work/not-executable"
	chmod 644 "$work/not-executable"
	expect "command not executable: 126" 126 err "Permission denied" -- \
		--warm -n 2 -- "$work/not-executable"
}

# A parent that ignores SIGCHLD (some service managers do) passes that on;
# exec must still reap its runs.  (dash's trap would not pass it on.)
sigchld_ignored() {
	name="started with SIGCHLD ignored, the runs are still reaped"
	if ! env --ignore-signal=CHLD true 2>/dev/null; then
		skip "$name: env has no --ignore-signal"
		return
	fi
	env --ignore-signal=CHLD "$program" exec --warm -n 2 -- true \
		>"$work/out" 2>"$work/err"
	status=$?
	if [ "$status" -eq 0 ]; then
		ok "$name"
	else
		not_ok "$name" "exit status $status"
	fi
}

stdout_results() {
	run --warm -n 2 --json - -- echo from-the-command
	if [ "$status" -eq 0 ] && grep -q '"schema":"cacheprobe-results/1"' \
		"$work/out" && ! grep -qx from-the-command "$work/out" &&
	   grep -qx from-the-command "$work/err"; then
		ok "--json -: the command's output goes to stderr"
	else
		not_ok "--json -: the command's output goes to stderr" \
			"exit status $status"
	fi
}

# SIGTERM in run 2: passed on to it (it ends long before its 30 s), the
# series stops with 128+15, run 1 is written, marked; a process of the
# same group that is not ours lives on.
sigterm() {
	rm -f "$work/count" "$work/term.json"
	sleep 30 &
	bystander=$!
	"$program" exec --warm -n 5 --json "$work/term.json" -- sh -c \
		"n=\$(cat '$work/count' 2>/dev/null || echo 0);
		 echo \$((n + 1)) >'$work/count';
		 [ \$n -eq 0 ] || exec sleep 30" >"$work/out" 2>"$work/err" &
	pid=$!
	tries=0
	while [ "$(cat "$work/count" 2>/dev/null)" != 2 ] &&
	      [ "$tries" -lt 600 ]; do
		sleep 0.05
		tries=$((tries + 1))
	done
	started=$(date +%s)
	kill -TERM "$pid"
	wait "$pid"
	status=$?
	took=$(($(date +%s) - started))
	name="SIGTERM stops the series (128+15), the run in progress too"
	if [ "$status" -eq 143 ] && [ "$took" -lt 20 ]; then
		ok "$name"
	else
		not_ok "$name" "exit status $status after $took s"
	fi
	if grep -q '"interrupted_reason":"SIGTERM"' "$work/term.json" &&
	   [ "$(samples "$work/term.json" "warm wall")" = 1 ]; then
		ok "SIGTERM: the run before it written, marked interrupted"
	else
		not_ok "SIGTERM: the run before it written, marked interrupted"
	fi
	name="SIGTERM: a process that is not the command's is left alone"
	if kill -0 "$bystander" 2>/dev/null; then
		ok "$name"
	else
		not_ok "$name"
	fi
	kill "$bystander" 2>/dev/null
	wait "$bystander" 2>/dev/null
}

module_loaded() {
	[ -e /sys/module/cacheprobe ]
}

# One series of both kinds: alternation in the JSON, compare and report.
both_kinds() {
	# shellcheck disable=SC2086 # $small is two words
	expect "--both: auto evicts" 0 out "2 cold and 2 warm runs" -- \
		--both -n 2 $small --json "$work/both.json" -- true
	name="auto falls back to garbage without the module and says why"
	if module_loaded; then
		skip "auto falls back to garbage: the module is loaded"
	elif grep -q "^eviction: garbage" "$work/out" &&
	     grep -q "^  why garbage: .*module" "$work/out"; then
		ok "$name"
	else
		not_ok "$name"
	fi
	order="$(param "$work/both.json" "cold wall" run_first)"
	order="$order $(param "$work/both.json" "cold wall" run_step)"
	order="$order $(param "$work/both.json" "warm wall" run_first)"
	order="$order $(param "$work/both.json" "warm wall" run_step)"
	order="$order $(samples "$work/both.json" "cold wall")"
	order="$order $(samples "$work/both.json" "warm wall")"
	name="--both: the JSON records cold and warm runs alternating"
	if [ "$order" = "1 2 2 2 2 2" ]; then
		ok "$name"
	else
		not_ok "$name" "first, step (cold, warm), samples: $order"
	fi
	if [ -n "$(param "$work/both.json" "cold wall" \
		mann_whitney_p_millionths)" ]; then
		ok "--both: the JSON holds the Mann-Whitney p-value"
	else
		not_ok "--both: the JSON holds the Mann-Whitney p-value"
	fi
	"$program" compare "$work/both.json" "$work/both.json" \
		>"$work/out" 2>"$work/err"
	status=$?
	name="compare takes exec's JSON (itself against itself: exit 0)"
	if [ "$status" -eq 0 ] && grep -q "exec: cold wall" "$work/out"; then
		ok "$name"
	else
		not_ok "$name" "exit status $status"
	fi
	"$program" report "$work/both.json" -o "$work/both.html" \
		>"$work/out" 2>"$work/err"
	status=$?
	if [ "$status" -eq 0 ] && grep -q "warm wall" "$work/both.html"; then
		ok "report takes exec's JSON"
	else
		not_ok "report takes exec's JSON" "exit status $status"
	fi
}

methods() {
	# shellcheck disable=SC2086 # $small is two words
	expect "--method garbage" 0 out "eviction: garbage" -- \
		--method garbage -n 1 $small -- true
	if module_loaded; then
		skip "wbinvd without the module: the module is loaded"
	else
		expect "wbinvd without the module names it" 1 err \
			"cacheprobe module not loaded" -- \
			--method wbinvd -- true
	fi
}

misuse
outputs_kept_apart
failures
sigchld_ignored
stdout_results
sigterm
both_kinds
methods
echo "1..$number"
