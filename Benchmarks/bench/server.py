"""`hubgeo serve` against Datasette under the same wrk load on the same file, and what the cluster
section shares with it: starting either server."""
import os
import subprocess
import sys
import time
import urllib.parse

from .common import ENV, BenchError, degrees_for, fetch_json, free_port, stop, terminate, wait_for, wrk


def datasette_binary(work):
    """Datasette with pysqlite3 and datasette-cluster-map, in a virtual environment in the work folder."""
    venv = os.path.join(work, "datasette-venv")
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


def start_serve(args, hub, port, log_name):
    """hubgeo serve on the file; the seconds until it listens (what a user waits for at start)."""
    log = open(os.path.join(args.work, log_name), "w")
    start = time.perf_counter()
    server = subprocess.Popen([args.hubgeo, "serve", "--db", hub, "--port", str(port)], env=ENV,
                              stdout=subprocess.DEVNULL, stderr=log)
    wait_for(f"http://127.0.0.1:{port}/api/stats", server, seconds=300)
    return server, log, time.perf_counter() - start


def bench_server(n, args, prepared):
    """hubgeo serve and Datasette, one after the other, under the same wrk load on the prepared file: rows of
    (server, organizations, features per answer, requests/s, p50, p99, requests, errors)."""
    hub, lat, lon = prepared.hub, prepared.lat, prepared.lon
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
    log = open(os.path.join(args.work, f"serve-{n}.log"), "w")
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
        stop(server, log)
    port = free_port()
    log = open(os.path.join(args.work, f"datasette-{n}.log"), "w")
    peer = subprocess.Popen([datasette_binary(args.work), "serve", hub, "--port", str(port), "--load-extension", "spatialite",
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
        terminate(peer, log)
    for row in rows:
        if row[-1]:
            raise BenchError(f"{row[0]}: {row[-1]} errors under load")
    return rows
