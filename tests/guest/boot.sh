#!/usr/bin/env bash
# Boot a test guest under QEMU (TCG, no KVM needed) and report its results.
#
#   boot.sh --kernel VMLINUZ --initrd CPIO --label LABEL
#           [--cpus 4 | --smp N,sockets=S,dies=D,cores=C,threads=T]
#           [--numa NODES] [--cpu-model max] [--mem 512] [--timeout 300]
#           [--machine q35] [--accel tcg,thread=single]
#           [--append "EXTRA KERNEL ARGS"] [--outdir DIR (default: mktemp -d)]
#
# --smp SPEC goes to QEMU's -smp instead of the plain --cpus count (SPEC
# starts with the CPU count; sockets, dies, clusters, cores, threads and
# maxcpus may follow).  --numa NODES makes NODES NUMA nodes, the CPUs and
# --mem split evenly among them (each node a memory-backend-ram object;
# QEMU 7.2 refuses the older "-numa node,mem=" for q35), so both must
# divide by NODES.
#
# Output on stdout, one line per result, LABEL inserted after the verdict:
#   PASS [LABEL] NAME
#   FAIL [LABEL] NAME: WHY         (followed by indented "    | ..." details)
#   SKIP [LABEL] NAME: WHY
# plus two checks of the boot itself:
#   guest-completed     the guest wrote DONE (no panic, no hang)
#   guest-kernel-clean  console.log has no panic/WARNING/BUG/Oops/trace
# GUEST_MEM and GUEST_APPEND, when set, are the defaults of --mem and
# --append (make check-debug gives a KASAN kernel more memory this way,
# through the scripts that call boot.sh).
# Exit status is 0 iff no FAIL line was printed. A one-line timing summary
# goes to stderr. DIR keeps console.log (ttyS0), results.log (ttyS1) and
# qemu.log (QEMU's own stdout/stderr).
set -euo pipefail

prog=${0##*/}

usage() {
    sed -n '3,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

die() {
    echo "$prog: $*" >&2
    exit 2
}

kernel=
initrd=
label=
cpus=
smp=
numa=
cpu_model=max
mem=${GUEST_MEM:-512}
timeout_s=300
machine=q35
accel=tcg,thread=single
append=${GUEST_APPEND:-}
outdir=
while [[ $# -gt 0 ]]; do
    [[ $# -ge 2 ]] || usage
    case $1 in
        --kernel) kernel=$2 ;;
        --initrd) initrd=$2 ;;
        --label) label=$2 ;;
        --cpus) cpus=$2 ;;
        --smp) smp=$2 ;;
        --numa) numa=$2 ;;
        --cpu-model) cpu_model=$2 ;;
        --mem) mem=$2 ;;
        --timeout) timeout_s=$2 ;;
        --machine) machine=$2 ;;
        --accel) accel=$2 ;;
        --append) append=$2 ;;
        --outdir) outdir=$2 ;;
        *) usage ;;
    esac
    shift 2
done
[[ -n $kernel && -n $initrd && -n $label ]] || usage
[[ -r $kernel ]] || die "kernel $kernel not readable"
[[ -r $initrd ]] || die "initrd $initrd not readable"
[[ -z $cpus || -z $smp ]] || die "--cpus and --smp both given; use one"
[[ ${cpus:=4} =~ ^[0-9]+$ && $mem =~ ^[0-9]+$ && $timeout_s =~ ^[0-9]+$ ]] ||
    die "--cpus, --mem and --timeout take plain numbers"
if [[ -n $smp ]]; then
    smp_keys='sockets|dies|clusters|cores|threads|maxcpus'
    [[ $smp =~ ^[1-9][0-9]*(,($smp_keys)=[1-9][0-9]*)*$ ]] ||
        die "--smp '$smp': want N[,KEY=N...] with KEY one of ${smp_keys//|/, }"
    cpus=${smp%%,*}
    # CPUs that may be plugged later belong to a node too.
    [[ ,$smp, =~ ,maxcpus=([0-9]+), ]] && cpus=${BASH_REMATCH[1]}
