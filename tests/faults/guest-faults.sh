#!/bin/sh
# shellcheck shell=dash
# Fault and load test, run inside a QEMU guest as /tests.sh (see
# tests/guest/init), driven by tests/faults/run-guest-faults.sh:
#
#  1. SIGKILL in the middle of every long command (CHASE, ACCESS, PINGPONG,
#     BOUNCE, XFER, and a run of FLUSHes) over both transports, and (with
#     the test build) while a multi-CPU run waits for a silent partner;
#  2. rmmod while /dev/cacheprobe is open, and while a netlink or an ioctl
#     operation is running;
#  3. the partner CPU taken offline during PINGPONG, BOUNCE and XFER
#     (2 and 3 hold the run with the test build until the fault is in);
#  4. six clients issuing mixed commands at once;
#  5. load/unload cycles with a client between each;
#  6. afterwards: kernel log clean, no kernel thread left, the module
#     (reloaded) answers correctly.
# Every step checks that no cacheprobe kernel thread outlives its client
# and that the module still answers.  Lines starting with "faults: " on
# the console are figures the host driver copies to its output.
. /lib/cacheprobe/lib.sh

KO=/lib/cacheprobe/cacheprobe.ko
TEST_KO=/lib/cacheprobe/cacheprobe-test.ko
FT=/usr/bin/faulttest
PARAM=/sys/module/cacheprobe/parameters
ONLINE=$(grep -c '^processor' /proc/cpuinfo)
LAST=$((ONLINE - 1))
FAULTS_CYCLES=200
# shellcheck disable=SC1091 # written by the host into the initramfs
[ -r /etc/cacheprobe-faults.conf ] && . /etc/cacheprobe-faults.conf

# Uptime in centiseconds, from a shell builtin (no fork, so it does not
# disturb what it times).
now_cs() {
	local up _
	read -r up _ </proc/uptime
	echo "${up%.*}${up#*.}" | sed 's/^0*//;s/^$/0/'
}
T0=$(now_cs)

# Console figure line, with the seconds since the script started.
note() {
	local t
	t=$(now_cs)
	echo "faults: [$(( (t - T0) / 100 )).$(( (t - T0) % 100 / 10 ))s] $*"
}

# The module's kernel threads are named "cacheprobe/CPU".  (ps, not pgrep:
# busybox pgrep cannot be relied on to list kernel threads.)
cp_threads() {
	# shellcheck disable=SC2009
	ps -o pid,comm 2>/dev/null | grep '[c]acheprobe/'
}

# no_threads NAME: the check, as a result.
no_threads() {
	local t
	t=$(cp_threads)
	if [ -n "$t" ]; then
		t_fail "$1" "kernel threads left:
$t"
	else
		t_pass "$1"
	fi
}

# faulttest's PASS/FAIL lines as results, "#" lines to the console; read
# after it ends, so no reader runs on another virtual CPU meanwhile.
run_ft() {
	local prefix=$1 verdict name rest rc
	shift
	"$FT" "$@" >/tmp/ft.out 2>&1
	rc=$?
	while read -r verdict name rest; do
		case "$verdict" in
		PASS) t_pass "$prefix$name" ;;
		FAIL) t_fail "$prefix${name%:}" "$rest" ;;
		\#) echo "faults: $name $rest" ;;
		esac
	done </tmp/ft.out
	return "$rc"
}

# answers NAME: the module answers correctly on both transports.
answers() {
	run_ft "$1-" check netlink
	run_ft "$1-" check ioctl
}

