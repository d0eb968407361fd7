#!/usr/bin/env bash
# One guest boot, for working on one area's module tests without the whole
# of `make check`:
#
#   tests/guest/quick.sh [LABEL] [AREA...]
#
# Builds the module for LABEL (default: the first kernel kernels.sh lists),
# the user tools, and boots with a test script that runs only the named
# areas' tests/guest/area-NAME.sh (every area file when none is named).
# Output lands in tests/out-quick/ (or $QUICK_OUT); the result lines are
# printed, then "N passed, N failed".  QUICK_BINS: more programs (paths,
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
read -r label _ver vmlinuz headers <<<"$line"
rm -rf "$out"
mkdir -p "$out"
make -s -C "$top/user" >"$out/user-build.log" 2>&1 ||
	{ echo "quick.sh: user build failed, see $out/user-build.log" >&2; exit 1; }
"$guest/build-module.sh" "$out" "$label" "$headers" module-build || exit 1

areas=("$@")
if [ ${#areas[@]} -eq 0 ]; then
	for f in "$guest"/area-*.sh; do
		[ -f "$f" ] && areas+=("$(basename "$f" .sh | sed 's/^area-//')")
	done
fi
files=()
for f in ${QUICK_BINS:-}; do
	files+=(--bin "$f")
done
{
	echo '. /lib/cacheprobe/lib.sh'
	grep -E '^[A-Z_]+=' "$guest/tests.sh"
	# The helpers of tests.sh (functions only), so area files can use them.
	awk '/^[a-z_]+\(\) \{/,/^\}/' "$guest/tests.sh"
	for a in "${areas[@]}"; do
		f="$guest/area-$a.sh"
		[ -f "$f" ] || { echo "quick.sh: no $f" >&2; exit 2; }
		files+=(--file "$f:/lib/cacheprobe/area-$a.sh")
		echo ". /lib/cacheprobe/area-$a.sh"
	done
	echo 'if t_run quick-insmod insmod "$KO"; then'
	for a in "${areas[@]}"; do echo "	test_area_$a"; done
	echo '	t_run quick-rmmod rmmod cacheprobe'
	echo 'fi'
	for a in "${areas[@]}"; do
		echo "command -v test_area_${a}_unloaded >/dev/null && test_area_${a}_unloaded"
	done
	echo 't_dmesg_clean quick-log-clean'
} >"$out/tests.sh" || exit 2
"$guest/mkinitramfs.sh" "$out/initrd.cpio.gz" \
	--ko "$out/build-$label/kmod/cacheprobe.ko" "${files[@]}" \
	--bin "$top/user/build/cacheprobe-run" \
	--tests "$out/tests.sh" >"$out/initramfs.log" 2>&1 ||
	{ echo "quick.sh: initramfs failed, see $out/initramfs.log" >&2; exit 1; }
"$guest/boot.sh" --kernel "$vmlinuz" --initrd "$out/initrd.cpio.gz" \
	--label "quick-$label" --cpus 4 --cpu-model max --timeout 600 \
	--outdir "$out" 2>&1 | tee "$out/boot.txt" | grep -E '^(PASS|FAIL) '
passed=$(grep -c '^PASS ' "$out/boot.txt")
failed=$(grep -c '^FAIL ' "$out/boot.txt")
echo "$passed passed, $failed failed (console: $out)"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
