#!/usr/bin/env bash
# Host side of the in-guest fault and load test, for `make check`:
#
#   tests/faults/run-guest-faults.sh OUTDIR
#
# For each kernel tests/guest/kernels.sh lists: build cacheprobe.ko (and
# the fault-injection build, cacheprobe-test.ko) into OUTDIR/build-LABEL,
# build faulttest (gcc -Werror) into OUTDIR/bin, make an
# initramfs with them and tests/faults/guest-faults.sh as the test script,
# and boot it with 4 CPUs.  Prints "PASS name" / "FAIL name: why" lines and
# one timing line per boot; exit status 0 iff no FAIL.
#
# Environment: FAULTS_TIMEOUT (seconds per boot, default 300: a boot takes
# about 90 s under TCG, so only a hang reaches it), FAULTS_CYCLES
# (load/unload cycles, default 200), FAULTS_ONLY (a kernel label: boot
# only that kernel), GUEST_KERNEL (one kernel to boot instead of the
# installed ones, below).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
guest=$top/tests/guest
faults=$top/tests/faults

if [[ $# -ne 1 ]]; then
	echo "usage: ${0##*/} OUTDIR" >&2
	exit 2
fi
out=$1
mkdir -p "$out/bin" || exit 1
out=$(cd "$out" && pwd)

timeout_s=${FAULTS_TIMEOUT:-300}
cycles=${FAULTS_CYCLES:-200}
failed=0

result() {
	echo "$*"
	[[ $1 != FAIL ]] || failed=1
}

build_faulttest() {
	if "$guest/build-raw.sh" "$out/bin/faulttest" "$faults/faulttest.c" \
		>"$out/build-faulttest.log" 2>&1; then
		result "PASS faults-build-faulttest"
	else
		result "FAIL faults-build-faulttest: see $out/build-faulttest.log"
		sed 's/^/    | /' "$out/build-faulttest.log" | head -n 20
		return 1
	fi
}

# The module for one kernel (tests/guest/build-module.sh).
build_module() {
	local line status
	"$guest/build-module.sh" "$out" "$1" "$2" faults-module-build test >"$out/build-result.txt"
	status=$?
	while IFS= read -r line; do
		echo "$line"
		[[ $line != FAIL* ]] || failed=1
	done <"$out/build-result.txt"
	return "$status"
}

# Boots one kernel; boot.sh prints the guest's result lines, labelled
# [faults-LABEL], and its timing line on stderr.
boot_faults() {
	local label=$1 vmlinuz=$2 model=$3 dir="$out/guest-$1" start
	mkdir -p "$dir"
	echo "FAULTS_CYCLES=$cycles" >"$out/faults.conf"
	local -a test_ko=()
	[[ -f $out/build-$label/cacheprobe-test.ko ]] &&
		test_ko=(--ko "$out/build-$label/cacheprobe-test.ko")
	if ! "$guest/mkinitramfs.sh" "$dir/initrd.cpio.gz" \
		--ko "$out/build-$label/kmod/cacheprobe.ko" "${test_ko[@]}" \
		--bin "$out/bin/faulttest" \
		--file "$out/faults.conf:/etc/cacheprobe-faults.conf" \
		--tests "$faults/guest-faults.sh" >"$dir/mkinitramfs.log" 2>&1; then
		result "FAIL faults-initramfs [$label]: see $dir/mkinitramfs.log"
		return 1
	fi
	start=$(date +%s)
	"$guest/boot.sh" --kernel "$vmlinuz" --initrd "$dir/initrd.cpio.gz" \
		--label "faults-$label" --cpus 4 --cpu-model "$model" \
		--timeout "$timeout_s" --outdir "$dir" || failed=1
	echo "    [faults-$label] boot took $(($(date +%s) - start)) s"
	# The guest's own figures (kills, memory levels, timings).
	tr -d '\r' <"$dir/console.log" |
		sed -n "s/^faults: /    [faults-$label] /p"
}

build_faulttest || exit 1

# GUEST_KERNEL="LABEL VER VMLINUZ BUILD_TREE" boots that one kernel (and
# builds the module against its tree) instead of the installed ones: make
# check-debug points it at its debug kernel.
if [[ -n ${GUEST_KERNEL:-} ]]; then
	kernels=("$GUEST_KERNEL")
else
	mapfile -t kernels < <("$guest/kernels.sh")
fi
if [[ ${#kernels[@]} -eq 0 ]]; then
	result "FAIL faults-kernels: tests/guest/kernels.sh lists no kernel"
fi
# Alternate CPU models as tests/run-all.sh does.
models=(max qemu64)
i=0
for line in "${kernels[@]}"; do
	read -r label _ver vmlinuz headers <<<"$line"
	model=${models[$((i % 2))]}
	i=$((i + 1))
	[[ -z ${FAULTS_ONLY:-} || $label == "$FAULTS_ONLY" ]] || continue
	build_module "$label" "$headers" || continue
	boot_faults "$label" "$vmlinuz" "$model"
done
exit "$failed"
