#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# How cacheprobe-run treats its command line: misuse exits 2 with a message
# naming what was wrong, help and version exit 0, and (where the module is
# absent) module operations fail with exit 1.  Prints TAP.
#
# Usage: cli_misuse.sh PATH-OF-cacheprobe-run

program=${1:?usage: cli_misuse.sh PATH-OF-cacheprobe-run}
# The topology the whole script runs under: the machine's, or a synthetic
# one given in HWLOC_SYNTHETIC by whoever runs the script.
outer_topology=${HWLOC_SYNTHETIC-}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/tap.sh"

# Cases written for one synthetic topology (hwloc's syntax) switch to it
# and back to the one the script runs under.
use_topology() {
	export HWLOC_SYNTHETIC="$1"
}

host_topology() {
	if [ -n "$outer_topology" ]; then
		export HWLOC_SYNTHETIC="$outer_topology"
	else
		unset HWLOC_SYNTHETIC
	fi
}

run() {
	"$program" "$@" >"$work/out" 2>"$work/err"
	status=$?
}

# expect NAME STATUS STREAM TEXT -- ARG...: exit STATUS and TEXT (fixed
# string) in STREAM (out or err).
expect() {
	name=$1 want_status=$2 stream=$3 text=$4
	shift 5
	run "$@"
	if [ "$status" -ne "$want_status" ]; then
		not_ok "$name" "exit status $status, expected $want_status"
	elif ! grep -qF -- "$text" "$work/$stream"; then
		not_ok "$name" "std$stream lacks: $text"
	else
		ok "$name"
	fi
}

usage_cases() {
	expect "unknown command" 2 err "unknown command 'frobnicate'" -- frobnicate
	expect "unknown global option" 2 err "unknown option '--frob'" -- --frob
	expect "info: unknown option" 2 err \
		"cacheprobe-run: info: option '--bogus' is unknown" -- info --bogus
	expect "info: stray argument" 2 err "unexpected argument 'extra'" \
		-- info extra
	expect "info: bad transport" 2 err \
		"--transport: unknown value 'smoke' (valid: auto, netlink, ioctl)" \
		-- info --transport smoke
	expect "flush: empty CPU list" 2 err "--cpus '': empty CPU list" \
		-- flush --cpus ""
	expect "flush: reversed range" 2 err \
		"--cpus '5-2': range 5-2 is reversed (write 2-5)" \
		-- flush --cpus 5-2
	expect "flush: duplicate CPU" 2 err "CPU 1 is listed twice" \
		-- flush --cpus 1,0-2
	expect "flush: CPU beyond the ABI limit" 2 err \
		"CPU id 8192 is too large (the limit is 8191)" \
		-- flush --cpus=8192
	expect "flush: space in CPU list" 2 err "unexpected space at character 3" \
		-- flush --cpus "0, 1"
	expect "flush: junk in CPU list" 2 err \
		"--cpus 'abc': 'abc' is not a CPU, range or pick (all, per-core" \
		-- flush -c abc
	expect "flush: --cpus without value" 2 err \
		"option '--cpus' needs a value" -- flush --cpus
	expect "flush: -c without value" 2 err "option '-c' needs a value" \
		-- flush -c
	expect "flush: unknown method" 2 err \
		"--method: unknown value 'clflush' (valid: wbinvd, wbnoinvd)" \
		-- flush --method clflush
	expect "flush: stray argument" 2 err "unexpected argument '0-3'" \
		-- flush 0-3
	expect "flush: unknown pick" 2 err \
		"--cpus 'per-frob': 'per-frob' is not a CPU, range or pick" \
		-- flush --cpus per-frob
}

help_cases() {
	expect "--version" 0 out "cacheprobe-run $(cat "$root/VERSION")" -- --version
	expect "-V" 0 out "cacheprobe-run $(cat "$root/VERSION")" -- -V
	expect "--help lists info" 0 out "  info " -- --help
	expect "--help lists flush" 0 out "  flush " -- --help
	expect "info --help" 0 out "Usage: cacheprobe-run info" -- info --help
	expect "flush --help" 0 out "Usage: cacheprobe-run flush" -- flush -h
	run --help
	if [ -s "$work/err" ]; then
		not_ok "--help writes nothing to stderr"
	else
		ok "--help writes nothing to stderr"
	fi
	full_output_cases
}

# A standard output that takes nothing (a private node of the full device,
# as /dev/full is): exit 1 and the reason, for help, info and a table.
full_output_cases() {
	if ! mknod "$work/full" c 1 7 2>/dev/null; then
		for what in --help info table; do
			skip "no device node for a full standard output ($what)"
		done
		return
	fi
	for args in "--help" "info" "latency --max-size 8K -n 3 --sample-time 100"; do
		# shellcheck disable=SC2086 # the words of a command line
		"$program" $args >"$work/full" 2>"$work/err"
		status=$?
		: >"$work/out"
		if [ "$status" -eq 1 ] &&
		   grep -qF "cannot write standard output: No space left on device" "$work/err"; then
			ok "full standard output: $args exits 1 with the reason"
		else
			not_ok "full standard output: $args exits 1 with the reason" \
				"exit status $status"
		fi
	done
	rm -f "$work/full"
}

# A working set the machine has but cannot give now (between MemAvailable
# and MemTotal) is refused with both figures.
available_memory_case() {
	total=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
	available=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
	if [ -z "$available" ] || [ $((total - available)) -lt 1024 ]; then
		skip "no room between MemAvailable and MemTotal"
		return
	fi
	expect "run: size above the available memory" 2 err \
		"is more than this machine's available memory (MemAvailable " \
		-- latency --max-size "$(((total + available) / 2))K"
}

synthetic_topology_cases() {
	use_topology "pack:2 l3:4 core:8 pu:2"
	expect "info: packages" 0 out "  packages: 2" -- info
	expect "info: cpus and threads" 0 out \
		"  cpus: 128 (0-127), 2 threads per core" -- info
	expect "info: L3 sharing" 0 out \
		"  L3: 16 MiB, 64-byte lines, 8 instances of 16 cpus: 0-15 | 16-31 | 32-47 | 48-63 | 64-79 | 80-95 | 96-111 | 112-127" \
		-- info
	expect "info: pair classes" 0 out \
		"  cpu pair classes: smt 0:1, shared-l3 0:2, same-package 0:16, cross-package 0:64" \
		-- info
	host_topology
}

module_absent_cases() {
	expect "info succeeds" 0 out "topology:" -- info
	if ! grep -q '^module: not loaded (' "$work/out"; then
		skip "the module is loaded here"
		skip "the module is loaded here"
		skip "the module is loaded here"
		skip "the module is loaded here"
		skip "the module is loaded here"
		skip "the module is loaded here"
		skip "the module is loaded here"
		return
	fi
	expect "info names what is missing" 0 out \
		"unavailable without the module: flush (WBINVD/WBNOINVD), kernel-mode measurement" \
		-- info
	expect "flush per-l3 without the module" 1 err \
		"cacheprobe-run: flush: cacheprobe module not loaded" \
		-- flush --cpus per-l3
	expect "flush without the module" 1 err \
		"cacheprobe-run: flush: cacheprobe module not loaded: no generic netlink family \"cacheprobe\" and no /dev/cacheprobe (ENOENT: No such file or directory)" \
		-- flush
	expect "info --transport netlink without the module" 1 err \
		"cacheprobe-run: info: no generic netlink family \"cacheprobe\"" \
		-- info --transport netlink
	expect "info --transport ioctl without the module" 1 err \
		"cacheprobe-run: info: cannot open /dev/cacheprobe" \
		-- info -t ioctl
	expect "bounce --mode kernel without the module" 1 err \
		"bounce: --mode kernel: cacheprobe module not loaded" \
		-- bounce --mode kernel --distances 64
	expect "align --mode kernel without the module" 1 err \
		"align: --mode kernel: cacheprobe module not loaded" \
		-- align --mode kernel --access-widths 8
	# A delay is no longer a reason to refuse kernel mode: the module
	# is asked, and here it is missing.
	expect "xcore --mode kernel --delay without the module" 1 err \
		"xcore: --mode kernel: cacheprobe module not loaded" \
		-- xcore --mode kernel --delay 4
}

