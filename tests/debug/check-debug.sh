#!/usr/bin/env bash
# `make check-debug`: the guest tests, the fuzzers and the fault and load
# tests on a debug kernel, failing on any report it makes.  Slow (a kernel
# build the first time, then boots of a KASAN kernel under emulation), so
# not part of `make check`.
#
# The kernel: Debian's linux-source-6.12 built by tests/debug/build-kernel.sh
# with KASAN, lockdep (PROVE_LOCKING), DEBUG_ATOMIC_SLEEP, DEBUG_PREEMPT and
# kmemleak, kept in tests/out-debug/ and rebuilt only when its source or
# configuration changes.  cacheprobe.ko is built against its tree with
# -Werror.  Then three boots, each with panic_on_warn=1 (tests/guest/boot.sh):
#   debug         tests/guest/tests.sh and every tests/guest/area-*.sh
#                 (tests/guest/run-guest.sh --suite debug)
#   fuzz-debug    tests/fuzz/run-guest-fuzz.sh (netlink and ioctl fuzzers)
#   faults-debug  tests/faults/run-guest-faults.sh (SIGKILL, rmmod in use,
#                 CPU offline, load/unload cycles, concurrent load)
# After its tests every guest has kmemleak scan (tests/guest/init); boot.sh
# fails a boot on a KASAN report, a lockdep splat, "BUG:", "WARNING:" or a
# leak, and this script checks the consoles once more for any report of
# the debug options.
#
# Every check prints "PASS name" or "FAIL name: why"; the last line is
# "N passed, N failed".  Logs and consoles stay in tests/out-debug/.
#
# Environment: DEBUG_MEM (guest MiB, default 2048: KASAN takes an eighth
# for its shadow), DEBUG_TIMEOUT (seconds per boot, default 3600),
# FUZZ_SEED (default the fixed seed of make check), FUZZ_NL_COUNT,
# FUZZ_IOC_COUNT, FAULTS_CYCLES as for make check, DEBUG_STAGES (which
# boots, default "guest fuzz faults").
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/tests/out-debug
guest=$top/tests/guest
run=$out/run
mkdir -p "$out"
rm -rf "$run"
mkdir -p "$run/bin"
results=$run/results.txt
log=$run/log.txt
: >"$results"
timeout_s=${DEBUG_TIMEOUT:-3600}
stages=" ${DEBUG_STAGES:-guest fuzz faults} "

record() {
	echo "$*" | tee -a "$results"
}

# Runs a command whose output holds result lines, keeping them.
collect() {
	"$@" 2>&1 | tee -a "$log" | grep -E '^(PASS|FAIL) ' | tee -a "$results"
}

# The figures the fuzz and fault runners print, for the summary.
show_figures() {
	grep -E '^    \[(fuzz|faults)-' "$log" | sed 's/^    /  /'
}

finish() {
	local passed failed
	passed=$(grep -c '^PASS ' "$results")
	failed=$(grep -c '^FAIL ' "$results")
	echo
	grep '^FAIL ' "$results" | sed 's/^/failed: /'
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
	exit
}

echo "== debug kernel (log: tests/out-debug/build.log)"
start=$(date +%s)
if kernel=$("$top/tests/debug/build-kernel.sh" "$out" 2> >(tee -a "$log" >&2)); then
	read -r ver bzimage build <<<"$kernel"
	record "PASS debug-kernel-build ($ver, $(($(date +%s) - start)) s)"
else
	record "FAIL debug-kernel-build: see tests/out-debug/build.log"
	finish
fi
echo "   $(grep -oE '^CONFIG_(KASAN|KASAN_INLINE|KASAN_VMALLOC|PROVE_LOCKING|DEBUG_ATOMIC_SLEEP|DEBUG_PREEMPT|DEBUG_KMEMLEAK|PREEMPT|UNWINDER_ORC)=y' \
	"$build/.config" | sed 's/^CONFIG_//; s/=y$//' | tr '\n' ' ')"

echo "== tools and module"
if make -C "$top/user" >>"$log" 2>&1; then
	record "PASS user-build"
else
	record "FAIL user-build: see tests/out-debug/run/log.txt"
	finish
fi
if "$guest/build-raw.sh" "$run/bin/rawtest" "$guest/rawtest.c" >>"$log" 2>&1; then
	record "PASS rawtest-build"
else
	record "FAIL rawtest-build: see tests/out-debug/run/log.txt"
fi
collect "$guest/build-module.sh" "$run" debug "$build" debug-module-build test
ko=$run/build-debug/kmod/cacheprobe.ko
[ -f "$ko" ] || finish

# What every boot gets: more memory for KASAN, kmemleak printing each
# leak it finds on the console (with a timestamp, so boot.sh sees it).
export GUEST_MEM=${DEBUG_MEM:-2048}
export GUEST_APPEND="kmemleak.verbose=1"
export GUEST_KERNEL="debug $ver $bzimage $build"

if [[ $stages == *" guest "* ]]; then
	echo "== guest tests on the debug kernel"
	test_ko=()
	[ -f "$run/build-debug/cacheprobe-test.ko" ] &&
		test_ko=(--test-ko "$run/build-debug/cacheprobe-test.ko")
	collect "$guest/run-guest.sh" --kernel "$bzimage" --label debug \
		--suite debug --out "$run" --ko "$ko" "${test_ko[@]}" \
		--timeout "$timeout_s"
fi

if [[ $stages == *" fuzz "* ]]; then
	echo "== fuzzers on the debug kernel"
	FUZZ_SEED=${FUZZ_SEED:-20261122} FUZZ_TIMEOUT=$timeout_s \
		collect "$top/tests/fuzz/run-guest-fuzz.sh" "$run/fuzz"
fi

if [[ $stages == *" faults "* ]]; then
	echo "== faults and load on the debug kernel"
	FAULTS_TIMEOUT=$timeout_s \
		collect "$top/tests/faults/run-guest-faults.sh" "$run/faults"
fi

# Belt and braces: any report of the debug options in any console, in
# case one came in a form boot.sh does not look for.
# (Not "lockdep" alone: boot says "RCU lockdep checking is enabled".)
reports='\[ *[0-9]+\.[0-9]+\] .*(KASAN|kmemleak: [0-9]+ new suspected|unreferenced object|DEBUG_LOCKS_WARN_ON|lockdep is turned off|turning off the locking correctness validator|possible (circular|recursive) locking|irq lock inversion|inconsistent lock state|lock held when returning|suspicious RCU usage|sleeping function called|smp_processor_id\(\) in preemptible|BUG:|WARNING:|UBSAN)'
for console in "$run"/guest-debug/console.log "$run"/fuzz/guest-*/console.log \
	"$run"/faults/guest-*/console.log; do
	[ -f "$console" ] || continue
	name=${console#"$run"/}
	name=${name%/console.log}
	if first=$(tr -d '\r' <"$console" | grep -E -m1 -- "$reports"); then
		record "FAIL debug-reports [$name]: $first"
	else
		record "PASS debug-reports [$name]"
	fi
done

echo
echo "figures:"
show_figures
finish
