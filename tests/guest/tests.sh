#!/bin/sh
# Module tests, run inside a QEMU guest as PID 1's child (see init).  Timings
# mean nothing under emulation: these check behaviour, errors and robustness.
#
# Named tests (the "t_test" lines at the end, in the order they run; with
# run-guest.sh --suite module NAME... only those run).  A test may run
# alone, so each loads or unloads the module it needs first (need_module,
# need_test_module, need_no_module) rather than count on the one before
# it; run in order, those find the module as they want it.
. /lib/cacheprobe/lib.sh

KO=/lib/cacheprobe/cacheprobe.ko
TEST_KO=/lib/cacheprobe/cacheprobe-test.ko
RUN=cacheprobe-run
ONLINE=$(grep -c '^processor' /proc/cpuinfo)
LAST=$((ONLINE - 1))
# nr_cpu_ids: one past the last possible CPU, the first id FLUSH must refuse.
NR_CPU_IDS=$(($(sed 's/.*[-,]//' /sys/devices/system/cpu/possible) + 1))
FLAGS=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
PARAM=/sys/module/cacheprobe/parameters
IRQOFF=$PARAM/max_irqoff_us
BUFFER=$PARAM/max_buffer_mb
LIVE=$PARAM/live_objects
LOST=$PARAM/lost_places
# Sizes, samples and sample times are tiny: only behaviour counts here.
AREA_OPTS="--samples 3 --sample-time 200"
LAT_OPTS="--min-size 16K --max-size 64K"
BOUNCE_OPTS="--distances 0,4,64 --ops plain --width 4"
COLD_OPTS="--repeats 2 --max-size 64K"
RUN_SH=/lib/cacheprobe/run.sh

# need_module: the module meant for use loaded (not the test build).
need_module() {
	[ -e "$LIVE" ] && rmmod cacheprobe
	[ -d /sys/module/cacheprobe ] && return 0
	insmod "$KO" && return 0
	t_fail module-load "cannot load $KO"
}

# need_test_module: the test build loaded when the initramfs has one
# (its live_objects shows a single leaked object, which Slab and
# VmallocUsed cannot); without it (the DKMS guest) the module itself, and
# the live-object checks are skipped.
need_test_module() {
	[ -f "$TEST_KO" ] || { need_module; return; }
	[ -e "$LIVE" ] && return 0
	[ -d /sys/module/cacheprobe ] && rmmod cacheprobe
	if insmod "$TEST_KO"; then
		t_pass test-module-load
	else
		t_fail test-module-load "cannot load $TEST_KO"
		need_module
	fi
}

need_no_module() {
	[ -d /sys/module/cacheprobe ] && rmmod cacheprobe
	return 0
}

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
	for f in wbnoinvd clflush clflushopt clwb rdtscp hypervisor avx avx512f; do
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

# blame TR: over netlink the tool names the attribute the extended ack
# blames; over ioctl there is none to name.
blame() {
	blame_cpus= blame_method=
	if [ "$1" = netlink ]; then
		blame_cpus=' \(attribute CPUS\)'
		blame_method=' \(attribute FLUSH_METHOD\)'
	fi
}

test_info() {
	local tr
	need_module || return
	for tr in netlink ioctl; do
		test_info_on "$tr"
	done
}

test_info_on() {
	tr=$1
	t_expect_out "info-$tr" "^module: *cacheprobe [0-9.]+ \(ABI 6\) via $tr" \
		"$RUN" info --transport "$tr"
	t_expect_out "info-online-$tr" "^online cpus: *0-$LAST \($ONLINE of" \
		"$RUN" info --transport "$tr"
	test_features "$tr"
}

test_flush() {
	local tr c
	need_module || return
	for tr in netlink ioctl; do
		blame "$tr"
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
				"flush: WBNOINVD not supported[^(]*$blame_method \(EOPNOTSUPP: " \
				"$RUN" flush --transport "$tr" --method wbnoinvd
		fi
	done
}

test_flush_errors() {
	local tr
	need_module || return
	for tr in netlink ioctl; do
		test_flush_errors_on "$tr"
	done
}

test_flush_errors_on() {
	tr=$1
	blame "$tr"
	t_expect_fail "flush-cpu-out-of-range-$tr" 2 \
		"CPU id out of range[^(]*$blame_cpus \(EINVAL: " \
		"$RUN" flush --transport "$tr" --cpus 64
	t_expect_fail "flush-cpu-nr-cpu-ids-$tr" 2 \
		"CPU id out of range[^(]*$blame_cpus \(EINVAL: " \
		"$RUN" flush --transport "$tr" --cpus "$NR_CPU_IDS"
	t_expect_fail "flush-cpu-beyond-limit-$tr" 2 "8192" \
		"$RUN" flush --transport "$tr" --cpus 8192
	t_expect_fail "flush-bad-method-$tr" 2 "method.*bogus|bogus.*method" \
		"$RUN" flush --transport "$tr" --method bogus
	t_expect_fail "flush-bad-list-$tr" 2 "cpus|CPU" \
		"$RUN" flush --transport "$tr" --cpus 3-1
}

test_flush_offline() {
	local tr
	need_module || return
	for tr in netlink ioctl; do
		test_flush_offline_on "$tr"
	done
}

test_flush_offline_on() {
	tr=$1
	blame "$tr"
	cpu_offline "$LAST"
	t_expect_fail "flush-offline-cpu-$tr" 2 \
		"CPU is not online[^(]*$blame_cpus \(EINVAL: " \
		"$RUN" flush --transport "$tr" --cpus "$LAST"
	t_flush_cpus "flush-all-with-one-offline-$tr" \
		"$(seq 0 $((LAST - 1)) | tr '\n' ' ' | sed 's/ $//')" \
		--transport "$tr"
	t_expect_out "info-offline-$tr" "^online cpus: *0-$((LAST - 1)) \($((ONLINE - 1)) of $ONLINE" \
		"$RUN" info --transport "$tr"
	cpu_online "$LAST"
}

