#!/usr/bin/env python3
"""make bench: hubgeo side by side with ogr2ogr and the sqlite3 and spatialite CLIs, as medians and ratios.

  startup  `hubgeo --version` vs a Swift hello (Benchmarks/hello) built with the same Swift runtime linking
           (static or shared, read off the binary), and `hubgeo near 51.4 5.4 --km 20` on the built-in data vs
           the sqlite3 CLI running the R*Tree part of that query on the same file (hyperfine -N, medians)
For each size N (synthetic data from generate.py, seeded), on the release build:
  import   hubgeo import of the Level 1 file   vs  ogr2ogr -f SQLite -dsco SPATIALITE=YES of the GeoJSON
           then hubgeo re-imports: the same file (nothing changes), and a copy with 1 % of the
           organizations moved, each against ogr2ogr's import time
  near     in process: indexed query (OrganizationStore.near) vs the fastest full scan of the same
           database (hubgeo-bench: one SELECT id, latitude, longitude, a haversine test in Swift, exact
           distances for the survivors), 20 km and 200 km; end to end: `hubgeo near` vs the spatialite CLI running
           the equivalent SQL (spatial index, then exact distance) on the same file
  bbox     the same for a box
  export   hubgeo export geojson / kml of everything  vs  ogr2ogr -f GeoJSON / -f KML from GDAL's own table
           (the import above: the same organizations, the properties inline), a GDAL user's way; and, for
           comparison only, ogr2ogr reading hubgeo's database through a join (PEER_EXPORT_SQL)
  memory   peak RSS of every hubgeo command (GNU time)
  server   `hubgeo serve` under wrk (--clients concurrent connections for --seconds) on /api/near?km=20
           vs Datasette (PyPI datasette, in a virtual environment under the work folder) on the same
           SpatiaLite file, its JSON API running the equivalent SQL (the R*Tree box, then the exact
           ellipsoidal distance, nearest first, the same columns); throughput, p50 and p99 latency, errors
  clusters the map at the largest size: the cluster index built from the same points (hubgeo-cluster-bench),
           `hubgeo serve`'s start with the index the import stored and without one, /api/clusters under wrk
           over a mix of world, continent, country and city views vs the request datasette-cluster-map
           (PyPI) makes for its map, both pages in headless Chromium (Benchmarks/browser.py: the first
           complete view, a city view; the peer's first markers and "load all"), and `hubgeo map` pages of
           --map-sizes organizations opened in Chromium (where a browser starts to struggle)
Each measure runs --runs times (the full scans fewer at 1M); the median counts. Every pair must
agree (same organizations for the queries, same count for imports and exports), else it fails.
Writes the tables to stdout and to BENCHMARKS.md with a description of the machine; a run of some
sections replaces only their tables there (each sits between `<!-- bench:NAME -->` markers).
"""
import argparse
import json
import math
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ENV = dict(os.environ, HUBGEO_MAX_FILE_BYTES=str(4 << 30), XDG_DATA_HOME="/nonexistent-bench")


class BenchError(Exception):
    pass


def run(command, stdout=subprocess.DEVNULL, check=True):
    """Runs a command under GNU time: (wall seconds, peak RSS in MiB, stdout text or None)."""
    with open(os.devnull, "w") as devnull:
        rss_file = os.path.join(WORK, "time.out")
        start = time.perf_counter()
        result = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_file] + command, env=ENV,
                                stdout=stdout, stderr=subprocess.PIPE, text=True)
        seconds = time.perf_counter() - start
    if check and result.returncode != 0:
        raise BenchError(f"{' '.join(command)} failed with status {result.returncode}:\n{result.stderr[-2000:]}")
    with open(rss_file) as f:
        lines = [line for line in f.read().splitlines() if line.strip().isdigit()]
    return seconds, int(lines[-1]) / 1024 if lines else float("nan"), result.stdout


def median_of(runs, command_for_run, before=None, warmup=0):
    """The median time, the largest peak memory and the last output of `runs` runs, after `warmup` runs
    not counted (a query's first run reads its pages from disk, and would warm them for its peer)."""
    for index in range(warmup):
        if before:
            before()
        command_for_run(index)
    times, peaks, last = [], [], None
    for index in range(runs):
        if before:
            before()
        seconds, peak, out = command_for_run(index)
        times.append(seconds)
        peaks.append(peak)
        last = out
    return statistics.median(times), max(peaks), last


def remove_db(path):
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def sql(db, query):
    return subprocess.run(["spatialite", "-silent", db, query], capture_output=True, text=True, check=True, env=ENV).stdout


def count_matches(path, pattern):
    """Occurrences of a regular expression in a file of any size, read in chunks."""
    expression = re.compile(pattern.encode())
    count, carry = 0, b""
    with open(path, "rb") as f:
        while True:
            chunk = f.read(16 << 20)
            if not chunk:
                return count
            data = carry + chunk
            last_end = 0
            for match in expression.finditer(data):
                count += 1
                last_end = match.end()
            carry = data[max(last_end, len(data) - 256):]


# The second, join-reading export peer: ogr2ogr writes the same properties as `hubgeo export` (id, name,
# nickName, type, town, website, wikipedia, the English remark and its language, fotobondNumber, memberCount
# of clubs) from hubgeo's database, in one statement, in table order. It evaluates the remark join on every
# row, which a GDAL user with GDAL's own table would not: the headline peer exports from that table.
PEER_EXPORT_SQL = (
    "SELECT o.stable_id AS id, o.full_name AS name, o.nick_name AS nickName, o.type AS type, o.town AS town, "
    "o.website AS website, o.wikipedia AS wikipedia, r.value AS remark, r.language AS remarkLanguage, "
    "o.fotobond_number AS fotobondNumber, CASE WHEN o.type = 'club' THEN o.member_count END AS memberCount, o.geom AS geom "
    "FROM organization o LEFT JOIN organization_remark r ON r.organization_id = o.id AND upper(r.language) = 'EN'")


