"""Start-up: `hubgeo --version` against a Swift hello linked the same way, and `hubgeo near` on the
built-in data against the sqlite3 CLI running the R*Tree part of that query on the same file."""
import json
import os
import re
import shlex
import statistics
import subprocess
from collections import namedtuple

from .common import BENCHMARKS, ENV, BenchError, degrees_for

# rows: (measure, hubgeo's seconds, the peer, the peer's seconds); binary: what the binary measured is
# (static: the Swift runtime linked in; size in bytes; needed: the libraries it names; ldd: how many load).
Startup = namedtuple("Startup", "rows binary")


def hyperfine(commands, runs, work, rounds=10):
    """Medians in seconds of each command (hyperfine -N: no shell; output discarded) over `runs` runs, taken
    in `rounds` alternating hyperfine runs of runs/rounds each: a shared machine's speed drifts over a run,
    and alternating puts the drift on both sides of a ratio instead of one."""
    report = os.path.join(work, "hyperfine.json")
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
    """The start-up measures: a Startup."""
    folder = os.path.join(args.work, "startup")
    os.makedirs(folder, exist_ok=True)
    # Linked statically when no libswiftCore.so is among the libraries it needs.
    needed = subprocess.run(["readelf", "-d", args.hubgeo], capture_output=True, text=True, check=True).stdout
    static = "libswiftCore.so" not in needed
    hello = os.path.join(folder, "hello-static" if static else "hello-dynamic")
    subprocess.run(["swiftc", "-O"] + (["-static-stdlib"] if static else []) +
                   [os.path.join(BENCHMARKS, "hello", "hello.swift"), "-o", hello], check=True, cwd=folder)
    loaded = subprocess.run(["ldd", args.hubgeo], capture_output=True, text=True).stdout.splitlines()
    binary = dict(static=static, size=os.path.getsize(args.hubgeo),
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
    t_version, t_hello = hyperfine([shlex.join([args.hubgeo, "--version"]), shlex.join([hello])], args.startup_runs, args.work)
    t_near, t_sqlite = hyperfine([shlex.join(near), shlex.join(peer)], args.startup_runs, args.work)
    linking = "static" if static else "dynamic"
    rows = [("hubgeo --version", t_version, f"Swift hello, {linking} Swift runtime", t_hello),
            (f"hubgeo near 51.4 5.4 --km 20, built-in data ({len(found)} found)", t_near,
             f"sqlite3 CLI, the R*Tree query ({len(candidates)} candidates)", t_sqlite)]
    return Startup(rows, binary)