test_load() {
	local p op missing
	need_no_module
	t_run insmod insmod "$KO"
	# The test-only parameters are compiled out of the module meant for use.
	for p in fault_inject live_objects lost_places warm_rounds dither_spins; do
		if [ -e "/sys/module/cacheprobe/parameters/$p" ]; then
			t_fail "production-lacks-$p" "$KO has the test-only parameter $p"
		else
			t_pass "production-lacks-$p"
		fi
	done
	t_expect_out genl-family "cacheprobe" genl ctrl get name cacheprobe
	# The family version and every command the header defines (rawtest was
	# built with it), each listed as an operation.
	genl ctrl get name cacheprobe >/tmp/genl.out 2>&1
	set -- $(/usr/bin/rawtest abi | tr '\n' ' ')
	if grep -Eq "Version: 0x$(printf %x "$2")( |$)" /tmp/genl.out; then
		t_pass genl-version
	else
		t_fail genl-version "no 'Version: 0x$(printf %x "$2")' in: $(cat /tmp/genl.out)"
	fi
	shift 3
	missing=
	for op in "$@"; do
		grep -Eq "ID-0x$(printf %x "$op")( |$)" /tmp/genl.out || missing="$missing $op"
	done
	if [ $# -gt 0 ] && [ -z "$missing" ]; then
		t_pass "genl-ops ($# operations)"
	else
		t_fail genl-ops "operations${missing:- (none given)} not listed: $(cat /tmp/genl.out)"
	fi
	t_run device-node test -c /dev/cacheprobe
	t_expect_out device-mode "^crw-------" ls -l /dev/cacheprobe
}

# The smoke test (run when named: the dkms suite): the DKMS-built module is
# the same source as the module every other guest tests in full, so its
# guest checks that the package's build loads, answers on both transports
# (load, info and flush), measures in every area that has a kernel mode and
# unloads with a clean kernel log.
test_smoke() {
	local tr
	need_module || return
	for tr in netlink ioctl; do
		t_run "smoke-latency-$tr" "$RUN" latency --mode kernel \
			--transport "$tr" --min-size 16K --max-size 32K \
			--samples 3 --quiet
		t_run "smoke-bounce-$tr" "$RUN" bounce --mode kernel \
			--transport "$tr" --cpus "0,$LAST" --distances 0,64 \
			--width 4 --samples 3 --quiet
		t_run "smoke-xcore-$tr" "$RUN" xcore --mode kernel \
			--transport "$tr" --pairs "0:$LAST" --max-size 8K \
			--samples 3 --quiet
	done
	t_run smoke-rmmod rmmod cacheprobe
	t_dmesg_clean smoke-kernel-log-clean
}

# Below the client library: hand-built messages and structs.
test_raw() {
	need_module || return
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
}

# No emulator offers WBNOINVD; its encoding runs as WBINVD without it, so
# the test build's fault_inject=4 lets the module treat it as present
# and the success path runs here too.
test_wbnoinvd_assumed() {
	param=/sys/module/cacheprobe/parameters/fault_inject
	need_module || return
	if [ ! -f "$TEST_KO" ]; then
		t_skip wbnoinvd-assumed "no test build of the module (make -C kmod TEST=1)"
		return
	fi
	rmmod cacheprobe
	if ! insmod "$TEST_KO" || ! echo 4 >$param; then
		t_fail wbnoinvd-assumed-load "cannot load $TEST_KO with fault_inject=4"
		rmmod cacheprobe 2>/dev/null
		insmod "$KO"
		return
	fi
	for tr in netlink ioctl; do
		t_expect_out "wbnoinvd-assumed-info-$tr" '^features:.* wbnoinvd( |$)' \
			"$RUN" info --transport "$tr"
		t_flush_cpus "wbnoinvd-assumed-all-$tr" "$(all_cpus)" \
			--transport "$tr" --method wbnoinvd
		t_flush_cpus "wbnoinvd-assumed-list-$tr" "0 $LAST" \
			--transport "$tr" --method wbnoinvd --cpus "0,$LAST"
	done
	/usr/bin/rawtest wbnoinvd assumed | while read -r verdict name rest; do
		case "$verdict" in
		PASS) t_pass "raw-assumed-$name" ;;
		FAIL) t_fail "raw-assumed-${name%:}" "$rest" ;;
		esac
	done
	# Without the bit the test build judges by the CPU again.
	echo 0 >$param
	if has_flag wbnoinvd; then
		t_flush_cpus wbnoinvd-assumed-off "$(all_cpus)" --method wbnoinvd
	else
		t_expect_fail wbnoinvd-assumed-off 1 "WBNOINVD not supported" \
			"$RUN" flush --method wbnoinvd
	fi
	rmmod cacheprobe
	insmod "$KO"
}

# --- measurement commands (ABI 2), below the client library ---

# run_raw PREFIX ARGS...: rawtest's PASS/FAIL lines as results.  Its
# output is read after it ends: under emulation, a reader busy on another
# virtual CPU while a measurement runs would stretch its windows.
# A run that failed without a FAIL line (an unknown mode: its usage, a
# crash) or passed nothing is a failure of its own.
run_raw() {
	prefix=$1
	shift
	/usr/bin/rawtest "$@" >/tmp/raw.out 2>&1
	raw_status=$?
	raw_passed=0
	raw_failed=0
	while read -r verdict name rest; do
		case "$verdict" in
		PASS) t_pass "$prefix$name"; raw_passed=1 ;;
		FAIL) t_fail "$prefix${name%:}" "$rest"; raw_failed=1 ;;
		\#) echo "$verdict $name $rest" ;;
		esac
	done </tmp/raw.out
	if [ "$raw_failed" = 0 ] &&
	   { [ "$raw_status" != 0 ] || [ "$raw_passed" = 0 ]; }; then
		t_fail "${prefix}rawtest-$1" "rawtest $* exited $raw_status with no result: $(head -c 300 /tmp/raw.out)"
	fi
}

