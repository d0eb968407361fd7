#!/usr/bin/env bash
# The default run as a person sees it (issue: answers first):
#   - on an 80x60 terminal (script(1) gives the run one): at most 60
#     lines, none wider than 80 columns, the progress line included;
#   - the same with TERM=dumb, and piped into a file: no escape sequence;
#   - the other commands a person types on that terminal (info, --list,
#     evict --verify, exec, compare of two of these runs): no line
#     wider than 80 columns;
#   - its report in headless Chromium at 1280 px (check_report.py
#     --default): the first raw table within 8,000 px, a measured finding
#     with a number in the summary for every area, no empty chart; the
#     screenshot is kept in OUT/browser/.
# Three default runs: about 25 s each on a 2-CPU machine.  Prints
# PASS/FAIL lines.
#
# Usage: default-run.sh OUT PATH-OF-cacheprobe-run
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: default-run.sh OUT PATH-OF-cacheprobe-run}/browser/default
bin=${2:?usage: default-run.sh OUT PATH-OF-cacheprobe-run}
mkdir -p "$out"

# console NAME LOG ARGS...: check_console.py's verdict on LOG.
console() {
	local name=$1 log=$2
	shift 2
	if "$here/check_console.py" "$log" "$@" >"$out/$name.check" 2>&1; then
		echo "PASS $name: $(sed 's/^ok [^:]*: //' "$out/$name.check")"
	else
		echo "FAIL $name: $(grep -m3 FAIL "$out/$name.check" | tr '\n' ' ')(see $out/$name.check)"
	fi
}

if ! command -v script >/dev/null; then
	echo "FAIL default-run-terminal: no script(1) (bsdutils)"
	exit 0
fi
(cd "$out" && script -qec "stty cols 80 rows 60; '$bin' --json default.json --report default.html" \
	/dev/null </dev/null >"$out/terminal.log" 2>&1)
status=$?
if [ "$status" -ne 0 ]; then
	echo "FAIL default-run-terminal: exit status $status (see $out/terminal.log)"
else
	console default-run-terminal "$out/terminal.log" --width 80 --lines 60
fi

(cd "$out" && TERM=dumb script -qec "stty cols 80 rows 60; '$bin' --json dumb.json" \
	/dev/null </dev/null >"$out/dumb.log" 2>&1)
status=$?
if [ "$status" -ne 0 ]; then
	echo "FAIL default-run-dumb-terminal: exit status $status (see $out/dumb.log)"
else
	console default-run-dumb-terminal "$out/dumb.log" --width 80 --lines 60 \
		--no-escapes
fi

(cd "$out" && "$bin" --json piped.json 2>&1 | cat >"$out/piped.log")
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
	echo "FAIL default-run-piped: exit status $status (see $out/piped.log)"
else
	console default-run-piped "$out/piped.log" --no-escapes
fi

if [ ! -s "$out/default.html" ]; then
	echo "FAIL default-run-report: no report from the terminal run"
elif "$here/check_report.py" --default "$out/default.html" \
	"$out/default-report.png" latency bounce coldcache align xcore c2c \
	>"$out/report.check" 2>&1; then
	echo "PASS default-run-report: $(grep -m1 'first raw table' "$out/report.check" | sed 's/^ *//'), every area in the summary"
else
	echo "FAIL default-run-report: $(grep -m3 -E 'FAIL|check_report' "$out/report.check" | tr '\n' ' ')(see $out/report.check)"
fi

# terminal NAME OK-STATUSES COMMAND: COMMAND (shell words) on an 80-column
# terminal, its exit status one of OK-STATUSES, then its width checked.
terminal() {
	local name=$1 statuses=$2 command=$3 status
	(cd "$out" && script -qec "stty cols 80 rows 60; $command" /dev/null \
		</dev/null >"$out/$name.log" 2>&1)
	status=$?
	case " $statuses " in
	*" $status "*) console "$name" "$out/$name.log" --width 80 ;;
	*) echo "FAIL $name: exit status $status (see $out/$name.log)" ;;
	esac
}

terminal terminal-info "0" "'$bin' info"
terminal terminal-list "0" "'$bin' --list"
terminal terminal-evict "0" "'$bin' evict --verify 1M"
terminal terminal-exec "0" "'$bin' exec -n 3 -- true"
# Two default runs of this script: a regression between them is the
# machine's business (exit 1); the console is this check's.
terminal terminal-compare "0 1" "'$bin' compare default.json dumb.json"