else
    smp=$cpus
fi
numa_args=()
if [[ -n $numa ]]; then
    [[ $numa =~ ^[1-9][0-9]*$ ]] || die "--numa takes a plain number of nodes (1 or more)"
    (( cpus % numa == 0 && mem % numa == 0 )) ||
        die "--numa $numa must divide the $cpus CPUs and the $mem MiB evenly"
    per_cpus=$((cpus / numa))
    for ((node = 0; node < numa; node++)); do
        first=$((node * per_cpus))
        range=$first
        ((per_cpus == 1)) || range+=-$((first + per_cpus - 1))
        numa_args+=(
            -object "memory-backend-ram,id=m$node,size=$((mem / numa))M"
            -numa "node,nodeid=$node,cpus=$range,memdev=m$node"
        )
    done
fi
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not found (apt-get install qemu-system-x86)"

if [[ -z $outdir ]]; then
    outdir=$(mktemp -d "${TMPDIR:-/tmp}/cacheprobe-guest.XXXXXX")
fi
mkdir -p "$outdir"
console=$outdir/console.log
results=$outdir/results.log
qemulog=$outdir/qemu.log
# QEMU's option parser treats "," as a separator; rather than half-support
# escaping, refuse such paths.
for p in "$kernel" "$initrd" "$console" "$results"; do
    [[ $p != *,* ]] || die "path must not contain a comma: $p"
done
rm -f "$console" "$results" "$qemulog"

# panic_on_warn/oops=panic: any WARN or oops ends the boot, so it cannot go
# unnoticed. panic=-1: reboot at once on panic, and -no-reboot turns that
# reboot into a QEMU exit, so a panic costs seconds, not the timeout.
# quiet/loglevel=4: keep the console readable; note this hides KERN_WARNING
# lines, WARN() reports included. panic_print=0x20 makes a panic replay the
# whole kernel log on the console, so the WARNING/BUG report that led to
# the panic does land in console.log. (init also dumps dmesg at the end of
# a run, so non-fatal warnings are checked too.)
# noirqdebug: under TCG on a loaded host the emulated UART raises
# interrupts the 8250 driver then finds nothing pending for; the PREEMPT_RT
# kernel, whose serial handler runs in a thread, counted enough of them to
# print "irq 4: nobody cared" with a stack trace (once in make check).
# The module handles no interrupt, so this check can only report QEMU.
cmdline="console=ttyS0 panic_on_warn=1 panic=-1 oops=panic loglevel=4 quiet panic_print=0x20 noirqdebug"
[[ -z $append ]] || cmdline+=" $append"

# thread=single: with multi-threaded TCG, Debian 6.12 kernels (-rt and
# non-rt) crashed in about 1 of 20 boots with "Oops: int3" in
# sched_clock_cpu, a static-key text patch racing with QEMU's emulation of
# cross-CPU code modification. One TCG thread has not shown it and is no
# slower on a 2-core host. Pass --accel tcg for multi-threaded TCG.
# -nodefaults: no NIC/VGA/floppy/CD to probe, which saves boot time under
# TCG; the two serial ports are given explicitly (COM1 = ttyS0, COM2 =
# ttyS1). stdin is /dev/null: nothing is ever typed into the guest.
qemu=(
    qemu-system-x86_64 -accel "$accel" -machine "$machine" -cpu "$cpu_model"
    -smp "$smp" -m "$mem" "${numa_args[@]}" -nodefaults
    -kernel "$kernel" -initrd "$initrd" -append "$cmdline"
    -nographic -no-reboot -display none -monitor none
    -serial "file:$console" -serial "file:$results"
)
printf '%q ' "${qemu[@]}" >"$qemulog"
echo >>"$qemulog"

