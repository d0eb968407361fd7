# shellcheck shell=sh
# The HTML report in kernel mode: a small run of every area through the
# module writes a report, printed on the console base64-encoded between
# marker lines; the host (tests/browser/run-browser-tests.sh) takes it from
# console.log and opens it in a real browser.
REPORT_BEGIN="=== cacheprobe-report-begin ==="
REPORT_END="=== cacheprobe-report-end ==="

test_area_report() {
	local html=/tmp/report-kernel.html
	rm -f "$html"
	t_expect_out report-kernel "report: $html" \
		"$RUN" latency bounce coldcache --mode kernel $AREA_OPTS \
		--min-size 16K --max-size 64K $BOUNCE_OPTS --repeats 2 \
		--cpus 0,1 --report "$html" || return 1
	if grep -q '<section id="area-coldcache"' "$html" &&
	   grep -q '<svg class="chart"' "$html" &&
	   grep -q 'cacheprobe.ko .*, ABI [0-9]' "$html"; then
		t_pass report-kernel-content
	else
		t_fail report-kernel-content "no coldcache section, chart or module line in $html"
	fi
	echo "$REPORT_BEGIN"
	base64 "$html"
	echo "$REPORT_END"
}
