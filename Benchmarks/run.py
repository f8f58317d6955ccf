#!/usr/bin/env python3
"""make bench: hubgeo side by side with ogr2ogr and the sqlite3 and spatialite CLIs, as medians and ratios.

  startup  `hubgeo --version` vs a Swift hello (Benchmarks/hello) built with the same Swift runtime linking
           (static or shared, read off the binary), and `hubgeo near 51.4 5.4 --km 20` on the built-in data vs
           the sqlite3 CLI running the R*Tree part of that query on the same file (hyperfine -N, medians)
For each size N (synthetic data from generate.py, seeded; the imports and exports on each of --shapes, the
default shape `clustered`, `towns` and `scattered`, the rest on the default shape), on the release build:
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
  tiles    vector tiles at each size: `hubgeo tiles -o hub.pmtiles` vs tippecanoe on the exported GeoJSON at
           the same zooms (bench/tiles.py): time, peak RSS, archive size; at the largest size `hubgeo serve`'s
           /tiles/{z}/{x}/{y}.mvt under wrk over world, continent, country and city tiles
Each measure runs --runs times (the full scans fewer at 1M); the median counts. Every pair must
agree (same organizations for the queries, same count for imports and exports), else it fails.
Writes the tables to stdout and to BENCHMARKS.md (--out) with a description of the machine; a run of some
sections replaces only their tables there (each sits between `<!-- bench:NAME -->` markers).

This is the driver: each section is a module of bench/ (startup, core, server, clusters) whose function
takes its inputs and returns its rows; bench/tables.py turns the rows into the tables.
"""
import argparse
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # bench/ and generate.py

from bench import tables  # noqa: E402
from bench.clusters import bench_clusters  # noqa: E402
from bench.common import ROOT, SHAPES, BenchError  # noqa: E402
from bench.core import bench_core, prepared  # noqa: E402
from bench.server import bench_server  # noqa: E402
from bench.startup import bench_startup  # noqa: E402
from bench.tiles import bench_tiles, tiles_section  # noqa: E402


def parse_arguments():
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
                             "server (hubgeo serve vs Datasette), clusters (the map), tiles (vector tiles vs tippecanoe)")
    parser.add_argument("--shapes", default=",".join(SHAPES),
                        help="shapes of generated data for the core section's imports and exports (generate.py --shape: "
                             "clustered, the default, which the queries and other sections use; towns; scattered)")
    parser.add_argument("--startup-runs", type=int, default=200, help="runs of each start-up command (hyperfine)")
    parser.add_argument("--clients", type=int, default=16, help="concurrent wrk connections for the server section")
    parser.add_argument("--seconds", type=int, default=10, help="seconds of load per server")
    parser.add_argument("--cluster-bench", default=os.path.join(ROOT, ".build", "release", "hubgeo-cluster-bench"))
    parser.add_argument("--map-sizes", default="10000,50000,100000,200000", help="hubgeo map pages opened in Chromium")
    parser.add_argument("--browser-deadline", type=int, default=120, help="seconds a page may take in Chromium")
    args = parser.parse_args()
    args.sections = set(args.sections.split(","))
    args.shape_list = [shape for shape in args.shapes.split(",") if shape]
    if not set(args.shape_list) <= set(SHAPES):
        parser.error(f"--shapes: one or more of {', '.join(SHAPES)}")
    args.size_list = [int(size) for size in args.sizes.replace(" ", ",").split(",") if size]
    args.map_size_list = [int(size) for size in args.map_sizes.split(",") if size]
    return args


def check_tools(sections):
    needed = ("/usr/bin/time",) + (("ogr2ogr", "spatialite") if "core" in sections else ()) + (
        ("hyperfine", "swiftc", "sqlite3", "readelf", "ldd") if "startup" in sections else ()) + (
        ("wrk",) if sections & {"server", "clusters", "tiles"} else ()) + (("chromium", "chromedriver") if "clusters" in sections else ())
    for tool in needed:
        if not shutil.which(tool):
            raise BenchError(f"{tool} is missing (make bench installs gdal-bin, spatialite-bin, sqlite3, hyperfine, binutils, time, "
                             "wrk, chromium and chromium-driver)")


def measure(args):
    """Runs the sections asked for; each returns its rows. (startup, core rows, export sizes, server rows, clusters)."""
    sizes = args.size_list
    startup = None
    if "startup" in args.sections:
        print("bench: start-up ...", file=sys.stderr, flush=True)
        startup = bench_startup(args)
    core_rows, export_sizes, database_sizes, server_rows, clusters, tile_rows = [], [], [], [], None, []
    for n in sizes if args.sections & {"core", "server", "clusters", "tiles"} else []:
        print(f"bench: {n:,} organizations ...", file=sys.stderr, flush=True)
        for shape in args.shape_list if "core" in args.sections else []:
            print(f"bench: {n:,} organizations, {shape} ...", file=sys.stderr, flush=True)
            core = bench_core(n, args, shape)
            core_rows += core.rows
            export_sizes += core.export_sizes
            database_sizes += core.database_sizes
        with_clusters = "clusters" in args.sections and n == max(sizes)
        with_tiles = "tiles" in args.sections
        if "server" in args.sections or with_clusters or with_tiles:
            data = prepared(n, args)  # after core, which leaves the database imported: then no import here
            if "server" in args.sections:
                server_rows += bench_server(n, args, data)
            if with_clusters:
                clusters = bench_clusters(n, args, data)
            if with_tiles:
                print(f"bench: vector tiles at {n:,} ...", file=sys.stderr, flush=True)
                tile_rows += bench_tiles(n, args, data, serve=n == max(sizes))
    return startup, core_rows, (export_sizes, database_sizes), server_rows, clusters, tile_rows


def main():
    args = parse_arguments()
    os.makedirs(args.work, exist_ok=True)
    check_tools(args.sections)
    startup, core_rows, export_sizes, server_rows, clusters, tile_rows = measure(args)
    sizes = args.size_list
    today = time.strftime("%Y-%m-%d")
    when = (f"Written by `make bench` (Benchmarks/run.py) on {today}: sizes {', '.join(f'{n:,}' for n in sizes)}, "
            f"median of {args.runs} runs (end-to-end queries after one run not counted, for each side), seed {args.seed}.")
    about_machine = "\n".join(tables.machine(args.hubgeo))
    sections = {}
    if startup is not None:
        sections["startup"] = tables.startup_section(startup, args.startup_runs, today, about_machine)
    if "core" in args.sections:
        sections["core"] = tables.core_section(core_rows, *export_sizes, when, about_machine)
    if "server" in args.sections:
        sections["server"] = tables.server_section(server_rows, args.clients, args.seconds, when, about_machine)
    if clusters is not None:
        sections["clusters"] = tables.clusters_section(clusters, max(sizes), args.clients, args.seconds, args.browser_deadline,
                                                       when, about_machine)
    if tile_rows:
        sections["tiles"] = tiles_section(tile_rows, when, about_machine, args.clients, args.seconds)
    print("\n\n".join(sections.values()))
    tables.write_sections(args.out, sections)
    print(f"bench: wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    try:
        main()
    except BenchError as error:
        print(f"bench: FAILED: {error}", file=sys.stderr)
        sys.exit(1)
