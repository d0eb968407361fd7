#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bad command lines, one table row each: cacheprobe-run must refuse every
# one with the exit status of the row (2: misuse), a message on stderr
# that names the problem (the row's regular expression), nothing on
# stdout, and no output file created or touched.  Prints TAP.
#
# Usage: cli_table.sh PATH-OF-cacheprobe-run
#
# The scratch directory holds two result files from "before" (old.json,
# old.csv) and a subdirectory; after every row its listing and the files'
# contents must be exactly as they were.  The FILES column says which
# output options a row gets on top of its own arguments:
#   new   --json SCRATCH/new.json --csv SCRATCH/new.csv (must not appear)
#   old   --json SCRATCH/old.json --csv SCRATCH/old.csv (must stay intact)
#   -     none (the row's arguments name any output files themselves)
# A row that measures instead of refusing is stopped after 20 s and fails.

program=${1:?usage: cli_table.sh PATH-OF-cacheprobe-run}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
scratch=$work/scratch
fixtures=$work/fixtures
# The scratch directory as every row must leave it.
make_scratch() {
	rm -rf "$scratch"
	mkdir -p "$scratch/dir"
	echo '{"old":"json"}' >"$scratch/old.json"
	echo 'old,csv' >"$scratch/old.csv"
}
make_scratch
mkdir -p "$fixtures"
snapshot() {
	(cd "$scratch" && find . -printf '%p %y %s\n' | LC_ALL=C sort &&
		cat old.json old.csv)
}
before=$(snapshot)

number=0
failures=0

# row STATUS FILES REGEX ARG...
row() {
	local want=$1 files=$2 regex=$3 status why=
	shift 3
	case $files in
	new) set -- "$@" --json "$scratch/new.json" --csv "$scratch/new.csv" ;;
	old) set -- "$@" --json "$scratch/old.json" --csv "$scratch/old.csv" ;;
	esac
	timeout 20 "$program" "$@" >"$work/out" 2>"$work/err" </dev/null
	status=$?
	if [ "$status" -ne "$want" ]; then
		why="exit status $status, expected $want"
	elif ! grep -Eq -- "^cacheprobe-run: .*$regex" "$work/err"; then
		why="stderr does not match: $regex"
	elif [ -s "$work/out" ]; then
		why="stdout is not empty"
	elif [ "$(snapshot)" != "$before" ]; then
		why="the scratch directory changed: $(cd "$scratch" && ls -A)"
	fi
	number=$((number + 1))
	if [ -z "$why" ]; then
		echo "ok $number - $* -> $want"
		return
	fi
	failures=$((failures + 1))
	echo "not ok $number - $* -> $want"
	echo "# $why"
	sed 's/^/# stdout: /' "$work/out" | head -n 5
	sed 's/^/# stderr: /' "$work/err" | head -n 5
	make_scratch
}

# Result files for compare: broken in every way a file can be.
printf '{"schema":"cacheprobe-results/1","measurements":[' >"$fixtures/truncated.json"
: >"$fixtures/empty.json"
printf 'not json at all\n' >"$fixtures/text.json"
printf '\x00\x01\x02\xff' >"$fixtures/binary.json"
echo '[1,2,3]' >"$fixtures/array.json"
echo '{"schema":"cacheprobe-results/1","measurements":[]} {}' >"$fixtures/twice.json"
echo '{"schema":"other-tool/1","measurements":[]}' >"$fixtures/schema.json"
echo '{"schema":"cacheprobe-results/99","measurements":[]}' >"$fixtures/future.json"
echo '{"schema":"cacheprobe-results/1"}' >"$fixtures/nomeasurements.json"
echo '{"schema":"cacheprobe-results/1","measurements":{}}' >"$fixtures/notarray.json"
echo '{"schema":"cacheprobe-results/1","measurements":[42]}' >"$fixtures/item.json"
mkdir "$fixtures/adir.json"
echo 'null' >"$fixtures/null.json"
# Found by the split that reads measurements one at a time, then refused
# by json-c with the byte where the whole document goes wrong.
echo '{"schema":"cacheprobe-results/1","measurements":[{"area":"latency" "name":"x"}]}' \
	>"$fixtures/bad-element.json"