# "Slab VmallocUsed" in kB.
mem_level() {
	# Shrinking every slab cache frees its empty slabs and, on a KASAN
	# kernel (make check-debug), the freed objects it holds in quarantine,
	# which would otherwise look like growth.
	for f in /sys/kernel/slab/*/shrink; do
		echo 1 >"$f" 2>/dev/null
	done
	awk '/^Slab:/ { s = $2 } /^VmallocUsed:/ { v = $2 } END { print s, v }' /proc/meminfo
}

# live_zero NAME: the test build's count of the measurement objects it
# holds (request buffers, value arrays, run states, chain orders,
# measurement buffers, threads) is back to 0.
live_zero() {
	local n
	if [ ! -e "$LIVE" ]; then
		t_skip "$1" "no test build of the module loaded"
		return
	fi
	read -r n <"$LIVE"
	if [ "$n" = 0 ]; then
		t_pass "$1"
	else
		t_fail "$1" "live_objects is $n"
	fi
}

cp_threads() {
	# shellcheck disable=SC2009
	ps -o pid,comm 2>/dev/null | grep '[c]acheprobe/'
}

# in_request PID: the client is inside its request: in its ioctl (16) or
# its netlink sendto (44, the request runs in the sender's context), and
# (test build) the module holds objects, which only a request does.  No
# fork, so that a kill right after it lands where it was seen.
in_request() {
	local sc n _
	read -r sc _ <"/proc/$1/syscall" 2>/dev/null || return 1
	case $sc in 16 | 44) ;; *) return 1 ;; esac
	[ -e "$LIVE" ] || return 0
	read -r n <"$LIVE"
	[ "$n" -gt 0 ]
}

# wait_request PID OUT: wait up to 1 s for the client to be in_request;
# false at once when its request ended (OUT has "finished") or it is gone.
# The caller may be seen "running" (/proc/PID/syscall) for a moment: in
# the module's timed waits, shuffling a chain.
wait_request() {
	local n=0
	until in_request "$1"; do
		if [ $n -ge 500 ] || ! kill -0 "$1" 2>/dev/null ||
			grep -q finished "$2"; then
			return 1
		fi
		usleep 2000
		n=$((n + 1))
	done
}

# wait_gone PID TENTHS: wait for a process to end.
wait_gone() {
	local n=0
	while kill -0 "$1" 2>/dev/null && [ $n -lt "$2" ]; do
		usleep 100000
		n=$((n + 1))
	done
	! kill -0 "$1" 2>/dev/null
}

# kill_mid CMD T DELAY_US: start a long CMD over transport T; once it is
# seen inside its request, wait DELAY_US, check again and SIGKILL it.
# Prints "mid" when it was killed inside its request and left nothing
# behind, "mid leak N M" when it left N objects (live_objects above its
# level before the client started) or M threads once it was gone, "early"
# when it was never seen in its request, "late" when the request ended
# before the kill, "stuck" when it outlived the kill by 5 s.
kill_mid() {
	local pid live=0 live0=0 threads
	[ -e "$LIVE" ] && read -r live0 <"$LIVE"
	/usr/bin/rawtest long "$2" "$1" >/tmp/long.out 2>&1 &
	pid=$!
	if ! wait_request "$pid" /tmp/long.out; then
		kill -9 "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		echo early
		return
	fi
	usleep "$3"
	if ! wait_request "$pid" /tmp/long.out; then
		kill -9 "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		echo late
		return
	fi
	kill -9 "$pid"
	if ! wait_gone "$pid" 50; then
		echo stuck
		return
	fi
	wait "$pid" 2>/dev/null
	if grep -q finished /tmp/long.out; then
		echo late
		return
	fi
	[ -e "$LIVE" ] && read -r live <"$LIVE"
	threads=$(cp_threads | wc -l)
	if [ "$live" = "$live0" ] && [ "$threads" = 0 ]; then
		echo mid
	else
		echo "mid leak $((live - live0)) $threads"
	fi
}

# 50 SIGKILLs, each proven to land inside a request (a kill that came too
# early or too late is retried, not counted), spread over the multi-CPU
# commands and CHASE on both transports.  The windows may be long, so no
# sample fails fast with EOVERFLOW before the kill.
test_kill() {
	local irqoff cmd tr v mid=0 tries=0 early=0 late=0 stuck=0 leaks=""
	local delay slab0 vm0 spread=""
	need_test_module
	irqoff=$(cat $IRQOFF)
	echo 100000 >$IRQOFF
	# Warm-up: the first runs fill per-CPU caches (thread stacks, slabs).
	kill_mid pingpong netlink 100000 >/dev/null
	kill_mid chase ioctl 100000 >/dev/null
	set -- $(mem_level)
	slab0=$1 vm0=$2
	while [ $mid -lt 50 ] && [ $tries -lt 150 ] && [ $stuck = 0 ]; do
		set -- pingpong bounce xfer chase
		shift $((mid % 4))
		cmd=$1
		tr=netlink
		[ $((mid / 4 % 2)) = 1 ] && tr=ioctl
		delay=$((tries % 7 * 50000))
		tries=$((tries + 1))
		v=$(kill_mid "$cmd" "$tr" "$delay")
		case $v in
		mid | "mid leak"*)
			mid=$((mid + 1))
			[ "$v" = mid ] || leaks="$leaks $cmd-$tr:${v#mid leak }"
			case " $spread " in
			*" $cmd-$tr "*) ;;
			*) spread="$spread $cmd-$tr" ;;
			esac
			;;
		early) early=$((early + 1)) ;;
		late) late=$((late + 1)) ;;
		*) stuck=$((stuck + 1)) ;;
		esac
		[ "${v%% *}" = mid ] || echo "kill $tries: $cmd over $tr after $((delay / 1000)) ms: $v"
	done
	echo "kill: $mid in a request ($tries tries: $early early, $late late, $stuck stuck); seen:$spread"
	set -- $spread
	if [ "$mid" = 50 ] && [ "$stuck" = 0 ] && [ $# = 8 ]; then
		t_pass kill-50-mid-request
	else
		t_fail kill-50-mid-request "$mid of 50 kills inside a request in $tries tries ($early early, $late late), $stuck outlived SIGKILL by 5 s; command-transport pairs killed:$spread"
	fi
	if [ ! -e "$LIVE" ]; then
		t_skip kill-50-each-left-nothing "no test build of the module loaded"
	elif [ -z "$leaks" ]; then
		t_pass kill-50-each-left-nothing
	else
		t_fail kill-50-each-left-nothing "objects and threads left after a kill:$leaks"
	fi
	echo "$irqoff" >$IRQOFF
	live_zero kill-50-live-objects-0
	t_run kill-then-usable-netlink /usr/bin/rawtest small netlink
	t_run kill-then-usable-ioctl /usr/bin/rawtest small ioctl
	# Freed objects may sit in per-CPU caches for a while; give the
	# kernel a moment and settle before comparing.
	sleep 2
	set -- $(mem_level)
	echo "memory: Slab $slab0 -> $1 kB, VmallocUsed $vm0 -> $2 kB"
	if [ $(($1 - slab0)) -le 1024 ] && [ $(($2 - vm0)) -le 512 ]; then
		t_pass kill-50-no-leak
	else
		t_fail kill-50-no-leak "Slab $slab0 -> $1 kB (allowed +1024), VmallocUsed $vm0 -> $2 kB (allowed +512)"
	fi
}

# ABI 6: CHASE with PREPARE WARM walks its chain before the first sample,
# on the worker, between looks at signals; a kill during a CHASE that is
# mostly that walk must leave nothing behind either.
test_kill_warm() {
	local tr v tries
	need_test_module
	for tr in netlink ioctl; do
		tries=0 v=
		while [ $tries -lt 5 ]; do
			tries=$((tries + 1))
			v=$(kill_mid chase-warm "$tr" 150000)
			case $v in early | late) ;; *) break ;; esac
		done
		if [ "$v" = mid ]; then
			t_pass "kill-warm-$tr"
		else
			t_fail "kill-warm-$tr" "kill of a warming CHASE over $tr: $v (after $tries tries)"
		fi
	done
	live_zero kill-warm-live-objects-0
}

# stamp FILE WHAT: the CLOCK_MONOTONIC ns of rawtest's "WHAT at NS" line.
stamp() {
	sed -n "s/^$2 at \([0-9]*\).*/\1/p" "$1"
}

