#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The host tests again, under the caches of other machines: hwloc's
# synthetic topologies (HWLOC_SYNTHETIC) stand in for the topology of this
# one, so a test that takes a size, a CPU list or an expected figure from
# anything but what the tool reports fails here, not on the next machine.
# The synthetic topologies keep this machine's CPU count and numbering (the
# runs are real); they vary what the project's machines have been seen to
# vary: L1d 32-48 KiB, L2 1-2 MiB, L3 32-480 MiB, one L3 or one per CPU.
# Prints TAP, each description prefixed with the topology's name.
#
# Usage: other_topologies.sh PATH-OF-cacheprobe-run

program=${1:?usage: other_topologies.sh PATH-OF-cacheprobe-run}
here=$(cd "$(dirname "$0")" && pwd)
unset HWLOC_SYNTHETIC HWLOC_XMLFILE

cpus=$("$program" info | sed -n 's/^  cpus: \([0-9]*\) (\(.*\)),.*/\1 \2/p')
count=${cpus%% *}
if [ -z "$count" ] || [ "${cpus#* }" != "0-$((count - 1))" ]; then
	# A synthetic topology numbers its CPUs 0 to N-1; the runs pin to
	# them, so they must be this machine's online CPUs.
	echo "ok 1 # SKIP the online CPUs are not 0 to N-1: ${cpus:-none}"
	exit 0
fi
if [ "$count" -lt 2 ]; then
	echo "ok 1 # SKIP one CPU: the tests need a pair"
	exit 0
fi

KiB=1024
MiB=$((1024 * KiB))
# name|L1d|L2|L3|L3 instances (1: shared by all CPUs, else one per CPU)
topologies="
l2-1m-l3-32m|$((48 * KiB))|$((1 * MiB))|$((32 * MiB))|1
l2-2m-l3-260m|$((48 * KiB))|$((2 * MiB))|$((260 * MiB))|1
l2-2m-l3-480m|$((32 * KiB))|$((2 * MiB))|$((480 * MiB))|1
l3-per-cpu-32m|$((32 * KiB))|$((1 * MiB))|$((32 * MiB))|$count
"

failed=0
for line in $topologies; do
	IFS='|' read -r name l1d l2 l3 l3s <<EOF
$line
EOF
	per_l3=$((count / l3s))
	spec="pack:1 l3:$l3s(size=$l3) l2:$per_l3(size=$l2)"
	spec="$spec l1d:1(size=$l1d) core:1 pu:1"
	for script in "$here/cli_misuse.sh" "$here/cli_table.sh"; do
		output=$(HWLOC_SYNTHETIC="$spec" "$script" "$program" 2>&1) ||
			failed=1
		printf '%s\n' "$output" |
			sed "s/^\(\(not \)\{0,1\}ok [0-9]*\)\( - \)\{0,1\}/\1 - [$name] /"
	done
done
exit "$failed"