run_usage_cases() {
	expect "run: zero samples" 2 err "--samples: 0 is out of range (1 to 100000)" \
		-- latency --samples 0
	expect "run: samples not a number" 2 err "--samples: 'many' is not a number" \
		-- latency -n many
	expect "run: bad size unit" 2 err "--max-size: unknown unit 'Q' in size '12Q'" \
		-- latency --max-size 12Q
	expect "run: size not a number" 2 err "--min-size: 'big' is not a size" \
		-- latency --min-size big
	expect "run: sizes crossed" 2 err "--min-size is above --max-size" \
		-- latency --min-size 1M --max-size 64K
	available_memory_case
	expect "run: zero sample time" 2 err "--sample-time: 0 is out of range" \
		-- latency --sample-time 0
	expect "run: zero rounds" 2 err "--rounds: 0 is out of range (1 to 1000)" \
		-- latency --rounds 0
	expect "run: rounds not a number" 2 err "--rounds: 'x' is not a number" \
		-- latency --rounds x
	expect "run: unknown area" 2 err "unknown area 'frob' (areas: latency" \
		-- run latency frob
	expect "run: area twice" 2 err "area 'latency' is named twice" \
		-- latency latency
	expect "run: unknown option" 2 err "cacheprobe-run: run: option '--frob' is unknown" \
		-- latency --frob
	expect "run: --json without value" 2 err "option '--json' needs a value" \
		-- latency --json
	expect "run: empty --json" 2 err "--json: empty file name" \
		-- latency --json ""
	expect "run: same file twice" 2 err "--json and --csv name the same file" \
		-- latency --json "$work/x" --csv "$work/x"
	expect "run: two outputs to stdout" 2 err \
		"--json and --report both write to standard output ('-' and '-'); at most one output may go there" \
		-- latency --json - --report -
	expect "run: report and csv the same file" 2 err \
		"--csv and --report name the same file" \
		-- latency --csv "$work/y" --report "$work/y"
	expect "run: report into a missing directory" 2 err \
		"--report: cannot write '$work/none/r.html'" \
		-- latency --report "$work/none/r.html"
	expect "report: no file" 2 err "cacheprobe-run: report: no results file named" \
		-- report
	expect "report: not a result" 2 err "cacheprobe-run: report:" \
		-- report /dev/null -o "$work/r.html"
	if [ -e "$work/r.html" ]; then
		not_ok "report: nothing written for a bad input" "$work/r.html exists"
	else
		ok "report: nothing written for a bad input"
	fi
	expect "run: empty --cpus" 2 err "--cpus: empty CPU selection" \
		-- latency --cpus ""
	expect "bench: no areas" 2 err "cacheprobe-run: bench: takes no area" \
		-- bench latency
	expect "bounce: distance not a multiple of the width" 2 err \
		"--distances: distance 14 is not a multiple of the counter width 4" \
		-- bounce --distances 4,14 --width 4
	expect "bounce: default widths need multiples of 8" 2 err \
		"distance 12 is not a multiple of the counter width 8" \
		-- bounce --distances 12
	expect "bounce: distance above the maximum" 2 err \
		"--distances '70000': distance 70000 is above the maximum of 65536 bytes" \
		-- bounce --distances 70000
	expect "bounce: bad width" 2 err \
		"--width '2': '2' is not a counter width (4 or 8 bytes)" \
		-- bounce --width 2
	expect "bounce: bad op" 2 err \
		"--ops 'lock': 'lock' is not an increment kind (plain, atomic)" \
		-- bounce --ops lock
	expect "bounce: one thread" 2 err "--threads: 1 is out of range (2 to 64)" \
		-- bounce --threads 1
	expect "bounce: same CPU twice" 2 err "--cpus '0,0': CPU 0 is selected twice" \
		-- bounce --cpus 0,0
	expect "bad --mode" 2 err "--mode: unknown value 'kern' (valid: user, kernel, both)" \
		-- bounce --mode kern
	expect "compare: one file" 2 err "needs two result files (baseline and new), got 1" \
		-- compare a.json
	expect "compare: unreadable" 2 err "cannot read missing-a.json: No such file or directory" \
		-- compare missing-a.json missing-b.json
}

# xcore and c2c input refused before anything runs (2 CPUs, synthetic).
xcore_c2c_misuse_cases() {
	f="$work/files/r.json"
	expect "xcore: pair on one CPU" 2 err "xcore: pair 0:0 names CPU 0 twice" \
		-- xcore --pairs 0:0 --json "$f"
	expect "xcore: unknown CPU" 2 err "xcore: pair 0:7: CPU 7 is not online" \
		-- xcore --pairs 0:7 --json "$f"
	expect "xcore: pair listed twice" 2 err "xcore: pair 0:1 is listed twice" \
		-- xcore --pairs 0:1,0:1 --json "$f"
	expect "xcore: block not a power of two" 2 err \
		"xcore: block size 98304 is not a power of two" \
		-- xcore --max-size 96K --json "$f"
	expect "xcore: block below 8 KiB" 2 err \
		"xcore: block size 4096 is below the smallest block" \
		-- xcore --min-size 4K --json "$f"
	expect "xcore: block beyond the limit" 2 err \
		"xcore: block size 8589934592 is above the limit" \
		-- xcore --max-size 8G --json "$f"
	expect "xcore: bad delay" 2 err "--delay: 'x' is not a number of instructions" \
		-- xcore --delay x --json "$f"
	expect "xcore: delay too large" 2 err "--delay: 5000 is above the maximum of 4096" \
		-- xcore --delay 5000 --json "$f"
	expect "latency: unknown page size" 2 err \
		"--pages: '8k' is not a page size (4k, 2m or 1g)" \
		-- latency --pages 4k,8k --json "$f"
	expect "latency: page size twice" 2 err "--pages: '2m' named twice" \
		-- latency --pages 2m,2m --json "$f"
	expect "latency: too many chases" 2 err \
		"--chases: '17' is not a number of chases from 1 to 16" \
		-- latency --chases 4,17 --json "$f"
	expect "latency: empty chases" 2 err "--chases: empty value" \
		-- latency --chases "" --json "$f"
	expect "latency: 1 GiB pages in kernel mode" 2 err \
		"--pages: 1g is user mode's only" \
		-- latency --mode kernel --pages 1g --json "$f"
	expect "c2c: bad home" 2 err "--home: 'third' is neither 'first' nor 'second'" \
		-- c2c --home third --json "$f"
	expect "c2c: zero budget" 2 err "--budget: '0' is out of range" \
		-- c2c --budget 0 --json "$f"
	expect "c2c: budget unit" 2 err "--budget: '1ms' is not a time in seconds" \
		-- c2c --budget 1ms --json "$f"
	expect "c2c: budget too short" 2 err \
		"c2c: --budget 0.001 s is too short for 1 pairs x 2 variants: at least" \
		-- c2c --budget 0.001 --mode user --json "$f"
	expect "c2c: one CPU" 2 err "c2c: one CPU selected; a ping-pong needs two" \
		-- c2c --cpus 1 --json "$f"
	expect "c2c: offline CPU" 2 err "--cpus '0,5': CPU 5 does not exist" \
		-- c2c --cpus 0,5 --json "$f"
	expect "c2c: matrix name" 2 err "--matrix: 'm.txt' ends in neither .csv nor .json" \
		-- c2c --matrix m.txt --json "$f"
	expect "c2c: empty home" 2 err "--home: empty value" -- c2c --home ""
	expect "--matrix without c2c" 2 err \
		"--matrix: c2c is not among the areas named" \
		-- latency --matrix "$work/m.csv" --json "$f"
}