echo '42' >"$fixtures/number.json"
# One measurement of a valid file, its samples (ns then ticks) and name
# chosen by the caller.
measurement_file() {
	printf '{"schema":"cacheprobe-results/1","measurements":[%s]}\n' \
		"$(measurement "$@")"
}
measurement() {
	printf '{"area":"latency","name":"%s","mode":"user",' "$1"
	printf '"samples_ns":[%s],"samples_ticks":[%s]}' "$2" "$3"
}
measurement_file 'chase 4 KiB' '1.5,NaN,1.5' '3,3,3' >"$fixtures/nan.json"
measurement_file 'chase 4 KiB' '1.5,1.5' '3,Infinity' >"$fixtures/inf.json"
measurement_file 'chase 4 KiB' '1.5,null' '3,3' >"$fixtures/null-sample.json"
measurement_file 'chase 4 KiB' '' '' >"$fixtures/no-samples.json"
long_name=$(printf 'chase %058d' 0)	# 64 characters: one too many
measurement_file "$long_name" '1.5' '3' >"$fixtures/long-name.json"
printf '{"schema":"cacheprobe-results/1","measurements":[%s,%s,%s]}\n' \
	"$(measurement 'chase 4 KiB' 1.5 3)" "$(measurement 'chase 8 KiB' 1.5 3)" \
	"$(measurement 'chase 4 KiB' 1.6 3)" >"$fixtures/twice-named.json"

f=$fixtures s=$scratch
huge=1048576G # a pebibyte: more memory than any machine running this

# --- commands, areas, options ------------------------------------------
row 2 - "unknown command 'frobnicate'"               frobnicate
row 2 - "unknown option '--frob'"                    --frob
row 2 new "unknown area 'frob'.*areas: latency"      run latency frob
row 2 new "area 'latency' is named twice"            latency latency
row 2 new "option '--frob' is unknown"               latency --frob
row 2 - "info: option '--bogus' is unknown"          info --bogus
row 2 - "info: unexpected argument 'extra'"          info extra
row 2 - "flush: unexpected argument '0-3'"           flush 0-3
row 2 - "compare: option '--frob' is unknown"        compare --frob a b
row 2 new "bench: takes no area"                     bench latency
# --- missing option arguments --------------------------------------------
row 2 - "option '--samples' needs a value"           latency --samples
row 2 - "option '--json' needs a value"              latency --json
row 2 - "option '--csv' needs a value"               latency --csv
row 2 - "option '-c' needs a value"                  flush -c
row 2 - "option '--transport' needs a value"         info --transport
# --- numbers ------------------------------------------------------------
row 2 new "--samples: 'many' is not a number"        latency --samples many
row 2 new "--samples: '5x' is not a number"          latency --samples 5x
row 2 new "--samples: '0x10' is not a number"        latency --samples 0x10
row 2 new "--samples: empty value"                   latency --samples ''
row 2 new "--samples: '-3' is not a number"          latency --samples -3
row 2 new "--samples: 0 is out of range"             latency --samples 0
row 2 new "--samples: 100001 is out of range"        latency --samples 100001
row 2 new "--samples: 99999999999999999999 is out of range" \
	latency --samples 99999999999999999999
row 2 new "--seed: 18446744073709551616 is out of range" \
	latency --seed 18446744073709551616
row 2 new "--count: 4294967296 is out of range"      latency --count 4294967296
row 2 new "--count: 0 is out of range"               latency --count 0
row 2 new "--sample-time: 0 is out of range"         latency --sample-time 0
row 2 new "--sample-time: '1.5' is not a number"     latency --sample-time 1.5
row 2 new "--threads: 1 is out of range \(2 to 64\)" bounce --threads 1
row 2 new "--threads: 65 is out of range \(2 to 64\)" bounce --threads 65
row 2 new "--repeats: 0 is out of range"             coldcache --repeats 0
row 2 new "--factor: 0 is out of range"              coldcache --factor 0
row 2 new "--factor: -1 is out of range|--factor: '-1' is not"  coldcache --factor -1
row 2 new "--factor: 'nan' is not a number"          coldcache --factor nan
row 2 new "--factor: 'inf' is not a number"          coldcache --factor inf
row 2 new "--factor: '1e999' is not a number"        coldcache --factor 1e999
row 2 new "--factor: 65 is out of range"             coldcache --factor 65
# --- sizes --------------------------------------------------------------
row 2 new "--max-size: 0 is too small"               latency --max-size 0
row 2 new "--max-size: 127 is too small"             latency --max-size 127
row 2 new "--min-size: '-4K' is not a size"          latency --min-size -4K
row 2 new "--min-size: 'big' is not a size"          latency --min-size big
row 2 new "--max-size: unknown unit 'Q'"             latency --max-size 12Q
row 2 new "--max-size: unknown unit 'T'"             latency --max-size 1T
row 2 new "--max-size: unknown unit 'K5'"            latency --max-size 4K5
row 2 new "--max-size: size '99999999999999999999' is too large" \
	latency --max-size 99999999999999999999
