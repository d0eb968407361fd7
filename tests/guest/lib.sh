# shellcheck shell=dash
# Test helpers for scripts running inside the cacheprobe test guest.
#
# Sourced (". /lib/cacheprobe/lib.sh") by /tests.sh, which busybox sh runs
# as a child of /init. Result lines go to the second serial port, which the
# host captures as results.log; everything else (command output, progress)
# goes to stdout = the console = console.log. Keeping results on their own
# port means kernel messages on the console can never interleave with or
# corrupt them.
#
# Result line format (one line each, parsed by boot.sh):
#   PASS NAME
#   FAIL NAME: WHY
#   SKIP NAME: WHY
#   "  | ..." detail lines (output tail etc.) may follow a FAIL line.
#
# Every t_* function returns 0 when the check passed and 1 when it failed,
# so a script can do "t_run load insmod x.ko || exit 0" to skip dependent
# checks. Consequently do NOT "set -e" in test scripts: the first failed
# check would silently end the run (init still reports DONE, so boot.sh
# would not notice the skipped checks).
#
# Written for busybox ash (no bashisms; "local" is the only extension used,
# which ash and dash both support).

# Where result lines go. Overridable so the helpers can be exercised on a
# host with plain "busybox sh" (CP_RESULTS=/tmp/r.log).
CP_RESULTS=${CP_RESULTS:-/dev/ttyS1}
# How many trailing output lines a failure report carries.
CP_TAIL_LINES=${CP_TAIL_LINES:-15}

# _t_emit LINE: one result line to the results port and, for context, the
# console.
_t_emit() {
    printf '%s\n' "$1" >>"$CP_RESULTS"
    printf '%s\n' "$1"
}

# _t_detail: copy stdin to the results port as "  | " lines (capped), so the
# reason for a failure is visible without digging through console.log.
_t_detail() {
    local _t_line _t_n=0
    while IFS= read -r _t_line || [ -n "$_t_line" ]; do
        _t_n=$((_t_n + 1))
        if [ "$_t_n" -gt 40 ]; then
            _t_emit "  | ... (truncated)"
            break
        fi
        _t_emit "  | $_t_line"
    done
}

# _t_tmp: a fresh file for captured output (/tmp is a tmpfs set up by init).
_t_tmp() {
    mktemp /tmp/t_out.XXXXXX
}

# t_pass NAME
t_pass() {
    _t_emit "PASS $1"
    return 0
}

# t_fail NAME WHY...
# The first line of WHY goes on the FAIL line; any further lines become
# detail lines, so the FAIL line itself is always a single line.
t_fail() {
    local _t_name=$1 _t_why _t_first _t_rest
    shift
    _t_why=$*
    _t_first=${_t_why%%
*}
    _t_emit "FAIL $_t_name: ${_t_first:-failed}"
    if [ "$_t_first" != "$_t_why" ]; then
        _t_rest=${_t_why#*
}
        printf '%s\n' "$_t_rest" | _t_detail
    fi
    return 1
}

# t_skip NAME WHY...: a check that could not run here (e.g. a CPU feature
# the emulated CPU lacks). Neither a pass nor a failure.
t_skip() {
    local _t_name=$1
    shift
    _t_emit "SKIP $_t_name: $*"
    return 0
}

# _t_capture FILE CMD...: run CMD with stdout+stderr into FILE, echo that
# output to the console, and return CMD's exit status. Runs CMD in the
# current shell so shell functions (e.g. as_nobody) work as CMD.
_t_capture() {
    local _t_out=$1 _t_rc
    shift
    printf '%s\n' "--- \$ $*"
    if "$@" </dev/null >"$_t_out" 2>&1; then _t_rc=0; else _t_rc=$?; fi
    cat "$_t_out"
    printf '%s\n' "--- exit $_t_rc"
    return "$_t_rc"
}

# _t_fail_out NAME FILE WHY: FAIL with the tail of FILE as detail lines.
_t_fail_out() {
    _t_emit "FAIL $1: $3"
    if [ -s "$2" ]; then
        tail -n "$CP_TAIL_LINES" "$2" | _t_detail
    else
        _t_emit "  | (no output)"
    fi
    return 1
}

