#!/usr/bin/env python3
"""Loopback HTTP server for hubgeo tests (Python 3 standard library only).

Binds 127.0.0.1 on a port chosen by the OS, prints "PORT <n>" as its first
stdout line, and exits by itself after --lifetime seconds.

Routes, first match wins:
  /__big?bytes=N[&chunked=1]  N bytes of "x" (chunked: no Content-Length)
  /__redirect?n=K             302 to /__redirect?n=K-1 ... until n=0, then 200
  --script FILE.json          {"/path" or "*": [response, ...]}; each path
                              consumes its list in order, the last repeats.
                              response: {"status": 200, "headers": {...},
                              "body": "...", "body_file": "path" (relative to
                              the script), "gzip": true, "delay": seconds,
                              "redirect_to": "URL" (302 + Location),
                              "action": "reset" | "truncate" | "hang"}
                              Rule mode, when any response of a path has
                              "when" or "times": each request takes the first
                              response whose "when" ({"param": "value"}; values
                              equal as numbers when both are numbers; "" also
                              matches an absent parameter) matches
                              its query and that was used fewer than "times"
                              times (default: unlimited); when all matching
                              ones are used up, the last matching one repeats.
                              Lets one stand-in replay many recorded samples.
  --control FILE.json         read at every request: {"/path": response} (as in
                              --script, one response); the path answers that
                              instead of its script or static file. Lets a test
                              inject a fault between two runs of a client.
  --root DIR                  static files from DIR, with validators: an ETag
                              (a hash of the content, so rewriting a file
                              changes it) and Last-Modified (the file's mtime);
                              If-None-Match (else If-Modified-Since) that still
                              matches answers 304 Not Modified, no body. One
                              Range (bytes=a-b, a-, -n) answers 206 with that
                              part (416 past the end), as static hosts do for
                              PMTiles archives.
  otherwise                   404

Every request is appended to --log FILE as one JSON line:
  {"t": monotonic seconds, "method", "path", "query", "headers" (lower-cased
   names), "client_port"} and flushed before the response is sent; static
  files add "status" (200, 304 or 404).
"""

import argparse
import email.utils
import gzip
import hashlib
import json
import mimetypes
import os
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

START = time.monotonic()


class Config:
    lifetime = 60.0
    root = None
    script = {}
    script_dir = "."
    log_path = None
    control_path = None
    static_delay = 0.0


LOCK = threading.Lock()
SCRIPT_POSITIONS = {}


def remaining_lifetime():
    return max(0.0, Config.lifetime - (time.monotonic() - START))


def param_matches(expected, actual):
    if actual is None:
        return expected == ""  # "" in "when": the parameter is absent (or empty)
    if str(expected) == actual:
        return True
    try:
        return float(expected) == float(actual)
    except (TypeError, ValueError):
        return False


def next_rule(key, responses, params):
    matching = [
        (index, spec) for index, spec in enumerate(responses)
        if all(param_matches(value, params.get(name, [None])[0]) for name, value in spec.get("when", {}).items())
    ]
    if not matching:
        return None
    with LOCK:
        for index, spec in matching:
            used = SCRIPT_POSITIONS.get((key, index), 0)
            if "times" not in spec or used < int(spec["times"]):
                SCRIPT_POSITIONS[(key, index)] = used + 1
                return spec
    return matching[-1][1]


def next_scripted(path, params=None):
    key = path if path in Config.script else ("*" if "*" in Config.script else None)
    if key is None:
        return None
    responses = Config.script[key]
    if isinstance(responses, dict):
        responses = [responses]
    if not responses:
        return None
    if any("when" in spec or "times" in spec for spec in responses):
        return next_rule(key, responses, params or {})
    with LOCK:
        index = SCRIPT_POSITIONS.get(key, 0)
        SCRIPT_POSITIONS[key] = index + 1
    return responses[min(index, len(responses) - 1)]


def control_response(path):
    if not Config.control_path or not os.path.exists(Config.control_path):
        return None
    with LOCK:
        with open(Config.control_path, encoding="utf-8") as f:
            control = json.load(f)
    return control.get(path)


