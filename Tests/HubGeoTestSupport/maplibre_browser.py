#!/usr/bin/env python3
"""Opens a MapLibre GL JS page in a real headless Chromium (Debian chromium, chromium-driver,
python3-selenium), waits until the page reports what it rendered, saves a screenshot and prints the
report as JSON on stdout; the Swift tests (MapLibreBrowserTests) write the page and assert on it.

Usage: maplibre_browser.py URL --screenshot PNG [--deadline SECONDS]

The page sets window.hubReport = {errors: [...], done: {...}} (done once the map is idle with its
source loaded); the report adds the browser's console errors. A watchdog kills the browser,
chromedriver and itself (their process group) with SIGKILL when the deadline passes.
"""
import argparse, json, os

import headless_chromium
from selenium.webdriver.support.ui import WebDriverWait


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--deadline", type=float, default=150)
    args = parser.parse_args()
    driver = headless_chromium.start("maplibre_browser.py", 1100, 760, args.deadline, webgl=True, browser_log=True)

    result = {}
    try:
        driver.get(args.url)
        finished = "return !!(window.hubReport && (window.hubReport.done || window.hubReport.errors.length));"
        WebDriverWait(driver, max(10, args.deadline - 30), poll_frequency=0.2).until(lambda d: d.execute_script(finished))
        result = driver.execute_script("return window.hubReport;")
        driver.save_screenshot(args.screenshot)
        result["console"] = [entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    except Exception as error:  # reported, so that the test shows why
        result["error"] = repr(error)
        try:
            result["partial"] = driver.execute_script("return window.hubReport || null;")
            result["console"] = [entry["message"] for entry in driver.get_log("browser")]
        except Exception:
            pass
    finally:
        driver.quit()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
