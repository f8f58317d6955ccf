"""Import, queries and exports at one size against ogr2ogr and the spatialite CLI, and the prepared
data (generated files and an imported database) that the server and cluster sections share."""
import json
import os
import re
import shutil
import subprocess
from collections import namedtuple

from .common import BenchError, count_matches, data_folder, degrees_for, generate, median_of, remove_db, run, sql

# The second, join-reading export peer: ogr2ogr writes the same properties as `hubgeo export` (id, name,
# nickName, type, town, website, wikipedia, the English remark and its language, fotobondNumber, memberCount
# of clubs) from hubgeo's database, in one statement, in table order. It evaluates the remark join on every
# row, which a GDAL user with GDAL's own table would not: the headline peer exports from that table.
PEER_EXPORT_SQL = (
    "SELECT o.stable_id AS id, o.full_name AS name, o.nick_name AS nickName, o.type AS type, o.town AS town, "
    "o.website AS website, o.wikipedia AS wikipedia, r.value AS remark, r.language AS remarkLanguage, "
    "o.fotobond_number AS fotobondNumber, CASE WHEN o.type = 'club' THEN o.member_count END AS memberCount, o.geom AS geom "
    "FROM organization o LEFT JOIN organization_remark r ON r.organization_id = o.id AND upper(r.language) = 'EN'")

# A database of one size ready for the server and cluster sections: its path, the first generated
# organization's latitude and longitude, and the (seconds, peak RSS in MiB) of the import that made it,
# or None when it was there already.
Prepared = namedtuple("Prepared", "hub lat lon imported")

# The measures of one size and shape: rows of the core table (name, organizations, hubgeo's seconds, the peer's
# seconds, the peer, hubgeo's peak RSS in MiB or None), the exports' sizes (format, organizations, shape, hubgeo's
# bytes, ogr2ogr's bytes from its own table) and the databases' (organizations, shape, hubgeo's bytes, GDAL's bytes).
Core = namedtuple("Core", "rows export_sizes database_sizes")


def first_point(geojson):
    """The first generated organization's latitude and longitude (one feature per line)."""
    with open(geojson) as f:
        f.readline()
        first = json.loads(f.readline().rstrip().rstrip(","))
    lon, lat = first["geometry"]["coordinates"]
    return lat, lon


def prepared(n, args):
    """The generated files and an imported database of size n (generated and imported when missing)."""
    folder = data_folder(args.work, n)
    level1 = os.path.join(folder, "bench.level1.json")
    geojson = os.path.join(folder, "bench.geojson")
    if not os.path.exists(geojson):
        generate(n, args.seed, folder)
    hub = os.path.join(folder, "hub.sqlite")
    imported = None
    if not os.path.exists(hub) or int(sql(hub, "SELECT count(*) FROM organization").strip() or 0) != n:
        remove_db(hub)
        imported = run([args.hubgeo, "import", level1, "--db", hub], args.work)[:2]
    lat, lon = first_point(geojson)
    return Prepared(hub, lat, lon, imported)


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


def file_size(db):
    """A database's size in bytes, with its -wal."""
    return sum(os.path.getsize(db + suffix) for suffix in ("", "-wal") if os.path.exists(db + suffix))