# Starts a long PINGPONG on transport $1 in the background, output to
# $2, and waits (at most a second) until it is inside its request; its
# pid is left in long_pid (a child of this shell, so it can be waited for).
start_long_pingpong() {
	local n=0
	/usr/bin/rawtest long "$1" pingpong >"$2" 2>&1 &
	long_pid=$!
	until in_request "$long_pid" || [ $n -ge 500 ]; do
		usleep 2000
		n=$((n + 1))
	done
}

# One operation at a time; the others wait interruptibly.  (a) A client
# that asks while a long measurement runs gets its reply only after that
# measurement's; (b) a signal to a waiting client ends its wait at once,
# with EINTR (ECANCELED over netlink) and a message saying so, while the
# measurement goes on.
STAMP_SLACK_NS=100000000
test_one_at_a_time() {
	local tr a b n want a_end b_start b_end irqoff
	need_test_module
	irqoff=$(cat $IRQOFF)
	echo 100000 >$IRQOFF
	for tr in netlink ioctl; do
		start_long_pingpong "$tr" /tmp/a.out
		a=$long_pid
		/usr/bin/rawtest wait "$tr" >/tmp/b.out 2>&1 &
		b=$!
		wait_gone "$b" 600
		wait_gone "$a" 600
		wait "$a" "$b" 2>/dev/null
		a_end=$(stamp /tmp/a.out finished)
		b_start=$(stamp /tmp/b.out started)
		b_end=$(stamp /tmp/b.out finished)
		# Each client stamps "finished" after its reply reached it:
		# the long one may be descheduled between its reply and its
		# stamp (seen once: the waiting one's stamp came 2.6 ms
		# first).  Not waiting would end the second client within
		# moments of its start, long before the measurement's end,
		# so a tenth of a second of slack keeps the test's sense.
		if [ -n "$a_end" ] && [ -n "$b_start" ] && [ -n "$b_end" ] &&
		   [ "$b_start" -lt "$a_end" ] &&
		   [ "$((b_end + STAMP_SLACK_NS))" -gt "$a_end" ] &&
		   [ "$((a_end - b_start))" -gt "$((2 * STAMP_SLACK_NS))" ] &&
		   grep -q "errno 0" /tmp/a.out && grep -q "errno 0" /tmp/b.out; then
			t_pass "one-at-a-time-$tr"
		else
			t_fail "one-at-a-time-$tr" "long: $(tr '\n' ' ' </tmp/a.out); waiting: $(tr '\n' ' ' </tmp/b.out)"
		fi

		want=4
		[ "$tr" = netlink ] && want=125
		start_long_pingpong "$tr" /tmp/a.out
		a=$long_pid
		/usr/bin/rawtest wait "$tr" >/tmp/b.out 2>&1 &
		b=$!
		n=0
		until { grep -q started /tmp/b.out && in_request "$b"; } ||
			[ $n -ge 500 ]; do
			usleep 2000
			n=$((n + 1))
		done
		usleep 100000
		kill -USR1 "$b"
		if ! wait_gone "$b" 10; then
			t_fail "lock-wait-signal-$tr" "the waiting client still waits 1 s after SIGUSR1"
		elif grep -q finished /tmp/a.out; then
			t_fail "lock-wait-signal-$tr" "the measurement ended before the waiting client; it did not wait: $(tr '\n' ' ' </tmp/a.out)"
		elif grep -q "^finished at [0-9]*: errno $want interrupted by a signal while waiting for another operation" /tmp/b.out; then
			t_pass "lock-wait-signal-$tr"
		else
			t_fail "lock-wait-signal-$tr" "$(tr '\n' ' ' </tmp/b.out)"
		fi
		kill -9 "$a" "$b" 2>/dev/null
		wait_gone "$a" 50
		wait "$a" "$b" 2>/dev/null
	done
	echo "$irqoff" >$IRQOFF
	live_zero one-at-a-time-live-objects-0
}

# A signal the client handles ends a measurement too: EINTR over ioctl,
# ECANCELED (125) over netlink, which sends no ack for EINTR.
test_handled_signal() {
	# The longest window: the run must be under way when the signal comes,
	# even where the emulation is too slow for a sample to fit the default
	# window (a debug kernel refuses it at once with EOVERFLOW).
	need_test_module
	irqoff=$(cat /sys/module/cacheprobe/parameters/max_irqoff_us)
	echo 100000 >/sys/module/cacheprobe/parameters/max_irqoff_us
	for tr in netlink ioctl; do
		want=4
		[ "$tr" = netlink ] && want=125
		/usr/bin/rawtest long-handled "$tr" >/tmp/usr1.out 2>&1 &
		pid=$!
		n=0
		while ! grep -q started /tmp/usr1.out && [ $n -lt 200 ]; do
			usleep 10000
			n=$((n + 1))
		done
		usleep 50000
		kill -USR1 "$pid"
		n=0
		while kill -0 "$pid" 2>/dev/null && [ $n -lt 100 ]; do
			usleep 50000
			n=$((n + 1))
		done
		if kill -0 "$pid" 2>/dev/null; then
			kill -9 "$pid"
			t_fail "signal-eintr-$tr" "still running 5 s after SIGUSR1"
		elif grep -q "^finished at [0-9]*: errno $want interrupted by a signal" /tmp/usr1.out; then
			t_pass "signal-eintr-$tr"
		else
			t_fail "signal-eintr-$tr" "$(cat /tmp/usr1.out)"
		fi
		wait "$pid" 2>/dev/null
	done
	echo "$irqoff" >/sys/module/cacheprobe/parameters/max_irqoff_us
	live_zero signal-live-objects-0
}

