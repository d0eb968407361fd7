#!/bin/sh
# shellcheck shell=dash
# Fuzz test, run inside a QEMU guest as /tests.sh (see tests/guest/init):
# load cacheprobe.ko, run the netlink and ioctl fuzzers as root and as
# nobody, check the module still answers, unload it, and check that the
# kernel log is clean and no cacheprobe kernel thread is left.
#
# The host (run-guest-fuzz.sh) puts the seed and counts in
# /etc/cacheprobe-fuzz.conf; without it a fresh seed and 100,000 of each
# are used.  Results go to the results port through lib.sh; the fuzzers'
# counts and timings go to the console.
. /lib/cacheprobe/lib.sh

KO=/lib/cacheprobe/cacheprobe.ko
FUZZ_SEED=
FUZZ_NL_COUNT=100000
FUZZ_IOC_COUNT=100000
# shellcheck disable=SC1091 # written by the host into the initramfs
[ -r /etc/cacheprobe-fuzz.conf ] && . /etc/cacheprobe-fuzz.conf
[ -n "$FUZZ_SEED" ] || FUZZ_SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')

# Prints the fuzzer's output on the console and turns its summary lines
# into results: one PASS per identity that finished with every check
# holding, named with the number of operations, or a FAIL with the
# fuzzer's own FUZZ-FAIL lines as details.
# run_fuzzer NAME TAG UNIT COUNT: TAG is the summary prefix (NLFUZZ).
run_fuzzer() {
	local name=$1 tag=$2 unit=$3 count=$4 out rc start secs who line
	out=$(mktemp /tmp/fuzz.XXXXXX)
	start=$(date +%s)
	# Live on the console (if the kernel dies, the last progress line and
	# the seed are there), and kept for the summary.
	{
		"/usr/bin/$name" --count "$count" --seed "$FUZZ_SEED" 2>&1
		echo "$?" >"$out.rc"
	} | tee "$out"
	rc=$(cat "$out.rc")
	secs=$(($(date +%s) - start))
	echo "=== $name: exit $rc after ${secs}s ($count per identity, seed $FUZZ_SEED)"
	for who in root nobody; do
		line=$(grep "^$tag-SUMMARY as=$who " "$out")
		case "$line" in
		*" result=ok")
			t_pass "$name-$who-$count-$unit"
			;;
		"")
			t_fail "$name-$who-$count-$unit" "no summary for $who (exit $rc, seed $FUZZ_SEED)
$(grep -E 'FUZZ-(FAIL|STUCK)' "$out" | head -n 10)
$(tail -n 5 "$out")"
			;;
		*)
			t_fail "$name-$who-$count-$unit" "checks failed (seed $FUZZ_SEED): $line
$(grep -E 'FUZZ-(FAIL|STUCK)|final GET_INFO' "$out" | head -n 20)"
			;;
		esac
	done
	if [ "$rc" -eq 0 ]; then
		t_pass "$name-exit"
	else
		t_fail "$name-exit" "exit status $rc (seed $FUZZ_SEED)"
	fi
	rm -f "$out" "$out.rc"
}

# The module's kernel threads are named "cacheprobe/CPU"; none may outlive
# the request that started it, let alone the module.  (ps, not pgrep: the
# guest's busybox pgrep cannot be relied on to list kernel threads.)
cacheprobe_threads() {
	# shellcheck disable=SC2009
	ps -o pid,comm 2>/dev/null | grep -i '[c]acheprobe'
}

# t_no_threads NAME: PASS when no such thread exists.
t_no_threads() {
	local threads
	threads=$(cacheprobe_threads)
	if [ -n "$threads" ]; then
		t_fail "$1" "kernel threads left:
$threads"
	else
		t_pass "$1"
	fi
}

t_run fuzz-insmod insmod "$KO" || exit 0

run_fuzzer nlfuzz NLFUZZ messages "$FUZZ_NL_COUNT"
run_fuzzer iocfuzz IOCFUZZ ioctls "$FUZZ_IOC_COUNT"

if [ -x /usr/bin/cacheprobe-run ]; then
	t_expect_out fuzz-info-after "^module: *cacheprobe [0-9.]+ \(ABI [0-9]+\)" \
		cacheprobe-run info
	t_expect_out fuzz-info-after-nobody "^module: *cacheprobe [0-9.]+" \
		as_nobody cacheprobe-run info
fi

t_no_threads fuzz-no-kernel-threads-after-fuzzing
t_run fuzz-rmmod rmmod cacheprobe
if [ -e /sys/module/cacheprobe ]; then
	t_fail fuzz-module-gone "/sys/module/cacheprobe still exists after rmmod"
else
	t_pass fuzz-module-gone
fi
t_no_threads fuzz-no-kernel-threads-after-rmmod
t_dmesg_clean fuzz-kernel-log-clean
