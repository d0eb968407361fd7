#!/usr/bin/env bash
# One guest boot running one suite of guest tests, or some of its tests:
#
#   run-guest.sh --kernel LABEL|VMLINUZ --suite SUITE [OPTION...] [TEST...]
#
# Builds the module for the kernel (tests/guest/build-module.sh, its
# result lines printed) unless --ko gives one, the suite's programs, the
# initramfs (mkinitramfs.sh) with the suite's script as /tests.sh, and
# boots it (boot.sh), which prints the guest's result lines.  Exit status
# 0 when nothing failed, 1 on a failure, 2 on a usage error: an unknown
# suite or test, or no installed kernel of that label.
#
# Suites (SUITE: its script in the guest):
#   module   tests/guest/tests.sh: every module test (make check's boot per
#            kernel); align, c2c, evict, report, xcore: that area's
#            tests/guest/area-NAME.sh alone, through tests.sh
#   dkms     tests.sh's smoke selection, on the module --ko names (the
#            DKMS-built one); debug: tests.sh on a debug kernel
#   fuzz     tests/fuzz/guest-fuzz.sh       faults  tests/faults/guest-faults.sh
#   loaded   tests/guest/loaded.sh          lab     tests/guest/lab.sh
# TEST... runs only those of the suite's tests (--list names them), in
# the suite's order: the guest reads them from /etc/cacheprobe-tests.
#
# Options:
#   --out DIR        module builds (DIR/build-LABEL), programs (DIR/bin)
#                    and the boot (DIR/guest-NAME); default tests/out-guest
#   --dir DIR        the boot's initramfs, console.log and results.log
#   --name NAME      the label of the result lines (default: LABEL, with
#                    fuzz-, faults-, dkms- before it for those suites)
#   --label LABEL    a VMLINUZ's label (default: from its file name)
#   --headers DIR    the tree to build the module against, for a VMLINUZ
#   --ko FILE        test this module instead of building one
#   --test-ko FILE   with --ko: the fault-injection build to go with it
#   --bin FILE, --file SRC:DEST   more for the initramfs (mkinitramfs.sh)
#   --cpus N, --smp SPEC, --numa N, --cpu-model MODEL, --mem MIB,
#   --timeout S, --accel ACCEL, --append ARGS   for boot.sh (defaults:
#                    4 CPUs, -cpu max, 600 s)
#   --list           print the suite's tests and exit
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
guest=$top/tests/guest
prog=${0##*/}

usage() {
	sed -n '4s/^#  */usage: /p' "${BASH_SOURCE[0]}" >&2
	echo "(see the comment at the top of $prog)" >&2
	exit 2
}

die() {
	echo "$prog: $*" >&2
	exit 2
}

kernel='' suite='' out=$top/tests/out-guest dir='' name='' label='' headers=''
ko='' test_ko='' list=''
extras=() boot=() tests=()
while [ $# -gt 0 ]; do
	case $1 in
	--list) list=1; shift; continue ;;
	--) shift; tests+=("$@"); break ;;
	-*) [ $# -ge 2 ] || usage ;;
	*) tests+=("$1"); shift; continue ;;
	esac
	case $1 in
	--kernel) kernel=$2 ;;
	--suite) suite=$2 ;;
	--out) out=$2 ;;
	--dir) dir=$2 ;;
	--name) name=$2 ;;
	--label) label=$2 ;;
	--headers) headers=$2 ;;
	--ko) ko=$2 ;;
	--test-ko) test_ko=$2 ;;
	--bin | --file) extras+=("$1" "$2") ;;
	--cpus | --smp | --numa | --cpu-model | --mem | --timeout | --accel | --append)
		boot+=("$1" "$2") ;;
	*) echo "$prog: unknown option $1" >&2; usage ;;
	esac
	shift 2
done
[ -n "$suite" ] || usage

# The suite: its script, the programs it runs (built from
# tests/*/NAME.c), whether it needs cacheprobe-run, the name of its module
# build's result lines and whether the test build comes along.
files=() selection=() programs=() tool=yes build=module-build with_test=test
prefix=
case $suite in
module | debug | dkms | align | c2c | evict | report | xcore)
	script=$guest/tests.sh
	programs=(rawtest)
	for f in "$guest"/area-*.sh; do
		files+=(--file "$f:/lib/cacheprobe/${f##*/}")
	done
	files+=(--file "$top/user/scripts/run.sh:/lib/cacheprobe/run.sh")
	case $suite in
	module) ;;
	debug) build=debug-module-build ;;
	dkms)
		prefix=dkms- build=''
		# The package builds the same source the module suite tests in
		# full: its build loads, answers, measures and unloads.
		selection=(load info flush flush-errors flush-offline smoke) ;;
	*) selection=("$suite") ;;
	esac
	;;
fuzz)
	script=$top/tests/fuzz/guest-fuzz.sh
	programs=(nlfuzz iocfuzz) tool=optional build=fuzz-module-build
	with_test='' prefix=fuzz- ;;
faults)
	script=$top/tests/faults/guest-faults.sh
	programs=(faulttest) tool=no build=faults-module-build prefix=faults- ;;
loaded)
	script=$guest/loaded.sh
	programs=(rawtest) build=loaded-module-build ;;
lab)
	script=$guest/lab.sh
	build=lab-module-build ;;
*) die "unknown suite '$suite' (module, align, c2c, evict, report, xcore, dkms, debug, fuzz, faults, loaded, lab)" ;;
esac

