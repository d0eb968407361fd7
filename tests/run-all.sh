#!/usr/bin/env bash
# `make check`: every test of cacheprobe, on a Debian 12 machine as root.
#
# Stages: dependencies; userspace build and unit tests, again under ASan
# and UBSan, and the host tests again under synthetic topologies of other
# machines' caches; make install into a scratch root (man pages,
# completion, the module for an installed kernel) and the netlink spec against the uAPI
# header, kernel-doc and checkpatch over the header and the module, the
# README's user-mode info example against the tool (tests/docs/); libFuzzer
# targets for a fixed time; the module built with -Werror (and a
# fault-injection test build) against every installed kernel's headers;
# one QEMU guest boot per installed kernel running the
# module tests; a 6.12 guest under multi-threaded TCG while the host is
# kept busy; a guest boot per kernel running the netlink and ioctl
# fuzzers; DKMS build and install, and a guest boot with the DKMS-built
# module.
#
# Every check prints one line, "PASS name" or "FAIL name: why" (TAP "ok" /
# "not ok" from the unit tests count the same way); the last line printed is
# "N passed, N failed".  Logs and guest consoles stay in tests/out/.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out="$top/tests/out"
guest="$top/tests/guest"
rm -rf "$out"
mkdir -p "$out"
results="$out/results.txt"
: >"$results"

# Records a result line and echoes it.
record() {
	echo "$*" | tee -a "$results"
}

# Runs a command whose output holds result lines, keeping them.
collect() {
	"$@" 2>&1 | tee -a "$out/log.txt" |
		grep -E '^(PASS|FAIL|ok|not ok) ' | tee -a "$results"
}

stage() {
	echo "== $*" | tee -a "$out/log.txt"
}

stage "dependencies"
if ! "$top/user/scripts/deps.sh" test >>"$out/log.txt" 2>&1; then
	record "FAIL deps: could not install test dependencies (see tests/out/log.txt)"
fi

# Builds use every CPU (the whole check must stay within CI's 30 minutes);
# the tests themselves still run one at a time.
jobs=$(nproc)

stage "userspace build and unit tests"
if make -j"$jobs" -C "$top/user" >>"$out/log.txt" 2>&1; then
	record "PASS user-build"
else
	record "FAIL user-build: see tests/out/log.txt"
fi
collect make -s -j"$jobs" -C "$top/user" check
stage "unit tests under ASan and UBSan"
collect make -s -j"$jobs" -C "$top/user" SANITIZE=1 check
stage "host tests under other machines' caches (synthetic topologies)"
collect make -s -C "$top/user" check-topologies

stage "install, man pages, completion, the netlink spec and kernel style"
collect "$top/tests/docs/install.sh" "$out/docs-install"
collect "$top/tests/docs/netlink-spec.sh" "$out/docs-netlink"
collect "$top/tests/docs/kernel-style.sh" "$out/docs-kernel-style"
collect "$top/tests/docs/readme-info.sh"
collect "$top/tests/docs/library_api.sh" "$out/docs-library"

stage "examples"
collect "$top/tests/examples/run.sh" "$out/examples"

stage "libFuzzer targets"
collect "$top/tests/fuzz/run-libfuzzer.sh" "${LIBFUZZER_SECONDS:-15}"

mkdir -p "$out/bin"
if "$guest/build-raw.sh" "$out/bin/rawtest" "$guest/rawtest.c" >>"$out/log.txt" 2>&1; then
	record "PASS rawtest-build"
else
	record "FAIL rawtest-build: see tests/out/log.txt"
fi

dkms_version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
if [ "$dkms_version" = "$(cat "$top/VERSION")" ]; then
	record "PASS dkms-version-matches"
else
	record "FAIL dkms-version-matches: dkms.conf $dkms_version, VERSION $(cat "$top/VERSION")"
fi

stage "module builds and guest boots"
mapfile -t kernels < <("$guest/kernels.sh")
labels=" $(printf '%s\n' "${kernels[@]}" | cut -d' ' -f1 | tr '\n' ' ')"
missing=
for want in 6.1 6.12 6.12-rt; do
	[[ $labels == *" $want "* ]] || missing+=" $want"
done
if [ -n "$missing" ]; then
	record "FAIL kernels: no installed kernel with headers labelled$missing (found:$labels)"
else
	record "PASS kernels: 6.1, 6.12 and 6.12-rt installed with headers"
fi
# Alternate CPU models: -cpu max (RDTSCP, CLWB, AVX...) and qemu64 (none of
# them).  Neither offers WBNOINVD under TCG (QEMU 7.2), so every guest
# checks its refusal by the production module; its success path runs with
# the test build, which may treat it as present (fault_inject=4).
models=(max qemu64)
i=0
for line in "${kernels[@]}"; do
	read -r label ver _ <<<"$line"
	model=${models[$((i % 2))]}
	i=$((i + 1))
	stage "module build and guest $label ($ver, -cpu $model)"
	collect "$guest/run-guest.sh" --kernel "$label" --suite module \
		--out "$out" --cpu-model "$model"
done

# The handshake under real parallelism: multi-threaded TCG on a host kept
# busy (tests/guest/run-loaded.sh; LOADED_BOOTS=10 boots ten in a row).
if [ -f "$out/build-6.12/kmod/cacheprobe.ko" ]; then
	stage "guest 6.12 under multi-threaded TCG on a loaded host"
	collect "$guest/run-loaded.sh" "$out" "${LOADED_BOOTS:-1}"
fi

# The HTML report in headless Chromium: one from a short user-mode run here
# and the kernel-mode one each guest printed (tests/guest/area-report.sh).
stage "HTML report in a browser"
collect "$top/tests/browser/run-browser-tests.sh" "$out" \
	"$top/user/build/cacheprobe-run"
stage "the default run on an 80-column terminal, piped, and its report"
collect "$top/tests/browser/default-run.sh" "$out" \
	"$top/user/build/cacheprobe-run"

# A fixed seed keeps make check repeatable; set FUZZ_SEED to explore.
stage "guest fuzzing (netlink and ioctl, root and unprivileged)"
FUZZ_SEED=${FUZZ_SEED:-20261122} collect "$top/tests/fuzz/run-guest-fuzz.sh" \
	"$out/fuzz"

stage "guest faults and load (SIGKILL, rmmod in use, CPU offline, 200 load cycles)"
collect "$top/tests/faults/run-guest-faults.sh" "$out/faults"

stage "DKMS"
"$top/tests/dkms-test.sh" "$out" 2>&1 | tee -a "$out/log.txt" |
	grep -E '^(PASS|FAIL) ' | tee -a "$results"
if [ -f "$out/dkms/cacheprobe.ko" ] && [ -f "$out/dkms/kernel" ]; then
	read -r label _ver vmlinuz <"$out/dkms/kernel"
	# The smoke tests: this module's source was tested in full above.
	stage "guest dkms-$label (the DKMS-built module, smoke tests)"
	collect "$guest/run-guest.sh" --kernel "$vmlinuz" --label "$label" \
		--suite dkms --out "$out" --ko "$out/dkms/cacheprobe.ko"
fi

passed=$(grep -cE '^(PASS|ok) ' "$results")
failed=$(grep -cE '^(FAIL|not ok) ' "$results")
echo
grep -E '^(FAIL|not ok) ' "$results" | sed 's/^/failed: /'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
