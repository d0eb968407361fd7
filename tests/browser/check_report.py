#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Open a cacheprobe HTML report in headless Chromium and check what a
reader relies on: the page loads without console errors and without
fetching anything, every area named and every area section the page has
(every area that ran) holds at least one chart, and every chart has
plotted elements (lines, points, bars or heatmap cells) and a size; a
screenshot of the whole page is saved.  With --default (a default run's
report), also at 1280 px wide: the page until the first raw table (the
first <details class="table">) is at most 8,000 px tall, and the summary
(#summary) has, for every area section on the page, a measured finding
of that area with a number in it.

Usage: check_report.py [--default] REPORT.html SCREENSHOT.png AREA...
Exit status: 0 every check passed, 1 a check failed (each failure is
printed), 2 wrong usage or no browser.
"""
import os
import sys

from headless import DRIVER, open_browser

# What a reader of a default run's report scrolls through before the
# first raw table, at most, at DEFAULT_WIDTH.
DEFAULT_WIDTH = 1280
DEFAULT_MAX_TOP = 8000

FIRST_TABLE_TOP = """
const t = document.querySelector('details.table');
return t ? t.getBoundingClientRect().top + window.scrollY : null;
"""

# Per area of the summary: the answers of its measured findings.
SUMMARY_ANSWERS = """
const out = {};
for (const row of document.querySelectorAll('#summary tr[data-area]')) {
  if (row.classList.contains('unmeasured')) continue;
  const area = row.dataset.area;
  const answer = row.querySelector('td:not(.area)');
  (out[area] = out[area] || []).push(answer ? answer.textContent : '');
}
return out;
"""

# Plotted elements of the chart kinds, as the SVG writer classes them.
PLOTTED = "path.line, circle.point, rect.bar, rect.cell"

SECTION_CHARTS = """
const out = {};
for (const section of document.querySelectorAll('section.area')) {
  const area = section.id.replace(/^area-/, '');
  out[area] = Array.from(section.querySelectorAll('svg.chart')).map(svg => {
    const box = svg.getBoundingClientRect();
    return {
      title: svg.querySelector('title') ? svg.querySelector('title').textContent : '',
      plotted: svg.querySelectorAll(arguments[0]).length,
      nodata: svg.querySelectorAll('.nodata').length,
      width: box.width, height: box.height,
    };
  });
}
return out;
"""


def check_default(driver, charts):
    """The summary and the first screens of a default run's report."""
    failures = []
    top = driver.execute_script(FIRST_TABLE_TOP)
    if top is None:
        failures.append("no raw table (details.table) on the page")
    else:
        print(f"  first raw table at {top:.0f} px (at most {DEFAULT_MAX_TOP})")
        if top > DEFAULT_MAX_TOP:
            failures.append(f"the first raw table is {top:.0f} px down, "
                            f"more than {DEFAULT_MAX_TOP}")
    answers = driver.execute_script(SUMMARY_ANSWERS)
    for area in sorted(charts):
        numbered = [a for a in answers.get(area, [])
                    if any(c.isdigit() for c in a)]
        print(f"  summary: {area}: {len(numbered)} measured finding(s) "
              "with a number")
        if not numbered:
            failures.append(f"the summary has no measured finding of "
                            f"{area} with a number")
    return failures


def check(driver, report, screenshot, areas, default):
    failures = []
    driver.get("file://" + os.path.abspath(report))
    # A self-contained page issues no request beyond the page itself.
    resources = driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name);")
    for name in resources:
        failures.append(f"the page fetched {name}")
    for entry in driver.get_log("browser"):
        if entry.get("level") in ("SEVERE", "WARNING"):
            failures.append(f"console {entry['level']}: {entry['message']}")
    charts = driver.execute_script(SECTION_CHARTS, PLOTTED)
    checked = areas + sorted(set(charts) - set(areas))
    print(f"  areas checked: {', '.join(checked)}")
    for area in checked:
        if area not in charts:
            failures.append(f"{area}: no section in the report")
            continue
        if not charts[area]:
            failures.append(f"{area}: no chart")
        for chart in charts[area]:
            print(f"  {area}: {chart['title']!r}: {chart['plotted']} plotted "
                  f"elements{', no data' if chart['nodata'] else ''}")
            if (chart["plotted"] == 0 or chart["nodata"]
                    or chart["width"] <= 0 or chart["height"] <= 0):
                failures.append(f"{area}: the chart {chart['title']!r} "
                                "is empty")
    if default:
        failures += check_default(driver, charts)
    height = driver.execute_script(
        "return document.documentElement.scrollHeight;")
    driver.set_window_size(DEFAULT_WIDTH if default else 1400,
                           min(max(height, 600), 16000))
    if not driver.save_screenshot(screenshot):
        failures.append(f"cannot save the screenshot {screenshot}")
    return failures


def main(argv):
    default = len(argv) > 1 and argv[1] == "--default"
    if default:
        argv = argv[:1] + argv[2:]
    if len(argv) < 4:
        print(__doc__.split("\n\n")[2], file=sys.stderr)
        return 2
    report, screenshot, areas = argv[1], argv[2], argv[3:]
    if not os.path.isfile(report):
        print(f"check_report: no report {report}", file=sys.stderr)
        return 2
    if not os.access(DRIVER, os.X_OK):
        print(f"check_report: no {DRIVER} (install chromium-driver)",
              file=sys.stderr)
        return 2
    driver = open_browser(DEFAULT_WIDTH if default else 1400)
    try:
        failures = check(driver, report, screenshot, areas, default)
    finally:
        driver.quit()
    for failure in failures:
        print(f"FAIL {report}: {failure}")
    if not failures:
        print(f"ok {report}: {', '.join(areas)} charted, no console errors, "
              f"screenshot {screenshot}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
