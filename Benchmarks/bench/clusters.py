"""The map at the largest size: the cluster index, `hubgeo serve`'s start, /api/clusters against
datasette-cluster-map under wrk, both pages in headless Chromium, and `hubgeo map` pages."""
import json
import math
import os
import random
import re
import shutil
import sqlite3
import statistics
import struct
import subprocess
import time
from collections import namedtuple

from .common import BENCHMARKS, BenchError, fetch_json, free_port, generate, run, seconds, stop, terminate, wait_for, wrk
from .server import datasette_binary, start_serve

# The rows of the four cluster tables:
# - index: (measure, organizations, seconds, peak RSS in MiB or None, reference or None);
# - wrk: (server, organizations, items per answer, requests/s, p50, p99, requests, errors);
# - browser: (page, organizations, seconds or None, what was shown);
# - map_pages: (organizations, page bytes, seconds to write, peak RSS in MiB, what browser.py reported).
Clusters = namedtuple("Clusters", "index wrk browser map_pages")


def web_mercator_view(lat, lon, zoom, width=1280, height=800):
    """The box (west, south, east, north) of a width × height page centred on lat, lon at zoom, as the page asks for it."""
    scale = 256 * 2 ** zoom
    x = (lon + 180) / 360 * scale
    y = (0.5 - math.log(math.tan(math.pi / 4 + math.radians(max(-85.0511, min(85.0511, lat))) / 2)) / (2 * math.pi)) * scale
    def latitude(py):
        py = max(0, min(scale, py))
        return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * py / scale))))
    if width >= scale:
        return -180.0, -90.0, 180.0, 90.0
    west, east = (x - width / 2) / scale * 360 - 180, (x + width / 2) / scale * 360 - 180
    wrap = lambda v: (v + 180) % 360 - 180
    south, north = latitude(y + height / 2), latitude(y - height / 2)
    return wrap(west), -90.0 if south <= -85.05 else south, wrap(east), 90.0 if north >= 85.05 else north


def wrk_paths(url_base, paths, clients, seconds, work, headers=None):
    """wrk over a list of paths taken in turn (a Lua script in the work folder), with optional headers."""
    script = os.path.join(work, "paths.lua")
    with open(script, "w") as f:
        f.write("local paths = {" + ",".join(json.dumps(p) for p in paths) + "}\n")
        f.write("local i = math.random(#paths)\n")
        for name, value in (headers or {}).items():
            f.write(f"wrk.headers[{json.dumps(name)}] = {json.dumps(value)}\n")
        f.write("request = function()\n  i = i % #paths + 1\n  return wrk.format('GET', paths[i])\nend\n")
    return wrk(url_base + paths[0], clients, seconds, script=script)


def browser(mode, target, count, *extra, deadline=120):
    # Debian's interpreter, which sees the python3-selenium package.
    out = subprocess.run(["/usr/bin/python3", os.path.join(BENCHMARKS, "browser.py"), mode, target, str(count), "--deadline", str(deadline)]
                         + list(extra), capture_output=True, text=True, timeout=deadline + 180)
    try:
        return json.loads(out.stdout)
    except ValueError:
        raise BenchError(f"browser.py {mode} {target}: {out.stderr[-1500:]}")


