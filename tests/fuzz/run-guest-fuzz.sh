#!/usr/bin/env bash
# Host side of the in-guest fuzz test, for `make check`:
#
#   tests/fuzz/run-guest-fuzz.sh OUTDIR
#
# Builds nlfuzz and iocfuzz (gcc -Werror) into OUTDIR/bin, then for each
# kernel tests/guest/kernels.sh lists boots the fuzz suite
# (tests/guest/run-guest.sh: cacheprobe.ko built into OUTDIR/build-LABEL,
# tests/fuzz/guest-fuzz.sh in the guest) with 4 CPUs.
# Prints "PASS name" / "FAIL name: why" lines; exit status 0 iff no FAIL.
#
# Environment: FUZZ_SEED (default: random, printed, so that a failure can
# be repeated), FUZZ_NL_COUNT and FUZZ_IOC_COUNT (default 100000 datagrams
# and 100000 ioctls per identity), FUZZ_TIMEOUT (seconds per boot, 600),
# GUEST_KERNEL (one kernel to boot instead of the installed ones, below).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
guest=$top/tests/guest
fuzz=$top/tests/fuzz

if [[ $# -ne 1 ]]; then
	echo "usage: ${0##*/} OUTDIR" >&2
	exit 2
fi
out=$1
mkdir -p "$out/bin" || exit 1
out=$(cd "$out" && pwd)

seed=${FUZZ_SEED:-$(printf '%u' "0x$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')")}
nl_count=${FUZZ_NL_COUNT:-100000}
ioc_count=${FUZZ_IOC_COUNT:-100000}
timeout_s=${FUZZ_TIMEOUT:-600}
failed=0

result() {
	echo "$*"
	[[ $1 != FAIL ]] || failed=1
}

echo "fuzz: seed $seed, $nl_count netlink datagrams and $ioc_count ioctls per identity (repeat with FUZZ_SEED=$seed)"

build_fuzzer() {
	local name=$1
	if "$guest/build-raw.sh" "$out/bin/$name" "$fuzz/$name.c" \
		>"$out/build-$name.log" 2>&1; then
		result "PASS fuzz-build-$name"
	else
		result "FAIL fuzz-build-$name: see $out/build-$name.log"
		sed 's/^/    | /' "$out/build-$name.log" | head -n 20
		return 1
	fi
}

# Boots one kernel with the module and the fuzzers (tests/guest/run-guest.sh
# builds the module), its result lines labelled [fuzz-LABEL].
boot_fuzz() {
	local label=$1 vmlinuz=$2 headers=$3 model=$4 dir="$out/guest-$1"
	"$guest/run-guest.sh" --kernel "$vmlinuz" --label "$label" \
		--headers "$headers" --suite fuzz --out "$out" --dir "$dir" \
		--cpu-model "$model" --timeout "$timeout_s" \
		--file "$out/fuzz.conf:/etc/cacheprobe-fuzz.conf" || failed=1
	[[ -f $dir/console.log ]] || return
	# The fuzzers' counts and timings, from the console.
	# Their lines, and the indented lines that follow them.
	tr -d '\r' <"$dir/console.log" | awk -v tag="    [fuzz-$label] " '
		/^(nl|ioc)fuzz\[[a-z]+\]: [0-9]+ done$/ { keep = 0; next }
		/^(nlfuzz|iocfuzz|=== (nl|ioc)fuzz)/ { keep = 1; print tag $0; next }
		keep && /^  / { print tag $0; next }
		{ keep = 0 }'
}

{
	echo "FUZZ_SEED=$seed"
	echo "FUZZ_NL_COUNT=$nl_count"
	echo "FUZZ_IOC_COUNT=$ioc_count"
} >"$out/fuzz.conf"

build_fuzzer nlfuzz
build_fuzzer iocfuzz
if [[ $failed == 1 ]]; then
	exit 1
fi

# GUEST_KERNEL="LABEL VER VMLINUZ BUILD_TREE" boots that one kernel (and
# builds the module against its tree) instead of the installed ones: make
# check-debug points it at its debug kernel.
if [[ -n ${GUEST_KERNEL:-} ]]; then
	kernels=("$GUEST_KERNEL")
else
	mapfile -t kernels < <("$guest/kernels.sh")
fi
if [[ ${#kernels[@]} -eq 0 ]]; then
	result "FAIL fuzz-kernels: tests/guest/kernels.sh lists no kernel"
fi
# Alternate CPU models as tests/run-all.sh does, so both a CPU with
# CLFLUSHOPT/RDTSCP (max) and one without (qemu64) get fuzzed.
models=(max qemu64)
i=0
for line in "${kernels[@]}"; do
	read -r label _ver vmlinuz headers <<<"$line"
	model=${models[$((i % 2))]}
	i=$((i + 1))
	boot_fuzz "$label" "$vmlinuz" "$headers" "$model"
done
exit "$failed"
