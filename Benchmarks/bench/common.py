"""What the sections share: running a command under GNU time, medians, the generated data, HTTP and wrk."""
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time

BENCHMARKS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(BENCHMARKS)
ENV = dict(os.environ, HUBGEO_MAX_FILE_BYTES=str(4 << 30), XDG_DATA_HOME="/nonexistent-bench")


class BenchError(Exception):
    pass


def run(command, work, stdout=subprocess.DEVNULL, check=True):
    """Runs a command under GNU time: (wall seconds, peak RSS in MiB, stdout text or None). GNU time's
    report goes to a file in the work folder."""
    with open(os.devnull, "w") as devnull:
        rss_file = os.path.join(work, "time.out")
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


# The shapes of generated data (generate.py --shape): `clustered`, the default (settlements of a few
# organizations, uniform points, numbered names, Fotobond numbers), `towns` (towns of 20 organizations,
# names of two words and a number, longer remarks in both orders, every link on every record) and `scattered`
# (no towns: every organization a place of its own, uniformly over the globe, a tenth with long remarks).
SHAPES = ("clustered", "towns", "scattered")


def data_folder(work, count, shape="clustered"):
    """Where the generated data and databases of one size and shape live."""
    return os.path.join(work, str(count) if shape == "clustered" else f"{count}-{shape}")


def generate(count, seed, folder, shape="clustered"):
    """Synthetic data of `count` organizations in `folder` (generate.py: bench.level1.json, bench.geojson)."""
    subprocess.run([sys.executable, os.path.join(BENCHMARKS, "generate.py"), "--count", str(count), "--seed", str(seed),
                    "--shape", shape, "--out", folder], check=True)


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


def degrees_for(km, latitude):
    """A conservative MBR radius in degrees for a circle of `km` around `latitude` (as hubgeo's boxes)."""
    r = km / 6356.752
    lat_deg = math.degrees(r) * 1.01
    c = math.cos(math.radians(min(89.999, abs(latitude) + lat_deg)))
    lon_deg = 180.0 if math.sin(r) >= c else math.degrees(math.asin(math.sin(r) / c)) * 1.01
    return max(lat_deg, lon_deg)


def seconds(value):
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


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


def stop(process, log, signal_number=2):
    """Stops a server (SIGINT by default; killed after 15 s) and closes its log."""
    process.send_signal(signal_number)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()


def terminate(process, log):
    """Stops a peer server (SIGTERM; killed after 15 s) and closes its log."""
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()