# "Slab VmallocUsed" in kB, reclaimable caches dropped and every slab
# cache shrunk first: that frees empty slabs and, on a KASAN kernel (make
# check-debug), the freed objects it holds in quarantine, which would
# otherwise look like growth.
mem_level() {
	local f
	echo 2 >/proc/sys/vm/drop_caches
	for f in /sys/kernel/slab/*/shrink; do
		echo 1 >"$f" 2>/dev/null
	done
	usleep 200000
	awk '/^Slab:/ { s = $2 } /^VmallocUsed:/ { v = $2 } END { print s, v }' /proc/meminfo
}

# wait_gone PID TENTHS: wait for PID to end; 1 if it is still there.
wait_gone() {
	local n=0
	while kill -0 "$1" 2>/dev/null && [ $n -lt "$2" ]; do
		usleep 100000
		n=$((n + 1))
	done
	! kill -0 "$1" 2>/dev/null
}

# wait_line FILE PATTERN TENTHS: wait for a line in FILE.
wait_line() {
	local n=0
	until grep -q "$2" "$1" 2>/dev/null; do
		[ $n -lt "$3" ] || return 1
		usleep 100000
		n=$((n + 1))
	done
}

# ---- 1. SIGKILL during every long command ----

# kill_mid CMD T DELAY_US: start "faulttest long CMD T", SIGKILL it DELAY_US
# after it printed "started".  Prints the verdict: "mid SYSCALL THREADS"
# when it was still in its requests (SYSCALL: what /proc/PID/syscall said
# just before the kill: 16 ioctl, 44 sendto, "running"; THREADS: how many
# cacheprobe threads ps showed then), "late" when it had finished,
# "early" when it never started, "stuck" when it outlived the kill by 5 s.
kill_mid() {
	local pid sc th _
	"$FT" long "$1" "$2" 4096 50 >/tmp/long.out 2>&1 &
	pid=$!
	if ! wait_line /tmp/long.out started 100; then
		kill -9 "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		echo "early: $(tr '\n' ' ' </tmp/long.out)"
		return
	fi
	usleep "$3"
	th=$(cp_threads | wc -l)
	read -r sc _ <"/proc/$pid/syscall"
	kill -9 "$pid" 2>/dev/null
	if ! wait_gone "$pid" 50; then
		echo stuck
	elif grep -q finished /tmp/long.out; then
		echo late
	else
		echo "mid $sc $th"
	fi
	wait "$pid" 2>/dev/null
}

# A kill in the command's own system call: ioctl (16) or sendto (44), the
# netlink request running in the sender's context; "running" when the
# task was on a CPU (e.g. shuffling a chain).  FLUSH is a loop of short
# requests, so its kill may also land between two (recvfrom, 45).
in_request() {
	case "$1:$2" in
	*:16 | *:44 | *:running | flush:45) return 0 ;;
	esac
	return 1
}

test_kill() {
	local cmd tr v delay i=0 mid=0 seen=0 m0 m1
	# Warm-up: the first runs fill per-CPU caches (thread stacks, slabs).
	kill_mid pingpong netlink 200000 >/dev/null
	kill_mid chase ioctl 200000 >/dev/null
	# shellcheck disable=SC2046 # two numbers, split on purpose
	set -- $(mem_level)
	m0="$1 $2"
	for cmd in chase access pingpong bounce xfer flush; do
		for tr in netlink ioctl; do
			# Two kills a combination, at different points of the run.
			for delay in 150000 600000; do
				v=$(kill_mid "$cmd" "$tr" "$delay")
				i=$((i + 1))
				note "kill $cmd $tr after $((delay / 1000)) ms: $v"
				case "$v" in
				mid*)
					# shellcheck disable=SC2086 # the verdict's words
					set -- $v
					if ! in_request "$cmd" "$2"; then
						t_fail "kill-$cmd-$tr-$((delay / 1000))ms" "killed in syscall $2, not in the request"
					else
						[ "$3" = 0 ] || seen=$((seen + 1))
						mid=$((mid + 1))
						t_pass "kill-$cmd-$tr-$((delay / 1000))ms"
					fi
					;;
				*) t_fail "kill-$cmd-$tr-$((delay / 1000))ms" "$v (wanted: killed mid-run, gone within 5 s)" ;;
				esac
				# The client waited for its threads before dying.
				[ -z "$(cp_threads)" ] ||
					t_fail "kill-$cmd-$tr-$((delay / 1000))ms-threads" "$(cp_threads)"
			done
		done
		# A kill may land between two requests' threads (allocating,
		# freeing), but some must find them running: that also shows
		# the thread check can see them.
		if [ "$cmd" = flush ] || [ "$seen" -gt 0 ]; then
			t_pass "kill-$cmd-threads-seen"
		else
			t_fail "kill-$cmd-threads-seen" "no kill of $cmd found a cacheprobe thread running"
		fi
		seen=0
		answers "kill-$cmd-then"
	done
	# shellcheck disable=SC2046 # two numbers, split on purpose
	set -- $(mem_level)
	m1="$1 $2"
	note "kills: $mid of $i mid-run; Slab VmallocUsed $m0 -> $m1 kB"
	mem_check kill "$m0" "$m1"
}

# Tolerances: slab caches keep freed objects per CPU and in partial slabs,
# and exiting tasks' stacks (vmalloc'ed) are cached per CPU, so clean
# runs move Slab by a few hundred kB (about +370 kB seen over 24 kills)
# and VmallocUsed by a few stacks.  What killed requests would leak is
# larger: 4 kills per command, each owning kernel-thread stacks (16 KiB,
# 1 to 4 per kill) and a vmalloc'ed buffer (CHASE 4 MiB, ACCESS 256 KiB,
# XFER 64 KiB; PINGPONG's and BOUNCE's are a page, below what this sees).
mem_check() {
	local name=$1
	# shellcheck disable=SC2086 # "Slab Vmalloc" pairs, split on purpose
	set -- $2 $3
	if [ $(($3 - $1)) -le 1024 ] && [ $(($4 - $2)) -le 128 ]; then
		t_pass "$name-memory-level"
	else
		t_fail "$name-memory-level" "Slab $1 -> $3 kB (allowed +1024), VmallocUsed $2 -> $4 kB (allowed +128)"
	fi
}

# ---- 2. rmmod while in use ----

RMMOD_BUSY='in use|busy|temporarily unavailable'

module_present() {
	[ -e /sys/module/cacheprobe ]
}

# reload: load the module if a test removed it.
reload() {
	module_present || insmod "$KO" || t_fail "$1-reload" "insmod failed"
	echo "$IRQOFF_US" >"$PARAM/max_irqoff_us"
}

test_rmmod_open() {
	local pid
	"$FT" hold 60 >/tmp/hold.out 2>&1 &
	pid=$!
	wait_line /tmp/hold.out holding 100
	t_expect_fail rmmod-while-open nz "$RMMOD_BUSY" rmmod cacheprobe
	if module_present; then
		t_pass rmmod-while-open-module-stays
	else
		t_fail rmmod-while-open-module-stays "module gone while /dev/cacheprobe is open"
		reload rmmod-while-open
	fi
	answers rmmod-while-open-then
	kill "$pid"
	wait_gone "$pid" 50
	wait "$pid" 2>/dev/null
	t_run rmmod-after-close rmmod cacheprobe
	module_present && t_fail rmmod-after-close-gone "/sys/module/cacheprobe still there"
	reload rmmod-after-close
}

# ---- holding a run (test build) ----

# The test build's fault_inject bit 16 holds every run after its first
# sample until the bit is cleared: a test acts while a run certainly goes
# on, however fast or slow the emulator, and then lets it end.

# hold_load: the test build loaded, runs held.  1 without a test build.
hold_load() {
	[ -f "$TEST_KO" ] || return 1
	if ! { rmmod cacheprobe && insmod "$TEST_KO"; }; then
		reload hold-load
		return 1
	fi
	echo "$IRQOFF_US" >"$PARAM/max_irqoff_us"
	echo 16 >"$PARAM/fault_inject"
}

# hold_release: held runs go on to their end.
hold_release() {
	[ -e "$PARAM/fault_inject" ] && echo 0 >"$PARAM/fault_inject"
}

# hold_unload: back to the production module.
hold_unload() {
	hold_release
	module_present && rmmod cacheprobe
	reload hold-unload
}

# wait_threads TENTHS: wait until a cacheprobe kernel thread runs.
wait_threads() {
	local n=0
	until [ -n "$(cp_threads)" ]; do
		[ $n -lt "$1" ] || return 1
		usleep 100000
		n=$((n + 1))
	done
}

# wait_in_write PID TENTHS: wait until PID is inside write(2) (blocked, as
# a CPU offline waiting for the hotplug lock) or gone.
wait_in_write() {
	local n=0 sc _
	while kill -0 "$1" 2>/dev/null; do
		read -r sc _ <"/proc/$1/syscall" 2>/dev/null
		[ "$sc" = 1 ] && return 0
		[ $n -lt "$2" ] || return 1
		usleep 100000
		n=$((n + 1))
	done
}

# held_long NAME CMD T SAMPLES: with the test build loaded and runs held,
# start "faulttest long" and wait until its run is going on; the client's
# pid is in $held_pid.  Fails (1), with a result and the production module
# back, when there is no test build or the run never got there.
held_long() {
	if ! hold_load; then
		t_skip "$1" "no test build of the module to hold the run"
		return 1
	fi
	"$FT" long "$2" "$3" "$4" >/tmp/long.out 2>&1 &
	held_pid=$!
	if ! wait_line /tmp/long.out started 100 || ! wait_threads 300; then
		t_fail "$1-held" "the run never started: $(tr '\n' ' ' </tmp/long.out)"
		hold_release
		wait_gone "$held_pid" 600
		wait "$held_pid" 2>/dev/null
		hold_unload
		return 1
	fi
}

# rmmod_during CMD T SAMPLES: rmmod while "faulttest long CMD T SAMPLES"
# runs, held by the test build until rmmod has answered.  A running
# measurement holds a module reference on either transport, so rmmod must
# refuse: had it waited, it would have held the genetlink lock for
# writing, stalling every family on the machine, until the measurement
# ended.  Nothing may crash or hang, the client gets its answer, and the
# module still answers.
rmmod_during() {
	local name="rmmod-during-$1-$2" pid rpid rc out t_start t_end t_rm
	held_long "$name" "$@" || return
	pid=$held_pid
	t_start=$(now_cs)
	(rmmod cacheprobe >/tmp/rmmod.out 2>&1; echo "$? $(now_cs)" >/tmp/rmmod.done) &
	rpid=$!
	wait_gone "$rpid" 600
	hold_release
	if ! wait_gone "$rpid" 1 || ! wait_gone "$pid" 600; then
		t_fail "$name" "rmmod or the client still running after 60 s"
		return
	fi
	wait "$rpid"
	wait "$pid" 2>/dev/null
	read -r rc t_rm <"/tmp/rmmod.done"
	out=$(tail -n 1 /tmp/long.out)
	t_end=${out##* at }
	note "$name: $out; rmmod began at $t_start, exit $rc at $t_rm: $(cat /tmp/rmmod.out)"
	case "$out" in
	"finished: errno 0 "* | "finished: errno "[1-9]*" "?*) ;;
	*)
		t_fail "$name" "client did not finish: $out"
		hold_unload
		return
		;;
	esac
	if [ "$t_start" -ge "$t_end" ]; then
		t_fail "$name-mid-run" "the request ended before rmmod began, although held"
	elif [ "$rc" != 0 ] && module_present &&
		grep -Eq "$RMMOD_BUSY" /tmp/rmmod.out; then
		t_pass "$name-refused"
	else
		t_fail "$name" "rmmod exit $rc at $t_rm, request ended at $t_end, module present: $(module_present && echo yes || echo no)"
	fi
	hold_unload
	answers "$name-then"
}

# ---- 3. partner CPU offline ----

# offline_during CMD T SAMPLES: take the last CPU (every command's
# partner) offline while CMD runs on it, the run held by the test build
# until the offline write is under way.  The module holds the hotplug lock
# for the length of a run, so the write should wait for the run to end;
# ending the run early with a clean error would be correct too.  A run
# that succeeded although its CPU went offline before it ended is a
# failure.
offline_during() {
	local name="offline-during-$1-$2" pid opid t_start t_end t_off f out
	f=/sys/devices/system/cpu/cpu$LAST/online
	held_long "$name" "$@" || return
	pid=$held_pid
	rm -f /tmp/off.done
	t_start=$(now_cs)
	(echo 0 >"$f" && now_cs >/tmp/off.done) &
	opid=$!
	wait_in_write "$opid" 300 ||
		note "$name: the offline write was not seen blocked within 30 s"
	hold_release
	if ! wait_gone "$pid" 600 || ! wait_gone "$opid" 600; then
		t_fail "$name" "client or CPU offline still running after 60 s"
		return
	fi
	wait "$pid" 2>/dev/null
	wait "$opid" 2>/dev/null
	out=$(tail -n 1 /tmp/long.out)
	t_end=${out##* at }
	t_off=$(cat /tmp/off.done 2>/dev/null)
	note "$name: $out; cpu$LAST online=$(cat "$f"); write began at $t_start, done at ${t_off:-never} (centiseconds of uptime)"
	case "$out" in
	"finished: errno 0 "*)
		if [ "$t_start" -lt "$t_end" ] && [ "${t_off:-0}" -ge "$t_end" ]; then
			t_pass "$name-offline-waited-for-the-run"
		elif [ "$t_start" -ge "$t_end" ]; then
			t_fail "$name-mid-run" "the run ended before the offline write began, although held"
		else
			t_fail "$name-offline-waited-for-the-run" "the CPU went offline during a run that then succeeded"
		fi
		;;
	"finished: errno "[1-9]*" "?*) t_pass "$name-ends-with-clean-error" ;;
	*) t_fail "$name-ends" "$out" ;;
	esac
	if [ -n "$t_off" ] && [ "$(cat "$f")" = 0 ]; then
		t_pass "$name-cpu-went-offline"
	else
		t_fail "$name-cpu-went-offline" "the offline write did not succeed"
	fi
	no_threads "$name-no-threads"
	cpu_online "$LAST"
	if [ "$(cat "$f")" = 1 ]; then
		t_pass "$name-cpu-back-online"
	else
		t_fail "$name-cpu-back-online" "cpu$LAST still offline"
	fi
	hold_unload
	answers "$name-then"
}

# ---- 4. load ----

test_load() {
	local i=0 pids="" pid bad=0 tr
	while [ $i -lt 6 ]; do
		tr=netlink
		[ $((i % 2)) = 1 ] && tr=ioctl
		"$FT" load "$tr" "$LOAD_OPS" $((i + 1)) >"/tmp/load.$i" 2>&1 &
		pids="$pids $!"
		i=$((i + 1))
	done
	for pid in $pids; do
		if ! wait_gone "$pid" 1200; then
			t_fail load-6-clients "client $pid still running after 120 s"
			# shellcheck disable=SC2086 # a list of pids
			kill -9 $pids 2>/dev/null
			return
		fi
		wait "$pid" || bad=$((bad + 1))
	done
	cat /tmp/load.* | sed 's/^# /faults: /'
	if [ "$bad" = 0 ]; then
		t_pass load-6-clients
	else
		t_fail load-6-clients "$bad of 6 clients saw an unclean error:
$(grep -h errno /tmp/load.* | head -n 10)"
	fi
	no_threads load-no-threads
	answers load-then
}

# ---- 1b. SIGKILL while waiting for a silent partner (test build) ----

# With the test build's fault_inject=1 the last thread of a multi-CPU run
# never answers: the leader retries its round until partner_timeout_ms
# (raised to 10 s here) and would then fail with ETIMEDOUT.  A kill must
# end that wait at once, with every thread stopped.
test_kill_silent() {
	local cmd tr v
	if [ ! -f "$TEST_KO" ]; then
		t_skip kill-silent "no test build of the module"
		return
	fi
	if ! { rmmod cacheprobe && insmod "$TEST_KO"; }; then
		t_fail kill-silent-load "cannot load $TEST_KO"
		reload kill-silent
		return
	fi
	echo 10000 >"$PARAM/partner_timeout_ms"
	echo 1 >"$PARAM/fault_inject"
	for cmd in pingpong bounce xfer; do
		for tr in netlink ioctl; do
			v=$(kill_mid "$cmd" "$tr" 300000)
			note "kill $cmd $tr waiting for a silent partner: $v"
			case "$v" in
			"mid "*" "[1-9]*) t_pass "kill-silent-$cmd-$tr" ;;
			*) t_fail "kill-silent-$cmd-$tr" "$v (wanted: killed mid-run with threads running, gone within 5 s)" ;;
			esac
			no_threads "kill-silent-$cmd-$tr-no-threads"
		done
	done
	echo 0 >"$PARAM/fault_inject"
	answers kill-silent-then
	t_run kill-silent-rmmod rmmod cacheprobe
	reload kill-silent
}

# ---- the run ----

t_run faults-insmod insmod "$KO" || exit 0
# Emulated CPUs take turns on one host thread and the TSC follows the
# host's clock, so windows stretch; the roomiest bound keeps EOVERFLOW
# out of the way of what is tested here (the bound itself is tests.sh's),
# also on a debug kernel (make check-debug), where KASAN and lockdep make
# a ping-pong round trip many times slower.
IRQOFF_US=100000
echo "$IRQOFF_US" >"$PARAM/max_irqoff_us"
LOAD_OPS=${FAULTS_LOAD_OPS:-300}

# Named tests (run-guest.sh --suite faults NAME... runs some), in the
# order of the steps above: each but cycles leaves the module loaded, as
# the next one wants it, and final loads it afresh.
test_rmmod() {
	test_rmmod_open
	rmmod_during pingpong netlink 4096
	rmmod_during chase netlink 4096
	rmmod_during pingpong ioctl 4096
}

test_offline() {
	offline_during pingpong netlink 4096
	offline_during bounce ioctl 4096
	offline_during xfer netlink 4096
}

test_cycles() {
	t_run cycles-rmmod rmmod cacheprobe
	run_ft "" cycles "$KO" 5 "$FAULTS_CYCLES"
}

test_final() {
	module_present && rmmod cacheprobe
	t_run final-insmod insmod "$KO"
	answers final
	no_threads final-no-threads
	t_run final-rmmod rmmod cacheprobe
	no_threads final-no-threads-after-rmmod
	t_dmesg_clean final-kernel-log-clean
}

note "start"
t_test kill test_kill
note "kills done"
t_test kill-silent test_kill_silent
note "silent-partner kills done"
t_test rmmod test_rmmod
note "rmmod done"
t_test offline test_offline
note "offline done"
t_test load test_load
note "load done"
t_test cycles test_cycles
note "cycles done"
t_test final test_final
note "end"
