# shellcheck shell=sh
# The HTML report in kernel mode: a small run of every area through the
# module (align: two offsets and widths of an L1d buffer; xcore: 16 to
# 64 KiB blocks; c2c: one pair) writes a report, printed on the console base64-encoded between
# marker lines; the host (tests/browser/run-browser-tests.sh) takes it from
# console.log and opens it in a real browser.
REPORT_BEGIN="=== cacheprobe-report-begin ==="
REPORT_END="=== cacheprobe-report-end ==="

test_area_report() {
	local html=/tmp/report-kernel.html
	local area missing=
	rm -f "$html"
	t_expect_out report-kernel "report: $html" \
		"$RUN" latency bounce coldcache align xcore c2c --mode kernel \
		$AREA_OPTS --min-size 16K --max-size 64K $BOUNCE_OPTS \
		--repeats 2 --offsets 0,60 --access-widths 1,8 --buffers l1 \
		--cpus 0,1 --report "$html" || return 1
	for area in latency bounce coldcache align xcore c2c; do
		grep -q "<section id=\"area-$area\"" "$html" ||
			missing="$missing $area"
	done
	if [ -z "$missing" ] && grep -q '<svg class="chart"' "$html" &&
	   grep -q 'cacheprobe.ko .*, ABI [0-9]' "$html"; then
		t_pass report-kernel-content
	else
		t_fail report-kernel-content "no section for${missing:- (none)}, or no chart or module line in $html"
	fi
	echo "$REPORT_BEGIN"
	base64 "$html"
	echo "$REPORT_END"
}