# Nothing may be left behind by a run refused for its input.
no_partial_output_cases() {
	use_topology "pack:2 l3:4 core:8 pu:2"
	mkdir "$work/files"
	expect "run: CPU outside the machine" 2 err \
		"--cpus '200': CPU 200 does not exist (online CPUs: 0-127)" \
		-- latency --cpus 200 --json "$work/files/r.json" --csv "$work/files/r.csv"
	expect "bounce: one CPU" 2 err \
		"bounce: --cpus names 1 CPU; bouncing needs at least 2" \
		-- bounce --cpus 5 --json "$work/files/r.json"
	expect "bounce: threads against --cpus" 2 err \
		"bounce: --threads 2 but --cpus names 3 CPUs (one thread per CPU)" \
		-- bounce --threads 2 --cpus 0,1,16 --csv "$work/files/r.csv"
	use_topology "l3:1 core:2 pu:1"
	expect "bounce: more threads than CPUs" 2 err \
		"bounce: no CPU-pair class has 3 CPUs to run 3 threads on (this machine has 2 CPUs)" \
		-- latency bounce --threads 3 --json "$work/files/r.json"
	xcore_c2c_misuse_cases
	host_topology
	expect "align: bad width" 2 err \
		"--access-widths '8,3': '3' is not an access width (1, 2, 4, 8, 16, 32 or 64 bytes)" \
		-- align --access-widths 8,3 --json "$work/files/r.json"
	expect "align: offset beyond the buffer" 2 err \
		"align: --offsets: offset 4000 with 8-byte accesses (slots of 4096 bytes) does not fit a 8192-byte buffer 4 times" \
		-- align --buffers 8K --offsets 4000 --access-widths 8 --csv "$work/files/r.csv"
	expect "align: offset above a page" 2 err \
		"--offsets '0-5000': offset 4096 is above 4095 (offsets stay inside one 4 KiB page)" \
		-- align --offsets 0-5000 --json "$work/files/r.json"
	expect "align: reversed offsets" 2 err "--offsets '64-0': range 64-0 is reversed" \
		-- align --offsets 64-0 --json "$work/files/r.json"
	expect "align: not an offset" 2 err \
		"--offsets '0,x': 'x' is not an offset or a range (N, A-B or A-B:STEP)" \
		-- align --offsets 0,x --json "$work/files/r.json"
	expect "align: offset twice" 2 err "--offsets '0-8,4': offset 4 is listed twice" \
		-- align --offsets 0-8,4 --json "$work/files/r.json"
	expect "align: bad kind" 2 err "--access-kinds 'loads': unknown kind 'loads'" \
		-- align --access-kinds loads --json "$work/files/r.json"
	expect "align: small buffer" 2 err "--buffers '1K': buffer 1K is below 4096 bytes" \
		-- align --buffers 1K --json "$work/files/r.json"
	if [ -z "$(ls -A "$work/files")" ]; then
		ok "refused run leaves no file"
	else
		not_ok "refused run leaves no file" "left: $(ls -A "$work/files")"
	fi
	expect "run: unwritable --json" 2 err \
		"--json: cannot write '$work/none/r.json': No such file or directory" \
		-- latency --json "$work/none/r.json"
}

run_cases() {
	run align --offsets 0,60 --access-widths 8 --access-kinds load-latency \
		--buffers l1 --samples 3 --sample-time 100 --json "$work/al.json"
	if [ "$status" -eq 0 ] &&
	   grep -q '"name":"load-latency 8B off 60, [0-9]* KiB, stride 256"' "$work/al.json" &&
	   grep -q '"name":"load-latency 8B off 4092, [0-9]* KiB, stride 4096"' "$work/al.json" &&
	   grep -q '"name":"classic shift 32, ' "$work/al.json" &&
	   grep -q 'splits a line: x' "$work/out"; then
		ok "align: chosen offsets, the page pair and the classic pattern"
	else
		not_ok "align: chosen offsets, the page pair and the classic pattern" "exit status $status"
	fi
	expect "--list" 0 out "latency    load latency against working-set size" -- --list
	expect "run --help" 0 out "Usage: cacheprobe-run [run] [AREA...] [OPTIONS]" \
		-- run --help
	run latency --max-size 32K --samples 3 --sample-time 100 --quiet \
		--json "$work/a.json" --csv "$work/a.csv"
	if [ "$status" -eq 0 ] && [ ! -s "$work/out" ]; then
		ok "quiet run: exit 0, nothing on stdout"
	else
		not_ok "quiet run: exit 0, nothing on stdout" "exit status $status"
	fi
	if grep -q '"schema":"cacheprobe-results/1"' "$work/a.json" &&
	   grep -q '"name":"chase 32 KiB"' "$work/a.json" &&
	   grep -q '"interrupted":false' "$work/a.json"; then
		ok "JSON holds the schema and the measurements"
	else
		not_ok "JSON holds the schema and the measurements"
	fi
	if head -1 "$work/a.csv" | grep -q '^area,name,mode,params,samples,' &&
	   [ "$(wc -l <"$work/a.csv")" -eq 14 ] &&
	   csv_run_marker "$work/a.csv" false; then
		ok "CSV has a header and one row per size (13 from 4K to 32K), run not interrupted"
	else
		not_ok "CSV has a header and one row per size (13 from 4K to 32K), run not interrupted" \
			"$(cat "$work/a.csv")"
	fi
	expect "compare a run with itself" 0 out "13 measurements: 0 regressions" \
		-- compare "$work/a.json" "$work/a.json"
	latency_variants_case
	latency_rounds_case
	other_rounds_case
	bounce_interleave_case
	terminal_console_case
		-- latency --max-size 256K --samples 3 --sample-time 100
	known_slowdown_case
	bounce_run_case
	latency_variants_case
}

# --pages 4k --chases 2: four curves (2 MiB pages added as the reference),
# named after their choices, the 4 KiB buffers read back as 4 KiB pages,
# the overlap and the TLB line on the console.
latency_variants_case() {
	local name="latency: --pages 4k --chases 2 measure four curves"
	local n

	run latency --pages 4k --chases 2 --max-size 16K --samples 3 \
		--sample-time 100 --json "$work/variants.json"
	n=$(grep -cE '"name":"chase 16 KiB( pages=4k)?( chases=2)?"' \
		"$work/variants.json")
	if [ "$status" -eq 0 ] && [ "$n" -eq 4 ] &&
	   grep -q '"page_bytes_backed":4096' "$work/variants.json" &&
	   grep -q '^memory-level parallelism at 16 KiB' "$work/out" &&
	   grep -q '^TLB reach (4 KiB pages)' "$work/out"; then
		ok "$name"
	else
		not_ok "$name" "exit status $status, $n curves at 16 KiB; $(grep -E '^(TLB|memory)' "$work/out")"
	fi
}

# --samples 7 --rounds 3: every size in rounds of 3 (the last of 1),
# built anew each round; --rounds 1: one arrangement, not marked.
latency_rounds_case() {
	local name="latency: --rounds spreads the samples over new buffers"
	local sizes rounds one

	run latency --max-size 16K --samples 7 --rounds 3 --sample-time 100 \
		--json "$work/rounds.json"
	sizes=$(grep -c '"name":"chase ' "$work/rounds.json")
	rounds=$(grep -c '"samples_per_round":3' "$work/rounds.json")
	run latency --max-size 16K --samples 7 --rounds 1 --sample-time 100 \
		--json "$work/one.json"
	one=$(grep -c '"samples_per_round"' "$work/one.json")
	if [ "$status" -eq 0 ] && [ "$sizes" -gt 0 ] &&
	   [ "$rounds" -eq "$sizes" ] && [ "$one" -eq 0 ]; then
		ok "$name"
	else
		not_ok "$name" "exit status $status, $sizes sizes, $rounds in rounds of 3, $one marked with --rounds 1"
	fi
}