def bench_core(n, args, shape="clustered"):
    """Imports, re-imports, queries (in process and end to end; the clustered shape only) and exports at size n
    of data of `shape` (generate.py --shape): a Core. Every row of a shape other than the default names it."""
    work = args.work
    folder = data_folder(work, n, shape)
    level1 = os.path.join(folder, "bench.level1.json")
    geojson = os.path.join(folder, "bench.geojson")
    tag = "" if shape == "clustered" else f" ({shape})"
    if not os.path.exists(geojson):
        generate(n, args.seed, folder, shape)
    hub = os.path.join(folder, "hub.sqlite")
    peer = os.path.join(folder, "peer.sqlite")
    hubgeo, bench = args.hubgeo, args.bench
    runs = args.runs
    rows = []

    # Import.
    t_hub, rss_import, _ = median_of(runs, lambda i: run([hubgeo, "import", level1, "--db", hub], work),
                                     before=lambda: remove_db(hub))
    t_ogr, _, _ = median_of(runs, lambda i: run(["ogr2ogr", "-f", "SQLite", "-dsco", "SPATIALITE=YES", "-nln", "peer", peer, geojson],
                                                work),
                            before=lambda: remove_db(peer))
    hub_count = int(sql(hub, "SELECT count(*) FROM organization").strip())
    peer_count = int(sql(peer, "SELECT count(*) FROM peer").strip())
    if hub_count != n or peer_count != n:
        raise BenchError(f"import counts differ: hubgeo {hub_count}, ogr2ogr {peer_count}, expected {n}")
    rows.append((f"import{tag}", f"{n:,}", t_hub, t_ogr, "ogr2ogr", rss_import))
    database_sizes = [(n, shape, file_size(hub), file_size(peer))]

    # Re-imports into the database just made: the same data (nothing to write), then the data with 1 %
    # of the organizations changed (each run starts from a copy of the unchanged database). Both are
    # timed against ogr2ogr's import, the work a user would otherwise redo.
    t_same, rss_same, out_same = median_of(runs, lambda i: run([hubgeo, "import", level1, "--db", hub], work,
                                                               stdout=subprocess.PIPE))
    if f"{n:,} unchanged".replace(",", "") not in out_same.replace(",", ""):
        raise BenchError(f"the re-import of unchanged data changed something:\n{out_same[-500:]}")
    rows.append((f"re-import, unchanged{tag}", f"{n:,}", t_same, t_ogr, "ogr2ogr import", rss_same))
    changed_level1 = os.path.join(folder, "bench-changed.level1.json")
    changed = write_changed_copy(level1, changed_level1, every=100)
    pristine = os.path.join(folder, "hub-pristine.sqlite")
    shutil.copyfile(hub, pristine)
    t_changed, rss_changed, out_changed = median_of(
        runs, lambda i: run([hubgeo, "import", changed_level1, "--db", hub], work, stdout=subprocess.PIPE),
        before=lambda: (remove_db(hub), shutil.copyfile(pristine, hub)))
    if f"{changed} changed" not in out_changed.replace(",", ""):
        raise BenchError(f"the re-import with {changed} changed organizations reported otherwise:\n{out_changed[-500:]}")
    rows.append((f"re-import, 1 % changed{tag}", f"{n:,}", t_changed, t_ogr, "ogr2ogr import", rss_changed))
    remove_db(hub)
    shutil.copyfile(pristine, hub)
    os.remove(pristine)

    if shape == "clustered":
        rows += query_rows(n, args, hub, geojson)
    rows_exports, export_sizes = export_rows(n, args, folder, hub, peer, shape, tag)
    return Core(rows + rows_exports, export_sizes, database_sizes)


