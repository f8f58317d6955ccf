"""The tables of BENCHMARKS.md: the machine's description, each section's text from its rows, and the
file's update, which replaces only the sections run (each sits between `<!-- bench:NAME -->` markers)."""
import os
import platform
import re
import subprocess

from .common import ENV, seconds, sql

SECTION_ORDER = ["startup", "core", "server", "clusters", "tiles"]

# Issue 22's targets, by the start of a measure's name: hubgeo's time at most this share of the peer's.
TARGETS = [("hubgeo --version", 1.5), ("hubgeo near 51.4 5.4 --km 20, built-in", 2.5), ("import", 0.5),
           ("re-import, unchanged", 0.2), ("export geojson, peer", None), ("export kml, peer", None),
           ("export geojson", 0.25), ("export kml", 0.35), ("hubgeo near", 0.5)]


def target_text(name, ratio):
    """'≤ 0.5 met' or '≤ 0.5 missed' for a measure with a target, else empty."""
    for prefix, target in TARGETS:
        if name.startswith(prefix):
            return "" if target is None else f"≤ {target} {'met' if ratio <= target else 'missed'}"
    return ""


def machine(hubgeo):
    """The lines describing the machine and the tools measured."""
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
        f"- hubgeo {first([hubgeo, '--version'])} (release build), {first(['swift', '--version'])}",
        f"- {first(['ogr2ogr', '--version'])}; spatialite CLI with SpatiaLite "
        f"{sql(':memory:', 'SELECT spatialite_version()').strip()}, SQLite {sql(':memory:', 'SELECT sqlite_version()').strip()}",
    ]


def startup_section(startup, startup_runs, today, about_machine):
    binary = startup.binary
    lines = ["| measure | hubgeo | peer | peer time | hubgeo ÷ peer | target |", "|---|---:|---|---:|---:|---:|"]
    for name, mine, peer, theirs in startup.rows:
        lines.append(f"| {name} | {seconds(mine)} | {peer} | {seconds(theirs)} | {mine / theirs:.2f} | {target_text(name, mine / theirs)} |")
    return (
        f"Written by `make bench` (Benchmarks/run.py) on {today}: median of {startup_runs} runs "
        f"(hyperfine -N, in 10 rounds that alternate the two sides, 5 warm-up runs each).\n\n" + about_machine + "\n\n"
        f"Start-up, end to end, on the data built into hubgeo (131 organizations, imported once). The binary measured: "
        f"{'the Swift runtime linked in (--static-swift-stdlib)' if binary['static'] else 'the Swift runtime as shared libraries'}, "
        f"{binary['size'] / 1e6:.0f} MB, {len(binary['needed'])} libraries needed ({', '.join(binary['needed'])}), "
        f"{binary['ldd']} loaded at start (ldd). The hello is `print(\"hello\")` built with `swiftc -O`"
        f"{' -static-stdlib' if binary['static'] else ''}; the sqlite3 CLI runs the R*Tree part of the same `near` "
        "(the box around the circle, the organizations' columns), without the exact distances.\n\n" + "\n".join(lines))


def core_section(rows, export_sizes, database_sizes, when, about_machine):
    header = "| measure | organizations | hubgeo | peer | peer time | hubgeo ÷ peer | target | hubgeo peak RSS |"
    lines = [header, "|---|---:|---:|---|---:|---:|---:|---:|"]
    for name, n, mine, theirs, peer, rss in rows:
        ratio = mine / theirs if theirs else float("nan")
        ratio_text = f"{ratio:.2f}" if ratio >= 0.01 else f"1/{1 / ratio:,.0f}"
        lines.append(f"| {name} | {n} | {seconds(mine)} | {peer} | {seconds(theirs)} | {ratio_text} | "
                     f"{target_text(name, ratio)} | {'' if rss is None else f'{rss:.0f} MiB'} |")
    def shape_text(shape):
        return "" if shape == "clustered" else f" ({shape})"
    sizes_text = "; ".join(f"{fmt} at {n:,}{shape_text(shape)}: hubgeo {mine / 1e6:.1f} MB, ogr2ogr {theirs / 1e6:.1f} MB"
                           for fmt, n, shape, mine, theirs in export_sizes)
    database_text = "; ".join(f"at {n:,}{shape_text(shape)}: hubgeo {mine / 1e6:.1f} MB, GDAL {theirs / 1e6:.1f} MB "
                              f"({mine / theirs:.2f}×, target ≤ 1.5 {'met' if mine <= 1.5 * theirs else 'missed'})"
                              for n, shape, mine, theirs in database_sizes)
    return (
        when + " (The full scans at 1,000,000: one run.)\n"
        "Ratios below 1 mean hubgeo takes less time. The peer of imports and exports is a GDAL user's: ogr2ogr\n"
        "imports the same organizations from a GeoJSON file with the same properties into GDAL's own SpatiaLite\n"
        "table (`ogr2ogr -f SQLite -dsco SPATIALITE=YES`), and exports GeoJSON and KML from that table; the rows\n"
        "\"peer reading hubgeo's database\" have ogr2ogr read hubgeo's tables through a join instead (a remark per\n"
        "organization), for comparison only. In-process rows time the query alone (the indexed `OrganizationStore`\n"
        "query against the fastest full scan of the same database: one SELECT of id, latitude and longitude, a\n"
        "haversine test in Swift, exact distances for the survivors); end-to-end rows time a process from start\n"
        "to exit. Every pair was checked to return the same organizations (queries) or the same number (imports,\n"
        "exports). Three shapes of generated data (Benchmarks/generate.py): rows without a shape are the default,\n"
        "`clustered` (settlements of a few organizations, a quarter scattered, numbered names, short remarks, Fotobond\n"
        "numbers); rows marked (towns) are `--shape towns` (towns of 20 organizations, names of two words and a number,\n"
        "longer remarks in English and Dutch in both orders, a website, Wikipedia link and Level 2 URL on every record,\n"
        "no Fotobond numbers); rows marked (scattered) are `--shape scattered` (no towns: every organization a place of\n"
        "its own, uniformly over the globe, a tenth with long remarks of several paragraphs, the rest short ones).\n"
        f"Export sizes: {sizes_text}.\nDatabase sizes after a new import: {database_text}.\n\n"
        + about_machine + "\n\n" + "\n".join(lines))


