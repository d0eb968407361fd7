#!/usr/bin/env bash
# The module and the tool on a guest with a lab machine's topology:
#
#   run-lab.sh OUTDIR      (LABEL=6.12 by default)
#
# RUN_LAB_DEFAULT=1 adds the whole default run in both modes (an hour or
# more under TCG; give RUN_LAB_TIMEOUT seconds for the boot, default
# 1800).  RUN_LAB_SMP replaces the topology (QEMU's -smp, e.g. 64 for a
# guest as large as the module's largest request) and RUN_LAB_NUMA the
# number of nodes.
#
# Boots the guest kernel LABEL under single-threaded TCG (boot.sh's
# default) with 16 CPUs as 2 packages x 2 dies x 2 cores x 2 threads and
# 2 NUMA nodes, and runs tests/guest/lab.sh in it: the pair classes, c2c
# on every pair, bounce per class, coldcache's plan per L3 domain, flush
# per pick, and CPU hotplug under a kernel run on every CPU, all checked
# against the guest's own sysfs.  Timings mean nothing here.  Uses
# OUTDIR/build-LABEL/ (the modules, built here when absent); the boot is
# tests/guest/run-guest.sh --suite lab.
#
# The CPU model: QEMU 7.2 (TCG) describes the caches from the model's
# tables, and only Intel's CPUID leaf 4 shares the L3 per die.  Probe
# boots of this topology showed:
#   -cpu max (TCG: AuthenticAMD family 15)  L1 and L2 per thread, L3 per
#       package (0-7 | 8-15): no shared-l2, no same-package, and die_id
#       is the package's
#   -cpu EPYC (topoext dropped: TCG lacks it)  the same sharing, and the
#       kernel prints a "WARNING:" about SRSO mitigations
#   -cpu Skylake-Server  L1 per thread, L2 (4 MiB) per core, L3 (16 MiB)
#       per die (0-3 | 4-7 | 8-11 | 12-15), 2 dies per package: smt,
#       shared-l3, same-package and cross-package pairs
# so Skylake-Server it is.  Its kernel says "RETBleed: WARNING: Spectre
# v2 mitigation leaves CPU vulnerable to RETBleed attacks", which the
# kernel-log checks would take for trouble: mitigations=off, as nothing
# here depends on them.
#
# Prints the guest's result lines ("PASS [lab] name"), its "# " notes
# (what sysfs showed, the c2c budget against the time taken, the
# hotplugged run's end), then "PASS lab-summary: ..." (FAIL when any
# check failed).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
guest="$top/tests/guest"
out=${1:?usage: run-lab.sh OUTDIR}
label=${LABEL:-6.12}
smp=${RUN_LAB_SMP:-16,sockets=2,dies=2,cores=2,threads=2}
numa=${RUN_LAB_NUMA:-2}
cpu_model=Skylake-Server
mem=2048

if ! line=$("$guest/kernels.sh" "$label"); then
	echo "FAIL lab-kernel: no installed kernel labelled $label"
	exit 1
fi
read -r _label _ver _vmlinuz headers <<<"$line"
dir="$out/lab-$label"
mkdir -p "$dir"
ko="$out/build-$label/kmod/cacheprobe.ko"
test_ko="$out/build-$label/cacheprobe-test.ko"
if [ ! -f "$ko" ] || [ ! -f "$test_ko" ]; then
	"$guest/build-module.sh" "$out" "$label" "$headers" lab-module-build \
		test | grep '^FAIL' && exit 1
fi

# lab_smp and lab_numa reach lab.sh as init's environment (the kernel
# passes on parameters it does not know), so the guest checks that its
# sysfs shows what QEMU was asked for.
bdir="$dir/boot"
start=$(date +%s)
"$guest/run-guest.sh" --kernel "$label" --suite lab --out "$out" \
	--dir "$bdir" --name lab --ko "$ko" \
	--smp "$smp" --numa "$numa" --cpu-model "$cpu_model" \
	--mem "$mem" --timeout "${RUN_LAB_TIMEOUT:-1800}" \
	--append "${GUEST_APPEND:+$GUEST_APPEND }mitigations=off lab_smp=$smp lab_numa=$numa lab_default=${RUN_LAB_DEFAULT:-0}" \
	>"$bdir.txt" 2>&1
took=$(($(date +%s) - start))
cat "$bdir.txt"
grep '^# ' "$bdir/results.log"

fails=$(grep -c '^FAIL ' "$bdir.txt")
passes=$(grep -c '^PASS ' "$bdir.txt")
summary="$passes passed, $fails failed; -smp $smp, $numa nodes, -cpu $cpu_model; the boot took ${took}s"
if [ "$fails" = 0 ] && [ "$passes" -gt 0 ]; then
	echo "PASS lab-summary: $summary"
else
	echo "FAIL lab-summary: $summary"
fi
