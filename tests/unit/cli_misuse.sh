#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# How cacheprobe-run treats its command line: misuse exits 2 with a message
# naming what was wrong, help and version exit 0, and (where the module is
# absent) module operations fail with exit 1.  Prints TAP.
#
# Usage: cli_misuse.sh PATH-OF-cacheprobe-run

program=${1:?usage: cli_misuse.sh PATH-OF-cacheprobe-run}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

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
	sed 's/^/# stdout: /' "$work/out"
	sed 's/^/# stderr: /' "$work/err"
}

skip() {
	number=$((number + 1))
	echo "ok $number # SKIP $1"
}

run() {
	"$program" "$@" >"$work/out" 2>"$work/err"
	status=$?
}

# expect NAME STATUS STREAM TEXT -- ARG...: exit STATUS and TEXT (fixed
# string) in STREAM (out or err).
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

usage_cases() {
	expect "no command" 2 err "no command given" --
	expect "unknown command" 2 err "unknown command 'frobnicate'" -- frobnicate
	expect "unknown global option" 2 err "unknown option '--frob'" -- --frob
	expect "info: unknown option" 2 err \
		"cacheprobe-run: info: option '--bogus' is unknown" -- info --bogus
	expect "info: stray argument" 2 err "unexpected argument 'extra'" \
		-- info extra
	expect "info: bad transport" 2 err \
		"--transport: unknown value 'smoke' (valid: auto, netlink, ioctl)" \
		-- info --transport smoke
	expect "flush: empty CPU list" 2 err "--cpus '': empty CPU list" \
		-- flush --cpus ""
	expect "flush: reversed range" 2 err \
		"--cpus '5-2': range 5-2 is reversed (write 2-5)" \
		-- flush --cpus 5-2
	expect "flush: duplicate CPU" 2 err "CPU 1 is listed twice" \
		-- flush --cpus 1,0-2
	expect "flush: CPU beyond the ABI limit" 2 err \
		"CPU id 8192 is too large (the limit is 8191)" \
		-- flush --cpus=8192
	expect "flush: space in CPU list" 2 err "unexpected space at character 3" \
		-- flush --cpus "0, 1"
	expect "flush: junk in CPU list" 2 err "unexpected 'a' at character 1" \
		-- flush -c abc
	expect "flush: --cpus without value" 2 err \
		"option '--cpus' needs a value" -- flush --cpus
	expect "flush: -c without value" 2 err "option '-c' needs a value" \
		-- flush -c
	expect "flush: unknown method" 2 err \
		"--method: unknown value 'clflush' (valid: wbinvd, wbnoinvd)" \
		-- flush --method clflush
	expect "flush: stray argument" 2 err "unexpected argument '0-3'" \
		-- flush 0-3
}

help_cases() {
	expect "--version" 0 out "cacheprobe-run $(cat "$root/VERSION")" -- --version
	expect "-V" 0 out "cacheprobe-run $(cat "$root/VERSION")" -- -V
	expect "--help lists info" 0 out "  info " -- --help
	expect "--help lists flush" 0 out "  flush " -- --help
	expect "info --help" 0 out "Usage: cacheprobe-run info" -- info --help
	expect "flush --help" 0 out "Usage: cacheprobe-run flush" -- flush -h
	run --help
	if [ -s "$work/err" ]; then
		not_ok "--help writes nothing to stderr"
	else
		ok "--help writes nothing to stderr"
	fi
}

synthetic_topology_cases() {
	export HWLOC_SYNTHETIC="pack:2 l3:4 core:8 pu:2"
	expect "info: packages" 0 out "  packages: 2" -- info
	expect "info: cpus and threads" 0 out \
		"  cpus: 128 (0-127), 2 threads per core" -- info
	expect "info: L3 sharing" 0 out \
		"  L3: 16 MiB, 64-byte lines, 8 instances of 16 cpus: 0-15 | 16-31 | 32-47 | 48-63 | 64-79 | 80-95 | 96-111 | 112-127" \
		-- info
	unset HWLOC_SYNTHETIC
}

module_absent_cases() {
	expect "info succeeds" 0 out "topology:" -- info
	if ! grep -q '^module: not loaded (' "$work/out"; then
		skip "the module is loaded here"
		skip "the module is loaded here"
		skip "the module is loaded here"
		skip "the module is loaded here"
		return
	fi
	expect "info names what is missing" 0 out \
		"unavailable without the module: flush (WBINVD/WBNOINVD), kernel-mode measurement" \
		-- info
	expect "flush without the module" 1 err \
		"cacheprobe-run: flush: cacheprobe module not loaded: no generic netlink family \"cacheprobe\" and no /dev/cacheprobe (ENOENT: No such file or directory)" \
		-- flush
	expect "info --transport netlink without the module" 1 err \
		"cacheprobe-run: info: no generic netlink family \"cacheprobe\"" \
		-- info --transport netlink
	expect "info --transport ioctl without the module" 1 err \
		"cacheprobe-run: info: cannot open /dev/cacheprobe" \
		-- info -t ioctl
}

usage_cases
help_cases
synthetic_topology_cases
module_absent_cases
echo "1..$number"
[ "$failures" -eq 0 ]
