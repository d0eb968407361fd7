#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cacheprobe-run evict: misuse exits 2 naming what was wrong; without the
# module, auto falls back to the garbage read and says why, and wbinvd
# fails naming the module; --json writes the outcome, --quiet prints
# nothing; a server set up once evicts for clients, and its socket is
# made, replaced and removed as it should.  One CPU is evicted, so the
# garbage is one domain's.  Prints TAP.
#
# Usage: evict_command.sh PATH-OF-cacheprobe-run
program=${1:?usage: evict_command.sh PATH-OF-cacheprobe-run}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/tap.sh"

# expect STATUS TEXT NAME ARGS...: exit STATUS, TEXT in stdout or stderr.
expect() {
	want=$1 text=$2 name=$3
	shift 3
	"$program" evict "$@" >"$work/out" 2>"$work/err"
	status=$?
	if [ "$status" -eq "$want" ] &&
		grep -qF -- "$text" "$work/out" "$work/err"; then
		ok "$name"
	else
		echo "# exit $status, wanted $want and '$text'"
		not_ok "$name"
	fi
}

module_loaded() {
	[ -e /dev/cacheprobe ] || [ -d /sys/module/cacheprobe ]
}

cpu=$(awk '/^Cpus_allowed_list/ { split($2, r, /[-,]/); print r[1] }' \
	/proc/self/status)
offline=$(($(getconf _NPROCESSORS_CONF) + 1))

expect 2 "unknown method 'foo'" "unknown method" --method foo
expect 2 "--factor: '0'" "factor 0" --factor 0
expect 2 "--factor: 'nan'" "factor nan" --factor nan
expect 2 "--verify: " "bad size" --verify 12Q
expect 2 "below one page" "probe below a page" --verify 100
expect 2 "give --verify SIZE" "clflush without a probe" --method clflush
expect 2 "unexpected argument 'now'" "stray argument" now
expect 2 "--cpus '$offline': CPU $offline does not exist" "CPU not online" \
	--cpus "$offline" --method garbage
expect 2 "--cpus 'per-l9'" "unknown pick" --cpus per-l9
expect 2 "cannot write" "unwritable --json" --cpus "$cpu" \
	--method clflush --verify 64K --json "$work/no/such/dir/x.json"

if module_loaded; then
	skip "the module is loaded: no fallback to see"
	skip "the module is loaded"
else
	expect 0 "module not loaded" "auto falls back and says why" \
		--cpus "$cpu"
	expect 1 "module not loaded" "wbinvd needs the module" \
		--method wbinvd --cpus "$cpu"
fi

"$program" evict --quiet --cpus "$cpu" --method garbage >"$work/out" \
	2>"$work/err"
if [ $? -eq 0 ] && [ ! -s "$work/out" ] && [ ! -s "$work/err" ]; then
	ok "--quiet prints nothing"
else
	not_ok "--quiet prints nothing"
fi

"$program" evict --quiet --cpus "$cpu" --method clflush --verify 256K \
	--json "$work/e.json" >"$work/out" 2>"$work/err"
status=$?
if [ $status -eq 0 ] && python3 - "$work/e.json" "$cpu" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["schema"] == "cacheprobe-evict/1"
assert doc["method"] == "clflush" and doc["cpus"] == sys.argv[2]
probe = doc["probe"]
assert probe["bytes"] == 256 << 10 and probe["cpu"] == int(sys.argv[2])
for side in ("warm", "evicted"):
    shares = probe[side]
    assert shares["lines_timed"] > 0
    assert sum(level["ppm"] for level in shares["levels"]) <= 1000000
    assert 0 <= shares["cached_ppm"] <= 1000000
assert doc["evict_ns"] > 0 and doc["open_ns"] > 0
PY
then
	ok "--json: the outcome and the probe's shares"
elif [ $status -eq 1 ] && grep -q "cannot tell any cache level" "$work/err"
then
	skip "the timer cannot tell caches from memory here"
else
	not_ok "--json: the outcome and the probe's shares"
fi

# --serve and --connect.  A server says "serving" once it is set up and
# listening; wait_for_server OUTPUT waits for that line in its OUTPUT.
wait_for_server() {
	tries=0
	while [ $tries -lt 600 ]; do
		grep -q '^evict: serving ' "$1" 2>/dev/null && return 0
		sleep 0.1
		tries=$((tries + 1))
	done
	return 1
}

socket="$work/evict.sock"
expect 1 "no evict server at '$socket'" "--connect without a server" \
	--connect "$socket"
expect 2 "--connect takes only --json and --quiet" "--connect with a setup" \
	--connect "$socket" --method garbage
expect 2 "--verify and --json go with a single eviction" \
	"--serve with a probe" --serve "$socket" --verify 64K
: >"$work/plain"
expect 2 "exists and is not a socket: not replaced" "--serve keeps a file" \
	--serve "$work/plain"
[ -f "$work/plain" ] && ok "the file is still there" ||
	not_ok "the file is still there"

"$program" evict --serve "$socket" --method garbage --cpus "$cpu" \
	>"$work/server.out" 2>&1 &
server=$!
if wait_for_server "$work/server.out"; then
	ok "--serve: serving once set up"
	expect 0 "evict: garbage on CPUs $cpu in" "--connect evicts" \
		--connect "$socket"
	expect 2 "a server already answers at '$socket'" \
		"a second --serve on a live socket" --serve "$socket"
	kill -KILL "$server"
	wait "$server" 2>/dev/null
	# A dead server's socket is replaced by the next one.
	[ -S "$socket" ] || echo "# the killed server's socket is gone"
	"$program" evict --serve "$socket" --method garbage --cpus "$cpu" \
		>"$work/server2.out" 2>&1 &
	server=$!
	if wait_for_server "$work/server2.out" &&
		"$program" evict --connect "$socket" --quiet --json \
			"$work/remote.json" >"$work/out" 2>"$work/err" &&
		grep -q '"method":"garbage"' "$work/remote.json"; then
		ok "a dead server's socket is replaced; --connect --json"
	else
		not_ok "a dead server's socket is replaced; --connect --json"
	fi
	kill -TERM "$server"
	wait "$server"
	status=$?
	if [ $status -eq 0 ] && [ ! -e "$socket" ]; then
		ok "SIGTERM ends the server, exit 0, socket removed"
	else
		echo "# server exit $status, socket: $(ls -l "$socket" 2>&1)"
		not_ok "SIGTERM ends the server, exit 0, socket removed"
	fi
else
	kill -KILL "$server" 2>/dev/null
	cp "$work/server.out" "$work/err"
	not_ok "--serve: serving once set up"
fi

echo "1..$number"
[ "$failures" -eq 0 ]
