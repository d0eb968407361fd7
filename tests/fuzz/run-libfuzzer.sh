#!/usr/bin/env bash
# libFuzzer targets for the parsers of outside input in user/ (client/,
# machine/):
#
#   tests/fuzz/run-libfuzzer.sh [SECONDS]
#
# Builds every tests/fuzz/fuzz_*.c with clang -fsanitize=fuzzer,address,
# undefined against the shared user/ sources (built the same way, so their code
# is instrumented too), then runs each for SECONDS (default 20) from its seed
# corpus tests/fuzz/corpus/NAME (read, never written).  Prints one line per
# target, "PASS libfuzzer-NAME" or "FAIL libfuzzer-NAME: why" (any crash,
# sanitizer report, leak or timeout), with the crashing input shown and kept.
# Exit status 0 iff no FAIL.
#
# Needs clang and libFuzzer's runtime: Debian packages clang and
# libclang-rt-14-dev.  LIBFUZZER_WORK=DIR keeps the build, the corpora grown
# and the logs there (default: a temporary directory, removed when all
# passed).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fuzz=$top/tests/fuzz
secs=${1:-20}
if [[ ! $secs =~ ^[0-9]+$ ]] || [[ $secs -eq 0 ]]; then
	echo "usage: ${0##*/} [SECONDS]" >&2
	exit 2
fi

failed=0
fail() {
	echo "FAIL $*"
	failed=1
}

if [[ -n ${LIBFUZZER_WORK:-} ]]; then
	work=$LIBFUZZER_WORK
	mkdir -p "$work"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/cacheprobe-libfuzzer.XXXXXX")
fi

cc=${CLANG:-clang}
probe=$work/probe.c
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return (int)n * 0; }' >"$probe"
if ! command -v "$cc" >/dev/null ||
	! "$cc" -fsanitize=fuzzer,address,undefined -o "$work/probe" "$probe" \
		>"$work/probe.log" 2>&1; then
	fail "libfuzzer-toolchain: $cc cannot build libFuzzer targets (apt-get install clang libclang-rt-14-dev)"
	exit 1
fi

pkgs=(libnl-genl-3.0 hwloc)
if ! pkg-config --exists "${pkgs[@]}"; then
	fail "libfuzzer-deps: pkg-config finds no ${pkgs[*]} (apt-get install libnl-genl-3-dev libhwloc-dev)"
	exit 1
fi
read -ra pkg_cflags <<<"$(pkg-config --cflags "${pkgs[@]}")"
read -ra pkg_libs <<<"$(pkg-config --libs "${pkgs[@]}")"

# -fno-sanitize-recover: the first UBSan report ends the run, so it counts.
# shellcheck disable=SC2054 # the commas belong to the options
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
cflags=(-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -g
	-I"$top/include/uapi" -I"$top/user" "${pkg_cflags[@]}"
	-DCACHEPROBE_VERSION="\"$(cat "$top/VERSION")\"")

# The library, instrumented for coverage.  A source that does not build
# (work in progress elsewhere) is left out; if a target needs it, its link
# fails and says so.
build_lib() {
	local src obj objs=()
	mkdir -p "$work/lib"
	for src in "$top"/user/{client,machine,harness,stats,results,util,evict}/*.c; do
		obj=$work/lib/$(basename "${src%.c}").o
		if "$cc" "${cflags[@]}" "${san[@]}" -fsanitize=fuzzer-no-link \
			-c -o "$obj" "$src" >>"$work/lib.log" 2>&1; then
			objs+=("$obj")
		else
			echo "note: ${src#"$top"/} did not build with $cc; left out (see $work/lib.log)"
		fi
	done
	rm -f "$work/libcacheprobe-fuzz.a"
	ar rcs "$work/libcacheprobe-fuzz.a" "${objs[@]}"
}

# Shows the input that failed, so the report carries it.
show_artifact() {
	local name=$1 art
	for art in "$work/$name"-crash-* "$work/$name"-leak-* \
		"$work/$name"-timeout-* "$work/$name"-oom-*; do
		[[ -f $art ]] || continue
		echo "    | input kept in $art; first bytes:"
		od -An -tx1 -N 128 "$art" | sed 's/^/    | /'
	done
}

run_target() {
	local src=$1 name bin log corpus stats
	name=$(basename "${src%.c}")
	name=${name#fuzz_}
	bin=$work/fuzz_$name
	log=$work/$name.log
	if ! "$cc" "${cflags[@]}" -fsanitize=fuzzer "${san[@]}" -o "$bin" "$src" \
		"$work/libcacheprobe-fuzz.a" "${pkg_libs[@]}" \
		>"$work/$name.build.log" 2>&1; then
		fail "libfuzzer-$name: build failed"
		sed 's/^/    | /' "$work/$name.build.log" | head -n 20
		return
	fi
	corpus=$work/corpus-$name
	mkdir -p "$corpus"
	local seeds=()
	[[ -d $fuzz/corpus/$name ]] && seeds=("$fuzz/corpus/$name")
	# The first corpus directory receives new inputs; the seeds are read.
	if ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len=8192 -print_final_stats=1 \
		-artifact_prefix="$work/$name-" "$corpus" "${seeds[@]}" \
		>"$log" 2>&1; then
		stats=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		echo "PASS libfuzzer-$name"
		echo "    $name: ${stats:-?} inputs in ${secs}s, $(find "$corpus" -type f | wc -l) new corpus entries"
	else
		fail "libfuzzer-$name: $(grep -m1 -E 'ERROR: |runtime error|SUMMARY' "$log" || echo "exit status $?")"
		grep -E -A12 'ERROR: |runtime error' "$log" | head -n 30 | sed 's/^/    | /'
		show_artifact "$name"
	fi
}

build_lib
for src in "$fuzz"/fuzz_*.c; do
	run_target "$src"
done

if [[ $failed == 0 && -z ${LIBFUZZER_WORK:-} ]]; then
	rm -rf "$work"
else
	echo "libFuzzer work directory (build, logs, grown corpora): $work"
fi
exit "$failed"
