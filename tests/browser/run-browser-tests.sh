#!/usr/bin/env bash
# The HTML report in a real browser (headless Chromium through WebDriver):
#   - a report made here from a short user-mode run of every area;
#   - each report a guest made in kernel mode (tests/guest/area-report.sh),
#     taken from the guest's console.log in OUT/guest-LABEL/.
# Each is checked by check_report.py: no console errors, nothing fetched,
# every area's section present with charts, every chart with plotted
# elements, a screenshot saved in OUT/browser/.  Prints PASS/FAIL lines.
#
# Usage: run-browser-tests.sh OUT PATH-OF-cacheprobe-run
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run-browser-tests.sh OUT PATH-OF-cacheprobe-run}/browser
bin=${2:?usage: run-browser-tests.sh OUT PATH-OF-cacheprobe-run}
areas=(latency bounce coldcache align xcore c2c)
mkdir -p "$out"

# check NAME REPORT: the browser check of one report.
check() {
	local name=$1 report=$2
	if "$here/check_report.py" "$report" "$out/$name.png" "${areas[@]}" \
		>"$out/$name.log" 2>&1; then
		echo "PASS $name"
	else
		echo "FAIL $name: $(grep -m3 -E 'FAIL|check_report' "$out/$name.log" | tr '\n' ' ')(see $out/$name.log)"
	fi
}

# Small sizes, few samples: the page is tested, not the machine.
if "$bin" "${areas[@]}" --mode user --samples 3 --sample-time 200 \
	--min-size 16K --max-size 256K --distances 0,32,64,128 --width 4 \
	--methods warm,clflush,garbage-naive --factor 0.25 --repeats 2 \
	--offsets 0,60 --access-widths 1,8,16 --buffers l1 --budget 0.2 \
	--report "$out/host-report.html" --json "$out/host-results.json" \
	>"$out/host-run.log" 2>&1; then
	check browser-host-report "$out/host-report.html"
	# The same report made again from the saved JSON.
	if "$bin" report "$out/host-results.json" -o "$out/host-saved.html" \
		2>>"$out/host-run.log"; then
		check browser-host-report-from-json "$out/host-saved.html"
	else
		echo "FAIL browser-host-report-from-json: report command failed (see $out/host-run.log)"
	fi
else
	echo "FAIL browser-host-report: the run failed (see $out/host-run.log)"
fi

for console in "$out"/../guest-*/console.log; do
	[ -f "$console" ] || continue
	label=${console%/console.log}
	label=${label##*/guest-}
	report="$out/guest-$label-report.html"
	tr -d '\r' <"$console" |
		sed -n '/^=== cacheprobe-report-begin ===$/,/^=== cacheprobe-report-end ===$/p' |
		sed '1d;$d' | base64 -d >"$report" 2>/dev/null
	if [ ! -s "$report" ]; then
		echo "FAIL browser-guest-report [$label]: no report between the markers in $console"
		continue
	fi
	check "browser-guest-report-$label" "$report"
done
