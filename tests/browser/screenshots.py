#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Screenshots of a report as a reader first sees it, at 1280 px wide in
headless Chromium: the summary, and each area's first chart.

Usage: screenshots.py REPORT.html OUTDIR
Writes OUTDIR/summary.png and OUTDIR/<area>.png; prints each file.
Exit status: 0 done, 1 something was missing, 2 wrong usage or no
browser.
"""
import os
import sys

from headless import open_browser

WIDTH = 1280


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    report, outdir = argv[1], argv[2]
    driver = open_browser(WIDTH)
    missing = 0
    try:
        driver.get("file://" + os.path.abspath(report))
        height = driver.execute_script(
            "return document.documentElement.scrollHeight;")
        driver.set_window_size(WIDTH, min(max(height, 1000), 16000))
        os.makedirs(outdir, exist_ok=True)
        shots = [("summary", "#summary")]
        for section in driver.find_elements("css selector", "section.area"):
            area = section.get_attribute("id").replace("area-", "")
            shots.append((area, f"#{section.get_attribute('id')} svg.chart"))
        for name, selector in shots:
            found = driver.find_elements("css selector", selector)
            if not found:
                print(f"screenshots: nothing at {selector}", file=sys.stderr)
                missing += 1
                continue
            path = os.path.join(outdir, f"{name}.png")
            found[0].screenshot(path)
            print(path)
    finally:
        driver.quit()
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