def log_request(handler, path, query, status=None):
    if not Config.log_path:
        return
    entry = {
        "t": time.monotonic(),
        "method": handler.command,
        "path": path,
        "query": query,
        "headers": {name.lower(): value for name, value in handler.headers.items()},
        "client_port": handler.client_address[1],
    }
    if status is not None:
        entry["status"] = status
    with LOCK:
        with open(Config.log_path, "a", encoding="utf-8") as log:
            log.write(json.dumps(entry) + "\n")
            log.flush()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, so clients can reuse connections
    # Headers and body go out in separate writes: without TCP_NODELAY, Nagle plus the
    # client's delayed ACK adds ~40 ms to every kept-alive response.
    disable_nagle_algorithm = True
    server_version = "hubgeo-loopback"

    def version_string(self):
        return self.server_version

    def log_message(self, format, *args):  # quiet: the JSON log is the record
        pass

    def do_GET(self):
        self.dispatch()

    def do_HEAD(self):
        self.dispatch()

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.dispatch()

    # -- routing ---------------------------------------------------------

    def dispatch(self):
        parts = urlsplit(self.path)
        path, query = parts.path, parts.query
        controlled = control_response(path)
        if controlled is not None:
            log_request(self, path, query, controlled.get("status", 200) if "action" not in controlled else None)
            return self.scripted(controlled)
        if Config.root is not None and path not in Config.script and "*" not in Config.script \
                and not path.startswith("/__"):
            return self.static(path, query)
        log_request(self, path, query)
        params = parse_qs(query)
        if path == "/__big":
            return self.big(int(params.get("bytes", ["0"])[0]), params.get("chunked", ["0"])[0] == "1")
        if path == "/__redirect":
            n = int(params.get("n", ["0"])[0])
            if n > 0:
                return self.send(302, {"Location": f"/__redirect?n={n - 1}"}, b"")
            return self.send(200, {"Content-Type": "text/plain"}, b"redirected\n")
        scripted = next_scripted(path, params)
        if scripted is not None:
            return self.scripted(scripted)
        if Config.root is not None:
            return self.static(path, query)
        return self.send(404, {"Content-Type": "text/plain"}, b"not found\n")

    # -- responses -------------------------------------------------------

    def send(self, status, headers, body, content_length=None):
        self.send_response(status)
        names = {name.lower() for name in headers}
        for name, value in headers.items():
            self.send_header(name, str(value))
        if "content-length" not in names:
            self.send_header("Content-Length", str(len(body) if content_length is None else content_length))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def scripted(self, spec):
        delay = float(spec.get("delay", 0))
        if delay > 0:
            time.sleep(min(delay, remaining_lifetime()))
        action = spec.get("action")
        if action == "hang":
            time.sleep(remaining_lifetime() + 5)  # the process exits first
            return
        if action == "reset":
            return self.reset()
        headers = dict(spec.get("headers", {}))
        if "redirect_to" in spec:
            headers.setdefault("Location", spec["redirect_to"])
            status = int(spec.get("status", 302))
        else:
            status = int(spec.get("status", 200))
        if "body_file" in spec:
            with open(os.path.join(Config.script_dir, spec["body_file"]), "rb") as f:
                body = f.read()
        else:
            body = str(spec.get("body", "")).encode("utf-8")
        if spec.get("gzip"):
            body = gzip.compress(body)
            headers.setdefault("Content-Encoding", "gzip")
        if action == "truncate":
            self.close_connection = True
            self.send(status, headers, body, content_length=len(body) + 1000)
            return
        self.send(status, headers, body)

    def reset(self):
        """Closes the socket abruptly: RST, no response."""
        self.close_connection = True
        sock = self.connection
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        os.close(sock.detach())

    def big(self, count, chunked):
        block = b"x" * 65536
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(count))
        self.end_headers()
        left = count
        while left > 0:
            piece = block[: min(left, len(block))]
            left -= len(piece)
            if chunked:
                self.wfile.write(b"%x\r\n" % len(piece) + piece + b"\r\n")
            else:
                self.wfile.write(piece)
        if chunked:
            self.wfile.write(b"0\r\n\r\n")

    def static(self, path, query=""):
        if Config.static_delay > 0:
            time.sleep(min(Config.static_delay, remaining_lifetime()))
        root = os.path.realpath(Config.root)
        target = os.path.realpath(os.path.join(root, unquote(path).lstrip("/")))
        if (target != root and not target.startswith(root + os.sep)) or not os.path.isfile(target):
            log_request(self, path, query, 404)
            return self.send(404, {"Content-Type": "text/plain"}, b"not found\n")
        with open(target, "rb") as f:
            body = f.read()
        mtime = int(os.stat(target).st_mtime)
        validators = {
            "ETag": '"%s"' % hashlib.sha256(body).hexdigest()[:16],
            "Last-Modified": email.utils.formatdate(mtime, usegmt=True),
        }
        if self.not_modified(validators["ETag"], mtime):
            log_request(self, path, query, 304)
            return self.send(304, validators, b"", content_length=0)
        content_type = mimetypes.guess_type(target)[0] or "application/octet-stream"
        headers = dict(validators, **{"Content-Type": content_type, "Accept-Ranges": "bytes"})
        wanted = self.byte_range(len(body))
        if wanted == "unsatisfiable":
            log_request(self, path, query, 416)
            return self.send(416, {"Content-Range": "bytes */%d" % len(body)}, b"")
        if wanted is not None:
            first, last = wanted
            log_request(self, path, query, 206)
            return self.send(206, dict(headers, **{"Content-Range": "bytes %d-%d/%d" % (first, last, len(body))}),
                             body[first:last + 1])
        log_request(self, path, query, 200)
        self.send(200, headers, body)

    def byte_range(self, size):
        """RFC 9110 14.2: one `Range: bytes=first-last` (or `first-`, or `-suffix`) as (first, last);
        None without one (or with several ranges: the whole file); "unsatisfiable" past the end."""
        header = self.headers.get("Range")
        if not header or not header.startswith("bytes=") or "," in header:
            return None
        first, _, last = header[len("bytes="):].strip().partition("-")
        try:
            if first == "":
                start, end = max(0, size - int(last)), size - 1
            else:
                start = int(first)
                end = min(int(last), size - 1) if last else size - 1
        except ValueError:
            return None
        if start >= size or start > end:
            return "unsatisfiable"
        return start, end

    def not_modified(self, etag, mtime):
        """RFC 9110 13.2.2: If-None-Match wins; If-Modified-Since only without it."""
        if_none_match = self.headers.get("If-None-Match")
        if if_none_match is not None:
            tags = [tag.strip() for tag in if_none_match.split(",")]
            return "*" in tags or etag in tags or ("W/" + etag) in tags
        since = self.headers.get("If-Modified-Since")
        if since:
            try:
                return mtime <= email.utils.parsedate_to_datetime(since).timestamp()
            except (TypeError, ValueError):
                return False
        return False


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False

    def handle_error(self, request, client_address):
        # Clients aborting (size caps, timeouts) are expected; one quiet line.
        kind = sys.exc_info()[0]
        if kind not in (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            print(f"loopback_server: error with {client_address}: {sys.exc_info()[1]!r}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root")
    parser.add_argument("--script")
    parser.add_argument("--log")
    parser.add_argument("--control")
    parser.add_argument("--static-delay", type=float, default=0.0, help="seconds before each static answer")
    parser.add_argument("--lifetime", type=float, default=60.0)
    parser.add_argument("--exit-on-stdin-eof", action="store_true",
                        help="also exit when stdin reaches EOF (the parent died)")
    args = parser.parse_args()

    Config.lifetime = args.lifetime
    Config.root = args.root
    Config.log_path = args.log
    Config.control_path = args.control
    Config.static_delay = args.static_delay
    if args.script:
        with open(args.script, encoding="utf-8") as f:
            Config.script = json.load(f)
        Config.script_dir = os.path.dirname(os.path.abspath(args.script))

    # Exit no matter what the handler threads are doing.
    timer = threading.Timer(args.lifetime, lambda: os._exit(0))
    timer.daemon = True
    timer.start()
    if args.exit_on_stdin_eof:
        def watch():
            while sys.stdin.buffer.read(4096):
                pass
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()

    server = Server(("127.0.0.1", 0), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever(poll_interval=0.2)


if __name__ == "__main__":
    main()