# A suite's tests are its script's "t_test NAME ..." and
# "t_test_named NAME ..." lines (lib.sh), and tests.sh's loop giving each
# area file a test of its name; a suite that runs a selection of
# tests.sh's (an area's, dkms's smoke tests) has that selection only.
suite_tests() {
	local line f
	if [ ${#selection[@]} -gt 0 ]; then
		printf '%s\n' "${selection[@]}"
		return
	fi
	while IFS= read -r line; do
		# shellcheck disable=SC2016 # the loop's text, not expanded
		case $line in
		t_test\ * | t_test_named\ *)
			line=${line#* }
			echo "${line%% *}" ;;
		*'t_test "${area_tests%.sh}"'*)
			for f in "$guest"/area-*.sh; do
				f=${f##*/area-}
				echo "${f%.sh}"
			done ;;
		esac
	done <"$script"
}
if [ -n "$list" ]; then
	suite_tests
	exit 0
fi
if [ ${#tests[@]} -gt 0 ]; then
	known=" $(suite_tests | tr '\n' ' ')"
	[ "$known" != " " ] || die "suite $suite has no named tests; run it whole"
	for t in "${tests[@]}"; do
		[[ $known == *" $t "* ]] ||
			die "suite $suite has no test '$t' (its tests:$known)"
	done
	selection=("${tests[@]}")
fi

[ -n "$kernel" ] || usage
if [[ $kernel == */* ]]; then
	vmlinuz=$kernel
	[ -r "$vmlinuz" ] || die "kernel $vmlinuz not readable"
	if [ -z "$label" ]; then
		label=${vmlinuz##*/}
		label=${label#vmlinuz-}
	fi
else
	line=$("$guest/kernels.sh" "$kernel" 2>/dev/null) ||
		die "no installed kernel with headers labelled '$kernel' (tests/guest/kernels.sh lists them)"
	read -r label _ver vmlinuz headers <<<"$line"
fi
name=${name:-$prefix$label}

mkdir -p "$out/bin" || exit 2
out=$(cd "$out" && pwd)
dir=${dir:-$out/guest-$name}
mkdir -p "$dir" || exit 2
failed=0

# fresh FILE SOURCE...: FILE is newer than every SOURCE.
fresh() {
	local f=$1 s
	shift
	[ -e "$f" ] || return 1
	for s in "$@"; do
		[ "$f" -nt "$s" ] || return 1
	done
}

# The module: the one given, or a build whose result lines are printed.
if [ -n "$ko" ]; then
	[ -f "$ko" ] || die "no module $ko"
	[ -z "$test_ko" ] || [ -f "$test_ko" ] || die "no module $test_ko"
elif [ -z "$build" ]; then
	die "suite $suite tests a module built elsewhere: give --ko"
else
	[ -n "$headers" ] || die "no tree to build the module against: give --headers or --ko"
	built=$("$guest/build-module.sh" "$out" "$label" "$headers" "$build" $with_test)
	status=$?
	[ -z "$built" ] || echo "$built"
	[ "$status" = 0 ] || exit 1
	[[ $'\n'$built != *$'\n'FAIL* ]] || failed=1
	ko=$out/build-$label/kmod/cacheprobe.ko
	[ -z "$with_test" ] || test_ko=$out/build-$label/cacheprobe-test.ko
fi
kos=(--ko "$ko")
# lab.sh has no use for the test build.
[ -z "$test_ko" ] || [ ! -f "$test_ko" ] || [ "$suite" = lab ] ||
	kos+=(--ko "$test_ko")

# The programs, built again only when a source changed.
bins=()
for p in "${programs[@]}"; do
	src=$(ls "$top"/tests/*/"$p.c")
	if ! fresh "$out/bin/$p" "$src" "$guest"/rawnl.[ch] "$top"/include/*.h "$top"/include/*/*.h "$top"/include/uapi/*/*.h; then
		if ! "$guest/build-raw.sh" "$out/bin/$p" "$src" >"$dir/build-$p.log" 2>&1; then
			echo "FAIL $name-build-$p: see $dir/build-$p.log"
			sed 's/^/    | /' "$dir/build-$p.log" | head -n 20
			exit 1
		fi
	fi
	bins+=(--bin "$out/bin/$p")
done
if [ "$tool" != no ]; then
	if ! make -s -C "$top/user" >"$dir/user-build.log" 2>&1; then
		echo "FAIL $name-user-build: see $dir/user-build.log"
		[ "$tool" = optional ] || exit 1
	fi
	[ ! -x "$top/user/build/cacheprobe-run" ] ||
		bins+=(--bin "$top/user/build/cacheprobe-run")
fi

if [ ${#selection[@]} -gt 0 ]; then
	printf '%s\n' "${selection[@]}" >"$dir/tests"
	files+=(--file "$dir/tests:/etc/cacheprobe-tests")
else
	rm -f "$dir/tests"
fi
if ! "$guest/mkinitramfs.sh" "$dir/initrd.cpio.gz" "${kos[@]}" "${bins[@]}" \
	"${files[@]}" "${extras[@]}" --tests "$script" \
	>"$dir/mkinitramfs.log" 2>&1; then
	echo "FAIL guest-initramfs [$name]: see $dir/mkinitramfs.log"
	sed 's/^/    | /' "$dir/mkinitramfs.log" | tail -n 5
	exit 1
fi
# boot.sh refuses --cpus with --smp; a later option overrides an earlier.
[[ " ${boot[*]} " == *" --smp "* ]] || boot=(--cpus 4 "${boot[@]}")
"$guest/boot.sh" --kernel "$vmlinuz" --initrd "$dir/initrd.cpio.gz" \
	--label "$name" --cpu-model max --timeout 600 "${boot[@]}" \
	--outdir "$dir" || failed=1
exit "$failed"