# Every ACCESS loop this guest CPU can run (each width, the three kinds)
# ends at the slot its count of accesses says: the test build counts those
# that did not in lost_places.  Timings cannot show a loop that walks one
# slot instead of its buffer here: the guest has no caches.
test_access_walk() {
	local widths=1,2,4,8,16 n
	need_test_module
	if [ ! -e "$LOST" ]; then
		t_skip access-walk "no test build of the module loaded"
		return
	fi
	grep -qw avx /proc/cpuinfo && widths=$widths,32
	grep -qw avx512f /proc/cpuinfo && widths=$widths,64
	t_run access-walk-run "$RUN" align --mode kernel --samples 3 \
		--sample-time 200 --access-widths "$widths" --offsets 0,60 \
		--buffers 16K --json /tmp/access-walk.json || return
	read -r n <"$LOST"
	if [ "$n" = 0 ]; then
		t_pass "access-walk (widths $widths)"
	else
		t_fail access-walk "lost_places is $n after widths $widths: a loop lost its slot index"
	fi
}

test_concurrent() {
	need_test_module
	pids=
	n=0
	for tr in netlink ioctl netlink ioctl netlink ioctl; do
		n=$((n + 1))
		/usr/bin/rawtest concurrent "$tr" >"/tmp/small.$n" 2>&1 &
		pids="$pids $!"
	done
	bad=0
	for pid in $pids; do
		n=0
		while kill -0 "$pid" 2>/dev/null && [ $n -lt 1200 ]; do
			usleep 100000
			n=$((n + 1))
		done
		if kill -0 "$pid" 2>/dev/null; then
			t_fail concurrent-6 "client $pid still running after 120 s"
			kill -9 $pids 2>/dev/null
			return
		fi
		wait "$pid" || bad=$((bad + 1))
	done
	cat /tmp/small.*
	if [ "$bad" = 0 ]; then
		t_pass concurrent-6
	else
		t_fail concurrent-6 "$bad of 6 clients failed: $(cat /tmp/small.* | head -n 5)"
	fi
	live_zero concurrent-live-objects-0
}

# The partner-timeout, allocation-failure and wrong-CPU paths need the test
# build of the module (make -C kmod TEST=1), loaded by the caller.
test_faults() {
	local param=/sys/module/cacheprobe/parameters slab0 vm0 timeout0
	need_test_module
	if [ ! -e $param/fault_inject ]; then
		t_skip fault-injection "no test build of the module (make -C kmod TEST=1)"
		return
	fi
	set -- $(mem_level)
	slab0=$1 vm0=$2
	timeout0=$(cat $param/partner_timeout_ms)
	echo 300 >$param/partner_timeout_ms
	echo 1 >$param/fault_inject
	run_raw fault- fault timeout
	echo 0 >$param/fault_inject
	live_zero fault-timeout-live-objects-0
	echo 2 >$param/fault_inject
	run_raw fault- fault nomem
	echo 0 >$param/fault_inject
	live_zero fault-nomem-live-objects-0
	echo 8 >$param/fault_inject
	run_raw fault- fault wrongcpu
	echo 0 >$param/fault_inject
	live_zero fault-wrongcpu-live-objects-0
	echo "$timeout0" >$param/partner_timeout_ms
	t_run fault-then-usable /usr/bin/rawtest small netlink
	sleep 1
	set -- $(mem_level)
	if [ $(($1 - slab0)) -le 1024 ] && [ $(($2 - vm0)) -le 512 ]; then
		t_pass fault-no-leak
	else
		t_fail fault-no-leak "Slab $slab0 -> $1 kB, VmallocUsed $vm0 -> $2 kB"
	fi
}

# Emulated CPUs take turns on one host thread, and the TSC follows the
# host's clock: a window can be stretched by whatever another virtual CPU
# runs meanwhile (about 1 ms seen, now and then).  The shape checks use a
# roomier bound than the default, and still require every window within
# it; the minimum bound must make a long sample fail.
test_kcmd() {
	local irqoff0 buffer0
	need_module || return
	irqoff0=$(cat $IRQOFF)
	echo 10000 >$IRQOFF
	run_raw k- kcmd
	echo 10 >$IRQOFF
	run_raw k- overflow
	echo "$irqoff0" >$IRQOFF
	t_expect_fail irqoff-param-range 1 "" sh -c "echo 5 >$IRQOFF"
	cpu_offline "$LAST"
	run_raw k- offline "$LAST"
	cpu_online "$LAST"
	# Buffer sizes at the limit: max_buffer_mb at its minimum (1 MiB),
	# long windows so that a 1 MiB sample fits.
	buffer0=$(cat $BUFFER)
	echo 1 >$BUFFER
	echo 100000 >$IRQOFF
	run_raw k- limit
	# More slots than U32_MAX within the largest limit (64 GiB).
	echo 65536 >$BUFFER
	run_raw k- slots
	echo "$buffer0" >$BUFFER
	echo "$irqoff0" >$IRQOFF
}

# CHASE's ABI 4 options (PAGES, CHASES, SEED), each refusal and run,
# leave nothing behind (kcmd ran them on the production module).
test_chase_options() {
	local irqoff0
	need_test_module
	irqoff0=$(cat $IRQOFF)
	echo 10000 >$IRQOFF
	run_raw t- chase-options
	echo "$irqoff0" >$IRQOFF
	live_zero chase-options-live-objects-0
}

# rawtest NAME on the test build, whose module parameter PARAM counts what
# NAME checks: what no reply carries and the guests' timings cannot show.
run_counted() {
	need_test_module
	if [ ! -e "$PARAM/$2" ]; then
		t_skip "$1" "no test build of the module loaded"
		return
	fi
	run_raw t- "$1"
	live_zero "$1-live-objects-0"
}

# ABI 6: CHASE with PREPARE WARM walks its cycles four times before its
# first sample (warm_rounds counts the walk's rounds).
test_chase_warm() {
	run_counted chase-warm warm_rounds
}

# Every CHASE sample starts after a random wait (measure/dither.h), so
# that one-load samples do not lock onto a TSC that advances in steps
# (dither_spins counts the wait's iterations).
test_chase_dither() {
	run_counted chase-dither dither_spins
}

test_unpriv() {
	need_module || return
	t_expect_out unpriv-info-netlink "^module: *cacheprobe .* via netlink" \
		as_nobody "$RUN" info --transport netlink
	t_expect_fail unpriv-flush-netlink 1 "CAP_SYS_ADMIN.*EPERM" \
		as_nobody "$RUN" flush --transport netlink
	t_expect_fail unpriv-flush-ioctl 1 "EACCES|EPERM" \
		as_nobody "$RUN" flush --transport ioctl
}

