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
# on any warning.  Prints "PASS NAME [LABEL]" / "FAIL NAME [LABEL]: why"
# (and the same for NAME-test); exit status 1 when the module did not build.
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
	make -C "$src/kmod" KDIR="$headers" WERROR=1 "$@" >"$log" 2>&1 &&
		! grep -qi 'warning:' "$log"
}

if make_in "$dir" "$out/build-$label.log"; then
	echo "PASS $name [$label]"
else
	echo "FAIL $name [$label]: see $out/build-$label.log"
	exit 1
fi
[ "$with_test" = test ] || exit 0
if make_in "$dir-test" "$out/build-$label-test.log" TEST=1; then
	cp "$dir-test/kmod/cacheprobe.ko" "$dir/cacheprobe-test.ko"
	echo "PASS $name-test [$label]"
else
	echo "FAIL $name-test [$label]: see $out/build-$label-test.log"
fi