row 2 new "--max-size: size '17179869185G' is too large" \
	latency --max-size 17179869185G
row 2 new "--max-size: $huge is more than this machine's memory" \
	latency --max-size "$huge"
row 2 new "--min-size: $huge is more than this machine's memory" \
	coldcache --min-size "$huge"
row 2 new "--min-size is above --max-size"           latency --min-size 1M --max-size 64K
row 2 new "--distances '70000': distance 70000 is above the maximum" \
	bounce --distances 70000
row 2 new "--distances '-8': '-8' is not a distance" bounce --distances -8
row 2 new "distance 14 is not a multiple of the counter width 4" \
	bounce --distances 4,14 --width 4
row 2 new "--width '2': '2' is not a counter width"  bounce --width 2
row 2 new "--width '': empty list of widths"         bounce --width ''
row 2 new "--distances '64,': empty item"            bounce --distances 64,
# --- CPUs ---------------------------------------------------------------
row 2 new "--cpus '4000': CPU 4000 does not exist \(online CPUs: " \
	latency --cpus 4000
row 2 new "--cpus '9999': CPU 9999 is beyond the limit of 8191" \
	latency --cpus 9999
row 2 new "--cpus '0,0': CPU 0 is selected twice"    bounce --cpus 0,0
row 2 new "--cpus '1,1': CPU 1 is selected twice"    latency --cpus 1,1
row 2 new "--cpus '3-': '3-' is not a CPU, range or pick" latency --cpus 3-
row 2 new "--cpus ',': empty item"                   latency --cpus ,
row 2 new "--cpus '-1': '-1' is not a CPU"           latency --cpus -1
row 2 new "--cpus: empty CPU selection"              latency --cpus ''
row 2 new "--cpus 'per-frob': 'per-frob' is not a CPU, range or pick" \
	latency --cpus per-frob
row 2 - "--cpus '5-2': range 5-2 is reversed"        flush --cpus 5-2
row 2 - "--cpus '0, 1': unexpected space"            flush --cpus '0, 1'
row 2 - "CPU 1 is listed twice"                      flush --cpus 1,0-2
row 2 - "CPU id 8192 is too large"                   flush --cpus 8192
# --- mode, transport, method --------------------------------------------
row 2 new "--mode: unknown value 'kern' \(valid: user, kernel, both\)" \
	latency --mode kern
row 2 new "--mode: unknown value '' "                latency --mode ''
row 2 new "--transport: unknown value 'smoke' \(valid: auto, netlink, ioctl\)" \
	latency --transport smoke
row 2 - "--transport: unknown value 'smoke'"         info -t smoke
row 2 - "--method: unknown value 'clflush'"          flush --method clflush
row 2 new "--methods: unknown method 'wbinvdd'"      coldcache --methods wbinvdd
row 2 new "--ops 'lock': 'lock' is not an increment kind" bounce --ops lock
# --- output files -------------------------------------------------------
row 2 - "--json: empty file name"                    latency --json ''
row 2 - "--csv: empty file name"                     latency --csv=
row 2 - "--json and --csv name the same file"        latency --json "$s/x" --csv "$s/x"
row 2 - "--json and --csv name the same file"        latency --json "$s/x" --csv "$s/./x"
row 2 - "--json and --csv name the same file"        latency --json "$s/dir/../x" --csv "$s/x"
row 2 - "--json and --csv both write to standard output" latency --json - --csv -
row 2 - "--json: cannot write '$s/none/r.json': No such file or directory" \
	latency --json "$s/none/r.json"
row 2 - "--csv: cannot write '$s/old.json/r.csv': Not a directory" \
	latency --csv "$s/old.json/r.csv"
row 2 - "--json: cannot write '$s/dir': Is a directory" \
	latency --json "$s/dir"