test_load_unload() {
	local cycles_ok=0 i=0 tr
	need_module || return
	while [ $i -lt 20 ]; do
		tr=netlink
		[ $((i % 2)) = 1 ] && tr=ioctl
		rmmod cacheprobe && insmod "$KO" &&
			"$RUN" info --transport $tr | grep -q "via $tr" &&
			[ "$(flush_lines --cpus 0 --transport $tr)" = 1 ] &&
			cycles_ok=$((cycles_ok + 1))
		i=$((i + 1))
	done
	if [ "$cycles_ok" = 20 ]; then
		t_pass load-unload-20
	else
		t_fail load-unload-20 "only $cycles_ok of 20 cycles worked (netlink and ioctl in turn)"
	fi
}

test_unloaded() {
	need_module || return
	t_run rmmod rmmod cacheprobe
	t_expect_fail info-without-module 0 "module: *not loaded" "$RUN" info
	t_expect_fail flush-without-module 1 "not loaded" "$RUN" flush
	t_dmesg_clean kernel-log-clean
}

# --- The areas in kernel mode (latency, bounce, coldcache) ---
# Each area measures through the module with --mode kernel over both
# transports; the JSON must hold its measurements marked mode "kernel".

# t_json_kernel NAME FILE AREA [NAME-REGEX]: pass iff FILE holds at least
# one measurement of AREA (whose name matches NAME-REGEX) and all of
# AREA's measurements are in mode kernel, coldcache's user-side line
# timer floor apart.
t_json_kernel() {
	local name=$1 file=$2 area=$3 pat=${4:-.} all n other
	all=$(json_measurements "$file" 2>/dev/null | grep "^$area|")
	n=$(printf '%s\n' "$all" | grep -E "^$area\|($pat)" | grep -c '|kernel$')
	other=$(printf '%s\n' "$all" | grep -v '|kernel$' |
		grep -v '^coldcache|line timer floor|' | grep -v '^$')
	if [ "$n" -gt 0 ] && [ -z "$other" ]; then
		t_pass "$name"
	else
		t_fail "$name" "$n kernel-mode measurements of $area matching /$pat/ in $file; not in kernel mode:
$other"
	fi
}

# t_area_kernel NAME AREA NAME-REGEX OUTPUT-REGEX OPTIONS...: the area in
# kernel mode exits 0, its output matches OUTPUT-REGEX and its JSON is all
# kernel mode.
t_area_kernel() {
	local name=$1 area=$2 pat=$3 out=$4 json=/tmp/$1.json
	shift 4
	rm -f "$json"
	t_expect_out "$name" "$out" "$RUN" "$area" --mode kernel --json "$json" \
		$AREA_OPTS "$@" || return 1
	t_json_kernel "$name-json" "$json" "$area" "$pat"
}

# t_cold_kernel_lines NAME FILE: every kernel-mode warm and wbinvd first
# pass of FILE classified its lines: loads_classified above 0, the level
# shares (-1 for merged levels) summing to a million, give or take the
# rounding of each.
t_cold_kernel_lines() {
	local bad
	bad=$(awk -F'[":,]+' '
		/"name":/ { name = $3; lines = ""; sum = 0; levels = 0 }
		/"mode":"kernel"/ { kernel = 1 }
		/"mode":"user"/ { kernel = 0 }
		$2 ~ /^[a-z0-9]+_ppm$/ && $2 != "cached_ppm" &&
		    $2 !~ /_median_ppm$|_worst_ppm$/ && $3 >= 0 {
			sum += $3; levels++ }
		$2 == "loads_classified" { lines = $3 }
		/^    }/ && name ~ /^(warm|wbinvd) .* first pass$/ && kernel {
			if (lines == "" || lines <= 0 || levels == 0 ||
			    sum < 1000000 - levels || sum > 1000000)
				print name ": lines " lines ", shares " sum
			n++
		}
		END { if (!n) print "no kernel-mode warm or wbinvd first pass" }
	' "$2")
	if [ -z "$bad" ]; then
		t_pass "$1"
	else
		t_fail "$1" "$bad"
	fi
}

