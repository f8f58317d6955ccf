#!/usr/bin/env python3
"""Drives the hubgeo map page in a real headless Chromium (Debian chromium, chromium-driver,
python3-selenium) and prints what it saw as JSON on stdout; the Swift tests assert on it.

Usage: map_browser.py URL --screenshot PNG [--offline] [--switch-language] [--search TEXT ...]
                      [--click LAT,LON[,ZOOM] ...] [--open-search TEXT] [--open-results TEXT]
                      [--click-cluster] [--open-group LAT,LON,ZOOM] [--city LAT,LON,ZOOM] [--deadline SECONDS]

- clusters: the counts of the cluster icons (and co-located groups) and the single markers shown after
  the page fits its data (a served page: once the clusters of that view are shown);
- served: for a served page, its view as the page holds it (zoom, items, the organizations they count)
  and when it was first shown (milliseconds after navigation started);
- clusterClick: with --click-cluster, the biggest cluster of the first view that splits within the map's
  zooms is clicked: the cluster, then the zoom and the items once the new view is shown;
- group: with --open-group, the map goes to LAT,LON at ZOOM, the co-located group marker nearest that point
  is clicked: its count, the names its list shows, and the popup's name after clicking the first;
- city: with --city, the map goes to LAT,LON at ZOOM and the view is timed until shown (milliseconds);
- rings: per cluster icon (and co-located group) shown then, its data- counts, the text it shows, its size,
  and its ring as the DOM draws it: per arc (club, museum) the length its stroke-dasharray gives, the ring's
  circumference (2πr), pathLength and stroke colour, and the screenshot's colour at the middle of the arc;
  the single markers by type; and the legend's ring entry (its label, its arcs);
- screenshot: saved to PNG, with the share of pixels the markers draw and of the land colour;
- popup: a single marker clicked, its data-id and the popup's name, Level 1 town and localized line;
- language: with --switch-language, the second language chosen and the same popup's localized line again;
- searches: the ids the search box lists for each TEXT;
- clicks: for each map click, the pin's coordinates and the listed ids and distances (metres),
  and the popup name after clicking the first listed entry;
- opened: --open-search TEXT types TEXT, clicks the first result, and returns the popup's text;
- openedResults: --open-results TEXT types TEXT and clicks every listed result in turn, letting the map
  move and load its view after each (so later results lie outside the view); per result its id, the
  listed name and the popup's name and text. The third popup is saved as PNG.popup.png;
- hazards: window.__pwned, the number of <script> elements, <img> elements in popups, console errors.
A watchdog kills the browser, chromedriver and itself (their process group) with SIGKILL when the deadline passes.
"""
import argparse, json, os, signal, sys, time

import headless_chromium
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait, Select


