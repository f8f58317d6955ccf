#!/usr/bin/env python3
"""Fetches the OGC KML 2.2 schema files that the export tests validate against.

They ship in the PyPI package fastkml (directory fastkml/schema/). The package is fetched with
pip at a pinned version, each schema file is checked against its known SHA-256, and the files
are written to DIR. Nothing is fetched when DIR already holds the checked files.

Usage: fetch-kml-schema.py DIR
"""
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile

PACKAGE = "fastkml==1.4.0"
FILES = {
    "ogckml22.xsd": "705e9b9175e3336e496998d284608d9af83882012984d856ef9203d7697d512e",
    "atom-author-link.xsd": "62bb577edde174cfcc68c7edfdab04f49c455d194d83e2dfa9649605126fa884",
    "xAL.xsd": "ebe19f9436856624905fa3cb67d5306790d73a0f46d64ee0d0dbfe5f547d6bfb",
    "kml22gx.xsd": "71cdf090ec7af81fed1e0e5cc34203730a470809c3ca6f042a2e6df00b928d0b",
}


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def complete(directory):
    for name, digest in FILES.items():
        path = os.path.join(directory, name)
        if not os.path.exists(path):
            return False
        with open(path, "rb") as handle:
            if sha256(handle.read()) != digest:
                return False
    return True


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    directory = sys.argv[1]
    if complete(directory):
        return
    os.makedirs(directory, exist_ok=True)
    with tempfile.TemporaryDirectory() as download:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:",
                        "--dest", download, PACKAGE], check=True)
        wheels = [name for name in os.listdir(download) if name.endswith(".whl")]
        if len(wheels) != 1:
            sys.exit(f"expected one wheel of {PACKAGE}, found {wheels}")
        with zipfile.ZipFile(os.path.join(download, wheels[0])) as wheel:
            for name, digest in FILES.items():
                data = wheel.read(f"fastkml/schema/{name}")
                if sha256(data) != digest:
                    sys.exit(f"{name} in {wheels[0]} does not have the expected SHA-256")
                with open(os.path.join(directory, name), "wb") as handle:
                    handle.write(data)
    print(f"KML 2.2 schema from {PACKAGE} in {directory}")


if __name__ == "__main__":
    main()
