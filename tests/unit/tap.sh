# SPDX-License-Identifier: GPL-2.0
# TAP for the test scripts, sourced by them (after they have made $work,
# where they keep one): ok NAME, not_ok NAME [LINE...] and skip NAME
# number the results and count the failures.  not_ok prints each LINE as
# a comment, then what the last command wrote to $work/out and
# $work/err, where they exist.
# A script ends with: echo "1..$number"; [ "$failures" -eq 0 ]

number=0
failures=0

ok() {
	number=$((number + 1))
	echo "ok $number - $1"
}

not_ok() {
	number=$((number + 1))
	failures=$((failures + 1))
	echo "not ok $number - $1"
	shift
	for line in "$@"; do
		echo "# $line"
	done
	[ -n "${work:-}" ] || return 0
	if [ -f "$work/out" ]; then
		sed 's/^/# stdout: /' "$work/out"
	fi
	if [ -f "$work/err" ]; then
		sed 's/^/# stderr: /' "$work/err"
	fi
}

skip() {
	number=$((number + 1))
	echo "ok $number # SKIP $1"
}