def write_changed_copy(source, target, every):
    """A copy of a generated Level 1 file (one organization per line) with the latitude of every
    `every`-th organization moved by 0.001°; returns how many were changed."""
    def moved(latitude):
        return latitude + 0.001 if latitude + 0.001 <= 90 else latitude - 0.001
    changed = 0
    pattern = re.compile(r'"latitude": (-?[0-9.]+)')
    with open(source) as f, open(target, "w") as out:
        index = 0
        for line in f:
            if line.startswith('{"idPlus"'):
                if index % every == 0:
                    line = pattern.sub(lambda m: f'"latitude": {moved(float(m.group(1))):.6f}', line, count=1)
                    changed += 1
                index += 1
            out.write(line)
    return changed


def degrees_for(km, latitude):
    """A conservative MBR radius in degrees for a circle of `km` around `latitude` (as hubgeo's boxes)."""
    r = km / 6356.752
    lat_deg = math.degrees(r) * 1.01
    c = math.cos(math.radians(min(89.999, abs(latitude) + lat_deg)))
    lon_deg = 180.0 if math.sin(r) >= c else math.degrees(math.asin(math.sin(r) / c)) * 1.01
    return max(lat_deg, lon_deg)


def bench_size(n, args):
    """The core measures of one size, then the server's and, at the largest size, the map's (`--sections`)."""
    rows = bench_core(n, args) if "core" in args.sections else []
    if "server" in args.sections:
        SERVER_ROWS.extend(bench_server(n, args))
    if "clusters" in args.sections and n == max(args.size_list):
        bench_clusters(n, args)
    return rows


def prepared(n, args):
    """The generated files and an imported database of size n (generated and imported when missing)."""
    folder = os.path.join(WORK, str(n))
    level1 = os.path.join(folder, "bench.level1.json")
    geojson = os.path.join(folder, "bench.geojson")
    if not os.path.exists(geojson):
        subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--count", str(n), "--seed", str(args.seed),
                        "--out", folder], check=True)
    hub = os.path.join(folder, "hub.sqlite")
    if not os.path.exists(hub) or int(sql(hub, "SELECT count(*) FROM organization").strip() or 0) != n:
        remove_db(hub)
        IMPORTS[n] = run([args.hubgeo, "import", level1, "--db", hub])[:2]
    with open(geojson) as f:
        f.readline()
        first = json.loads(f.readline().rstrip().rstrip(","))
    lon, lat = first["geometry"]["coordinates"]
    return hub, lat, lon


SERVER_ROWS = []
# The exports' sizes: (format, organizations, hubgeo's bytes, ogr2ogr's bytes from its own table).
EXPORT_SIZES = []
# The imports `prepared` made in this run: (seconds, peak RSS in MiB) by size.
IMPORTS = {}


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url, process, seconds=60):
    import urllib.request
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            raise BenchError(f"{url}: the server exited with status {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read()
        except OSError:
            time.sleep(0.2)
    raise BenchError(f"{url}: no answer in {seconds} s")


def fetch_json(url):
    import urllib.request
    with urllib.request.urlopen(url, timeout=60) as response:
        return json.loads(response.read())


def wrk(url, clients, seconds, script=None):
    """wrk's throughput, p50, p99 (seconds) and error count (socket errors and non-2xx answers)."""
    out = subprocess.run(["wrk", "-t", "2", "-c", str(clients), "-d", f"{seconds}s", "--latency", "--timeout", "10s"]
                         + (["-s", script] if script else []) + [url],
                         capture_output=True, text=True, check=True).stdout
    def duration(text):
        value, unit = re.match(r"([\d.]+)(us|ms|s|m)", text).groups()
        return float(value) * {"us": 1e-6, "ms": 1e-3, "s": 1, "m": 60}[unit]
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = duration(re.search(r"\s50%\s+(\S+)", out).group(1))
    p99 = duration(re.search(r"\s99%\s+(\S+)", out).group(1))
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    errors = sum(int(x) for x in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rate, p50, p99, requests, errors + (int(non2xx.group(1)) if non2xx else 0)


def datasette_binary():
    venv = os.path.join(WORK, "datasette-venv")
    binary = os.path.join(venv, "bin", "datasette")
    python = os.path.join(venv, "bin", "python")
    ready = os.path.exists(binary) and subprocess.run([python, "-c", "import pysqlite3, datasette_cluster_map"],
                                                      capture_output=True).returncode == 0
    if not ready:
        if not os.path.exists(python):
            subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        # pysqlite3-binary: an SQLite that can load SpatiaLite (Debian's Python sqlite3 module cannot);
        # Datasette uses it when it is installed.
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "datasette==0.65.5", "pysqlite3-binary==0.5.4.post2",
                        "datasette-cluster-map==0.18.2"], check=True)
    return binary


CLUSTER_ROWS = []
CLUSTER_WRK_ROWS = []
BROWSER_ROWS = []
MAP_PAGE_ROWS = []


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


def wrk_paths(url_base, paths, clients, seconds, headers=None):
    """wrk over a list of paths taken in turn (a Lua script), with optional headers."""
    script = os.path.join(WORK, "paths.lua")
    with open(script, "w") as f:
        f.write("local paths = {" + ",".join(json.dumps(p) for p in paths) + "}\n")
        f.write("local i = math.random(#paths)\n")
        for name, value in (headers or {}).items():
            f.write(f"wrk.headers[{json.dumps(name)}] = {json.dumps(value)}\n")
        f.write("request = function()\n  i = i % #paths + 1\n  return wrk.format('GET', paths[i])\nend\n")
    return wrk(url_base + paths[0], clients, seconds, script=script)


def start_serve(args, hub, port, log_name):
    """hubgeo serve on the file; the seconds until it listens (what a user waits for at start)."""
    log = open(os.path.join(WORK, log_name), "w")
    start = time.perf_counter()
    server = subprocess.Popen([args.hubgeo, "serve", "--db", hub, "--port", str(port)], env=ENV,
                              stdout=subprocess.DEVNULL, stderr=log)
    wait_for(f"http://127.0.0.1:{port}/api/stats", server, seconds=300)
    return server, log, time.perf_counter() - start


