#!/usr/bin/env bash
# One guest boot, for working on one area's module tests without the whole
# of `make check`:
#
#   tests/guest/quick.sh [LABEL] [AREA...]
#
# Boots LABEL (default: the first kernel kernels.sh lists) with the module
# suite's tests of the named areas (tests/guest/area-NAME.sh; every area
# file when none is named): tests/guest/run-guest.sh --suite module AREA...,
# which any other of the suite's tests can be given to as well.  Output
# lands in tests/out-quick/ (or $QUICK_OUT); the result lines are printed,
# then "N passed, N failed".  QUICK_BINS: more programs (paths,
# space-separated) to put in the guest's /usr/bin.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
guest="$top/tests/guest"
out=${QUICK_OUT:-$top/tests/out-quick}
label=${1:-}
[ $# -gt 0 ] && shift

line=$("$guest/kernels.sh" ${label:+"$label"} | head -1)
if [ -z "$line" ]; then
	echo "quick.sh: no installed kernel labelled '$label'" >&2
	exit 2
fi
read -r label _ <<<"$line"
areas=("$@")
if [ ${#areas[@]} -eq 0 ]; then
	for f in "$guest"/area-*.sh; do
		[ -f "$f" ] && areas+=("$(basename "$f" .sh | sed 's/^area-//')")
	done
fi
bins=()
for f in ${QUICK_BINS:-}; do
	bins+=(--bin "$f")
done
rm -rf "$out"
mkdir -p "$out"
"$guest/run-guest.sh" --kernel "$label" --suite module --out "$out" \
	--dir "$out" --name "quick-$label" "${bins[@]}" -- "${areas[@]}" 2>&1 |
	tee "$out/boot.txt" | grep -E '^(PASS|FAIL) '
if [ "${PIPESTATUS[0]}" = 2 ]; then
	cat "$out/boot.txt" >&2
	exit 2
fi
passed=$(grep -c '^PASS ' "$out/boot.txt")
failed=$(grep -c '^FAIL ' "$out/boot.txt")
echo "$passed passed, $failed failed (console: $out)"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