start=$(date +%s)
rc=0
# --kill-after: TCG vCPU threads normally stop on SIGTERM, but a wedged
# QEMU must not outlive the test run.
timeout --kill-after=10 "$timeout_s" "${qemu[@]}" </dev/null >>"$qemulog" 2>&1 || rc=$?
elapsed=$(($(date +%s) - start))

touch "$console" "$results"
# Serial output may carry "\r", and the firmware writes terminal escape
# sequences; strip both before matching and showing.
con_text=$(tr -d '\r' <"$console" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g')
res_text=$(tr -d '\r' <"$results")

indent() {
    sed 's/^/    | /'
}

fails=0
passes=0
skips=0
done_seen=0
last_was_fail=0
while IFS= read -r line; do
    case $line in
        "PASS "*)
            echo "PASS [$label] ${line#PASS }"
            passes=$((passes + 1)); last_was_fail=0 ;;
        "FAIL "*)
            echo "FAIL [$label] ${line#FAIL }"
            fails=$((fails + 1)); last_was_fail=1 ;;
        "SKIP "*)
            echo "SKIP [$label] ${line#SKIP }"
            skips=$((skips + 1)); last_was_fail=0 ;;
        "  | "*)
            # detail lines belong to the FAIL line above them
            [[ $last_was_fail == 0 ]] || echo "    ${line#  }" ;;
        DONE) done_seen=1 ;;
    esac
done <<<"$res_text"

# Kernel trouble in console.log. Only kernel lines count (they carry a
# "[   1.234567]" timestamp, possibly mid-line when a kernel message cut into
# user output), so a test tool printing "WARNING:" is not a kernel problem.
ts='\[ *[0-9]+\.[0-9]+\] .*'
# (The rest are the reports of debug kernels that say neither WARNING nor
# BUG: lockdep's, UBSAN's and kmemleak's.)
bad_re="$ts(Kernel panic|WARNING:|BUG:|Oops|general protection|Call Trace|INFO: trying to register non-static key|INFO: lockdep is turned off|UBSAN:|kmemleak: unreferenced object)"
if [[ $done_seen == 1 ]]; then
    echo "PASS [$label] guest-completed"
    passes=$((passes + 1))
else
    if [[ $rc == 124 || $rc == 137 ]]; then
        why="timeout after ${timeout_s}s"
    elif panic=$(grep -E -m1 "${ts}Kernel panic" <<<"$con_text"); then
        why="panic: ${panic#*Kernel panic - }"
    else
        why="no DONE (qemu exit status $rc)"
    fi
    echo "FAIL [$label] guest-completed: $why"
    fails=$((fails + 1))
    echo "    last 40 lines of $console:"
    tail -n 40 <<<"$con_text" | indent
    if [[ -s $qemulog ]] && [[ $(wc -l <"$qemulog") -gt 1 ]]; then
        echo "    qemu output ($qemulog):"
        tail -n +2 "$qemulog" | tail -n 20 | indent
    fi
fi

if grep -Eq -- "$bad_re" <<<"$con_text"; then
    # Name the most telling line: the WARNING/BUG/Oops report itself rather
    # than the panic it caused or a bare "Call Trace:".
    first_bad=$(grep -E -m1 -- "$ts(WARNING:|BUG:|Oops|general protection)" <<<"$con_text" ||
        grep -E -m1 -- "$bad_re" <<<"$con_text")
    echo "FAIL [$label] guest-kernel-clean: ${first_bad#"${first_bad%%[![:space:]]*}"}"
    fails=$((fails + 1))
    # Show the report from its first line; enough to identify the culprit.
    grep -F -A 30 -m1 -- "$first_bad" <<<"$con_text" | indent
else
    echo "PASS [$label] guest-kernel-clean"
    passes=$((passes + 1))
fi

echo "[$label] guest ran ${elapsed}s (qemu exit $rc): $passes pass, $fails fail, $skips skip; logs in $outdir" >&2
[[ $fails == 0 ]]