def stop(process, log, signal_number=2):
    process.send_signal(signal_number)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()


def browser(mode, target, count, *extra, deadline=120):
    # Debian's interpreter, which sees the python3-selenium package.
    out = subprocess.run(["/usr/bin/python3", os.path.join(HERE, "browser.py"), mode, target, str(count), "--deadline", str(deadline)]
                         + list(extra), capture_output=True, text=True, timeout=deadline + 180)
    try:
        return json.loads(out.stdout)
    except ValueError:
        raise BenchError(f"browser.py {mode} {target}: {out.stderr[-1500:]}")


def bench_clusters(n, args):
    """The map at n organizations (see the module's description)."""
    import random
    import sqlite3
    import urllib.parse
    sys.path.insert(0, HERE)
    import generate
    folder = os.path.join(WORK, str(n))
    # The database: imported now when missing, and that import timed (it builds and stores the index).
    hub, lat, lon = prepared(n, args)
    if n in IMPORTS:
        CLUSTER_ROWS.append(("hubgeo import of the generated Level 1 file (it builds and stores the index)", n,
                             IMPORTS[n][0], IMPORTS[n][1], None))
    points = generate.generate(n, args.seed)

    # The index alone, from the same points, in its own process: time and peak memory.
    points_file = os.path.join(folder, "points.bin")
    import struct
    with open(points_file, "wb") as f:
        f.write(b"".join(struct.pack("<dd", *p) for p in points))
    builds = []
    for _ in range(args.runs):
        _, rss, out = run([args.cluster_bench, "points", points_file], stdout=subprocess.PIPE)
        built = float(re.search(r"build ([\d.]+) s", out).group(1))
        count = int(re.search(r"organizations (\d+)", out).group(1))
        if count != n:
            raise BenchError(f"cluster index of {count} organizations, expected {n}")
        builds.append((built, rss))
    CLUSTER_ROWS.append(("build the cluster index (hubgeo-cluster-bench)", n, statistics.median(b[0] for b in builds),
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
        CLUSTER_ROWS.append((name, n, statistics.median(starts), None, None))

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
            result = wrk_paths(base, paths, args.clients, args.seconds, headers)
            CLUSTER_WRK_ROWS.append((f"hubgeo /api/clusters, {label}", n,
                                     "/".join(f"{sizes[k]:.0f}" for k, _ in kinds)) + result)
        served = browser("served", base + "/", n, f"--city={city_lat},{city_lon},12",
                         "--screenshot", os.path.join(WORK, "served-world.png"))
        if "error" in served:
            raise BenchError(f"the served page: {served['error']}")
        if served["firstView"]["organizations"] != n:
            raise BenchError(f"the served page's first view counts {served['firstView']['organizations']}, expected {n}")
        BROWSER_ROWS.append(("hubgeo serve: first complete whole-world view", n, served["firstView"]["ms"] / 1000,
                             f"{served['firstView']['items']} clusters adding up to {n:,}"))
        BROWSER_ROWS.append(("hubgeo serve: a city view (zoom 12) after the jump", n, served["city"]["ms"] / 1000,
                             f"{served['city']['items']} items"))
    finally:
        stop(server, log)

    # The peer: Datasette with datasette-cluster-map on the same file.
    port = free_port()
    log = open(os.path.join(WORK, "datasette-cluster-map.log"), "w")
    peer = subprocess.Popen([datasette_binary(), "serve", hub, "--port", str(port), "--load-extension", "spatialite",
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
        CLUSTER_WRK_ROWS.append(("Datasette: datasette-cluster-map's request for its map", n,
                                 f"{len(rows):,} rows ({seconds(alone)} alone)") + result)
        page = browser("datasette", f"{base}/{database}/organization", n, deadline=args.browser_deadline)
        if "error" in page or not page.get("firstMarkersMs"):
            raise BenchError(f"datasette-cluster-map's page: {page}")
        first_page = page.get("firstPage") or (0, n)
        BROWSER_ROWS.append(("datasette-cluster-map: first markers", n, page["firstMarkersMs"] / 1000,
                             f"{first_page[0]:,} of {first_page[1]:,} rows"))
        loaded = page.get("loadedAtDeadline")
        BROWSER_ROWS.append(("datasette-cluster-map: \"load all\"", n, page["allMs"] / 1000 if page.get("allMs") else None,
                             "every row" if page.get("allMs") else
                             f"not done after {args.browser_deadline} s: {loaded[0]:,} of {loaded[1]:,} rows" if loaded else "not done"))
    finally:
        peer.terminate()
        try:
            peer.wait(timeout=15)
        except subprocess.TimeoutExpired:
            peer.kill()
        log.close()

    # hubgeo map pages: their size, and how long Chromium takes to show them whole.
    for size in args.map_size_list:
        sub = os.path.join(WORK, f"map-{size}")
        level1 = os.path.join(sub, "bench.level1.json")
        db = os.path.join(sub, "hub.sqlite")
        if not os.path.exists(db):
            subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--count", str(size), "--seed", str(args.seed),
                            "--out", sub], check=True)
            run([args.hubgeo, "import", level1, "--db", db])
        page = os.path.join(sub, "map.html")
        elapsed, rss, _ = run([args.hubgeo, "map", "-o", page, "--db", db, "--max-organizations", str(size)])
        opened = browser("embedded", page, size, deadline=args.browser_deadline)
        MAP_PAGE_ROWS.append((size, os.path.getsize(page), elapsed, rss, opened))


def bench_server(n, args):
    """hubgeo serve and Datasette, one after the other, under the same wrk load on the same file."""
    import urllib.parse
    hub, lat, lon = prepared(n, args)
    km = 20
    cap = 5000
    deg = degrees_for(km, lat)
    south_edge, north_edge = max(-90, lat - deg), min(90, lat + deg)
    west_edge, east_edge = max(-180, lon - deg), min(180, lon + deg)
    # What /api/near?km=20 answers, as SQL: index candidates, exact distance, nearest first (ties by name
    # then town), the exported columns with the English remark (else any), capped like the server.
    query = (
        "SELECT o.stable_id AS id, o.type, o.full_name AS name, o.nick_name, o.town, o.longitude, o.latitude, "
        "o.website, o.wikipedia, (SELECT value FROM organization_remark r WHERE r.organization_id = o.id "
        "ORDER BY r.language = 'EN' DESC, r.language LIMIT 1) AS remark, o.fotobond_number, o.member_count, "
        f"ST_Distance(o.geom, MakePoint({lon}, {lat}, 4326), 1) AS distance FROM organization o "
        f"WHERE o.id IN (SELECT pkid FROM idx_organization_geom WHERE xmax >= {west_edge} AND xmin <= {east_edge} "
        f"AND ymax >= {south_edge} AND ymin <= {north_edge}) AND distance <= {km * 1000} "
        f"ORDER BY distance, o.full_name || char(31) || o.town LIMIT {cap + 1}")
    rows = []
    port = free_port()
    log = open(os.path.join(WORK, f"serve-{n}.log"), "w")
    server = subprocess.Popen([args.hubgeo, "serve", "--db", hub, "--port", str(port), "--max-features", str(cap)],
                              env=ENV, stdout=subprocess.DEVNULL, stderr=log)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for(base + "/api/stats", server)
        url = f"{base}/api/near?lat={lat}&lon={lon}&km={km}"
        mine = [f["id"] for f in fetch_json(url)["features"]]
        result = wrk(url, args.clients, args.seconds)
        rows.append(("hubgeo serve", n, len(mine)) + result)
    finally:
        server.send_signal(2)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
    port = free_port()
    log = open(os.path.join(WORK, f"datasette-{n}.log"), "w")
    peer = subprocess.Popen([datasette_binary(), "serve", hub, "--port", str(port), "--load-extension", "spatialite",
                             "--setting", "max_returned_rows", str(cap + 1), "--setting", "sql_time_limit_ms", "10000"],
                            stdout=log, stderr=log)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for(base + "/-/versions.json", peer)
        database = os.path.splitext(os.path.basename(hub))[0]
        url = f"{base}/{database}.json?" + urllib.parse.urlencode({"sql": query, "_shape": "array"})
        theirs = [row["id"] for row in fetch_json(url)]
        if theirs[:cap] != mine:
            raise BenchError(f"server near {km} km: hubgeo answered {len(mine)}, Datasette {len(theirs)} (or another order)")
        result = wrk(url, args.clients, args.seconds)
        rows.append(("Datasette", n, len(theirs[:cap])) + result)
    finally:
        peer.terminate()
        try:
            peer.wait(timeout=15)
        except subprocess.TimeoutExpired:
            peer.kill()
        log.close()
    for row in rows:
        if row[-1]:
            raise BenchError(f"{row[0]}: {row[-1]} errors under load")
    return rows


def bench_core(n, args):
    folder = os.path.join(WORK, str(n))
    level1 = os.path.join(folder, "bench.level1.json")
    geojson = os.path.join(folder, "bench.geojson")
    if not os.path.exists(geojson):
        subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--count", str(n), "--seed", str(args.seed),
                        "--out", folder], check=True)
    hub = os.path.join(folder, "hub.sqlite")
    peer = os.path.join(folder, "peer.sqlite")
    hubgeo, bench = args.hubgeo, args.bench
    runs = args.runs
    scan_runs = args.runs if n < 1_000_000 else 1  # a full scan of a million rows takes most of a minute
    rows = []

    # Import.
    t_hub, rss_import, _ = median_of(runs, lambda i: run([hubgeo, "import", level1, "--db", hub]), before=lambda: remove_db(hub))
    t_ogr, _, _ = median_of(runs, lambda i: run(["ogr2ogr", "-f", "SQLite", "-dsco", "SPATIALITE=YES", "-nln", "peer", peer, geojson]),
                            before=lambda: remove_db(peer))
    hub_count = int(sql(hub, "SELECT count(*) FROM organization").strip())
    peer_count = int(sql(peer, "SELECT count(*) FROM peer").strip())
    if hub_count != n or peer_count != n:
        raise BenchError(f"import counts differ: hubgeo {hub_count}, ogr2ogr {peer_count}, expected {n}")
    rows.append(("import", f"{n:,}", t_hub, t_ogr, "ogr2ogr", rss_import))

    # Re-imports into the database just made: the same data (nothing to write), then the data with 1 %
    # of the organizations changed (each run starts from a copy of the unchanged database). Both are
    # timed against ogr2ogr's import, the work a user would otherwise redo.
    t_same, rss_same, out_same = median_of(runs, lambda i: run([hubgeo, "import", level1, "--db", hub], stdout=subprocess.PIPE))
    if f"{n:,} unchanged".replace(",", "") not in out_same.replace(",", ""):
        raise BenchError(f"the re-import of unchanged data changed something:\n{out_same[-500:]}")
    rows.append(("re-import, unchanged", f"{n:,}", t_same, t_ogr, "ogr2ogr import", rss_same))
    changed_level1 = os.path.join(folder, "bench-changed.level1.json")
    changed = write_changed_copy(level1, changed_level1, every=100)
    pristine = os.path.join(folder, "hub-pristine.sqlite")
    shutil.copyfile(hub, pristine)
    t_changed, rss_changed, out_changed = median_of(
        runs, lambda i: run([hubgeo, "import", changed_level1, "--db", hub], stdout=subprocess.PIPE),
        before=lambda: (remove_db(hub), shutil.copyfile(pristine, hub)))
    if f"{changed} changed" not in out_changed.replace(",", ""):
        raise BenchError(f"the re-import with {changed} changed organizations reported otherwise:\n{out_changed[-500:]}")
    rows.append(("re-import, 1 % changed", f"{n:,}", t_changed, t_ogr, "ogr2ogr import", rss_changed))
    remove_db(hub)
    shutil.copyfile(pristine, hub)
    os.remove(pristine)

    # Queries around the first generated organization (in a cluster) and a box around it.
    with open(geojson) as f:
        f.readline()
        first = json.loads(f.readline().rstrip().rstrip(","))
    lon, lat = first["geometry"]["coordinates"]
    for km in (20, 200):
        report = json.loads(run([bench, "near", hub, str(lat), str(lon), str(km), str(runs), str(scan_runs)],
                                stdout=subprocess.PIPE)[2])
        if not report["same"]:
            raise BenchError(f"near {km} km: the indexed query found {report['count']}, the scan {report['scanCount']}")
        rows.append((f"near {km} km in process ({report['count']:,} found)", f"{n:,}", report["indexMs"] / 1000,
                     report["scanMs"] / 1000, "fastest full scan", None))
        t_cli, rss_near, out = median_of(runs, lambda i: run(
            [hubgeo, "near", str(lat), str(lon), "--km", str(km), "--format", "json", "--db", hub], stdout=subprocess.PIPE), warmup=1)
        hub_ids = sorted(item["id"] for item in json.loads(out))
        deg = degrees_for(km, lat)
        south_edge, north_edge = max(-90, lat - deg), min(90, lat + deg)
        frames = [(max(-180, lon - deg), min(180, lon + deg))]
        if lon - deg < -180:  # the circle crosses the antimeridian: a second frame on the other side
            frames.append((lon - deg + 360, 180))
        if lon + deg > 180:
            frames.append((-180, lon + deg - 360))
        candidates = " OR ".join(
            f"ROWID IN (SELECT ROWID FROM SpatialIndex WHERE f_table_name = 'organization' "
            f"AND search_frame = BuildMbr({west}, {south_edge}, {east}, {north_edge}))" for west, east in frames)
        query = (f"SELECT stable_id FROM organization WHERE ({candidates}) "
                 f"AND ST_Distance(geom, MakePoint({lon}, {lat}, 4326), 1) <= {km * 1000} "
                 f"ORDER BY ST_Distance(geom, MakePoint({lon}, {lat}, 4326), 1)")
        t_sl, _, out = median_of(runs, lambda i: run(["spatialite", "-silent", hub, query], stdout=subprocess.PIPE), warmup=1)
        if sorted(out.split()) != hub_ids:
            raise BenchError(f"near {km} km: hubgeo found {len(hub_ids)}, spatialite {len(out.split())}")
        rows.append((f"hubgeo near {km} km, end to end", f"{n:,}", t_cli, t_sl, "spatialite CLI", rss_near))

    south, north, west, east = lat - 1, lat + 1, lon - 1.5, lon + 1.5
    report = json.loads(run([bench, "bbox", hub, str(south), str(west), str(north), str(east), str(runs), str(runs)],
                            stdout=subprocess.PIPE)[2])
    if not report["same"]:
        raise BenchError(f"bbox: the indexed query found {report['count']}, the scan {report['scanCount']}")
    rows.append((f"bbox 2°×3° in process ({report['count']:,} found)", f"{n:,}", report["indexMs"] / 1000,
                 report["scanMs"] / 1000, "full scan", None))
    t_cli, rss_bbox, out = median_of(runs, lambda i: run(
        [hubgeo, "bbox", str(south), str(west), str(north), str(east), "--format", "json", "--db", hub], stdout=subprocess.PIPE),
        warmup=1)
    hub_ids = sorted(item["id"] for item in json.loads(out))
    query = (f"SELECT stable_id FROM organization WHERE ROWID IN (SELECT ROWID FROM SpatialIndex WHERE "
             f"f_table_name = 'organization' AND search_frame = BuildMbr({west}, {south}, {east}, {north})) "
             f"AND latitude BETWEEN {south} AND {north} AND longitude BETWEEN {west} AND {east}")
    t_sl, _, out = median_of(runs, lambda i: run(["spatialite", "-silent", hub, query], stdout=subprocess.PIPE), warmup=1)
    if sorted(out.split()) != hub_ids:
        raise BenchError(f"bbox: hubgeo found {len(hub_ids)}, spatialite {len(out.split())}")
    rows.append(("hubgeo bbox, end to end", f"{n:,}", t_cli, t_sl, "spatialite CLI", rss_bbox))

    # Exports of everything. The headline peer is a GDAL user's: ogr2ogr from GDAL's own table (the
    # import above: one table with the properties inline), the same organizations and properties.
    # A second row has ogr2ogr read hubgeo's database through a join (PEER_EXPORT_SQL), for what it is.
    for fmt, driver, pattern in (("geojson", "GeoJSON", r'"type"\s*:\s*"Feature"'), ("kml", "KML", r"<Placemark")):
        mine = os.path.join(folder, f"hub.{fmt}")
        theirs = os.path.join(folder, f"ogr.{fmt}")
        joined = os.path.join(folder, f"ogr-join.{fmt}")
        t_hub, rss_export, _ = median_of(runs, lambda i: run([hubgeo, "export", fmt, "-o", mine, "--db", hub]))
        t_ogr, _, _ = median_of(runs, lambda i: run(["ogr2ogr", "-f", driver, theirs, peer, "peer"]),
                                before=lambda: os.path.exists(theirs) and os.remove(theirs))
        t_join, _, _ = median_of(runs, lambda i: run(["ogr2ogr", "-f", driver, joined, hub, "-sql", PEER_EXPORT_SQL,
                                                      "-nln", "organizations"]),
                                 before=lambda: os.path.exists(joined) and os.remove(joined))
        counts = [count_matches(path, pattern) for path in (mine, theirs, joined)]
        if counts != [n, n, n]:
            raise BenchError(f"export {fmt}: hubgeo wrote {counts[0]} features, ogr2ogr {counts[1]} (own table) and "
                             f"{counts[2]} (hubgeo's database), expected {n}")
        EXPORT_SIZES.append((fmt, n, os.path.getsize(mine), os.path.getsize(theirs)))
        rows.append((f"export {fmt}", f"{n:,}", t_hub, t_ogr, "ogr2ogr from its own table", rss_export))
        rows.append((f"export {fmt}, peer reading hubgeo's database", f"{n:,}", t_hub, t_join,
                     "ogr2ogr through a join", rss_export))
        for path in (mine, theirs, joined):
            os.remove(path)
    return rows