test_area_kernel_modes() {
	local tr buffer0 m n
	for tr in netlink ioctl; do
		t_area_kernel "latency-kernel-$tr" latency \
			'chase [0-9]+ KiB \(kernel\)' 'chase 64 KiB \(kernel\)' \
			--transport "$tr" $LAT_OPTS
		t_area_kernel "bounce-kernel-2cpu-$tr" bounce '.' ' 0,1 plain 4B +kernel ' \
			--transport "$tr" $BOUNCE_OPTS --threads 2 --cpus 0,1
		# Two CPUs: the rounds the partner missed, 0 or more, reported.
		t_json_missed "bounce-kernel-2cpu-$tr-missed-rounds" \
			"/tmp/bounce-kernel-2cpu-$tr.json" bounce
		# The hypervisor is named: WBINVD is not to be trusted under it.
		t_area_kernel "coldcache-kernel-$tr" coldcache \
			'(warm|clflush|wbinvd) .* first pass' 'hypervisor' \
			--transport "$tr" $COLD_OPTS
	done
	# Every size of the sweep (16 to 64 KiB, 4 per octave) in kernel mode.
	n=$(json_measurements /tmp/latency-kernel-netlink.json |
		grep -c '^latency|chase [0-9]* KiB (kernel)|kernel$')
	if [ "$n" = 9 ]; then
		t_pass latency-kernel-sizes
	else
		t_fail latency-kernel-sizes "wanted 9 kernel-mode sizes, got $n"
	fi
	# --mode both: each size in user and in kernel mode, side by side; the
	# cache levels come from the user-mode curve, and the report says so.
	rm -f /tmp/latency-both.json
	t_expect_out latency-both "come from the user-mode curve" \
		"$RUN" latency --mode both --json /tmp/latency-both.json \
		$AREA_OPTS --min-size 16K --max-size 20K
	n=$(json_measurements /tmp/latency-both.json |
		grep -cE '^latency\|chase (16|20) KiB\|user$|^latency\|chase (16|20) KiB \(kernel\)\|kernel$')
	if [ "$n" = 4 ]; then
		t_pass latency-both-json
	else
		t_fail latency-both-json "wanted 16 and 20 KiB in user and kernel mode, got $n of the 4"
	fi
	# --pages and --chases in kernel mode, over both transports: one curve
	# per pair, named after the choices, the 2 MiB buffer of 4 MiB on
	# huge pages read back from the module (a guest just booted has free
	# 2 MiB blocks), the 4 KiB one on small pages, the overlap derived.
	for tr in netlink ioctl; do
		t_area_kernel "latency-kernel-variants-$tr" latency \
			'chase [0-9]+ (KiB|MiB)( pages=4k)?( chases=2)? \(kernel\)' \
			'memory-level parallelism' --transport "$tr" $AREA_OPTS \
			--pages 4k,2m --chases 2 --min-size 4M --max-size 4M
		n=$(json_measurements "/tmp/latency-kernel-variants-$tr.json" |
			grep -cE '^latency\|chase 4 MiB( pages=4k)?( chases=2)? \(kernel\)\|kernel$')
		if [ "$n" = 4 ] &&
		   grep -q '"page_bytes_backed":2097152' "/tmp/latency-kernel-variants-$tr.json" &&
		   grep -q '"page_bytes_backed":4096' "/tmp/latency-kernel-variants-$tr.json"; then
			t_pass "latency-kernel-variants-$tr-curves"
		else
			t_fail "latency-kernel-variants-$tr-curves" "wanted 4 curves of 4 MiB, 2 MiB and 4 KiB pages read back; got $n: $(grep -o '"page_bytes_backed":[0-9]*' "/tmp/latency-kernel-variants-$tr.json" | tr '\n' ' ')"
		fi
	done
	# Four threads, one per CPU: the module runs them all.
	t_area_kernel bounce-kernel-4cpu bounce '.' ' 0-3 plain 4B +kernel ' $BOUNCE_OPTS \
		--threads 4 --cpus 0-3
	if grep -q '"threads":4' /tmp/bounce-kernel-4cpu.json; then
		t_pass bounce-kernel-4cpu-threads
	else
		t_fail bounce-kernel-4cpu-threads "no measurement with 4 threads in /tmp/bounce-kernel-4cpu.json"
	fi
	# coldcache: each module method measured, the hypervisor in the JSON.
	for m in warm clflush wbinvd; do
		t_json_kernel "coldcache-kernel-$m" /tmp/coldcache-kernel-netlink.json \
			coldcache "$m .* first pass"
	done
	# ABI 6: warm's and wbinvd's lines classified one by one by the
	# module's timer, on levels measured with it (the guest has no cache
	# model: the shares say nothing, their presence and sum do).
	for tr in netlink ioctl; do
		t_cold_kernel_lines "coldcache-kernel-lines-$tr" \
			"/tmp/coldcache-kernel-$tr.json"
	done
	t_expect_out coldcache-kernel-lines-notes \
		"kernel classifier level [A-Za-z0-9+]+: plateau [0-9]+ ticks, anything slower" \
		cat /tmp/coldcache-kernel-netlink.json
	if grep -q '"hypervisor":"none"' /tmp/coldcache-kernel-netlink.json ||
	   ! grep -q '"hypervisor":"' /tmp/coldcache-kernel-netlink.json; then
		t_fail coldcache-kernel-hypervisor-json "the JSON names no hypervisor: $(grep '"hypervisor"' /tmp/coldcache-kernel-netlink.json)"
	else
		t_pass coldcache-kernel-hypervisor-json
	fi
	# latency: sizes above the module's largest buffer are skipped with a
	# note; when none is left, kernel mode fails saying why.
	buffer0=$(cat $BUFFER)
	echo 1 >$BUFFER
	t_expect_out latency-kernel-buffer-skip \
		"kernel mode skipped 3 sizes from 1280 KiB up: above the module's largest buffer \(1 MiB" \
		"$RUN" latency --mode kernel $AREA_OPTS --min-size 1M --max-size 1792K
	t_expect_fail latency-kernel-buffer-none 1 \
		"every working set is larger than the module's largest buffer" \
		"$RUN" latency --mode kernel $AREA_OPTS --min-size 2M --max-size 2M
	echo "$buffer0" >$BUFFER
}

# The default mode: both modes for root; user mode alone for a caller the
# module answers (GET_INFO) but would refuse every measurement (EPERM).
# test_default_mode NAME WRAPPER MODES: WRAPPER (unquoted) runs the tool.
test_default_mode() {
	local json=/tmp/default-mode-$1.json modes
	rm -f "$json"
	t_run "default-mode-$1" $2 "$RUN" latency --json "$json" \
		$AREA_OPTS --min-size 16K --max-size 16K || return 1
	modes=$(json_measurements "$json" | grep '^latency|chase 16 KiB' |
		sed 's/.*|//' | sort -u | tr '\n' ' ')
	if [ "$modes" = "$3" ]; then
		t_pass "default-mode-$1-json"
	else
		t_fail "default-mode-$1-json" "modes of chase 16 KiB: '$modes', wanted '$3'"
	fi
}

test_area_kernel_usage() {
	# Bad input is a usage error also in kernel mode, before the module.
	t_expect_fail bounce-kernel-same-cpu 2 "CPU 0 is selected twice" \
		"$RUN" bounce --mode kernel $AREA_OPTS --cpus 0,0
	t_expect_fail bounce-kernel-distance-width 2 \
		"distance 6 is not a multiple of the counter width 4" \
		"$RUN" bounce --mode kernel $AREA_OPTS --distances 6 --width 4
	t_expect_fail bounce-kernel-distance-max 2 \
		"distance 70000 is above the maximum of 65536 bytes" \
		"$RUN" bounce --mode kernel $AREA_OPTS --distances 70000
}

# Both CPU models run the areas: -cpu qemu64 has no RDTSCP, which the
# clock then replaces with lfence; rdtsc; lfence.
test_areas() {
	local area
	need_no_module
	if t_run areas-insmod insmod "$KO"; then
		test_area_kernel_modes
		test_area_kernel_usage
		test_default_mode root "" "kernel user "
		test_default_mode nobody as_nobody "user "
		# Root of a user namespace of its own holds CAP_SYS_ADMIN
		# there, not where the module checks it.
		test_default_mode userns "unshare -r" "user "
		t_run areas-rmmod rmmod cacheprobe
	fi
	for area in latency bounce coldcache; do
		t_expect_fail "$area-kernel-without-module" 1 \
			"$area: --mode kernel: cacheprobe module not loaded" \
			"$RUN" "$area" --mode kernel $AREA_OPTS
	done
	t_dmesg_clean areas-kernel-log-clean
}

# Each later area keeps its guest tests in tests/guest/area-NAME.sh, which
# defines test_area_NAME (run with the module loaded) and may define
# test_area_NAME_unloaded; the area's name is the test's.
test_area() {
	need_module || return
	"test_area_$1"
	if command -v "test_area_$1_unloaded" >/dev/null 2>&1; then
		need_no_module
		"test_area_$1_unloaded"
	fi
}