def query_rows(n, args, hub, geojson):
    """near and bbox, in process and end to end, around the first generated organization."""
    work, hubgeo, bench, runs = args.work, args.hubgeo, args.bench, args.runs
    scan_runs = args.runs if n < 1_000_000 else 1  # a full scan of a million rows takes most of a minute
    rows = []
    # Queries around the first generated organization (in a cluster) and a box around it.
    lat, lon = first_point(geojson)
    for km in (20, 200):
        report = json.loads(run([bench, "near", hub, str(lat), str(lon), str(km), str(runs), str(scan_runs)], work,
                                stdout=subprocess.PIPE)[2])
        if not report["same"]:
            raise BenchError(f"near {km} km: the indexed query found {report['count']}, the scan {report['scanCount']}")
        rows.append((f"near {km} km in process ({report['count']:,} found)", f"{n:,}", report["indexMs"] / 1000,
                     report["scanMs"] / 1000, "fastest full scan", None))
        t_cli, rss_near, out = median_of(runs, lambda i: run(
            [hubgeo, "near", str(lat), str(lon), "--km", str(km), "--format", "json", "--db", hub], work, stdout=subprocess.PIPE),
            warmup=1)
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
        t_sl, _, out = median_of(runs, lambda i: run(["spatialite", "-silent", hub, query], work, stdout=subprocess.PIPE),
                                 warmup=1)
        if sorted(out.split()) != hub_ids:
            raise BenchError(f"near {km} km: hubgeo found {len(hub_ids)}, spatialite {len(out.split())}")
        rows.append((f"hubgeo near {km} km, end to end", f"{n:,}", t_cli, t_sl, "spatialite CLI", rss_near))

    south, north, west, east = lat - 1, lat + 1, lon - 1.5, lon + 1.5
    report = json.loads(run([bench, "bbox", hub, str(south), str(west), str(north), str(east), str(runs), str(runs)], work,
                            stdout=subprocess.PIPE)[2])
    if not report["same"]:
        raise BenchError(f"bbox: the indexed query found {report['count']}, the scan {report['scanCount']}")
    rows.append((f"bbox 2°×3° in process ({report['count']:,} found)", f"{n:,}", report["indexMs"] / 1000,
                 report["scanMs"] / 1000, "full scan", None))
    t_cli, rss_bbox, out = median_of(runs, lambda i: run(
        [hubgeo, "bbox", str(south), str(west), str(north), str(east), "--format", "json", "--db", hub], work,
        stdout=subprocess.PIPE), warmup=1)
    hub_ids = sorted(item["id"] for item in json.loads(out))
    query = (f"SELECT stable_id FROM organization WHERE ROWID IN (SELECT ROWID FROM SpatialIndex WHERE "
             f"f_table_name = 'organization' AND search_frame = BuildMbr({west}, {south}, {east}, {north})) "
             f"AND latitude BETWEEN {south} AND {north} AND longitude BETWEEN {west} AND {east}")
    t_sl, _, out = median_of(runs, lambda i: run(["spatialite", "-silent", hub, query], work, stdout=subprocess.PIPE), warmup=1)
    if sorted(out.split()) != hub_ids:
        raise BenchError(f"bbox: hubgeo found {len(hub_ids)}, spatialite {len(out.split())}")
    rows.append(("hubgeo bbox, end to end", f"{n:,}", t_cli, t_sl, "spatialite CLI", rss_bbox))
    return rows


def export_rows(n, args, folder, hub, peer, shape, tag):
    """Exports of everything, GeoJSON and KML, against ogr2ogr: (rows, export sizes)."""
    work, hubgeo, runs = args.work, args.hubgeo, args.runs
    rows, export_sizes = [], []
    # Exports of everything. The headline peer is a GDAL user's: ogr2ogr from GDAL's own table (the
    # import above: one table with the properties inline), the same organizations and properties.
    # A second row has ogr2ogr read hubgeo's database through a join (PEER_EXPORT_SQL), for what it is.
    for fmt, driver, pattern in (("geojson", "GeoJSON", r'"type"\s*:\s*"Feature"'), ("kml", "KML", r"<Placemark")):
        mine = os.path.join(folder, f"hub.{fmt}")
        theirs = os.path.join(folder, f"ogr.{fmt}")
        joined = os.path.join(folder, f"ogr-join.{fmt}")
        t_hub, rss_export, _ = median_of(runs, lambda i: run([hubgeo, "export", fmt, "-o", mine, "--db", hub], work))
        t_ogr, _, _ = median_of(runs, lambda i: run(["ogr2ogr", "-f", driver, theirs, peer, "peer"], work),
                                before=lambda: os.path.exists(theirs) and os.remove(theirs))
        t_join, _, _ = median_of(runs, lambda i: run(["ogr2ogr", "-f", driver, joined, hub, "-sql", PEER_EXPORT_SQL,
                                                      "-nln", "organizations"], work),
                                 before=lambda: os.path.exists(joined) and os.remove(joined))
        counts = [count_matches(path, pattern) for path in (mine, theirs, joined)]
        if counts != [n, n, n]:
            raise BenchError(f"export {fmt}: hubgeo wrote {counts[0]} features, ogr2ogr {counts[1]} (own table) and "
                             f"{counts[2]} (hubgeo's database), expected {n}")
        export_sizes.append((fmt, n, shape, os.path.getsize(mine), os.path.getsize(theirs)))
        rows.append((f"export {fmt}{tag}", f"{n:,}", t_hub, t_ogr, "ogr2ogr from its own table", rss_export))
        rows.append((f"export {fmt}, peer reading hubgeo's database{tag}", f"{n:,}", t_hub, t_join,
                     "ogr2ogr through a join", rss_export))
        for path in (mine, theirs, joined):
            os.remove(path)
    return rows, export_sizes
