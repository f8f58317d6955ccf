"""Headless Chromium for the browser scripts (map_browser.py, maplibre_browser.py and the benchmark's
Benchmarks/browser.py): Debian's chromium driven by chromium-driver through python3-selenium, with
the network limited to 127.0.0.1, and a watchdog that kills the browser, chromedriver and the
script's process group with SIGKILL when the deadline passes."""
import os, signal, sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

# Every host name fails to resolve but 127.0.0.1; OFFLINE: none at all.
LOOPBACK_ONLY = "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
OFFLINE = "MAP * ~NOTFOUND"


def start(name, width, height, alarm_seconds, resolver=LOOPBACK_ONLY, webgl=False, browser_log=False, own_group=True):
    """A Chrome driver with a window of `width` x `height`; `webgl` draws WebGL with SwiftShader
    (MapLibre needs it), else the GPU is off; `browser_log` keeps the console for `get_log`. The
    watchdog fires `alarm_seconds` from now; with `own_group` the script first makes a process group
    of its own, which chromedriver and Chromium join and the watchdog ends."""
    if own_group:
        try:
            os.setsid()
        except OSError:
            pass
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("HUBGEO_CHROMIUM", "/usr/bin/chromium")
    flags = ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}",
             "--hide-scrollbars", "--force-device-scale-factor=1", "--no-first-run", "--disable-extensions",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--host-resolver-rules={resolver}"]
    flags += ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"] if webgl else ["--disable-gpu"]
    for flag in flags:
        options.add_argument(flag)
    if browser_log:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(os.environ.get("HUBGEO_CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(service=service, options=options)

    def watchdog(signum, frame):
        sys.stderr.write(f"{name}: deadline passed; killing the browser\n")
        try:  # Selenium may start chromedriver (and so Chromium) in a process group of its own
            os.killpg(os.getpgid(service.process.pid), signal.SIGKILL)
        except (OSError, AttributeError):
            pass
        os.killpg(os.getpgid(0), signal.SIGKILL)
    signal.signal(signal.SIGALRM, watchdog)
    signal.alarm(int(alarm_seconds))
    driver.set_window_size(width, height)
    return driver
