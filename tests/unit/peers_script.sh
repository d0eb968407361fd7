#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# user/scripts/peers.sh against stand-ins for c2clat and multichase that
# print in their formats: the peers' figures are read from the right cell,
# cacheprobe's like figure is found, the ratio is theirs over ours, and a
# tool not given is skipped with a message.  Prints TAP.
#
# Usage: peers_script.sh PATH-OF-cacheprobe-run
program=${1:?usage: peers_script.sh PATH-OF-cacheprobe-run}
script="$(cd "$(dirname "$0")/../.." && pwd)/user/scripts/peers.sh"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
number=0 failures=0

check() {
	number=$((number + 1))
	if grep -Eq -- "$2" "$work/out"; then
		echo "ok $number - $1"
	else
		failures=$((failures + 1))
		echo "not ok $number - $1"
		sed 's/^/# /' "$work/out"
	fi
}

# c2clat prints CPU numbers across and down; -w: 55 between 0 and 1.
cat >"$work/c2clat" <<'FAKE'
#!/bin/sh
v=67; [ "$1" = "-w" ] && v=55
printf ' CPU    0    1\n   0    0 %4d\n   1 %4d    0\n' "$v" "$v"
FAKE
# multichase prints the ns per load last.
printf '#!/bin/sh\necho "  2.500"\n' >"$work/multichase"
chmod +x "$work/c2clat" "$work/multichase"

if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
	echo "1..0 # SKIP c2c needs two CPUs"
	exit 0
fi
C2CLAT="$work/c2clat" MULTICHASE="$work/multichase" SIZES="16K" \
	C2C_BUDGET=0.2s CPUS=0,1 "$script" "$program" >"$work/out" 2>&1
check "c2clat -w's cell 0:1 beside c2c's CAS fastest one-way, with the ratio" \
	'^c2c 0:1  c2clat -w 55 ns  cacheprobe cas fastest one-way [0-9.]+ ns  ratio [0-9.]+$'
check "multichase's ns per load beside latency's median at the size" \
	'^chase 16K    multichase 2.500 ns  cacheprobe median [0-9.]+ ns .* ratio [0-9.]+$'
env -u C2CLAT -u MULTICHASE "$script" "$program" >"$work/out" 2>&1
check "without c2clat: skipped, with a message" \
	'^c2clat: skipped \(set C2CLAT to its path\)$'
check "without multichase: skipped, with a message" \
	'^multichase: skipped \(set MULTICHASE to its path\)$'
echo "1..$number"
[ "$failures" -eq 0 ]
