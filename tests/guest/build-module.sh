#!/usr/bin/env bash
# Builds cacheprobe.ko for one kernel, for the guest tests:
#
#   build-module.sh OUTDIR LABEL HEADERS NAME [test]
#
# The sources are copied to OUTDIR/build-LABEL so that builds for different
# kernels never share objects; the module lands in
# OUTDIR/build-LABEL/kmod/cacheprobe.ko.  With "test", the fault-injection
# build (make -C kmod TEST=1) is made too, as
# OUTDIR/build-LABEL/cacheprobe-test.ko.  Both builds use -Werror and fail
# on any warning.  The module meant for use must not have the test-only
# parameters (fault_inject, live_objects, lost_places, warm_rounds,
# dither_spins) and
# the test build must have them (modinfo -p).  Prints "PASS NAME [LABEL]" / "FAIL NAME [LABEL]: why"
# (and the same for NAME-test and the parameter checks); exit status 1
# when the module did not build.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)

if [ $# -lt 4 ] || [ $# -gt 5 ] || { [ $# -eq 5 ] && [ "$5" != test ]; }; then
	echo "usage: ${0##*/} OUTDIR LABEL HEADERS NAME [test]" >&2
	exit 2
fi
out=$1 label=$2 headers=$3 name=$4 with_test=${5:-}
dir="$out/build-$label"

# make_in DIR LOG [MAKE ARGS...]: a fresh copy of the sources, built.
make_in() {
	local src=$1 log=$2
	shift 2
	rm -rf "$src"
	mkdir -p "$src"
	cp -a "$top/kmod" "$top/include" "$top/VERSION" "$src/"
	make -j"$(nproc)" -C "$src/kmod" KDIR="$headers" WERROR=1 "$@" \
		>"$log" 2>&1 &&
		! grep -qi 'warning:' "$log"
}

TEST_PARAMS="fault_inject live_objects lost_places warm_rounds dither_spins"

# test_params KO: the test-only parameters KO has, space-separated.
test_params() {
	local p found=""
	for p in $TEST_PARAMS; do
		modinfo -p "$1" | grep -q "^$p:" && found="$found $p"
	done
	echo "${found# }"
}

if make_in "$dir" "$out/build-$label.log"; then
	echo "PASS $name [$label]"
else
	echo "FAIL $name [$label]: see $out/build-$label.log"
	exit 1
fi
found=$(test_params "$dir/kmod/cacheprobe.ko")
if [ -z "$found" ]; then
	echo "PASS $name-no-test-params [$label]"
else
	echo "FAIL $name-no-test-params [$label]: the production module has $found"
fi
[ "$with_test" = test ] || exit 0
if make_in "$dir-test" "$out/build-$label-test.log" TEST=1; then
	cp "$dir-test/kmod/cacheprobe.ko" "$dir/cacheprobe-test.ko"
	echo "PASS $name-test [$label]"
	found=$(test_params "$dir/cacheprobe-test.ko")
	if [ "$found" = "$TEST_PARAMS" ]; then
		echo "PASS $name-test-params [$label]"
	else
		echo "FAIL $name-test-params [$label]: the test build has '$found', want '$TEST_PARAMS'"
	fi
else
	echo "FAIL $name-test [$label]: see $out/build-$label-test.log"
fi