def bench_clusters(n, args, prepared):
    """The map at n organizations, on the prepared database (its import, when this run made it, is the
    first row): a Clusters."""
    import generate as generator  # Benchmarks/generate.py, beside the driver
    work = args.work
    folder = os.path.join(work, str(n))
    index_rows, wrk_rows, browser_rows, map_pages = [], [], [], []
    # The database: imported by this run when it was missing, and that import timed (it builds and stores the index).
    hub = prepared.hub
    if prepared.imported:
        index_rows.append(("hubgeo import of the generated Level 1 file (it builds and stores the index)", n,
                           prepared.imported[0], prepared.imported[1], None))
    points = generator.generate(n, args.seed)

    # The index alone, from the same points, in its own process: time and peak memory.
    points_file = os.path.join(folder, "points.bin")
    with open(points_file, "wb") as f:
        f.write(b"".join(struct.pack("<dd", *p) for p in points))
    builds = []
    for _ in range(args.runs):
        _, rss, out = run([args.cluster_bench, "points", points_file], work, stdout=subprocess.PIPE)
        built = float(re.search(r"build ([\d.]+) s", out).group(1))
        count = int(re.search(r"organizations (\d+)", out).group(1))
        if count != n:
            raise BenchError(f"cluster index of {count} organizations, expected {n}")
        builds.append((built, rss))
    index_rows.append(("build the cluster index (hubgeo-cluster-bench)", n, statistics.median(b[0] for b in builds),
                       max(b[1] for b in builds),
                       "supercluster 9 (JavaScript), its published figure: 5.9 s, 444 MB" if n == 1_000_000 else None))

    # serve's start: the stored index loaded, and, on a copy without it (an older database), built from the rows.
    bare = os.path.join(folder, "hub-without-index.sqlite")
    if not os.path.exists(bare):
        shutil.copyfile(hub, bare + ".tmp")
        connection = sqlite3.connect(bare + ".tmp")
        connection.execute("DROP TABLE cluster_index")
        connection.execute("DELETE FROM grdb_migrations WHERE identifier = 'v4 cluster index'")
        connection.commit()
        connection.close()
        os.replace(bare + ".tmp", bare)
    for name, database in (("hubgeo serve start, index stored by the import", hub),
                           ("hubgeo serve start, index built from the rows", bare)):
        starts = []
        for _ in range(args.runs):
            server, log, elapsed = start_serve(args, database, free_port(), "serve-start.log")
            stop(server, log)
            starts.append(elapsed)
        index_rows.append((name, n, statistics.median(starts), None, None))

    # The views: a 1280 × 800 page at the zoom of each kind, centred on random organizations.
    rng = random.Random(args.seed)
    kinds = [("world", 1), ("continent", 4), ("country", 7), ("city", 12)]
    paths = []
    for name, zoom in kinds:
        for _ in range(100):
            plat, plon = points[rng.randrange(len(points))]
            box = web_mercator_view(plat, plon, zoom)
            paths.append("/api/clusters?bbox=" + ",".join(f"{v:.5f}" for v in box) + f"&zoom={zoom}")
    city_lat, city_lon = points[0]

    port = free_port()
    server, log, _ = start_serve(args, hub, port, "serve-clusters.log")
    try:
        base = f"http://127.0.0.1:{port}"
        world = fetch_json(base + paths[0])
        total = sum(f["properties"]["count"] for f in world["features"])
        if total != n:
            raise BenchError(f"/api/clusters world view counts {total}, expected {n}")
        sizes = {}
        for name, zoom in kinds:
            answers = [fetch_json(base + p) for p in paths if p.endswith(f"&zoom={zoom}")][:20]
            sizes[name] = statistics.median(len(a["features"]) for a in answers)
        for label, headers in (("gzip", {"Accept-Encoding": "gzip"}), ("identity", None)):
            result = wrk_paths(base, paths, args.clients, args.seconds, work, headers)
            wrk_rows.append((f"hubgeo /api/clusters, {label}", n,
                             "/".join(f"{sizes[k]:.0f}" for k, _ in kinds)) + result)
        served = browser("served", base + "/", n, f"--city={city_lat},{city_lon},12",
                         "--screenshot", os.path.join(work, "served-world.png"))
        if "error" in served:
            raise BenchError(f"the served page: {served['error']}")
        if served["firstView"]["organizations"] != n:
            raise BenchError(f"the served page's first view counts {served['firstView']['organizations']}, expected {n}")
        browser_rows.append(("hubgeo serve: first complete whole-world view", n, served["firstView"]["ms"] / 1000,
                             f"{served['firstView']['items']} clusters adding up to {n:,}"))
        browser_rows.append(("hubgeo serve: a city view (zoom 12) after the jump", n, served["city"]["ms"] / 1000,
                             f"{served['city']['items']} items"))
    finally:
        stop(server, log)

    # The peer: Datasette with datasette-cluster-map on the same file.
    port = free_port()
    log = open(os.path.join(work, "datasette-cluster-map.log"), "w")
    peer = subprocess.Popen([datasette_binary(work), "serve", hub, "--port", str(port), "--load-extension", "spatialite",
                             "--setting", "sql_time_limit_ms", "10000"], stdout=log, stderr=log)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for(base + "/-/versions.json", peer, seconds=120)
        if "datasette-cluster-map" not in json.dumps(fetch_json(base + "/-/plugins.json")):
            raise BenchError("datasette-cluster-map is not installed in the Datasette environment")
        database = os.path.splitext(os.path.basename(hub))[0]
        request = f"/{database}/organization.json?_size=max&_labels=on&_extra=count&_extra=next_url&_shape=objects"
        alone = time.perf_counter()
        rows = fetch_json(base + request)["rows"]
        alone = time.perf_counter() - alone
        result = wrk(base + request, args.clients, args.seconds)
        wrk_rows.append(("Datasette: datasette-cluster-map's request for its map", n,
                         f"{len(rows):,} rows ({seconds(alone)} alone)") + result)
        page = browser("datasette", f"{base}/{database}/organization", n, deadline=args.browser_deadline)
        if "error" in page or not page.get("firstMarkersMs"):
            raise BenchError(f"datasette-cluster-map's page: {page}")
        first_page = page.get("firstPage") or (0, n)
        browser_rows.append(("datasette-cluster-map: first markers", n, page["firstMarkersMs"] / 1000,
                             f"{first_page[0]:,} of {first_page[1]:,} rows"))
        loaded = page.get("loadedAtDeadline")
        browser_rows.append(("datasette-cluster-map: \"load all\"", n, page["allMs"] / 1000 if page.get("allMs") else None,
                             "every row" if page.get("allMs") else
                             f"not done after {args.browser_deadline} s: {loaded[0]:,} of {loaded[1]:,} rows" if loaded else "not done"))
    finally:
        terminate(peer, log)

    # hubgeo map pages: their size, and how long Chromium takes to show them whole.
    for size in args.map_size_list:
        sub = os.path.join(work, f"map-{size}")
        level1 = os.path.join(sub, "bench.level1.json")
        db = os.path.join(sub, "hub.sqlite")
        if not os.path.exists(db):
            generate(size, args.seed, sub)
            run([args.hubgeo, "import", level1, "--db", db], work)
        page = os.path.join(sub, "map.html")
        elapsed, rss, _ = run([args.hubgeo, "map", "-o", page, "--db", db, "--max-organizations", str(size)], work)
        opened = browser("embedded", page, size, deadline=args.browser_deadline)
        map_pages.append((size, os.path.getsize(page), elapsed, rss, opened))
    return Clusters(index_rows, wrk_rows, browser_rows, map_pages)
