#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run test programs that speak TAP (cmocka with CMOCKA_MESSAGE_OUTPUT=TAP,
# and TAP scripts), show their output, and close with the line
# "N passed, N failed[, N skipped]".  Exits 1 when anything failed,
# including a program that crashed or printed no result.
#
# Usage: run-tests.sh PROGRAM... [-- SCRIPT [ARG...]]...

passed=0
failed=0
skipped=0

# Count the TAP results in $1 (one program's output) into the totals.
tally() {
	results=$(printf '%s\n' "$1" | grep '^\(not \)\{0,1\}ok ')
	skip=$(printf '%s\n' "$results" | grep -c ' # SKIP')
	ok=$(printf '%s\n' "$results" | grep '^ok ' | grep -vc ' # SKIP')
	bad=$(printf '%s\n' "$results" | grep '^not ok ' | grep -vc ' # SKIP')
	passed=$((passed + ok))
	skipped=$((skipped + skip))
	failed=$((failed + bad))
}

# Run one program, "$@" being its command line.  cmocka writes a skipped
# test as "not ok N # SKIP", which TAP readers count as a failure; TAP's
# own form is "ok N # SKIP".
run_one() {
	output=$(CMOCKA_MESSAGE_OUTPUT=TAP "$@" 2>&1)
	status=$?
	output=$(printf '%s\n' "$output" |
		sed 's/^not ok \([0-9]*\) # SKIP/ok \1 # SKIP/')
	printf '%s\n' "$output"
	before=$failed
	tally "$output"
	if [ "$status" -ne 0 ] && [ "$failed" -eq "$before" ]; then
		echo "not ok - $1 exited with status $status"
		failed=$((failed + 1))
	fi
	if ! printf '%s\n' "$output" | grep -q '^\(not \)\{0,1\}ok '; then
		echo "not ok - $1 reported no result"
		failed=$((failed + 1))
	fi
}

while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	run_one "$1"
	shift
done
# Each "-- SCRIPT ARG..." group is one command line: the words up to the
# next "--", passed to run_one as "${1}" "${2}"... so that no quoting of
# their own can matter.
while [ "${1:-}" = "--" ]; do
	shift
	words=0
	for word in "$@"; do
		[ "$word" = "--" ] && break
		words=$((words + 1))
	done
	[ "$words" -eq 0 ] && continue
	command_line=
	i=1
	while [ "$i" -le "$words" ]; do
		command_line="$command_line \"\${$i}\""
		i=$((i + 1))
	done
	eval "run_one $command_line"
	shift "$words"
done

summary="$passed passed, $failed failed"
[ "$skipped" -gt 0 ] && summary="$summary, $skipped skipped"
echo "$summary"
[ "$failed" -eq 0 ]