def pixel_shares(path, without_markers_path):
    """The share of pixels the markers change (the page shot again with its marker pane hidden),
    and the share in the land colour of the world outline."""
    from PIL import Image, ImageChops
    image = Image.open(path).convert("RGB")
    bare = Image.open(without_markers_path).convert("RGB")
    difference = ImageChops.difference(image, bare).convert("L").point(lambda v: 255 if v > 24 else 0)
    changed = difference.histogram()[255]
    land = (242, 239, 230)
    land_count = sum(1 for r, g, b in image.getdata() if abs(r - land[0]) + abs(g - land[1]) + abs(b - land[2]) <= 6)
    total = image.width * image.height
    return {"width": image.width, "height": image.height, "markerShare": changed / total, "landShare": land_count / total}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--offline", action="store_true")
    parser.add_argument("--switch-language", action="store_true")
    parser.add_argument("--search", action="append", default=[])
    parser.add_argument("--click", action="append", default=[])
    parser.add_argument("--open-search")
    parser.add_argument("--open-results")
    parser.add_argument("--click-cluster", action="store_true")
    parser.add_argument("--open-group")
    parser.add_argument("--city")
    parser.add_argument("--deadline", type=float, default=150)
    args = parser.parse_args()

    driver = headless_chromium.start("map_browser.py", 1200, 800, args.deadline, browser_log=True,
                                     # offline: no name resolves, so nothing but the file itself can load (tiles included)
                                     resolver=headless_chromium.OFFLINE if args.offline else headless_chromium.LOOPBACK_ONLY)

    result = {}
    try:
        driver.get(args.url)
        wait = WebDriverWait(driver, 30)
        # A served page has shown its view when the answer to its last request is drawn.
        shown = """
            var view = window.hubgeo && window.hubgeo.view ? window.hubgeo.view() : null;
            return !!window.hubgeo && (!view || view.requested === 0 || view.shown === view.requested) &&
                document.querySelectorAll('.leaflet-marker-pane .leaflet-marker-icon').length > 0;
        """
        wait.until(lambda d: d.execute_script(shown))
        time.sleep(1.0)  # cluster animations; a served page's debounce

        def served_view():
            return driver.execute_script("var v = window.hubgeo.view(); return v.requested ? v : null;")

        def wait_for_view(previous):
            wait.until(lambda d: d.execute_script(
                "var v = window.hubgeo.view(); return v.requested > arguments[0] && v.shown === v.requested;", previous))
            time.sleep(0.3)
            return served_view()

        def clusters():
            return driver.execute_script("""
                var numbers = [], singles = 0;
                document.querySelectorAll('.leaflet-marker-pane .marker-cluster').forEach(function (m) {
                    numbers.push(m.hasAttribute('data-count') ? Number(m.getAttribute('data-count')) : Number(m.textContent)); });
                document.querySelectorAll('.leaflet-marker-pane .hubgeo-marker[data-id]').forEach(function () { singles += 1; });
                return {clusterCounts: numbers, singleMarkers: singles};
            """)
        def rings():
            return driver.execute_script("""
                function arcs(root) {
                    return Array.prototype.map.call(root.querySelectorAll('svg.hubgeo-ring circle'), function (c) {
                        var r = parseFloat(c.getAttribute('r')), dash = (c.getAttribute('stroke-dasharray') || '').split(/[\\s,]+/);
                        return {kind: c.getAttribute('class').replace('hubgeo-ring-', ''), length: parseFloat(dash[0]),
                                offset: parseFloat(c.getAttribute('stroke-dashoffset') || '0'), radius: r, circumference: 2 * Math.PI * r,
                                pathLength: parseFloat(c.getAttribute('pathLength')), stroke: getComputedStyle(c).stroke};
                    });
                }
                function number(m, name) { return m.hasAttribute('data-' + name) ? Number(m.getAttribute('data-' + name)) : null; }
                var icons = Array.prototype.map.call(document.querySelectorAll('.leaflet-marker-pane .marker-cluster'), function (m) {
                    var box = m.getBoundingClientRect(), svg = m.querySelector('svg.hubgeo-ring'), s = svg ? svg.getBoundingClientRect() : null;
                    return {id: m.getAttribute('data-cluster-id') || m.getAttribute('data-group-id'), group: m.classList.contains('hubgeo-group'),
                            count: number(m, 'count'), clubs: number(m, 'clubs'), museums: number(m, 'museums'),
                            text: m.textContent, width: box.width, height: box.height, arcs: arcs(m),
                            ring: s ? {x: s.left, y: s.top, width: s.width} : null};
                });
                var singles = {club: 0, museum: 0};
                document.querySelectorAll('.leaflet-marker-pane .hubgeo-marker[data-id]').forEach(function (m) {
                    singles[m.getAttribute('data-type')] += 1; });
                var legend = document.querySelector('.hubgeo-legend-ring');
                return {icons: icons, singles: singles,
                        legend: legend ? {label: legend.querySelector('.hubgeo-legend-label').textContent, arcs: arcs(legend)} : null};
            """)

        def sample_arcs(shown, path):
            """The screenshot's colour at the middle of each arc (clockwise from the top), on the ring's centre line."""
            import math
            from PIL import Image
            image = Image.open(path).convert("RGB")
            for icon in shown["icons"]:
                ring = icon["ring"]
                for arc in icon["arcs"]:
                    if not ring or not arc["circumference"]:
                        continue
                    middle = (-arc["offset"] + arc["length"] / 2) / arc["circumference"] * 2 * math.pi
                    centre = ring["x"] + ring["width"] / 2, ring["y"] + ring["width"] / 2
                    x = centre[0] + math.sin(middle) * arc["radius"]
                    y = centre[1] - math.cos(middle) * arc["radius"]
                    if 0 <= x < image.width and 0 <= y < image.height:
                        arc["pixel"] = list(image.getpixel((int(x), int(y))))

        result["clusters"] = clusters()
        result["rings"] = rings()
        result["served"] = served_view()
        initial = driver.execute_script("var c = window.hubgeo.map.getCenter(); return [c.lat, c.lng, window.hubgeo.map.getZoom()];")
        driver.save_screenshot(args.screenshot)
        sample_arcs(result["rings"], args.screenshot)
        bare = args.screenshot + ".without-markers.png"
        driver.execute_script("document.querySelector('.leaflet-marker-pane').style.visibility = 'hidden';")
        driver.save_screenshot(bare)
        driver.execute_script("document.querySelector('.leaflet-marker-pane').style.visibility = '';")
        result["screenshot"] = pixel_shares(args.screenshot, bare)
        os.unlink(bare)
        result["languages"] = driver.execute_script(
            "var s = document.getElementById('hubgeo-lang'); return s.hidden ? [] : Array.prototype.map.call(s.options, function (o) { return o.value; });")

        def popup():
            # Read in the same script that finds the popup's name: a popup the page replaces (the
            # served page fills it when the organization's answer arrives, and a view refresh may
            # reopen it) could otherwise be gone between a wait and a second read.
            return wait.until(lambda d: d.execute_script("""
                var box = document.querySelector('.leaflet-popup-content');
                if (!box || !box.querySelector('.hubgeo-popup-name')) return null;
                function text(sel) { var n = box.querySelector(sel); return n ? n.textContent : null; }
                return {name: text('.hubgeo-popup-name'), town: text('.hubgeo-popup-level1-town'), localized: text('.hubgeo-popup-localized'),
                        remark: text('.hubgeo-popup-remark'), links: Array.prototype.map.call(box.querySelectorAll('a'), function (a) { return {href: a.getAttribute('href'), rel: a.rel}; }),
                        images: box.querySelectorAll('img').length, text: box.textContent};
            """))

        def close_popup():
            driver.execute_script("window.hubgeo.map.closePopup();")
            time.sleep(0.3)

        singles = driver.find_elements(By.CSS_SELECTOR, ".leaflet-marker-pane .hubgeo-marker[data-id]")
        marker_id = singles[0].get_attribute("data-id") if singles else None
        if singles:  # a view of many organizations may show clusters only
            singles[0].click()
            result["popup"] = dict(popup(), id=marker_id)

        if args.switch_language and result["languages"][1:] and singles:
            close_popup()
            Select(driver.find_element(By.ID, "hubgeo-lang")).select_by_index(1)
            time.sleep(0.5)
            marker = driver.find_element(By.CSS_SELECTOR, ".leaflet-marker-pane .hubgeo-marker[data-id='%s']" % marker_id)
            marker.click()
            result["language"] = dict(popup(), chosen=result["languages"][1],
                                      legend=driver.find_element(By.CSS_SELECTOR, ".hubgeo-legend-museum .hubgeo-legend-label").text,
                                      ringLegend=driver.execute_script(
                                          "var n = document.querySelector('.hubgeo-legend-ring .hubgeo-legend-label'); return n ? n.textContent : null;"))
            close_popup()
            Select(driver.find_element(By.ID, "hubgeo-lang")).select_by_index(0)
            time.sleep(0.3)
        close_popup()

        result["searches"] = {}
        search = driver.find_element(By.ID, "hubgeo-search")
        for text in args.search:
            search.clear()
            search.send_keys(text)
            time.sleep(0.6)
            result["searches"][text] = driver.execute_script(
                "return Array.prototype.map.call(document.querySelectorAll('#hubgeo-results li[data-id]'), function (li) { return li.getAttribute('data-id'); });")
        search.clear()

        if args.open_search:
            search.send_keys(args.open_search)
            time.sleep(0.6)
            driver.find_element(By.CSS_SELECTOR, "#hubgeo-results li[data-id] button").click()
            result["opened"] = popup()
            close_popup()
            search.clear()

        if args.open_results:
            search.send_keys(args.open_results)
            wait.until(lambda d: d.execute_script("return document.querySelectorAll('#hubgeo-results li[data-id]').length > 0"))
            time.sleep(0.6)
            entries = driver.execute_script("""
                return Array.prototype.map.call(document.querySelectorAll('#hubgeo-results li[data-id]'), function (li) {
                    return [li.getAttribute('data-id'), li.querySelector('button').textContent]; });
            """)
            result["openedResults"] = []
            for index, (entry_id, listed) in enumerate(entries):
                driver.find_element(By.CSS_SELECTOR, "#hubgeo-results li[data-id='%s'] button" % entry_id).click()
                popup()
                time.sleep(1.5)  # the map pans or zooms to it and loads that view
                shown = popup()
                if index == 2:
                    driver.save_screenshot(args.screenshot + ".popup.png")
                result["openedResults"].append({"id": entry_id, "listed": listed, "popup": shown["name"], "text": shown["text"]})
                close_popup()
            search.clear()

        if args.click_cluster:
            view = served_view()
            zoom_limit = driver.execute_script("return window.hubgeo.map.getMaxZoom();")
            candidates = sorted((item for item in view["items"] if item["kind"] == "cluster" and item["expansionZoom"] <= zoom_limit),
                                key=lambda item: -item["count"])
            target = candidates[0]
            driver.find_element(By.CSS_SELECTOR, ".hubgeo-cluster[data-cluster-id='%s']" % target["id"]).click()
            after = wait_for_view(view["requested"])
            result["clusterClick"] = {"cluster": target, "zoom": after["zoom"], "mapZoom": driver.execute_script("return window.hubgeo.map.getZoom();"),
                                      "items": after["items"]}

        if args.open_group:
            lat, lon, zoom = [float(x) for x in args.open_group.split(",")]
            before = served_view()["requested"]
            driver.execute_script("window.hubgeo.map.setView([arguments[0], arguments[1]], arguments[2], {animate: false});", lat, lon, int(zoom))
            wait_for_view(before)
            marker = driver.execute_script("""
                var best = null, bestDistance = Infinity, map = window.hubgeo.map, target = map.latLngToContainerPoint([arguments[0], arguments[1]]);
                document.querySelectorAll('.leaflet-marker-pane .hubgeo-group').forEach(function (m) {
                    var r = m.getBoundingClientRect(), d = Math.hypot(r.left + r.width / 2 - target.x, r.top + r.height / 2 - target.y);
                    if (d < bestDistance) { bestDistance = d; best = m; }
                });
                return best;
            """, lat, lon)
            marker.click()
            wait.until(lambda d: d.execute_script("return document.querySelectorAll('.leaflet-popup-content .hubgeo-place li[data-id]').length > 0"))
            listed = driver.execute_script("""
                return {count: Number(arguments[0].getAttribute('data-count')),
                        ids: Array.prototype.map.call(document.querySelectorAll('.leaflet-popup-content .hubgeo-place li[data-id]'), function (li) { return li.getAttribute('data-id'); }),
                        names: Array.prototype.map.call(document.querySelectorAll('.leaflet-popup-content .hubgeo-place li .hubgeo-item-name'), function (b) { return b.textContent; })};
            """, marker)
            driver.find_element(By.CSS_SELECTOR, ".leaflet-popup-content .hubgeo-place li[data-id] button").click()
            wait.until(lambda d: d.execute_script("return !!document.querySelector('.leaflet-popup-content .hubgeo-popup-name')"))
            listed["firstPopup"] = popup()["name"]
            close_popup()
            result["group"] = listed

        if args.city:
            lat, lon, zoom = [float(x) for x in args.city.split(",")]
            before = served_view()["requested"]
            start = driver.execute_script("var t = performance.now(); window.hubgeo.map.setView([arguments[0], arguments[1]], arguments[2], {animate: false}); return t;",
                                          lat, lon, int(zoom))
            after = wait_for_view(before)
            result["city"] = {"milliseconds": after["shownAt"] - start, "zoom": after["zoom"], "organizations": after["organizations"],
                              "items": len(after["items"])}

        result["clicks"] = []
        map_element = driver.find_element(By.ID, "map")
        for spec in args.click:
            parts = [float(x) for x in spec.split(",")]
            view = [parts[0], parts[1], int(parts[2])] if len(parts) > 2 else initial
            driver.execute_script("window.hubgeo.map.setView([arguments[0], arguments[1]], arguments[2], {animate: false});", *view)
            time.sleep(1.0)
            point = driver.execute_script("var p = window.hubgeo.map.latLngToContainerPoint([arguments[0], arguments[1]]); return [p.x, p.y];", parts[0], parts[1])
            target = driver.execute_script("var e = document.elementFromPoint(arguments[0], arguments[1]); return e ? (e.id || e.className || e.tagName) : null;", point[0], point[1])
            size = map_element.size
            ActionChains(driver).move_to_element_with_offset(map_element, point[0] - size["width"] / 2, point[1] - size["height"] / 2).click().perform()
            wait.until(lambda d: d.execute_script("return !document.getElementById('hubgeo-near').hidden && document.querySelectorAll('#hubgeo-near-list li[data-id]').length > 0"))
            time.sleep(0.5)
            listed = driver.execute_script("""
                var box = document.getElementById('hubgeo-near');
                return {lat: box.getAttribute('data-lat'), lon: box.getAttribute('data-lon'),
                        ids: Array.prototype.map.call(box.querySelectorAll('li[data-id]'), function (li) { return li.getAttribute('data-id'); }),
                        meters: Array.prototype.map.call(box.querySelectorAll('li[data-id] .hubgeo-distance'), function (s) { return Number(s.getAttribute('data-meters')); }),
                        names: Array.prototype.map.call(box.querySelectorAll('li[data-id] .hubgeo-item-name'), function (s) { return s.textContent; })};
            """)
            listed["elementAtPoint"] = target
            driver.find_element(By.CSS_SELECTOR, "#hubgeo-near-list li[data-id] button").click()
            listed["firstPopup"] = popup()["name"]
            close_popup()
            result["clicks"].append(listed)

        result["hazards"] = driver.execute_script(
            "return {pwned: window.__pwned === undefined ? null : String(window.__pwned), scripts: document.scripts.length, title: document.title};")
        logs = driver.get_log("browser")
        result["consoleErrors"] = [entry["message"] for entry in logs if entry.get("level") == "SEVERE"
                                   and "ERR_NAME_NOT_RESOLVED" not in entry["message"] and "favicon" not in entry["message"]]
    except TimeoutException as error:
        result["error"] = "timed out waiting: %s" % error
    finally:
        signal.alarm(0)
        driver.quit()
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