def server_section(rows, clients, load_seconds, when, about_machine):
    server_lines = ["| server | organizations | features per answer | requests/s | p50 | p99 | requests | errors |",
                    "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, n, found, rate, p50, p99, requests, errors in rows:
        server_lines.append(f"| {name} | {n:,} | {found:,} | {rate:,.0f} | {seconds(p50)} | {seconds(p99)} | {requests:,} | {errors} |")
    ratios = [f"{a[3] / b[3]:.1f}× at {a[1]:,}" for a, b in zip(rows[0::2], rows[1::2])]
    return (
        when + "\n\n" + about_machine + "\n\n"
        f"Server under load: wrk, {clients} connections for {load_seconds} s each, on loopback, against\n"
        "`/api/near?lat=..&lon=..&km=20` around the first generated organization, and Datasette's JSON API running the\n"
        "equivalent SQL on the same file (same organizations in the same order, checked before the load).\n"
        f"hubgeo's throughput over Datasette's: {', '.join(ratios)}.\n\n" + "\n".join(server_lines))


def clusters_section(clusters, n, clients, load_seconds, browser_deadline, when, about_machine):
    lines = [when + "\n\n" + about_machine + "\n",
             f"The map at {n:,} organizations. The cluster index from the same points as the import, in a process of its own",
             "(hubgeo-cluster-bench; peak RSS by GNU time); `hubgeo serve`'s start until it answers.\n",
             "| measure | organizations | time | peak RSS | reference |", "|---|---:|---:|---:|---|"]
    for name, count, value, rss, reference in clusters.index:
        lines.append(f"| {name} | {count:,} | {seconds(value)} | {'' if rss is None else f'{rss:.0f} MiB'} | {reference or ''} |")
    lines += ["", f"`/api/clusters` under wrk, {clients} connections for {load_seconds} s, over 400 views of a 1280 × 800 page",
              "(100 each of world at zoom 1, continent at 4, country at 7, city at 12, centred on random organizations; items per",
              "answer: median per kind), with and without `Accept-Encoding: gzip`; and the one request datasette-cluster-map",
              "makes for its map (the first rows of the table, whatever the view) under the same load on the same file.\n",
              "| server | organizations | items per answer | requests/s | p50 | p99 | requests | errors |",
              "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, count, found, rate, p50, p99, requests, errors in clusters.wrk:
        if requests == 0:  # not one answer within the run (wrk has no latency to show)
            lines.append(f"| {name} | {count:,} | {found} | 0 | none in {load_seconds} s | | 0 | {errors} |")
        else:
            lines.append(f"| {name} | {count:,} | {found} | {rate:,.0f} | {seconds(p50)} | {seconds(p99)} | {requests:,} | {errors} |")
    lines += ["", "The pages in headless Chromium (1280 × 800, no tiles): from navigation to the view drawn.\n",
              "| page | organizations | time | what was shown |", "|---|---:|---:|---|"]
    for name, count, value, shown in clusters.browser:
        lines.append(f"| {name} | {count:,} | {'' if value is None else seconds(value)} | {shown} |")
    lines += ["", "`hubgeo map` pages (all organizations inlined, clustered in the browser by Leaflet.markercluster): size,",
              "time to write, and the time Chromium takes from navigation until every marker is in the cluster group.\n",
              "| organizations | page | hubgeo map | its peak RSS | Chromium: every marker clustered |", "|---:|---:|---:|---:|---:|"]
    for size, page_bytes, write_seconds, rss, opened in clusters.map_pages:
        shown = (seconds(opened["ms"] / 1000) if opened.get("ms") else
                 f"not done after {browser_deadline} s ({opened.get('loaded', 0):,} markers)" if "error" not in opened else opened["error"][:80])
        lines.append(f"| {size:,} | {page_bytes / 1e6:.1f} MB | {seconds(write_seconds)} | {rss:.0f} MiB | {shown} |")
    return "\n".join(lines)


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
