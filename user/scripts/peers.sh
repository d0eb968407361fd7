#!/usr/bin/env bash
# cacheprobe beside the tools people use for the same questions, on the
# same CPUs, like against like, when the user has them:
#   C2CLAT=path      rigtorp/c2clat: its -w figure (one line, CAS, half the
#                    fastest round trip) against c2c's CAS fastest one-way;
#   MULTICHASE=path  google/multichase: its chase (ns per load, its pages,
#                    MULTICHASE_ARGS added) against latency's median at
#                    each of SIZES (default "32K 512K 256M").
# CPUS (default: the first two this process may use) picks the pair;
# C2C_BUDGET (default 3s) is cacheprobe's c2c --budget.
# A tool not given is skipped with a message.  Prints each figure and the
# ratio peer / cacheprobe.
#
# Usage: peers.sh [PATH-OF-cacheprobe-run]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
program=${1:-$top/user/build/cacheprobe-run}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${CPUS:-}" ]; then
	CPUS=$(taskset -cp $$ | sed 's/.*: //' | tr ',' '\n' |
		sed 's/-/\n/' | head -n 2 | paste -s -d ,)
fi
first=${CPUS%%,*} second=${CPUS##*,}

# json_number FILE EXPR: a number out of a results file (python3).
json_number() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$1" "$2"
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'
}

# c2clat's matrix: the cell of row FIRST, column SECOND.
c2clat_cell() {
	awk -v row="$first" -v col="$second" '
		$1 == "CPU" { for (i = 2; i <= NF; i++) column[$i] = i; next }
		$1 == row && (col in column) { print $(column[col]); exit }'
}

if [ -n "${C2CLAT:-}" ]; then
	peer=$(taskset -c "$first,$second" "$C2CLAT" -w | c2clat_cell)
	"$program" c2c --cpus "$first,$second" --mode user --quiet \
		--budget "${C2C_BUDGET:-3s}" --json "$work/c2c.json"
	ours=$(json_number "$work/c2c.json" \
		'[p for p in d["c2c_pairs"] if p["variant"] == "cas"][0]["one_way_min_ns"]')
	printf 'c2c %s:%s  c2clat -w %s ns  cacheprobe cas fastest one-way %.1f ns  ratio %s\n' \
		"$first" "$second" "$peer" "$ours" "$(ratio "$peer" "$ours")"
else
	echo "c2clat: skipped (set C2CLAT to its path)"
fi

if [ -n "${MULTICHASE:-}" ]; then
	for size in ${SIZES:-32K 512K 256M}; do
		read -r -a extra <<<"${MULTICHASE_ARGS:-}"
		peer=$(taskset -c "$first" "$MULTICHASE" -m "$size" "${extra[@]}" |
			awk 'NF { last = $NF } END { print last }')
		"$program" latency --cpus "$first" --min-size "$size" \
			--max-size "$size" --mode user --quiet \
			--json "$work/latency.json"
		ours=$(json_number "$work/latency.json" \
			'[m for m in d["measurements"] if m["area"] == "latency"][0]["stats_ns"]["median"]')
		printf 'chase %-5s  multichase %s ns  cacheprobe median %.2f ns (huge pages asked)  ratio %s\n' \
			"$size" "$peer" "$ours" "$(ratio "$peer" "$ours")"
	done
else
	echo "multichase: skipped (set MULTICHASE to its path)"
fi
