#!/usr/bin/env bash
# Host side of the in-guest fault and load test, for `make check`:
#
#   tests/faults/run-guest-faults.sh OUTDIR
#
# Builds faulttest (gcc -Werror) into OUTDIR/bin, then for each kernel
# tests/guest/kernels.sh lists boots the faults suite
# (tests/guest/run-guest.sh: cacheprobe.ko and its fault-injection build,
# cacheprobe-test.ko, built into OUTDIR/build-LABEL,
# tests/faults/guest-faults.sh in the guest) with 4 CPUs.  Prints "PASS
# name" / "FAIL name: why" lines and one timing line per boot; exit status
# 0 iff no FAIL.
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

# Boots one kernel (tests/guest/run-guest.sh builds the module and its
# test build); its result lines are labelled [faults-LABEL].
boot_faults() {
	local label=$1 vmlinuz=$2 headers=$3 model=$4 dir="$out/guest-$1" start
	echo "FAULTS_CYCLES=$cycles" >"$out/faults.conf"
	start=$(date +%s)
	"$guest/run-guest.sh" --kernel "$vmlinuz" --label "$label" \
		--headers "$headers" --suite faults --out "$out" --dir "$dir" \
		--cpu-model "$model" --timeout "$timeout_s" \
		--file "$out/faults.conf:/etc/cacheprobe-faults.conf" || failed=1
	[[ -f $dir/console.log ]] || return
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
	boot_faults "$label" "$vmlinuz" "$headers" "$model"
done
exit "$failed"