# t_run NAME CMD...: pass iff CMD exits 0.
t_run() {
    local _t_name=$1 _t_out _t_rc
    shift
    _t_out=$(_t_tmp)
    if _t_capture "$_t_out" "$@"; then _t_rc=0; else _t_rc=$?; fi
    if [ "$_t_rc" -eq 0 ]; then
        t_pass "$_t_name"
    else
        _t_fail_out "$_t_name" "$_t_out" "exit status $_t_rc from: $*"
    fi
    _t_rc=$?
    rm -f "$_t_out"
    return "$_t_rc"
}

# t_expect_fail NAME STATUS PATTERN CMD...: pass iff CMD exits with STATUS
# (any non-zero status when STATUS is "nz") AND its combined stdout+stderr
# matches the extended regex PATTERN. For checking that bad input, missing
# privileges etc. are refused with the right status and message.
t_expect_fail() {
    local _t_name=$1 _t_want=$2 _t_pat=$3 _t_out _t_rc _t_status_ok=0 _t_out_ok=0
    shift 3
    case $_t_want in
        nz) ;;
        '' | *[!0-9]*)
            t_fail "$_t_name" "bad STATUS '$_t_want' given to t_expect_fail (want a number or nz)"
            return 1
            ;;
    esac
    _t_out=$(_t_tmp)
    if _t_capture "$_t_out" "$@"; then _t_rc=0; else _t_rc=$?; fi
    if [ "$_t_want" = nz ]; then
        [ "$_t_rc" -ne 0 ] && _t_status_ok=1
    else
        [ "$_t_rc" -eq "$_t_want" ] && _t_status_ok=1
    fi
    grep -Eq -- "$_t_pat" "$_t_out" && _t_out_ok=1
    if [ "$_t_status_ok" = 1 ] && [ "$_t_out_ok" = 1 ]; then
        t_pass "$_t_name"
    else
        local _t_why="expected exit $_t_want and output matching /$_t_pat/, got exit $_t_rc"
        [ "$_t_out_ok" = 1 ] || _t_why="$_t_why, output did not match"
        _t_fail_out "$_t_name" "$_t_out" "$_t_why (cmd: $*)"
    fi
    _t_rc=$?
    rm -f "$_t_out"
    return "$_t_rc"
}

# t_expect_out NAME PATTERN CMD...: pass iff CMD exits 0 AND its combined
# stdout+stderr matches the extended regex PATTERN.
t_expect_out() {
    local _t_name=$1 _t_pat=$2 _t_out _t_rc
    shift 2
    _t_out=$(_t_tmp)
    if _t_capture "$_t_out" "$@"; then _t_rc=0; else _t_rc=$?; fi
    if [ "$_t_rc" -eq 0 ] && grep -Eq -- "$_t_pat" "$_t_out"; then
        t_pass "$_t_name"
    elif [ "$_t_rc" -ne 0 ]; then
        _t_fail_out "$_t_name" "$_t_out" "exit status $_t_rc (wanted 0 and output matching /$_t_pat/) from: $*"
    else
        _t_fail_out "$_t_name" "$_t_out" "output did not match /$_t_pat/ from: $*"
    fi
    _t_rc=$?
    rm -f "$_t_out"
    return "$_t_rc"
}

# Kernel log lines that mean the kernel is unhappy. With panic_on_warn=1 a
# WARN() would already have ended the boot; this catches BUG/Oops reports
# and stack dumps that do not panic (e.g. "scheduling while atomic",
# lockdep, or a WARN before panic_on_warn took effect).
CP_DMESG_BAD='WARNING:|BUG:|Oops|general protection|Call Trace'

# t_dmesg_clean NAME: pass iff the kernel log has none of the above.
t_dmesg_clean() {
    local _t_name=$1 _t_out
    _t_out=$(_t_tmp)
    dmesg >"$_t_out" 2>&1
    if grep -Eq -- "$CP_DMESG_BAD" "$_t_out"; then
        _t_emit "FAIL $_t_name: kernel log contains $(grep -Ec -- "$CP_DMESG_BAD" "$_t_out") bad line(s)"
        grep -E -- "$CP_DMESG_BAD" "$_t_out" | _t_detail
        rm -f "$_t_out"
        return 1
    fi
    rm -f "$_t_out"
    t_pass "$_t_name"
}

