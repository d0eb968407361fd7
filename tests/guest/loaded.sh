#!/bin/sh
# The loaded stage's guest (run-loaded.sh boots it under multi-threaded TCG
# while the host is kept busy): every kernel measurement that runs on
# more than one CPU, in every area that has one, over both transports,
# must complete; the rounds missed and the windows disturbed are written
# to the results port as "# counts NAME MISSED DISTURBED" lines, summed by
# run-loaded.sh.  Then the test build's silent partner must still end in
# ETIMEDOUT naming the right CPU.
. /lib/cacheprobe/lib.sh

KO=/lib/cacheprobe/cacheprobe.ko
TEST_KO=/lib/cacheprobe/cacheprobe-test.ko
RUN=cacheprobe-run
PARAM=/sys/module/cacheprobe/parameters
# The CPUs QEMU was given (nr_cpu_ids: possible, not yet online).
CPUS=$(($(sed 's/.*[-,]//' /sys/devices/system/cpu/possible) + 1))
# Samples per measurement: the kernel argument cacheprobe.samples=N
# (run-loaded.sh's LOADED_SAMPLES; 0: the tool's default), else 5.
SAMPLES=$(sed -n 's/.*cacheprobe\.samples=\([0-9]*\).*/\1/p' /proc/cmdline)
OPTS="--samples ${SAMPLES:-5}"
[ "$SAMPLES" = 0 ] && OPTS=

# counts NAME FILE: the run's missed rounds and disturbed windows, summed
# over its kernel-mode measurements, to the results port.
counts() {
	awk -F'"' '
		/^  "measurements":\[/ { inside = 1; next }
		inside && /^  \]/ { inside = 0 }
		!inside { next }
		$2 == "missed_rounds" { v = $3; gsub(/[^0-9]/, "", v); m += v }
		$2 == "disturbed_windows" { v = $3; gsub(/[^0-9]/, "", v); d += v }
		END { printf "# counts %s %d %d\n", name, m, d }' name="$1" "$2" \
		>>"$CP_RESULTS"
}

# measure NAME AREA OPTIONS...: AREA in kernel mode completes, every
# kernel-mode measurement of it reports its rounds.
measure() {
	local name=$1 area=$2 json=/tmp/$1.json
	shift 2
	rm -f "$json"
	t_run "$name" "$RUN" "$area" --mode kernel --json "$json" --quiet \
		$OPTS "$@" || return 1
	t_json_missed "$name-rounds" "$json" "$area"
	counts "$name" "$json"
}

# run-loaded.sh boots with one CPU (maxcpus=1): the others come up now,
# after the boot's own code patching (see run-loaded.sh).
for online in /sys/devices/system/cpu/cpu[1-9]*/online; do
	[ -w "$online" ] && echo 1 >"$online"
done
ONLINE=$(grep -c '^processor' /proc/cpuinfo)
LAST=$((ONLINE - 1))
t_expect_out loaded-cpus-online "^$CPUS\$" grep -c '^processor' /proc/cpuinfo

if ! t_run loaded-insmod insmod "$KO"; then
	exit 0
fi
for tr in netlink ioctl; do
	measure "bounce-$tr" bounce --transport "$tr" --cpus "0,$LAST"
	measure "c2c-$tr" c2c --transport "$tr" --cpus "0-$LAST"
	measure "xcore-$tr" xcore --transport "$tr" --pairs "0:$LAST" \
		--max-size 512K
	t_run "flush-$tr" "$RUN" flush --transport "$tr" --cpus "0-$LAST"
	t_run "coldcache-$tr" "$RUN" coldcache --mode kernel --quiet \
		--transport "$tr" --repeats 2 --max-size 256K
done
t_run loaded-rmmod rmmod cacheprobe

# A partner that never answers is still told apart, under the same load.
if t_run loaded-insmod-test insmod "$TEST_KO"; then
	echo 300 >$PARAM/partner_timeout_ms
	echo 1 >$PARAM/fault_inject
	/usr/bin/rawtest fault timeout >/tmp/raw.out 2>&1
	while read -r verdict name rest; do
		case "$verdict" in
		PASS) t_pass "silent-$name" ;;
		FAIL) t_fail "silent-${name%:}" "$rest" ;;
		esac
	done </tmp/raw.out
	echo 0 >$PARAM/fault_inject
	t_run loaded-rmmod-test rmmod cacheprobe
fi
t_dmesg_clean loaded-kernel-log-clean
