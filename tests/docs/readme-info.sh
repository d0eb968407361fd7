#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The README's user-mode `cacheprobe-run info` example (the one under "On a
# machine whose kernel cannot load modules") against what the tool prints
# here without the module: the same lines, by their labels (the text before
# the first ':') in the same order.  The values are this machine's and may
# differ; a line the tool gains or loses makes the example stale.
# Prints "PASS name" / "FAIL name: why"; exits 1 on failure.
#
# Usage: readme-info.sh [README]   (default: the project's README.md)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
readme=${1:-$top/README.md}
bin=$top/user/build/cacheprobe-run
name=readme-info-user-mode

# labels: each line cut at its first ':' (indentation kept, since it shows
# which lines belong under "topology:").
labels() {
	sed 's/:.*//'
}

if [ ! -x "$bin" ]; then
	echo "FAIL $name: $bin not built"
	exit 1
fi
if [ -d /sys/module/cacheprobe ]; then
	echo "FAIL $name: the module is loaded here, so info is not in user mode (rmmod cacheprobe first)"
	exit 1
fi
example=$(awk '
	/^On a machine whose kernel cannot load modules/ { want = 1; next }
	want && /^```/ { if (inside) exit; inside = 1; next }
	inside && /^== cacheprobe-run info$/ { info = 1; next }
	inside && info && /^== / { exit }
	inside && info { print }' "$readme")
if [ -z "$example" ]; then
	echo "FAIL $name: no user-mode info example found in $readme"
	exit 1
fi
if ! output=$("$bin" info 2>&1); then
	echo "FAIL $name: cacheprobe-run info failed: $output"
	exit 1
fi
if diff=$(diff <(labels <<<"$example") <(labels <<<"$output")); then
	echo "PASS $name ($(wc -l <<<"$example") lines, same labels in the same order)"
else
	echo "FAIL $name: README (<) and cacheprobe-run info (>) differ: $(echo "$diff" | grep '^[<>]' | tr '\n' ' ')"
	exit 1
fi
