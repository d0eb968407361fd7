#!/bin/sh
# Module tests, run inside a QEMU guest as PID 1's child (see init).  Timings
# mean nothing under emulation: these check behaviour, errors and robustness.
. /lib/cacheprobe/lib.sh

KO=/lib/cacheprobe/cacheprobe.ko
RUN=cacheprobe-run
ONLINE=$(grep -c '^processor' /proc/cpuinfo)
LAST=$((ONLINE - 1))
FLAGS=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "

has_flag() {
	case "$FLAGS" in *" $1 "*) return 0 ;; *) return 1 ;; esac
}

# Counts the per-CPU result lines of a flush.
flush_lines() {
	"$RUN" flush "$@" 2>&1 | grep -c '^cpu [0-9]*: [0-9]* ticks, [0-9]* ns$'
}

# Checks that a flush reports exactly the CPUs in $1 (space-separated).
t_flush_cpus() {
	name=$1 want=$2
	shift 2
	got=$("$RUN" flush "$@" 2>&1)
	cpus=$(echo "$got" | sed -n 's/^cpu \([0-9]*\): [0-9]* ticks, [0-9]* ns$/\1/p' |
		tr '\n' ' ' | sed 's/ $//')
	if [ "$cpus" = "$want" ]; then
		t_pass "$name"
	else
		t_fail "$name" "wanted CPUs '$want', got '$cpus': $(echo "$got" | tail -n 3)"
	fi
}

all_cpus() {
	seq 0 "$LAST" | tr '\n' ' ' | sed 's/ $//'
}

test_features() {
	tr=$1
	features=$("$RUN" info --transport "$tr" | sed -n 's/^features: *//p')
	for f in wbnoinvd clflush clflushopt clwb rdtscp hypervisor; do
		listed=no
		case " $features " in *" $f "*) listed=yes ;; esac
		present=no
		has_flag "$f" && present=yes
		if [ "$listed" = "$present" ]; then
			t_pass "info-feature-$f-$tr"
		else
			t_fail "info-feature-$f-$tr" "module says $listed, /proc/cpuinfo says $present"
		fi
	done
	present=no
	has_flag constant_tsc && has_flag nonstop_tsc && present=yes
	listed=no
	case " $features " in *" invariant_tsc "*) listed=yes ;; esac
	if [ "$listed" = "$present" ]; then
		t_pass "info-feature-invariant_tsc-$tr"
	else
		t_fail "info-feature-invariant_tsc-$tr" "module says $listed, cpuinfo $present"
	fi
}

test_transport() {
	tr=$1
	t_expect_out "info-$tr" "^module: *cacheprobe [0-9.]+ \(ABI 1\) via $tr" \
		"$RUN" info --transport "$tr"
	t_expect_out "info-online-$tr" "^online cpus: *0-$LAST \($ONLINE of" \
		"$RUN" info --transport "$tr"
	test_features "$tr"

	t_flush_cpus "flush-all-$tr" "$(all_cpus)" --transport "$tr"
	t_flush_cpus "flush-one-$tr" "$LAST" --transport "$tr" --cpus "$LAST"
	t_flush_cpus "flush-list-$tr" "0 $LAST" --transport "$tr" \
		--cpus "0,$LAST"
	for c in $(all_cpus); do
		t_flush_cpus "flush-cpu$c-$tr" "$c" --transport "$tr" --cpus "$c"
	done

	if has_flag wbnoinvd; then
		t_flush_cpus "wbnoinvd-$tr" "$(all_cpus)" --transport "$tr" \
			--method wbnoinvd
	else
		t_expect_fail "wbnoinvd-unsupported-$tr" 1 \
			"EOPNOTSUPP.*|WBNOINVD" \
			"$RUN" flush --transport "$tr" --method wbnoinvd
	fi

	t_expect_fail "flush-cpu-out-of-range-$tr" 2 \
		"CPU id out of range.*EINVAL" \
		"$RUN" flush --transport "$tr" --cpus 64
	t_expect_fail "flush-cpu-beyond-limit-$tr" 2 "8192" \
		"$RUN" flush --transport "$tr" --cpus 8192
	t_expect_fail "flush-bad-method-$tr" 2 "method.*bogus|bogus.*method" \
		"$RUN" flush --transport "$tr" --method bogus
	t_expect_fail "flush-bad-list-$tr" 2 "cpus|CPU" \
		"$RUN" flush --transport "$tr" --cpus 3-1

	cpu_offline "$LAST"
	t_expect_fail "flush-offline-cpu-$tr" 2 "CPU is not online.*EINVAL" \
		"$RUN" flush --transport "$tr" --cpus "$LAST"
	t_flush_cpus "flush-all-with-one-offline-$tr" \
		"$(seq 0 $((LAST - 1)) | tr '\n' ' ' | sed 's/ $//')" \
		--transport "$tr"
	t_expect_out "info-offline-$tr" "^online cpus: *0-$((LAST - 1)) \($((ONLINE - 1)) of $ONLINE" \
		"$RUN" info --transport "$tr"
	cpu_online "$LAST"
}

t_run insmod insmod "$KO"
t_expect_out genl-family "cacheprobe" genl ctrl get name cacheprobe
t_expect_out genl-ops "ID-0x2" genl ctrl get name cacheprobe
t_run device-node test -c /dev/cacheprobe
t_expect_out device-mode "^crw-------" ls -l /dev/cacheprobe

test_transport netlink
test_transport ioctl

# Below the client library: hand-built messages and structs.
/usr/bin/rawtest root | while read -r verdict name rest; do
	case "$verdict" in
	PASS) t_pass "raw-$name" ;;
	FAIL) t_fail "raw-${name%:}" "$rest" ;;
	esac
done
/usr/bin/rawtest unpriv | while read -r verdict name rest; do
	case "$verdict" in
	PASS) t_pass "raw-$name" ;;
	FAIL) t_fail "raw-${name%:}" "$rest" ;;
	esac
done

t_expect_out unpriv-info-netlink "^module: *cacheprobe .* via netlink" \
	as_nobody "$RUN" info --transport netlink
t_expect_fail unpriv-flush-netlink 1 "CAP_SYS_ADMIN.*EPERM" \
	as_nobody "$RUN" flush --transport netlink
t_expect_fail unpriv-flush-ioctl 1 "EACCES|EPERM" \
	as_nobody "$RUN" flush --transport ioctl

cycles_ok=0
i=0
while [ $i -lt 20 ]; do
	rmmod cacheprobe && insmod "$KO" &&
		"$RUN" info >/dev/null && [ "$(flush_lines --cpus 0)" = 1 ] &&
		cycles_ok=$((cycles_ok + 1))
	i=$((i + 1))
done
if [ "$cycles_ok" = 20 ]; then
	t_pass load-unload-20
else
	t_fail load-unload-20 "only $cycles_ok of 20 cycles worked"
fi

t_run rmmod rmmod cacheprobe
t_expect_fail info-without-module 0 "module: *not loaded" "$RUN" info
t_expect_fail flush-without-module 1 "not loaded" "$RUN" flush
t_dmesg_clean kernel-log-clean