STARTUP_ROWS = []
STARTUP_BINARY = {}


def hyperfine(commands, runs, rounds=10):
    """Medians in seconds of each command (hyperfine -N: no shell; output discarded) over `runs` runs, taken
    in `rounds` alternating hyperfine runs of runs/rounds each: a shared machine's speed drifts over a run,
    and alternating puts the drift on both sides of a ratio instead of one."""
    report = os.path.join(WORK, "hyperfine.json")
    times = [[] for _ in commands]
    per_round = max(1, runs // rounds)
    for _ in range(rounds):
        subprocess.run(["hyperfine", "-N", "--warmup", "5", "--runs", str(per_round), "--export-json", report] + commands,
                       env=ENV, capture_output=True, text=True, check=True)
        with open(report) as f:
            for index, result in enumerate(json.load(f)["results"]):
                times[index] += result["times"]
    return [statistics.median(each) for each in times]


def bench_startup(args):
    """Start-up: `hubgeo --version` against a Swift hello linked the same way, and `hubgeo near` on the
    built-in data against the sqlite3 CLI running the R*Tree part of that query on the same file."""
    folder = os.path.join(WORK, "startup")
    os.makedirs(folder, exist_ok=True)
    # Linked statically when no libswiftCore.so is among the libraries it needs.
    needed = subprocess.run(["readelf", "-d", args.hubgeo], capture_output=True, text=True, check=True).stdout
    static = "libswiftCore.so" not in needed
    hello = os.path.join(folder, "hello-static" if static else "hello-dynamic")
    subprocess.run(["swiftc", "-O"] + (["-static-stdlib"] if static else []) +
                   [os.path.join(HERE, "hello", "hello.swift"), "-o", hello], check=True, cwd=folder)
    loaded = subprocess.run(["ldd", args.hubgeo], capture_output=True, text=True).stdout.splitlines()
    STARTUP_BINARY.update(static=static, size=os.path.getsize(args.hubgeo),
                          needed=re.findall(r"Shared library: \[([^\]]+)\]", needed), ldd=len(loaded))
    if subprocess.run([hello], capture_output=True, text=True).stdout != "hello\n":
        raise BenchError(f"{hello} does not print hello")

    # The built-in data, imported once into a database of its own.
    db = os.path.join(folder, "builtin.sqlite")
    lat, lon, km = 51.4, 5.4, 20
    near = [args.hubgeo, "near", str(lat), str(lon), "--km", str(km), "--db", db]
    if not os.path.exists(db):
        subprocess.run(near, env=ENV, capture_output=True, check=True)
    found = [item["id"] for item in json.loads(subprocess.run(near + ["--format", "json"], env=ENV, capture_output=True,
                                                               text=True, check=True).stdout)]
    deg = degrees_for(km, lat)
    query = ("SELECT o.stable_id, o.full_name, o.town, o.latitude, o.longitude FROM organization o WHERE o.id IN "
             f"(SELECT pkid FROM idx_organization_geom WHERE xmax >= {lon - deg} AND xmin <= {lon + deg} "
             f"AND ymax >= {lat - deg} AND ymin <= {lat + deg})")
    peer = ["sqlite3", db, query]
    candidates = {line.split("|")[0] for line in subprocess.run(peer, capture_output=True, text=True, check=True).stdout.splitlines()}
    if not found or not set(found) <= candidates:
        raise BenchError(f"near on the built-in data: hubgeo found {len(found)}, not all among sqlite3's {len(candidates)} candidates")
    # One hyperfine run per pair, so that each pair shares the machine's state; -N splits a command as a
    # POSIX shell would, without running one.
    t_version, t_hello = hyperfine([shlex.join([args.hubgeo, "--version"]), shlex.join([hello])], args.startup_runs)
    t_near, t_sqlite = hyperfine([shlex.join(near), shlex.join(peer)], args.startup_runs)
    linking = "static" if static else "dynamic"
    STARTUP_ROWS.append(("hubgeo --version", t_version, f"Swift hello, {linking} Swift runtime", t_hello))
    STARTUP_ROWS.append((f"hubgeo near 51.4 5.4 --km 20, built-in data ({len(found)} found)", t_near,
                         f"sqlite3 CLI, the R*Tree query ({len(candidates)} candidates)", t_sqlite))


def machine():
    def first(command):
        try:
            return subprocess.run(command, capture_output=True, text=True, env=ENV).stdout.strip().splitlines()[0]
        except (OSError, IndexError):
            return "?"
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        memory = int(f.readline().split()[1]) / 1024 / 1024
    osname = "?"
    if os.path.exists("/etc/os-release"):
        with open("/etc/os-release") as f:
            osname = dict(line.rstrip().split("=", 1) for line in f if "=" in line).get("PRETTY_NAME", "?").strip('"')
    return [
        f"- CPU: {cpu}, {os.cpu_count()} cores; memory {memory:.0f} GiB; {osname}, Linux {platform.release()}",
        f"- hubgeo {first([ARGS.hubgeo, '--version'])} (release build), {first(['swift', '--version'])}",
        f"- {first(['ogr2ogr', '--version'])}; spatialite CLI with SpatiaLite "
        f"{sql(':memory:', 'SELECT spatialite_version()').strip()}, SQLite {sql(':memory:', 'SELECT sqlite_version()').strip()}",
    ]


# Issue 22's targets, by the start of a measure's name: hubgeo's time at most this share of the peer's.
TARGETS = [("hubgeo --version", 1.5), ("hubgeo near 51.4 5.4 --km 20, built-in", 2.5), ("import", 0.5),
           ("re-import, unchanged", 0.2), ("export geojson, peer", None), ("export kml, peer", None),
           ("export geojson", 0.25), ("export kml", 0.35), ("hubgeo near", 0.5)]


def target_text(name, ratio):
    """'≤ 0.5 ✓' or '≤ 0.5 ✗' for a measure with a target, else empty."""
    for prefix, target in TARGETS:
        if name.startswith(prefix):
            return "" if target is None else f"≤ {target} {'met' if ratio <= target else 'missed'}"
    return ""


def seconds(value):
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def main():
    global WORK, ARGS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="200000,1000000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", default=os.path.join(ROOT, ".build", "bench"))
    parser.add_argument("--hubgeo", default=os.path.join(ROOT, ".build", "release", "hubgeo"))
    parser.add_argument("--bench", default=os.path.join(ROOT, ".build", "release", "hubgeo-bench"))
    parser.add_argument("--out", default=os.path.join(ROOT, "BENCHMARKS.md"))
    parser.add_argument("--sections", default="startup,core,server,clusters",
                        help="startup (hubgeo --version and near on the built-in data), core (import, queries, exports), "
                             "server (hubgeo serve vs Datasette), clusters (the map)")
    parser.add_argument("--startup-runs", type=int, default=200, help="runs of each start-up command (hyperfine)")
    parser.add_argument("--clients", type=int, default=16, help="concurrent wrk connections for the server section")
    parser.add_argument("--seconds", type=int, default=10, help="seconds of load per server")
    parser.add_argument("--cluster-bench", default=os.path.join(ROOT, ".build", "release", "hubgeo-cluster-bench"))
    parser.add_argument("--map-sizes", default="10000,50000,100000,200000", help="hubgeo map pages opened in Chromium")
    parser.add_argument("--browser-deadline", type=int, default=120, help="seconds a page may take in Chromium")
    ARGS = args = parser.parse_args()
    WORK = args.work
    os.makedirs(WORK, exist_ok=True)
    args.sections = set(args.sections.split(","))
    needed = ("/usr/bin/time",) + (("ogr2ogr", "spatialite") if "core" in args.sections else ()) + (
        ("hyperfine", "swiftc", "sqlite3", "readelf", "ldd") if "startup" in args.sections else ()) + (
        ("wrk",) if args.sections & {"server", "clusters"} else ()) + (("chromium", "chromedriver") if "clusters" in args.sections else ())
    for tool in needed:
        if not shutil.which(tool):
            raise BenchError(f"{tool} is missing (make bench installs gdal-bin, spatialite-bin, sqlite3, hyperfine, binutils, time, "
                             "wrk, chromium and chromium-driver)")
    sizes = [int(size) for size in args.sizes.replace(" ", ",").split(",") if size]
    args.size_list = sizes
    args.map_size_list = [int(size) for size in args.map_sizes.split(",") if size]
    if "startup" in args.sections:
        print("bench: start-up ...", file=sys.stderr, flush=True)
        bench_startup(args)
    rows = []
    for n in sizes if args.sections & {"core", "server", "clusters"} else []:
        print(f"bench: {n:,} organizations ...", file=sys.stderr, flush=True)
        rows += bench_size(n, args)
    when = (f"Written by `make bench` (Benchmarks/run.py) on {time.strftime('%Y-%m-%d')}: sizes {', '.join(f'{n:,}' for n in sizes)}, "
            f"median of {args.runs} runs (end-to-end queries after one run not counted, for each side), seed {args.seed}.")
    about_machine = "\n".join(machine())
    sections = {}
    if "startup" in args.sections:
        binary = STARTUP_BINARY
        lines = ["| measure | hubgeo | peer | peer time | hubgeo ÷ peer | target |", "|---|---:|---|---:|---:|---:|"]
        for name, mine, peer, theirs in STARTUP_ROWS:
            lines.append(f"| {name} | {seconds(mine)} | {peer} | {seconds(theirs)} | {mine / theirs:.2f} | {target_text(name, mine / theirs)} |")
        sections["startup"] = (
            f"Written by `make bench` (Benchmarks/run.py) on {time.strftime('%Y-%m-%d')}: median of {args.startup_runs} runs "
            f"(hyperfine -N, in 10 rounds that alternate the two sides, 5 warm-up runs each).\n\n" + about_machine + "\n\n"
            f"Start-up, end to end, on the data built into hubgeo (131 organizations, imported once). The binary measured: "
            f"{'the Swift runtime linked in (--static-swift-stdlib)' if binary['static'] else 'the Swift runtime as shared libraries'}, "
            f"{binary['size'] / 1e6:.0f} MB, {len(binary['needed'])} libraries needed ({', '.join(binary['needed'])}), "
            f"{binary['ldd']} loaded at start (ldd). The hello is `print(\"hello\")` built with `swiftc -O`"
            f"{' -static-stdlib' if binary['static'] else ''}; the sqlite3 CLI runs the R*Tree part of the same `near` "
            "(the box around the circle, the organizations' columns), without the exact distances.\n\n" + "\n".join(lines))
    if "core" in args.sections:
        header = "| measure | organizations | hubgeo | peer | peer time | hubgeo ÷ peer | target | hubgeo peak RSS |"
        lines = [header, "|---|---:|---:|---|---:|---:|---:|---:|"]
        for name, n, mine, theirs, peer, rss in rows:
            ratio = mine / theirs if theirs else float("nan")
            ratio_text = f"{ratio:.2f}" if ratio >= 0.01 else f"1/{1 / ratio:,.0f}"
            lines.append(f"| {name} | {n} | {seconds(mine)} | {peer} | {seconds(theirs)} | {ratio_text} | "
                         f"{target_text(name, ratio)} | {'' if rss is None else f'{rss:.0f} MiB'} |")
        sizes_text = "; ".join(f"{fmt} at {n:,}: hubgeo {mine / 1e6:.1f} MB, ogr2ogr {theirs / 1e6:.1f} MB"
                               for fmt, n, mine, theirs in EXPORT_SIZES)
        sections["core"] = (
            when + " (The full scans at 1,000,000: one run.)\n"
            "Ratios below 1 mean hubgeo takes less time. The peer of imports and exports is a GDAL user's: ogr2ogr\n"
            "imports the same organizations from a GeoJSON file with the same properties into GDAL's own SpatiaLite\n"
            "table (`ogr2ogr -f SQLite -dsco SPATIALITE=YES`), and exports GeoJSON and KML from that table; the rows\n"
            "\"peer reading hubgeo's database\" have ogr2ogr read hubgeo's tables through a join instead (a remark per\n"
            "organization), for comparison only. In-process rows time the query alone (the indexed `OrganizationStore`\n"
            "query against the fastest full scan of the same database: one SELECT of id, latitude and longitude, a\n"
            "haversine test in Swift, exact distances for the survivors); end-to-end rows time a process from start\n"
            "to exit. Every pair was checked to return the same organizations (queries) or the same number (imports,\n"
            f"exports). Export sizes: {sizes_text}.\n\n" + about_machine + "\n\n" + "\n".join(lines))
    if "server" in args.sections:
        server_lines = ["| server | organizations | features per answer | requests/s | p50 | p99 | requests | errors |",
                        "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for name, n, found, rate, p50, p99, requests, errors in SERVER_ROWS:
            server_lines.append(f"| {name} | {n:,} | {found:,} | {rate:,.0f} | {seconds(p50)} | {seconds(p99)} | {requests:,} | {errors} |")
        ratios = [f"{a[3] / b[3]:.1f}× at {a[1]:,}" for a, b in zip(SERVER_ROWS[0::2], SERVER_ROWS[1::2])]
        sections["server"] = (
            when + "\n\n" + about_machine + "\n\n"
            f"Server under load: wrk, {args.clients} connections for {args.seconds} s each, on loopback, against\n"
            "`/api/near?lat=..&lon=..&km=20` around the first generated organization, and Datasette's JSON API running the\n"
            "equivalent SQL on the same file (same organizations in the same order, checked before the load).\n"
            f"hubgeo's throughput over Datasette's: {', '.join(ratios)}.\n\n" + "\n".join(server_lines))
    if "clusters" in args.sections and CLUSTER_ROWS:
        n = max(sizes)
        lines = [when + "\n\n" + about_machine + "\n",
                 f"The map at {n:,} organizations. The cluster index from the same points as the import, in a process of its own",
                 "(hubgeo-cluster-bench; peak RSS by GNU time); `hubgeo serve`'s start until it answers.\n",
                 "| measure | organizations | time | peak RSS | reference |", "|---|---:|---:|---:|---|"]
        for name, count, value, rss, reference in CLUSTER_ROWS:
            lines.append(f"| {name} | {count:,} | {seconds(value)} | {'' if rss is None else f'{rss:.0f} MiB'} | {reference or ''} |")
        lines += ["", f"`/api/clusters` under wrk, {args.clients} connections for {args.seconds} s, over 400 views of a 1280 × 800 page",
                  "(100 each of world at zoom 1, continent at 4, country at 7, city at 12, centred on random organizations; items per",
                  "answer: median per kind), with and without `Accept-Encoding: gzip`; and the one request datasette-cluster-map",
                  "makes for its map (the first rows of the table, whatever the view) under the same load on the same file.\n",
                  "| server | organizations | items per answer | requests/s | p50 | p99 | requests | errors |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for name, count, found, rate, p50, p99, requests, errors in CLUSTER_WRK_ROWS:
            if requests == 0:  # not one answer within the run (wrk has no latency to show)
                lines.append(f"| {name} | {count:,} | {found} | 0 | none in {args.seconds} s | | 0 | {errors} |")
            else:
                lines.append(f"| {name} | {count:,} | {found} | {rate:,.0f} | {seconds(p50)} | {seconds(p99)} | {requests:,} | {errors} |")
        lines += ["", "The pages in headless Chromium (1280 × 800, no tiles): from navigation to the view drawn.\n",
                  "| page | organizations | time | what was shown |", "|---|---:|---:|---|"]
        for name, count, value, shown in BROWSER_ROWS:
            lines.append(f"| {name} | {count:,} | {'' if value is None else seconds(value)} | {shown} |")
        lines += ["", "`hubgeo map` pages (all organizations inlined, clustered in the browser by Leaflet.markercluster): size,",
                  "time to write, and the time Chromium takes from navigation until every marker is in the cluster group.\n",
                  "| organizations | page | hubgeo map | its peak RSS | Chromium: every marker clustered |", "|---:|---:|---:|---:|---:|"]
        for size, page_bytes, write_seconds, rss, opened in MAP_PAGE_ROWS:
            shown = (seconds(opened["ms"] / 1000) if opened.get("ms") else
                     f"not done after {args.browser_deadline} s ({opened.get('loaded', 0):,} markers)" if "error" not in opened else opened["error"][:80])
            lines.append(f"| {size:,} | {page_bytes / 1e6:.1f} MB | {seconds(write_seconds)} | {rss:.0f} MiB | {shown} |")
        sections["clusters"] = "\n".join(lines)
    print("\n\n".join(sections.values()))
    write_sections(args.out, sections)
    print(f"bench: wrote {args.out}", file=sys.stderr)


SECTION_ORDER = ["startup", "core", "server", "clusters"]


def write_sections(path, sections):
    """Replaces the tables of the sections run between their markers in `path`, keeping the others."""
    text = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
    for name in SECTION_ORDER:
        if name not in sections:
            continue
        block = f"<!-- bench:{name} -->\n{sections[name]}\n<!-- /bench:{name} -->"
        pattern = re.compile(rf"<!-- bench:{name} -->.*?<!-- /bench:{name} -->", re.S)
        if pattern.search(text):
            text = pattern.sub(lambda _: block, text)
        else:
            following = [f"<!-- bench:{later} -->" for later in SECTION_ORDER[SECTION_ORDER.index(name) + 1:] if f"<!-- bench:{later} -->" in text]
            at = text.index(following[0]) if following else len(text)
            text = text[:at].rstrip("\n") + "\n\n" + block + "\n" + ("\n" + text[at:] if following else "")
    with open(path, "w") as f:
        f.write(text.rstrip("\n") + "\n")


if __name__ == "__main__":
    try:
        main()
    except BenchError as error:
        print(f"bench: FAILED: {error}", file=sys.stderr)
        sys.exit(1)
