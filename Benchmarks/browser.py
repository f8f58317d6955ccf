#!/usr/bin/env python3
"""Map pages in headless Chromium, timed for `make bench` (Benchmarks/run.py); prints JSON.

  browser.py served URL COUNT --city LAT,LON,ZOOM [--screenshot PNG]
      hubgeo serve's page: milliseconds from navigation to its first complete view (the clusters of
      the whole world drawn, their counts adding up to COUNT), then from a jump to the city view to
      that view drawn.
  browser.py embedded FILE COUNT
      a `hubgeo map` page: milliseconds from navigation until all COUNT organizations are in
      Leaflet.markercluster's group (its clusters drawn), or the deadline.
  browser.py datasette URL COUNT --deadline SECONDS
      datasette-cluster-map on a Datasette table page: milliseconds to its first markers (the first
      page of rows), then, after a click on "load all", until every row is loaded or the deadline
      (with how many were).
Chromium runs with the network limited to 127.0.0.1 (no tiles); a watchdog kills it past the deadline.
"""
import argparse, json, os, re, signal, sys, time

from selenium.webdriver.common.by import By

# The tests' headless Chromium (its flags, loopback-only network and watchdog).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "HubGeoTestSupport"))
import headless_chromium  # noqa: E402


def driver_for(args):
    driver = headless_chromium.start("browser.py", 1280, 800, args.deadline + 60, own_group=False)
    driver.set_page_load_timeout(args.deadline)
    driver.set_script_timeout(args.deadline)
    return driver


def poll(driver, script, deadline, *arguments):
    """Runs `script` every 20 ms until it returns something truthy (returned) or `deadline` (monotonic) passes (None)."""
    while time.monotonic() < deadline:
        value = driver.execute_script(script, *arguments)
        if value:
            return value
        time.sleep(0.02)
    return None


def served(driver, args):
    start = time.monotonic()
    driver.get(args.target)
    first = poll(driver, """
        var v = window.hubgeo && window.hubgeo.view ? window.hubgeo.view() : null;
        return v && v.shown && v.shown === v.requested ? {ms: v.firstShownAt, organizations: v.organizations, zoom: v.zoom,
            items: v.items.length} : null;""", start + args.deadline)
    if not first:
        return {"error": "no view shown"}
    result = {"firstView": first}
    if args.screenshot:
        driver.save_screenshot(args.screenshot)
    lat, lon, zoom = [float(x) for x in args.city.split(",")]
    before = driver.execute_script("return window.hubgeo.view().requested;")
    jumped = driver.execute_script(
        "var t = performance.now(); window.hubgeo.map.setView([arguments[0], arguments[1]], arguments[2], {animate: false}); return t;",
        lat, lon, int(zoom))
    city = poll(driver, """
        var v = window.hubgeo.view();
        return v.requested > arguments[0] && v.shown === v.requested ? {ms: v.shownAt - arguments[1], organizations: v.organizations,
            zoom: v.zoom, items: v.items.length} : null;""", time.monotonic() + args.deadline, before, jumped)
    result["city"] = city
    return result


def embedded(driver, args):
    start = time.monotonic()
    driver.get("file://" + os.path.abspath(args.target))
    done = poll(driver, """
        return window.hubgeo && window.hubgeo.clusters.getLayers().length >= arguments[0] &&
            document.querySelectorAll('.leaflet-marker-pane .leaflet-marker-icon').length > 0 ? performance.now() : null;""",
                start + args.deadline, args.count)
    loaded = driver.execute_script("return window.hubgeo ? window.hubgeo.clusters.getLayers().length : 0;")
    return {"ms": done, "loaded": loaded, "wallSeconds": time.monotonic() - start}


def datasette(driver, args):
    start = time.monotonic()
    driver.get(args.target)
    first = poll(driver, "return document.querySelectorAll('.leaflet-marker-icon').length > 0 ? performance.now() : null;",
                 start + args.deadline)
    result = {"firstMarkersMs": first}

    def shown():
        text = driver.execute_script(
            "var b = document.querySelector('.cluster-map-button'); return b ? b.parentNode.textContent : '';") or ""
        match = re.search(r"Showing ([\d,]+) of ([\d,]+)", text)
        return (int(match.group(1).replace(",", "")), int(match.group(2).replace(",", ""))) if match else None
    result["firstPage"] = shown()
    buttons = driver.find_elements(By.CSS_SELECTOR, ".cluster-map-button")
    if buttons:
        clicked = driver.execute_script("return performance.now();")
        buttons[0].click()
        done = poll(driver, "return document.querySelector('.cluster-map-button') ? null : performance.now();",
                    time.monotonic() + args.deadline)
        result["allMs"] = done - clicked if done else None
        result["loadedAtDeadline"] = None if done else shown()
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["served", "embedded", "datasette"])
    parser.add_argument("target")
    parser.add_argument("count", type=int)
    parser.add_argument("--city")
    parser.add_argument("--screenshot")
    parser.add_argument("--deadline", type=float, default=120)
    args = parser.parse_args()
    try:
        os.setsid()
    except OSError:
        pass
    driver = driver_for(args)
    try:
        result = {"served": served, "embedded": embedded, "datasette": datasette}[args.mode](driver, args)
    except Exception as error:  # a page that did not load in time is a result too
        result = {"error": f"{type(error).__name__}: {error}"[:500]}
    finally:
        signal.alarm(0)
        driver.quit()
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
