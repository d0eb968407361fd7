#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The examples of libcacheprobe (examples/), built against the library in
# user/build and each run briefly.  Only behaviour is checked, never a
# time or a ratio (the machine changes from run to run):
#   - gbench exits 0, its JSON holds the four sums (cold and warm, 256 KiB
#     and 8 MiB) without error, the cold ones with the iterations asked,
#     and says which method the library chose, the one each cold
#     benchmark's label names;
#   - sum-file sums a file right; cold-vs-warm.sh exits 0 and hyperfine's
#     JSON holds both commands, every run exiting 0; a failing eviction
#     fails the script;
#   - range leaves its buffer less cached after evict-range than warm, by
#     the medians it prints, and exits 0; where verify cannot tell cache
#     from memory (exit 77) it is skipped, and says so.
# Prints "PASS name" / "FAIL name: why" lines; exits 1 on any failure.
#
# Usage: run.sh [WORKDIR]   (default: a temporary directory)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
failed=0
tool=$top/user/build/cacheprobe-run
# No example may hang make check.
limit=(timeout 300)

pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; failed=1; }

if [ -n "${1:-}" ]; then
	work=$1
	rm -rf "$work"
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
bin=$work/bin

# last FILE: its last line, for a FAIL line.
last() {
	tail -n 1 "$1" 2>/dev/null
}

if make -C "$top/examples" O="$bin" >"$work/build.log" 2>&1; then
	pass "examples-build (gbench, range, sum-file)"
else
	fail "examples-build: $(grep -m 1 -E 'error|Error' "$work/build.log")"
	exit 1
fi

# gbench: a short run (each cold iteration costs an eviction); its JSON
# judged by python3 (json module only).
"${limit[@]}" "$bin/gbench" --cold_iterations=3 --benchmark_min_time=0.01 \
	--benchmark_out="$work/gbench.json" --benchmark_out_format=json \
	>"$work/gbench.txt" 2>"$work/gbench.err"
status=$?
if [ "$status" -ne 0 ]; then
	fail "examples-gbench: exit $status: $(last "$work/gbench.err")"
elif verdict=$(python3 - "$work/gbench.json" <<'EOF' 2>&1
import json, sys
doc = json.load(open(sys.argv[1]))
method = doc["context"].get("cacheprobe_method")
if method not in ("wbinvd", "garbage"):
    sys.exit(f"context cacheprobe_method is {method!r}, not wbinvd or garbage")
if not doc["context"].get("cacheprobe_reason"):
    sys.exit("no cacheprobe_reason in the context")
want = {f"sum/{kind}/{size}" for kind in ("cold", "warm")
        for size in (262144, 8388608)}
# The name's head: what follows is Google Benchmark's (iterations:N,
# manual_time).
got = {"/".join(b["name"].split("/")[:3]): b for b in doc["benchmarks"]}
if set(got) != want or len(got) != len(doc["benchmarks"]):
    sys.exit(f"benchmarks {[b['name'] for b in doc['benchmarks']]}, want {sorted(want)}")
for name, b in sorted(got.items()):
    if b.get("error_occurred"):
        sys.exit(f"{name}: {b.get('error_message')}")
    if b["iterations"] < 1:
        sys.exit(f"{name}: no iteration")
    if name.startswith("sum/cold/"):
        if b["iterations"] != 3:
            sys.exit(f"{name}: {b['iterations']} iterations, not --cold_iterations=3")
        if b.get("label") != method:
            sys.exit(f"{name}: label {b.get('label')!r}, not {method!r}")
print(method)
EOF
); then
	if grep -q "^cacheprobe: method $verdict: ." "$work/gbench.err"; then
		pass "examples-gbench (4 benchmarks, method $verdict, said on stderr and in the context)"
	else
		fail "examples-gbench: stderr does not say 'cacheprobe: method $verdict: why'"
	fi
else
	fail "examples-gbench: $verdict"
fi

# sum-file, the command hyperfine times: two words of 0x01 bytes.
printf '\1%.0s' $(seq 16) >"$work/ones"
sum=$("$bin/sum-file" "$work/ones" 2>&1)
if [ "$sum" = 144680345676153346 ]; then
	pass "examples-sum-file (sums a file's words)"
else
	fail "examples-sum-file: 16 bytes of 0x01 summed to '$sum', want 144680345676153346"
fi

hyperfine_example() {
	CACHEPROBE_RUN=$1 SUM_FILE=$bin/sum-file "${limit[@]}" \
		"$top/examples/hyperfine/cold-vs-warm.sh" --size 1024 \
		--runs 3 --warmup 0 --json "$2"
}
if ! hyperfine_example "$tool" "$work/hyperfine.json" \
	>"$work/hyperfine.txt" 2>&1; then
	fail "examples-hyperfine: $(last "$work/hyperfine.txt")"
elif verdict=$(python3 - "$work/hyperfine.json" <<'EOF' 2>&1
import json, sys
results = json.load(open(sys.argv[1]))["results"]
names = [r["command"] for r in results]
if names != ["cold", "warm"]:
    sys.exit(f"commands {names}, want ['cold', 'warm']")
for r in results:
    if len(r["times"]) != 3 or any(r["exit_codes"]):
        sys.exit(f"{r['command']}: times {r['times']}, exit codes {r['exit_codes']}")
EOF
); then
	pass "examples-hyperfine (cold and warm in the JSON, 3 runs each)"
else
	fail "examples-hyperfine: $verdict"
fi

# An eviction that fails must fail the comparison, not time a warm run
# as cold: 'false' stands in for cacheprobe-run.
if hyperfine_example false "$work/hyperfine-false.json" \
	>"$work/hyperfine-false.txt" 2>&1; then
	fail "examples-hyperfine-prepare-fails: exit 0 with a failing eviction"
else
	pass "examples-hyperfine-prepare-fails (a failing eviction fails the script)"
fi

"${limit[@]}" "$bin/range" >"$work/range.txt" 2>&1
status=$?
# medians: the warm and the evicted medians range printed, in ppm, so the
# judgment is checked here and not only taken from its exit status.
read -r warm cold < <(awk '/^range: median / {
	sub(/%/, "", $3); sub(/%/, "", $6)
	printf "%d %d\n", $3 * 10000, $6 * 10000 }' "$work/range.txt")
case $status in
0)
	if [ -n "$warm" ] && [ -n "$cold" ] && [ "$cold" -lt "$warm" ]; then
		pass "examples-range (median $((warm / 10000))% cached warm, $((cold / 10000))% after evict-range)"
	else
		fail "examples-range: exit 0 but medians warm '$warm' ppm, evicted '$cold' ppm cached"
	fi ;;
77)
	pass "examples-range (skipped: verify cannot tell cache from memory here: $(grep -m 1 '^range: verify:' "$work/range.txt"))" ;;
*)
	fail "examples-range: exit $status: $(last "$work/range.txt")" ;;
esac
exit "$failed"