# as_nobody CMD...: run CMD as uid/gid 65534 with no capabilities and
# no_new_privs set (so not even a setuid binary could regain privilege).
# Prefers busybox "setpriv --reuid"; the Debian 12 busybox-static build
# lacks those options, so we fall back to "su", which as root needs no
# password. The probe result is cached per shell.
as_nobody() {
    if [ -z "${_T_NOBODY_MODE:-}" ]; then
        if setpriv --reuid=65534 --regid=65534 --clear-groups true >/dev/null 2>&1; then
            _T_NOBODY_MODE=setpriv
        else
            _T_NOBODY_MODE=su
        fi
    fi
    if [ "$_T_NOBODY_MODE" = setpriv ]; then
        setpriv --reuid=65534 --regid=65534 --clear-groups --nnp "$@"
    else
        # Options before "--" because busybox su permutes arguments: an
        # option-like word in CMD (e.g. "sh -c") would otherwise be taken
        # by su itself. "sh" is $0 of the inner shell; "$@" is passed
        # through without re-quoting.
        # shellcheck disable=SC2016 # $@ is for the inner shell
        su -s /bin/sh -c 'exec setpriv --nnp "$@"' -- nobody sh "$@"
    fi
}

# cpu_offline N / cpu_online N: hot-unplug / re-plug CPU N. Returns non-zero
# (with a message) if the CPU has no "online" control (cpu0 usually has
# none on x86) or the kernel refuses.
_t_cpu_set() {
    local _t_f=/sys/devices/system/cpu/cpu$1/online
    if [ ! -e "$_t_f" ]; then
        echo "cpu$1: $_t_f does not exist (no such CPU, or not hot-pluggable)" >&2
        return 1
    fi
    echo "$2" >"$_t_f"
}

cpu_offline() {
    _t_cpu_set "$1" 0
}

cpu_online() {
    _t_cpu_set "$1" 1
}

# json_measurements FILE: "area|name|mode" for each measurement in FILE,
# read from the "measurements" array alone (c2c_pairs has modes too).
json_measurements() {
    awk -F'"' '/^  "measurements":\[/ { inside = 1; next }
        inside && /^  \]/ { inside = 0 }
        !inside { next }
        $2 == "area" { area = $4 } $2 == "name" { name = $4 }
        $2 == "mode" { print area "|" name "|" $4 }' "$1"
}

# t_json_missed NAME FILE AREA: pass iff FILE holds kernel-mode
# measurements of AREA and each of them has the params missed_rounds and
# disturbed_windows (the module's handshake, ABI 4: 0 or more); their
# values go to the log.
t_json_missed() {
    local name=$1 file=$2 area=$3 counts
    counts=$(awk -F'"' '
        function flush() {
            if (mode == "kernel" && cur == area) {
                n++
                if (missed == "" || dist == "")
                    bad++
                else
                    seen = seen " " missed "/" dist
            }
            cur = ""; mode = ""; missed = ""; dist = ""
        }
        /^  "measurements":\[/ { inside = 1; next }
        inside && /^  \]/ { flush(); inside = 0 }
        !inside { next }
        $2 == "area" { flush(); cur = $4 }
        $2 == "mode" { mode = $4 }
        $2 == "missed_rounds" { missed = $3; gsub(/[^0-9]/, "", missed) }
        $2 == "disturbed_windows" { dist = $3; gsub(/[^0-9]/, "", dist) }
        END { printf "%d %d%s\n", n, bad, seen }' area="$area" "$file")
    set -- $counts
    if [ "${1:-0}" -gt 0 ] && [ "${2:-1}" = 0 ]; then
        shift 2
        t_pass "$name"
        echo "# $name: missed rounds/disturbed windows per measurement:$(printf ' %s' "$@")"
    else
        t_fail "$name" "${1:-0} kernel-mode measurements of $area in $file, ${2:-?} without missed_rounds and disturbed_windows"
    fi
}

# Named tests: a suite's script runs each of its tests as "t_test NAME
# CMD..." (CMD a shell function, in the current shell), or as
# "t_test_named NAME CMD..." for one that runs only when named.  When the
# host (run-guest.sh) names tests in /etc/cacheprobe-tests, one a line,
# only those run; in the script's order, not the file's.  run-guest.sh
# finds the names in those lines, so each stays one line, at the margin.
CP_TESTS=${CP_TESTS:-/etc/cacheprobe-tests}

_t_named() {
    [ -r "$CP_TESTS" ] && grep -qx -- "$1" "$CP_TESTS"
}

t_test() {
    if [ -r "$CP_TESTS" ] && ! _t_named "$1"; then
        return 0
    fi
    printf '%s\n' "=== test $1"
    shift
    "$@"
}

t_test_named() {
    _t_named "$1" || return 0
    printf '%s\n' "=== test $1"
    shift
    "$@"
}