# On a terminal (script(1) gives the run one) the console is the summary
# and one line per area, within 60 lines; --verbose brings every
# measurement back; piped output (every other case here) stays whole.
terminal_console_case() {
	local name="a terminal gets the summary and one line per area"
	local short long

	if ! command -v script >/dev/null; then
		skip "$name: no script(1)"
		return
	fi
	script -qec "$program latency --max-size 16K --samples 3 --rounds 3 --sample-time 100 --mode user 2>/dev/null" \
		/dev/null | tr -d '\r' >"$work/terminal" || true
	script -qec "$program latency --max-size 16K --samples 3 --rounds 3 --sample-time 100 --mode user --verbose 2>/dev/null" \
		/dev/null | tr -d '\r' >"$work/terminal-verbose" || true
	short=$(wc -l <"$work/terminal")
	long=$(wc -l <"$work/terminal-verbose")
	if [ "$short" -le 60 ] && grep -q '^summary$' "$work/terminal" &&
	   grep -q '^  latency  *[0-9]' "$work/terminal" &&
	   ! grep -q 'chase 8 KiB ' "$work/terminal" &&
	   grep -q 'chase 8 KiB ' "$work/terminal-verbose" &&
	   [ "$long" -gt "$short" ]; then
		ok "$name ($short lines; --verbose $long)"
	else
		not_ok "$name" "$short lines, --verbose $long: $(head -c 600 "$work/terminal")"
	fi
}

