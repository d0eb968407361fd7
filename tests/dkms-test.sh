#!/usr/bin/env bash
# DKMS test: `make dkms-install` for every installed kernel, the installed
# module's version checked, one copy kept for a guest boot, then
# `make dkms-uninstall` and a check that nothing is left.
# Usage: dkms-test.sh OUTDIR   (writes OUTDIR/dkms/cacheprobe.ko and
# OUTDIR/dkms/kernel: "LABEL VERSION VMLINUZ" of the kernel it was built for)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out="$1/dkms"
version=$(cat "$top/VERSION")
mkdir -p "$out"

pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; }

# The installed module, decompressed if the kernel compresses modules.
installed_module() {
	local kver=$1 f
	f=$(find "/lib/modules/$kver" -path '*dkms*' -name 'cacheprobe.ko*' |
		head -n 1)
	case "$f" in
	"") return 1 ;;
	*.xz) xz -dc "$f" ;;
	*.zst) zstd -qdc "$f" ;;
	*.gz) gzip -dc "$f" ;;
	*) cat "$f" ;;
	esac
}

kept=""
while read -r label kver vmlinuz _headers; do
	if make -s -C "$top" dkms-install KVER="$kver" \
		>"$out/install-$label.log" 2>&1; then
		pass "dkms-install [$label]"
	else
		fail "dkms-install [$label]: see tests/out/dkms/install-$label.log"
		continue
	fi
	installed_module "$kver" >"$out/cacheprobe-$label.ko"
	got=$(modinfo -F version "$out/cacheprobe-$label.ko" 2>/dev/null)
	if [ "$got" = "$version" ]; then
		pass "dkms-module-version [$label]"
	else
		fail "dkms-module-version [$label]: modinfo says '$got', want $version"
		continue
	fi
	# DKMS builds the module meant for use: no test-only parameter (each
	# one's description begins "Test builds only").
	test_params=$(modinfo -p "$out/cacheprobe-$label.ko" |
		grep ':Test builds only' | cut -d: -f1 | tr '\n' ' ')
	if [ -z "$test_params" ]; then
		pass "dkms-no-test-params [$label]"
	else
		fail "dkms-no-test-params [$label]: the DKMS module has ${test_params% }"
	fi
	# Boot the guest with the module built for a non-RT 6.12 if there is
	# one, else with the last one built.
	if [ -z "$kept" ] || [ "$label" = "6.12" ]; then
		cp "$out/cacheprobe-$label.ko" "$out/cacheprobe.ko"
		echo "$label $kver $vmlinuz" >"$out/kernel"
		kept=$label
	fi
done < <("$top/tests/guest/kernels.sh")

if make -s -C "$top" dkms-uninstall >"$out/uninstall.log" 2>&1 &&
   ! dkms status cacheprobe 2>/dev/null | grep -q cacheprobe &&
   [ ! -d "/usr/src/cacheprobe-$version" ] &&
   [ -z "$(find /lib/modules -path '*dkms*' -name 'cacheprobe.ko*')" ]; then
	pass "dkms-uninstall"
else
	fail "dkms-uninstall: module or sources left behind (see tests/out/dkms/uninstall.log)"
fi