row 2 - "--csv: cannot write '$s/dir/': Is a directory" \
	latency --csv "$s/dir/"
row 2 - "--json: cannot write '/proc/cacheprobe-r.json'" \
	latency --json /proc/cacheprobe-r.json
# Misuse found after the outputs were opened must not leave them behind
# (nor a temporary file) and must not touch older results.
row 2 old "--cpus '4000': CPU 4000 does not exist"   latency --cpus 4000
row 2 old "--samples: 0 is out of range"             latency --samples 0
row 2 old "--max-size: $huge is more than"           latency --max-size "$huge"
# --- compare ------------------------------------------------------------
row 2 - "needs two result files \(baseline and new\), got 1" compare "$f/array.json"
row 2 - "needs two result files \(baseline and new\), got 3" \
	compare "$f/array.json" "$f/array.json" "$f/array.json"
row 2 - "cannot read $f/missing.json: No such file or directory" \
	compare "$f/missing.json" "$f/array.json"
row 2 - "cannot read $f/adir.json: Is a directory"             compare "$f/adir.json" "$f/array.json"
row 2 - "$f/empty.json: the file is empty"                  compare "$f/empty.json" "$f/array.json"
row 2 - "$f/truncated.json: not valid JSON: the file ends in the middle"      compare "$f/truncated.json" "$f/array.json"
row 2 - "$f/text.json: not valid JSON: .* at byte 1"      compare "$f/text.json" "$f/array.json"
row 2 - "$f/binary.json: not valid JSON: .* at byte 0"     compare "$f/binary.json" "$f/array.json"
row 2 - "$f/twice.json: not valid JSON: text after the end of the document at byte 52" \
	compare "$f/twice.json" "$f/twice.json"
row 2 - "$f/array.json: not a cacheprobe results file \(the document is array" \
	compare "$f/array.json" "$f/array.json"
row 2 - "$f/bad-element.json: not valid JSON: object value separator .,. expected at byte 67" \
	compare "$f/bad-element.json" "$f/bad-element.json"
row 2 - "$f/null.json: not a cacheprobe results file \(the document is null\)" \
	compare "$f/null.json" "$f/null.json"
row 2 - "$f/number.json: not a cacheprobe results file \(the document is int" \
	compare "$f/number.json" "$f/number.json"
row 2 - "$f/schema.json: not a cacheprobe results file \(its schema is \"other-tool/1\"\)" \
	compare "$f/schema.json" "$f/schema.json"
row 2 - "$f/future.json: schema \"cacheprobe-results/99\"" \
	compare "$f/future.json" "$f/future.json"
row 2 - "$f/nomeasurements.json: the document lacks \"measurements\"" \
	compare "$f/nomeasurements.json" "$f/nomeasurements.json"
row 2 - "$f/notarray.json: .*\"measurements\"" compare "$f/notarray.json" "$f/notarray.json"
row 2 - "$f/item.json: measurement 0 lacks" compare "$f/item.json" "$f/item.json"
# Samples compare cannot weigh are refused, naming the file, the
# measurement and the sample; an accepted NaN would be rated "same".
where='measurement 0 \(latency: chase 4 KiB \[user\]\)'
row 2 - "$f/nan.json: $where: \"samples_ns\"\[1\] is NaN" \
	compare "$f/nan.json" "$f/nan.json"
row 2 - "$f/inf.json: $where: \"samples_ticks\"\[1\] is infinite" \
	compare "$f/inf.json" "$f/nan.json"
row 2 - "$f/null-sample.json: $where: \"samples_ns\"\[1\] is not a number" \
	compare "$f/null-sample.json" "$f/null-sample.json"
row 2 - "$f/no-samples.json: $where has no samples" \
	compare "$f/no-samples.json" "$f/no-samples.json"
# Names are compared whole: one longer than this version holds is refused,
# never cut (two cut names would pair as one), and a name given twice is
# refused rather than half of it ignored.
row 2 - "$f/long-name.json: measurement 0: \"name\" is 64 characters long, more than the 63" \
	compare "$f/long-name.json" "$f/long-name.json"
row 2 - "$f/twice-named.json: measurements 0 and 2 are both \"latency: chase 4 KiB\" in mode \"user\"" \
	compare "$f/twice-named.json" "$f/twice-named.json"

echo "1..$number"
[ "$failures" -eq 0 ]