# bounce interleaves the rounds of a sweep's configurations: in the
# progress line (script(1) gives the run a terminal), each round names
# every configuration once before the next round begins.
bounce_interleave_case() {
	local name="bounce: a sweep's rounds interleaved, every configuration once a round"
	local verdict

	if ! command -v script >/dev/null; then
		skip "$name: no script(1)"
		return
	fi
	if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
		skip "$name: needs two CPUs"
		return
	fi
	script -qec "$program bounce --distances 0,64 --width 4 --ops plain --rounds 3 --samples 3 --sample-time 100 --mode user --json $work/interleave.json" \
		/dev/null </dev/null 2>&1 | tr '\r' '\n' |
		sed -n 's/.*bounce: \(.*B\( d=[0-9]*\)\{0,1\}\).*/\1/p' \
		>"$work/interleave.names"
	# Blocks of as many names as there are configurations, each of them
	# once per block, as many blocks as rounds.
	verdict=$(awk '
		{ names[NR] = $0; if (!($0 in seen)) { seen[$0] = 1; n++ } }
		END {
			if (n < 3 || NR != 3 * n) { printf "%d lines of %d names", NR, n; exit }
			for (b = 0; b < 3; b++) {
				split("", in_block)
				for (i = 1; i <= n; i++) in_block[names[b * n + i]]++
				for (name in seen)
					if (in_block[name] != 1) { printf "round %d: %s %d times", b + 1, name, in_block[name]; exit }
			}
			printf "ok"
		}' "$work/interleave.names")
	if [ "$verdict" = ok ]; then
		ok "$name"
	else
		not_ok "$name" "$verdict: $(tr '\n' ';' <"$work/interleave.names")"
	fi
}

# align and xcore (two CPUs) take their samples in rounds too: every
# measurement of theirs in rounds of 2 with --samples 4 --rounds 2.
other_rounds_case() {
	local area measured rounds args

	for area in align xcore; do
		args="--buffers l1 --access-kinds load-latency --access-widths 8"
		if [ "$area" = xcore ]; then
			if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
				skip "xcore: --rounds needs two CPUs"
				continue
			fi
			args="--max-size 8K"
		fi
		# shellcheck disable=SC2086 # the options, word by word
		run "$area" $args --samples 4 --rounds 2 --sample-time 100 \
			--mode user --quiet --json "$work/$area-rounds.json"
		# Measurements only (an "area" followed by a "name"): the
		# summary's findings and the area notes name areas too.
		measured=$(awk -v want="\"area\":\"$area\"," \
			'index(prev, want) && /"name":/ { n++ } { prev = $0 }
			END { print n + 0 }' "$work/$area-rounds.json")
		rounds=$(grep -c '"samples_per_round":2' "$work/$area-rounds.json")
		if [ "$status" -eq 0 ] && [ "$measured" -gt 0 ] &&
		   [ "$rounds" -eq "$measured" ]; then
			ok "$area: --rounds 2 spreads every measurement's samples"
		else
			not_ok "$area: --rounds 2 spreads every measurement's samples" \
				"exit status $status, $rounds of $measured in rounds of 2"
		fi
	done
}

# steady_samples NAME FACTOR < RESULTS.json: the file with the samples of
# measurement NAME replaced by its first sample times FACTOR, spread
# +-0.4 % in a fixed pattern (the writer puts one sample per line).
steady_samples() {
	awk -v target="\"name\":\"$1\"," -v factor="$2" '
		index($0, target) { inside = 1 }
		inside && /"warnings"/ { inside = 0 }
		inside && /"samples_(ns|ticks)":\[/ {
			scaling = 1; k = 0; first = ""; print; next
		}
		scaling && /\]/ { scaling = 0 }
		scaling {
			if (first == "")
				first = $0 + 0
			match($0, /^ */)
			printf "%s%.17g%s\n", substr($0, 1, RLENGTH), \
				first * factor * (1 + (k++ % 5 - 2) * 0.002), \
				/,$/ ? "," : ""
			next
		}
		{ print }'
}

# A real run's file against itself with one measurement made 10 % slower:
# that one REGRESSION, exit 1, and no other change claimed.  The
# measurement's samples are made steady on both sides first: whether a
# real 10 % change stands out of this machine's noise is the machine's
# business (compare then rightly says "unclear"); this checks compare.
known_slowdown_case() {
	local name="compare finds one known 10 % slowdown and nothing else"
	local chosen="chase 8 KiB"

	run latency --max-size 16K --samples 15 --sample-time 100 --quiet \
		--json "$work/run.json"
	steady_samples "$chosen" 1 <"$work/run.json" >"$work/base.json"
	steady_samples "$chosen" 1.10 <"$work/run.json" >"$work/slow.json"
	run compare "$work/base.json" "$work/slow.json"
	if [ "$status" -eq 1 ] &&
	   grep -q "1 regressions, 0 improvements" "$work/out" &&
	   [ "$(grep -c REGRESSION "$work/out")" -eq 1 ] &&
	   grep -q "latency: $chosen .* 1\.100 .*REGRESSION" "$work/out"; then
		ok "$name ($chosen)"
	else
		not_ok "$name ($chosen)" "exit status $status; $(grep -v ' same$' "$work/out")"
	fi
}

# A short bounce run where two CPUs are available: slowdowns and the
# classic case reach the JSON, one CSV row per measurement.
bounce_run_case() {
	if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
		skip "bounce needs two CPUs"
		return
	fi
	run bounce --distances 0,4,64 --width 4 --samples 3 --sample-time 100 \
		--quiet --json "$work/b.json" --csv "$work/b.csv"
	if [ "$status" -eq 0 ] &&
	   grep -A1 '"area":"bounce"' "$work/b.json" | grep -q '"name":' &&
	   grep -q '"slowdown_padded_milli"' "$work/b.json" &&
	   grep -q '"classic_milli"' "$work/b.json" &&
	   grep -q '"name":"alone cpu [0-9]* atomic 4B"' "$work/b.json" &&
	   grep -q 'd=256' "$work/b.csv"; then
		ok "bounce: slowdowns, classic case and padded baseline in the files"
	else
		not_ok "bounce: slowdowns, classic case and padded baseline in the files" \
			"exit status $status"
	fi
}

# A shell starts a background job with SIGINT ignored, and the tool keeps
# a stop signal ignored that was ignored when it started (as under nohup):
# run it with the stop signals at their defaults, as a foreground job
# that the user stops has them (a command, not a function, so that $! is
# the tool's process).
as_foreground="env --default-signal=INT,TERM,HUP"

# Whether CSV file $1 has data rows and every one ends with the run's
# marker run_interrupted = $2 (the last column; the header names it).
csv_run_marker() {
	head -n 1 "$1" | grep -q ',run_interrupted$' &&
		awk -v want=",$2" 'NR > 1 { rows++; if (substr($0, length($0) - length(want) + 1) != want) bad++ }
			END { exit !(rows > 0 && !bad) }' "$1"
}

# Ctrl-C (and SIGTERM) stop the run; what was measured is still written,
# marked as interrupted in the JSON and on every CSV row.
interrupt_case() {
	sig_name=$1 sig_number=$2
	# Samples of 20 ms make the run last at least 61 sizes x 15 x 20 ms
	# = 18 s on any machine.  Its first round takes 3 samples of every
	# size in an order of its own (3.7 s), so at 4 s some sizes have
	# samples, which ones depending on the order and on how busy the
	# machine is: any size measured is what the files must keep.
	$as_foreground "$program" latency --quiet --max-size 128M \
		--sample-time 20000 --json "$work/$sig_name.json" \
		--csv "$work/$sig_name.csv" >"$work/out" 2>"$work/err" &
	pid=$!
	sleep 4
	kill -"$sig_name" "$pid"
	wait "$pid"
	status=$?
	missing=""
	grep -q '"interrupted":true' "$work/$sig_name.json" ||
		missing="$missing json-interrupted"
	grep -q "\"interrupted_reason\":\"SIG$sig_name\"" "$work/$sig_name.json" ||
		missing="$missing json-reason"
	grep -q '"name":"chase [0-9]' "$work/$sig_name.json" ||
		missing="$missing json-chase-row"
	grep -q '^latency,chase [0-9][^,]*,user,' "$work/$sig_name.csv" ||
		missing="$missing csv-chase-row"
	csv_run_marker "$work/$sig_name.csv" true || missing="$missing csv-marker"
	grep -q 'interrupted; partial results kept' "$work/err" ||
		missing="$missing message"
	if [ "$status" -eq $((128 + sig_number)) ] && [ -z "$missing" ]; then
		ok "SIG$sig_name: exit $status, partial results written, marked in JSON and CSV"
	else
		not_ok "SIG$sig_name: exit $status, partial results written, marked in JSON and CSV" \
			"missing:${missing:- nothing}"
	fi
}

# A run started with SIGHUP ignored (nohup) keeps it ignored: the user
# asked for the run to outlive the terminal, so a hangup must not end it.
nohup_case() {
	# At least 41 sizes x 5 x 10 ms = 2 s on any machine: still running
	# when the hangup comes.
	(trap '' HUP; exec "$program" latency --quiet --max-size 4M -n 5 \
		--sample-time 10000 --json "$work/nohup.json" \
		>"$work/out" 2>"$work/err") &
	pid=$!
	sleep 0.5
	kill -HUP "$pid"
	hung_up=$?
	wait "$pid"
	status=$?
	if [ "$hung_up" -ne 0 ]; then
		not_ok "SIGHUP ignored at start (nohup): the run finishes, not interrupted" \
			"the run ended before the hangup was sent"
	elif [ "$status" -eq 0 ] &&
	   grep -q '"interrupted":false' "$work/nohup.json"; then
		ok "SIGHUP ignored at start (nohup): the run finishes, not interrupted"
	else
		not_ok "SIGHUP ignored at start (nohup): the run finishes, not interrupted" \
			"exit status $status"
	fi
}

# --tune where nothing can be tuned (as in virtual machines): it says so
# and the run goes on.  Where cpufreq exists a test run must not retune the
# machine, so the case is skipped there.
tune_case() {
	if [ -e /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor ]; then
		skip "this machine has cpufreq"
		return
	fi
	expect "--tune without cpufreq" 0 err \
		"--tune: this machine exposes no CPU frequency governor; nothing to set" \
		-- latency --tune --max-size 8K -n 3 --sample-time 100
}

# A short `bench`: the instrument (timer overhead, the NOTHING floor and
# what its subtraction leaves) and the latency plateaus in ns, TSC ticks
# and core cycles.  Eight times the L2 the machine reports is past L1d and
# L2 wherever it runs: at least L1d and one further level must show.
bench_case() {
	l2=$(cache_bytes L2)
	run bench --max-size "$((${l2:-1048576} * 8))" -n 3 --sample-time 100
	levels=$(sed -n '/^cache levels seen by the latency curve$/,/^$/p' "$work/out" |
		grep -Ec '^  (L[0-9][diu]?|memory) .* [0-9.]+ ns +[0-9.]+ +[0-9.]+ ')
	if [ "$status" -eq 0 ] &&
	   grep -Eq '^  timer overhead \(start\+stop back to back\): [0-9]+ ticks = [0-9.]+ ns$' "$work/out" &&
	   grep -Eq '^  NOTHING floor: [0-9.]+ ticks = [0-9.]+ ns per iteration \(subtracted\)$' "$work/out" &&
	   grep -Eq '^  NOTHING after subtraction: median -?[0-9.]+ ticks per iteration' "$work/out" &&
	   grep -Eq '^  L1d .* [0-9.]+ ns +[0-9.]+ +[0-9.]+ ' "$work/out" &&
	   [ "$levels" -ge 2 ]; then
		ok "bench: timer overhead, NOTHING floor, $levels latency plateaus in ns, ticks and cycles"
	else
		not_ok "bench: timer overhead, NOTHING floor, latency plateaus in ns, ticks and cycles" \
			"exit status $status, levels with ns and cycles: $levels"
	fi
}

# Progress on stderr: shown on a terminal (script(1) gives the run one),
# not with --quiet there, and not when stderr is a file.
progress_cases() {
	if ! command -v script >/dev/null; then
		skip "no script(1) to give the run a terminal (bsdutils)"
		return
	fi
	short="$program latency --max-size 64K -n 3 --sample-time 100 --json $work/p.json"
	script -qec "$short" /dev/null </dev/null >"$work/tty" 2>"$work/err"
	status=$?
	if [ "$status" -eq 0 ] &&
	   grep -q '\[ *[0-9]*%\] latency: chase [0-9]* KiB, about [0-9]* s left' "$work/tty"; then
		ok "progress: shown with the time left when stderr is a terminal"
	else
		not_ok "progress: shown with the time left when stderr is a terminal" \
			"exit status $status" "$(head -c 600 "$work/tty")"
	fi
	TERM=dumb script -qec "$short" /dev/null </dev/null >"$work/tty" 2>"$work/err"
	status=$?
	if [ "$status" -eq 0 ] && grep -q '%\]' "$work/tty" &&
	   ! grep -q "$(printf '\033')" "$work/tty"; then
		ok "progress: no escape sequence on a dumb terminal"
	else
		not_ok "progress: no escape sequence on a dumb terminal" \
			"exit status $status" "$(head -c 600 "$work/tty" | cat -v)"
	fi
	# The c2c matrix colours its cells on a terminal, but not a dumb one.
	if [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ]; then
		c2c="$program c2c --mode user --cpus 0,1 --budget 0.2 --verbose"
		script -qec "$c2c" /dev/null </dev/null >"$work/tty" 2>"$work/err"
		coloured=$(grep -c "$(printf '\033')\[48;5;" "$work/tty")
		TERM=dumb script -qec "$c2c" /dev/null </dev/null >"$work/tty" 2>"$work/err"
		status=$?
		if [ "$status" -eq 0 ] && [ "$coloured" -gt 0 ] &&
		   grep -q "round trip" "$work/tty" &&
		   ! grep -q "$(printf '\033')" "$work/tty"; then
			ok "c2c: matrix coloured on a terminal, no escape on a dumb one"
		else
			not_ok "c2c: matrix coloured on a terminal, no escape on a dumb one" \
				"exit status $status, coloured lines $coloured" "$(head -c 600 "$work/tty" | cat -v)"
		fi
	fi
	script -qec "$short --quiet" /dev/null </dev/null >"$work/tty" 2>"$work/err"
	status=$?
	if [ "$status" -eq 0 ] && ! grep -q '%\]' "$work/tty"; then
		ok "progress: none on a terminal with --quiet"
	else
		not_ok "progress: none on a terminal with --quiet" \
			"exit status $status" "$(head -c 600 "$work/tty")"
	fi
	run latency --max-size 64K -n 3 --sample-time 100 --json "$work/p.json"
	if [ "$status" -eq 0 ] && ! grep -q '%\]' "$work/err" &&
	   grep -q 'chase 64 KiB' "$work/out"; then
		ok "progress: none when stderr is not a terminal"
	else
		not_ok "progress: none when stderr is not a terminal" "exit status $status"
	fi
}

# A fake cpufreq tree under $1 as --tune reads it: two online CPUs with
# governors powersave and schedutil, and turbo on through intel_pstate's
# no_turbo (or, with $2 = boost, through cpufreq's boost as on AMD).
make_cpufreq_tree() {
	cpu_dir="$1/sys/devices/system/cpu"
	mkdir -p "$cpu_dir/cpu0/cpufreq" "$cpu_dir/cpu1/cpufreq"
	echo 0-1 >"$cpu_dir/online"
	echo powersave >"$cpu_dir/cpu0/cpufreq/scaling_governor"
	echo schedutil >"$cpu_dir/cpu1/cpufreq/scaling_governor"
	if [ "${2:-}" = boost ]; then
		mkdir -p "$cpu_dir/cpufreq"
		echo 1 >"$cpu_dir/cpufreq/boost"
	else
		mkdir -p "$cpu_dir/intel_pstate"
		echo 0 >"$cpu_dir/intel_pstate/no_turbo"
	fi
}

# The tree's settings on one line: governors of CPUs 0 and 1, then the
# turbo control (no_turbo or boost, whichever the tree has).
cpufreq_state() {
	cpu_dir="$1/sys/devices/system/cpu"
	printf '%s %s %s\n' "$(cat "$cpu_dir/cpu0/cpufreq/scaling_governor")" \
		"$(cat "$cpu_dir/cpu1/cpufreq/scaling_governor")" \
		"$(cat "$cpu_dir/intel_pstate/no_turbo" "$cpu_dir/cpufreq/boost" 2>/dev/null)"
}

# --tune on a fake tree (CACHEPROBE_TUNE_ROOT): the run ends well, then
# with an area's error; the tree is as before each time.
tune_restore_cases() {
	for kind in no_turbo boost; do
		tree="$work/tune-$kind"
		make_cpufreq_tree "$tree" "$kind"
		before=$(cpufreq_state "$tree")
		CACHEPROBE_TUNE_ROOT=$tree run latency --tune --max-size 8K \
			-n 3 --sample-time 100 --quiet
		after=$(cpufreq_state "$tree")
		if [ "$status" -eq 0 ] && [ "$after" = "$before" ] &&
		   [ ! -s "$work/err" ]; then
			ok "--tune ($kind): restored after a normal run"
		else
			not_ok "--tune ($kind): restored after a normal run" \
				"exit status $status, before: $before, after: $after"
		fi
	done
	tree="$work/tune-error"
	make_cpufreq_tree "$tree"
	before=$(cpufreq_state "$tree")
	run info
	if grep -q '^module: not loaded (' "$work/out"; then
		CACHEPROBE_TUNE_ROOT=$tree run align --mode kernel \
			--access-widths 8 --tune --quiet
		after=$(cpufreq_state "$tree")
		if [ "$status" -eq 1 ] && [ "$after" = "$before" ] &&
		   grep -q 'module not loaded' "$work/err"; then
			ok "--tune: restored after an area's error"
		else
			not_ok "--tune: restored after an area's error" \
				"exit status $status, before: $before, after: $after"
		fi
	else
		skip "the module is loaded here: no area error to provoke"
	fi
	tune_signal_case INT 2 no_turbo
	tune_signal_case TERM 15 no_turbo
	tune_signal_case HUP 1 boost
}

# --tune on a fake tree whose turbo control is $3 (no_turbo or boost),
# stopped by signal $1 (number $2) mid-run: tuned while it runs (turbo
# off: no_turbo 1, boost 0), restored after, partial results written.
tune_signal_case() {
	sig_name=$1 sig_number=$2 kind=$3
	tree="$work/tune-$sig_name"
	make_cpufreq_tree "$tree" "$kind"
	tuned="performance performance 1"
	[ "$kind" = boost ] && tuned="performance performance 0"
	before=$(cpufreq_state "$tree")
	# At least 18 s of samples (see interrupt_case): still running when
	# the tuning shows, however long a busy machine takes to get there.
	CACHEPROBE_TUNE_ROOT=$tree $as_foreground "$program" latency --tune \
		--quiet --max-size 128M --sample-time 20000 \
		--json "$work/tune-$sig_name.json" >"$work/out" 2>"$work/err" &
	pid=$!
	tenths=0
	during=$(cpufreq_state "$tree")
	while [ "$during" != "$tuned" ] && [ "$tenths" -lt 100 ]; do
		sleep 0.1
		tenths=$((tenths + 1))
		during=$(cpufreq_state "$tree")
	done
	kill -"$sig_name" "$pid"
	wait "$pid"
	status=$?
	after=$(cpufreq_state "$tree")
	if [ "$during" = "$tuned" ]; then
		ok "--tune ($kind), SIG$sig_name case: tuned during the run"
	else
		not_ok "--tune ($kind), SIG$sig_name case: tuned during the run" \
			"during: $during"
	fi
	if [ "$status" -eq $((128 + sig_number)) ] &&
	   [ "$after" = "$before" ] &&
	   grep -q '"interrupted":true' "$work/tune-$sig_name.json"; then
		ok "--tune: restored after SIG$sig_name, partial results written"
	else
		not_ok "--tune: restored after SIG$sig_name, partial results written" \
			"exit status $status, before: $before, after: $after"
	fi
}

# coldcache: its options refused before anything runs, and on this
# machine the verdicts agree with what each method must do.
coldcache_usage_cases() {
	expect "coldcache: unknown method" 2 err \
		"--methods: unknown method 'wbinvdd' (methods: warm, garbage-naive" \
		-- coldcache --methods warm,wbinvdd
	expect "coldcache: method twice" 2 err \
		"--methods: method 'clflush' is named twice" \
		-- coldcache --methods clflush,clflush
	expect "coldcache: zero factor" 2 err \
		"--factor: 0 is out of range (above 0, at most 64)" \
		-- coldcache --factor 0
	expect "coldcache: factor not a number" 2 err \
		"--factor: 'two' is not a number" -- coldcache --factor two
	expect "coldcache: zero repeats" 2 err \
		"--repeats: 0 is out of range (1 to 10000)" \
		-- coldcache --repeats 0
	expect "coldcache: 1 GiB pages" 2 err \
		"--pages: coldcache takes 4k or 2m" -- coldcache --pages 1g
	# A topology without caches is refused before anything is written.
	mkdir "$work/cold"
	use_topology "pack:1 core:$(cpu_count) pu:1"
	expect "coldcache: refused without a data cache" 2 err \
		"coldcache: the topology shows no data cache" \
		-- coldcache --json "$work/cold/r.json" --csv "$work/cold/r.csv"
	host_topology
	if [ -z "$(ls -A "$work/cold")" ]; then
		ok "coldcache: refused run leaves no file"
	else
		not_ok "coldcache: refused run leaves no file" "left: $(ls -A "$work/cold")"
	fi
	run info
	if grep -q '^module: not loaded (' "$work/out"; then
		expect "coldcache --mode kernel without the module" 1 err \
			"coldcache: --mode kernel: cacheprobe module not loaded" \
			-- coldcache --mode kernel --max-size 1M
		expect "coldcache: a method asked for that cannot run" 1 err \
			"coldcache: --methods wbinvd: cacheprobe module not loaded" \
			-- coldcache --methods warm,wbinvd --max-size 64K \
			--json "$work/cold-failed.json"
		if grep -q '"interrupted":true' "$work/cold-failed.json" &&
		   grep -q '"interrupted_reason":"coldcache: --methods wbinvd: ' \
			"$work/cold-failed.json"; then
			ok "coldcache: the failed run's file is marked interrupted, with the reason"
		else
			not_ok "coldcache: the failed run's file is marked interrupted, with the reason"
		fi
		if ! grep -q "residual warmth" "$work/out"; then
			ok "coldcache: nothing measured before the refusal"
		else
			not_ok "coldcache: nothing measured before the refusal"
		fi
		# Methods the default run cannot use are the area's notes,
		# not warnings of a measurement that has nothing to do with
		# them.
		expect "coldcache: a method that cannot run is a note" 0 out \
			"  note: wbinvd unavailable: cacheprobe module not loaded" \
			-- coldcache --repeats 2 --max-size 32K \
			--json "$work/cold-notes.json"
		if ! grep -q "line timer floor: .*unavailable" "$work/out" &&
		   python3 - "$work/cold-notes.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
notes = [n["note"] for n in run["area_notes"] if n["area"] == "coldcache"]
warned = [w for m in run["measurements"] for w in m["warnings"]
          if "unavailable" in w or "classifier level" in w]
sys.exit(not (any(n.startswith("wbinvd unavailable: ") for n in notes)
              and any(n.startswith("classifier level L1d") for n in notes)
              and not warned))
PY
		then
			ok "coldcache: notes in the JSON's area_notes, no measurement warned"
		else
			not_ok "coldcache: notes in the JSON's area_notes, no measurement warned"
		fi
	else
		skip "the module is loaded here"
		skip "the module is loaded here"
		skip "the module is loaded here"
		skip "the module is loaded here"
		skip "the module is loaded here"
	fi
}

# The working-set sizes (size_bytes) of the "first pass" rows of $1.
cold_sizes() {
	sed -n 's/.* first pass,user,size_bytes=\([0-9]*\)[;,].*/\1/p' "$1" |
		sort -nu | tr '\n' ' ' | sed 's/ $//'
}

# Sizes no default working set takes (they lie between half of L2 and the
# last level's) are measured themselves when given as both bounds, and a
# bound is rounded down to whole lines.
coldcache_bounds_cases() {
	ws=$(half_l2_bytes)
	if [ -z "$ws" ]; then
		not_ok "coldcache: the topology shows an L2" "info has no L2 line"
		return
	fi
	one=$((ws + 192))
	run coldcache --methods warm --repeats 1 --quiet \
		--min-size "$((one + 10))" --max-size "$((one + 10))" \
		--csv "$work/bounds.csv"
	if [ "$status" -eq 0 ] && [ "$(cold_sizes "$work/bounds.csv")" = "$one" ]; then
		ok "coldcache: equal bounds measure that size, in whole lines ($one bytes)"
	else
		not_ok "coldcache: equal bounds measure that size, in whole lines" \
			"exit status $status, sizes '$(cold_sizes "$work/bounds.csv")', expected '$one'"
	fi
	two=$((ws + 384))
	run coldcache --methods warm --repeats 1 --quiet \
		--min-size "$one" --max-size "$two" --csv "$work/bounds.csv"
	if [ "$status" -eq 0 ] &&
	   [ "$(cold_sizes "$work/bounds.csv")" = "$one $two" ]; then
		ok "coldcache: bounds around no default measure both"
	else
		not_ok "coldcache: bounds around no default measure both" \
			"exit status $status, sizes '$(cold_sizes "$work/bounds.csv")', expected '$one $two'"
	fi
	run coldcache --methods warm --repeats 1 --quiet --min-size "$ws" \
		--max-size "$ws" --csv "$work/bounds.csv"
	if [ "$status" -eq 0 ] && [ "$(cold_sizes "$work/bounds.csv")" = "$ws" ]; then
		ok "coldcache: bounds on a default measure that default ($ws bytes)"
	else
		not_ok "coldcache: bounds on a default measure that default" \
			"exit status $status, sizes '$(cold_sizes "$work/bounds.csv")', expected '$ws'"
	fi
	# --pages: the working sets (and the calibration) on the first named.
	run coldcache --methods warm --repeats 1 --quiet --pages 4k,2m \
		--min-size "$ws" --max-size "$ws" --json "$work/pages.json"
	if [ "$status" -eq 0 ] &&
	   grep -q '"page_bytes":4096' "$work/pages.json"; then
		ok "coldcache: --pages 4k,2m works on 4 KiB pages"
	else
		not_ok "coldcache: --pages 4k,2m works on 4 KiB pages" \
			"exit status $status; $(grep -o '"page_bytes":[0-9]*' "$work/pages.json")"
	fi
}

# The value of parameter $2 in the CSV row of measurement $1.
csv_param() {
	grep -F ",$1,user," "$work/cold.csv" | sed -n "s/.*[,;]$2=\(-\{0,1\}[0-9]*\).*/\1/p"
}

# The L2 and L3 sizes the tool sees, with env's options @ (e.g. -u VAR).
cache_sizes() {
	env "$@" "$program" info 2>/dev/null |
		sed -n 's/^  \(L[23]\): \([0-9]* [KMG]iB\),.*/\1 \2/p' |
		paste -s -d ' '
}

# Whether the topology in use has this machine's L2 and L3: a synthetic
# one that does not (other_topologies.sh) puts the classifier's levels
# where the machine has no cache, and what it classifies says nothing.
caches_are_real() {
	[ "$(cache_sizes)" = "$(cache_sizes -u HWLOC_SYNTHETIC -u HWLOC_XMLFILE)" ]
}

# 20 repetitions on the half-L2 working set; medians, not single samples,
# so that a busy machine does not fail the test.  After clflush the first
# pass itself brings lines back on some machines (prefetchers): an idle
# AMD EPYC guest found 0 to 14.5 % of them cached in 12 runs, an Intel
# Xeon about 0.3 %.  What the tool must show is flushed far from warm: at
# most a third of warm's share.
coldcache_host_case() {
	local real=no

	ws=$(half_l2_bytes)
	caches_are_real && real=yes
	# A machine busy enough to evict L2 between the warm-up and the pass
	# can only make warm look colder: up to three attempts.
	for attempt in 1 2 3; do
		run coldcache --methods warm,clflush,garbage-planned \
			--min-size "$ws" --max-size "$ws" --repeats 20 --quiet \
			--csv "$work/cold.csv"
		if [ "$status" -ne 0 ]; then
			not_ok "coldcache: host run" "exit status $status"
			return
		fi
		label=$(size_label "$work/cold.csv" warm "$ws")
		warm=$(csv_param "warm $label first pass" cached_median_ppm)
		flushed=$(csv_param "clflush $label first pass" cached_median_ppm)
		planned=$(csv_param "garbage-planned $label first pass" cached_median_ppm)
		[ "$real" = no ] && break
		[ -n "$warm" ] && [ "$warm" -ge 900000 ] &&
			[ -n "$flushed" ] && [ $((3 * flushed)) -le "$warm" ] &&
			break
	done
	if [ "$real" = no ]; then
		skip "coldcache: warm and clflush classified: the topology ($(cache_sizes)) is not this machine's ($(cache_sizes -u HWLOC_SYNTHETIC -u HWLOC_XMLFILE)), so the classifier's levels are not its caches"
	elif [ -n "$warm" ] && [ "$warm" -ge 900000 ]; then
		ok "coldcache: warm keeps the working set in cache ($warm ppm)"
	else
		not_ok "coldcache: warm keeps the working set in cache" "median ${warm:-missing} ppm"
	fi
	if [ "$real" = no ]; then
		:
	elif [ -n "$flushed" ] && [ $((3 * flushed)) -le "$warm" ]; then
		ok "coldcache: clflush leaves most of it in memory ($flushed ppm cached, warm $warm)"
	else
		not_ok "coldcache: clflush leaves most of it in memory" "median ${flushed:-missing} ppm cached, warm ${warm:-missing}"
	fi
	# How much garbage evicts depends on the machine's cache policy, so
	# the warmth it leaves is a figure to read, not a pass/fail here; what
	# the tool controls is reading the planned factor (4) times the LLC.
	echo "# garbage-planned $label first pass: median ${planned:-missing} ppm cached"
	llc=$(llc_bytes)
	read_bytes=$(grep -F ",garbage-planned $label evict,user," "$work/cold.csv" |
		sed -n 's/.*bytes_read=\([0-9]*\).*/\1/p')
	if [ -n "$llc" ] && [ -n "$read_bytes" ] &&
	   [ "$read_bytes" -ge $((4 * llc)) ]; then
		ok "coldcache: garbage-planned reads 4x the last-level cache ($read_bytes bytes)"
	else
		not_ok "coldcache: garbage-planned reads 4x the last-level cache" \
			"read ${read_bytes:-missing} bytes, LLC ${llc:-missing}"
	fi
}

# --sweep-factor: naive measured once at the sweep's size, beside every
# factor, and the targets block names what the comparison found.
coldcache_sweep_case() {
	ws=$(half_l2_bytes)
	run coldcache --methods garbage-naive,garbage-planned --min-size "$ws" \
		--max-size "$ws" --repeats 2 --sweep-factor --csv "$work/sweep.csv"
	if [ "$status" -ne 0 ]; then
		not_ok "coldcache: sweep run" "exit status $status"
		return
	fi
	label=$(size_label "$work/sweep.csv" garbage-naive "$ws")
	naive_rows=$(grep -cF ",garbage-naive $label first pass,user," "$work/sweep.csv")
	missing=""
	for factor in 0.25 0.5 0.75 1 2 4; do
		grep -qF ",garbage-planned x$factor $label first pass,user," \
			"$work/sweep.csv" || missing="$missing x$factor"
	done
	if [ "$naive_rows" -eq 1 ] && [ -z "$missing" ]; then
		ok "coldcache: the sweep has naive once and every factor"
	else
		not_ok "coldcache: the sweep has naive once and every factor" \
			"naive rows $naive_rows, missing:${missing:- none}"
	fi
	# Every row of the table has the same columns: a parameter of the
	# sweep's own must not be taken for a cache level's share.
	shares=$(grep -E "^  garbage-(naive|planned x[0-9.]+) $label  " "$work/out" |
		awk '{ n = 0; for (i = 1; i <= NF; i++)
			if ($i ~ /^([0-9.]+%|merged)$/) n++; print n }' | sort -u)
	if [ "$(printf '%s\n' "$shares" | wc -l)" -eq 1 ] && [ -n "$shares" ]; then
		ok "coldcache: the sweep's rows have naive's columns"
	else
		not_ok "coldcache: the sweep's rows have naive's columns" \
			"share columns per row: $(echo $shares)"
	fi
	if grep -q "the sweep, side by side with naive" "$work/out" &&
	   grep -q "nearest naive's bytes: garbage-planned x" "$work/out" &&
	   grep -q "turn by turn against naive: less cached in" "$work/out"; then
		ok "coldcache: the targets compare the sweep with naive"
	else
		not_ok "coldcache: the targets compare the sweep with naive" \
			"$(grep -A3 'coldcache targets' "$work/out")"
	fi
}

# c2c in user mode on CPUs 0 and 1: --samples is taken as given (70
# samples of 16 lines wrap the 1024-line pool), and without it the
# budget's share buys more samples than the default 15.
c2c_user_cases() {
	pair=$(cpu_pair)
	run c2c --mode user --cpus "$pair" -n 70 --csv "$work/c2c70.csv"
	counts=$(awk -F, '$1 == "c2c" && $3 == "user" && $8 > 0 { print $5 }' \
		"$work/c2c70.csv" | sort -u)
	rows=$(grep -c '^c2c,' "$work/c2c70.csv")
	if [ "$status" -eq 0 ] && [ "$counts" = 70 ] && [ "$rows" -eq 2 ]; then
		ok "c2c user: -n 70 gives 70 samples per variant past the pool's end"
	else
		not_ok "c2c user: -n 70 gives 70 samples per variant past the pool's end" \
			"status $status, rows $rows, samples: $(echo $counts)"
	fi
	# Rounds: 71 samples over 5 rounds are 4 of 15 and a last of 11, all
	# kept and marked as rounds, each variant's.
	run c2c --mode user --cpus "$pair" -n 71 --rounds 5 \
		--json "$work/c2c71.json" --csv "$work/c2c71.csv"
	rounds=$(grep -o '"samples_per_round":15' "$work/c2c71.json" | wc -l)
	counts=$(awk -F, '$1 == "c2c" && $3 == "user" && $5 == 71' \
		"$work/c2c71.csv" | wc -l)
	if [ "$status" -eq 0 ] && [ "$rounds" -eq 2 ] && [ "$counts" -eq 2 ] &&
	   ! grep -q '"interrupted":true' "$work/c2c71.json"; then
		ok "c2c user: -n 71 --rounds 5 keeps 71 samples in rounds of 15"
	else
		not_ok "c2c user: -n 71 --rounds 5 keeps 71 samples in rounds of 15" \
			"status $status, rounds of 15: $rounds, 71 samples: $counts"
	fi
	run c2c --mode user --cpus "$pair" --budget 1 --csv "$work/c2cb.csv"
	counts=$(awk -F, '$1 == "c2c" && $3 == "user" { print $5 }' \
		"$work/c2cb.csv")
	low=$(printf '%s\n' $counts | awk '$1 <= 15 || $1 > 10000' | wc -l)
	if [ "$status" -eq 0 ] && [ -n "$counts" ] && [ "$low" -eq 0 ]; then
		ok "c2c user: the budget buys 16 to 10000 samples per variant"
	else
		not_ok "c2c user: the budget buys 16 to 10000 samples per variant" \
			"status $status, samples: $(echo $counts)"
	fi
}

# Size in bytes of the cache $1 (L2, L1d, ...) `info` reports first, or of
# the largest data/unified cache when $1 is empty.
cache_bytes() {
	run info
	awk -v want="$1" '/^  L[0-9][du]?: / {
		name = $1; sub(/:$/, "", name)
		n = $2; u = $3; sub(/,$/, "", u)
		m = (u == "KiB") ? 1024 : (u == "MiB") ? 1048576 : (u == "GiB") ? 1073741824 : 1
		if (want == "" && n * m > best) best = n * m
		if (want == name && !best) best = n * m
	} END { if (best) printf "%d\n", best }' "$work/out"
}

# Half of L2 in whole lines: the working set the coldcache host tests use,
# the one where warm and evicted differ most on any machine.
half_l2_bytes() {
	l2=$(cache_bytes L2)
	[ -n "$l2" ] && echo $((l2 / 2 / 64 * 64))
}

# The label ("512 KiB") the tool gave the $3-byte working set of method $2
# in the CSV file $1.
size_label() {
	sed -n "s/^coldcache,$2 \([^,]*\) first pass,user,size_bytes=$3[;,].*/\1/p" "$1" |
		head -n 1
}

# How many CPUs `info` reports.
cpu_count() {
	run info
	sed -n 's/^  cpus: \([0-9]*\) .*/\1/p' "$work/out"
}

# The first CPU pair `info` names among its pair classes, as "A,B".
cpu_pair() {
	run info
	sed -n 's/^  cpu pair classes: [^ ]* \([0-9]*\):\([0-9]*\).*/\1,\2/p' \
		"$work/out"
}

# Size in bytes of the largest data/unified cache `info` reports.
llc_bytes() {
	cache_bytes ""
}

usage_cases
run_usage_cases
coldcache_usage_cases
coldcache_bounds_cases
coldcache_host_case
coldcache_sweep_case
c2c_user_cases
tune_case
no_partial_output_cases
run_cases
interrupt_case INT 2
interrupt_case TERM 15
interrupt_case HUP 1
nohup_case
tune_restore_cases
progress_cases
bench_case
help_cases
synthetic_topology_cases
module_absent_cases
echo "1..$number"
[ "$failures" -eq 0 ]