# --- `make run` after the build: user/scripts/run.sh with this guest's
# module and tool (busybox sh runs it; the initramfs has no bash).  One
# area with tiny settings keeps it short under emulation.

# make_run OUT: run.sh's output into OUT; its exit status.
make_run() {
	rm -rf /tmp/run
	mkdir -p /tmp/run
	CACHEPROBE_RUN_BIN=$(command -v "$RUN") CACHEPROBE_RUN_KO=$KO \
		CACHEPROBE_RUN_DIR=/tmp/run sh "$RUN_SH" latency $AREA_OPTS \
		--min-size 16K --max-size 16K >"$1" 2>&1
}

# run_flush_cpus OUT METHOD: the CPUs of the per-CPU lines run.sh printed
# under its "flush --method METHOD" heading.
run_flush_cpus() {
	awk -v h="== cacheprobe-run flush --method $2" '
		/^== / { on = ($0 == h) }
		on && /^cpu [0-9]+: [0-9]+ ticks, [0-9]+ ns$/ {
			sub(/^cpu /, ""); sub(/:.*/, ""); printf "%s%s", s, $0; s = " "
		}' "$1"
}

# t_out_has NAME FILE REGEX WHY
t_out_has() {
	if grep -Eq -- "$3" "$2"; then
		t_pass "$1"
	else
		t_fail "$1" "$4
$(tail -n 15 "$2")"
	fi
}

test_make_run() {
	local out=/tmp/make-run.out rc cpus
	if [ ! -f "$RUN_SH" ]; then
		t_fail make-run "no $RUN_SH in the initramfs"
		return
	fi
	[ -d /sys/module/cacheprobe ] && rmmod cacheprobe
	make_run $out
	rc=$?
	cat $out
	if [ $rc = 0 ]; then t_pass make-run-exit; else t_fail make-run-exit "exit status $rc"; fi
	t_out_has make-run-loaded $out "^run: loaded $KO\$" "no 'run: loaded $KO'"
	t_out_has make-run-info $out '^module: *cacheprobe [0-9.]+ \(ABI [0-9]+\) via netlink' \
		"info did not show the module"
	cpus=$(run_flush_cpus $out wbinvd)
	if [ "$cpus" = "$(all_cpus)" ]; then
		t_pass make-run-wbinvd
	else
		t_fail make-run-wbinvd "wbinvd flushed CPUs '$cpus', wanted '$(all_cpus)'"
	fi
	if has_flag wbnoinvd; then
		cpus=$(run_flush_cpus $out wbnoinvd)
		if [ "$cpus" = "$(all_cpus)" ]; then
			t_pass make-run-wbnoinvd
		else
			t_fail make-run-wbnoinvd "wbnoinvd flushed CPUs '$cpus', wanted '$(all_cpus)'"
		fi
	else
		t_out_has make-run-wbnoinvd $out \
			'^== flush --method wbnoinvd: skipped, this CPU has no WBNOINVD$' \
			"wbnoinvd was not refused though the CPU lacks it"
	fi
	t_out_has make-run-areas $out '^results: /tmp/run/results.json$' \
		"the default run named no results"
	# A measurement's "area", followed by its "name" (the summary's
	# findings and the area notes name areas too).
	if grep -A1 -E '"area": *"latency"' /tmp/run/results.json 2>/dev/null |
		grep -q '"name":'; then
		t_pass make-run-results
	else
		t_fail make-run-results "no latency measurement in /tmp/run/results.json"
	fi
	t_out_has make-run-unload-message $out '^run: unloaded cacheprobe$' \
		"no 'run: unloaded cacheprobe'"
	if [ -d /sys/module/cacheprobe ]; then
		t_fail make-run-unloaded "the module it loaded is still loaded"
		rmmod cacheprobe
	else
		t_pass make-run-unloaded
	fi

	# A module the user loaded stays.  The test build with WBNOINVD
	# assumed, where there is one, also takes run.sh's wbnoinvd branch.
	if [ -f "$TEST_KO" ] && insmod "$TEST_KO"; then
		echo 4 >/sys/module/cacheprobe/parameters/fault_inject
		want_wbnoinvd=yes
	else
		insmod "$KO"
		want_wbnoinvd=no
		has_flag wbnoinvd && want_wbnoinvd=yes
	fi
	make_run $out
	rc=$?
	cat $out
	if [ $rc = 0 ]; then t_pass make-run-preloaded-exit; else t_fail make-run-preloaded-exit "exit status $rc"; fi
	t_out_has make-run-preloaded-used $out '^run: cacheprobe is already loaded; using it$' \
		"run.sh did not notice the loaded module"
	if [ -d /sys/module/cacheprobe ] && ! grep -q '^run: unloaded' $out; then
		t_pass make-run-preloaded-kept
	else
		t_fail make-run-preloaded-kept "run.sh unloaded a module it had not loaded"
	fi
	if [ $want_wbnoinvd = yes ]; then
		cpus=$(run_flush_cpus $out wbnoinvd)
		if [ "$cpus" = "$(all_cpus)" ]; then
			t_pass make-run-preloaded-wbnoinvd
		else
			t_fail make-run-preloaded-wbnoinvd "wbnoinvd flushed CPUs '$cpus', wanted '$(all_cpus)'"
		fi
	fi
	[ -d /sys/module/cacheprobe ] && rmmod cacheprobe
	t_dmesg_clean make-run-log-clean
}

for area_tests in /lib/cacheprobe/area-*.sh; do
	[ -f "$area_tests" ] && . "$area_tests"
done

t_test load test_load
t_test info test_info
t_test flush test_flush
t_test flush-errors test_flush_errors
t_test flush-offline test_flush_offline
t_test_named smoke test_smoke
t_test raw test_raw
t_test wbnoinvd-assumed test_wbnoinvd_assumed
t_test kcmd test_kcmd
t_test access-walk test_access_walk
t_test concurrent test_concurrent
t_test one-at-a-time test_one_at_a_time
t_test signal test_handled_signal
t_test kill test_kill
t_test kill-warm test_kill_warm
t_test fault-inject test_faults
t_test chase-options test_chase_options
t_test chase-warm test_chase_warm
t_test chase-dither test_chase_dither
t_test unpriv test_unpriv
t_test load-unload test_load_unload
t_test unloaded test_unloaded
t_test areas test_areas
# One test per area file (run-guest.sh lists them from the files' names).
for area_tests in /lib/cacheprobe/area-*.sh; do
	[ -f "$area_tests" ] || continue
	area_tests=${area_tests##*/area-}
	t_test "${area_tests%.sh}" test_area "${area_tests%.sh}"
done
t_test make-run test_make_run
