# SPDX-License-Identifier: GPL-2.0
"""Headless Chromium through WebDriver, as the browser checks open it:
Debian's chromium-driver, console messages kept for the checks."""
import sys

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError:
    print("python3-selenium is not installed", file=sys.stderr)
    sys.exit(2)

DRIVER = "/usr/bin/chromedriver"


def open_browser(width):
    """A headless Chromium window @width pixels wide."""
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", f"--window-size={width},1000"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(DRIVER), options=options)
