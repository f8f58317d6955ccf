"""The rules of go-pmtiles' `pmtiles verify` (pmtiles/verify.go), for the tests (Go is not
installed where they run): every check it makes of a PMTiles v3 archive, on the `pmtiles`
package's header and directory readers.

    pmtiles_verify.py FILE   prints "ok" and exits 0, or prints each broken rule and exits 1

The rules: the root directory, metadata, leaf directory and tile data offsets are not 0; no
section is longer than the file; the file is as long as the header says (sections back to back,
or the root padded to 16,384 bytes); the addressed tiles, tile entries and distinct tile contents
are those the header counts; every entry lies inside the tile data, in order when the archive
says it is clustered; the header's minimum and maximum zooms are those of the first and last
tile; the centre zoom lies within them; the bounds have an area (west < east, south < north in
the header's 1e-7 degrees).
"""
import os
import sys

from pmtiles.tile import Compression, deserialize_directory, deserialize_header, tileid_to_zxy


def verify(path):
    problems = []
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        data = f.read()
    header = deserialize_header(data[:127])
    for name in ["root", "metadata", "leaf_directory", "tile_data"]:
        if header[name + "_offset"] == 0:
            problems.append(f"{name} offset must not be 0")
        if header[name + "_length"] > size:
            problems.append(f"{name} offset={header[name + '_offset']} length={header[name + '_length']} out of bounds")
    sections = header["metadata_length"] + header["leaf_directory_length"] + header["tile_data_length"]
    if size not in (127 + header["root_length"] + sections, 16384 + sections):
        problems.append(f"total length of archive {size} does not match the header")

    def directory(offset, length):
        # The package's reader takes gzip-compressed directories only (hubgeo writes those).
        if header["internal_compression"] != Compression.GZIP:
            problems.append(f"internal compression {header['internal_compression']} is not gzip")
            return []
        return deserialize_directory(data[offset:offset + length])

    addressed = entries = 0
    offsets = set()
    current = 0
    tile_ids = []

    def collect(offset, length):
        nonlocal addressed, entries, current
        for entry in directory(offset, length):
            if entry.run_length == 0:
                collect(header["leaf_directory_offset"] + entry.offset, entry.length)
                continue
            new = entry.offset not in offsets
            offsets.add(entry.offset)
            addressed += entry.run_length
            entries += 1
            tile_ids.append(entry.tile_id)
            if entry.offset + entry.length > header["tile_data_length"]:
                problems.append(f"entry {entry.tile_id} outside of the tile data section")
            if header["clustered"] and new:
                if entry.offset != current:
                    problems.append(f"out-of-order entry {entry.tile_id} in a clustered archive")
                current += entry.length

    collect(header["root_offset"], header["root_length"])
    if addressed != header["addressed_tiles_count"]:
        problems.append(f"header addressed_tiles_count={header['addressed_tiles_count']} but {addressed} tiles addressed")
    if entries != header["tile_entries_count"]:
        problems.append(f"header tile_entries_count={header['tile_entries_count']} but {entries} tile entries")
    if len(offsets) != header["tile_contents_count"]:
        problems.append(f"header tile_contents_count={header['tile_contents_count']} but {len(offsets)} tile contents")
    if tile_ids:
        if tileid_to_zxy(min(tile_ids))[0] != header["min_zoom"]:
            problems.append(f"header min_zoom={header['min_zoom']} does not match the first tile's zoom")
        if tileid_to_zxy(max(tile_ids))[0] != header["max_zoom"]:
            problems.append(f"header max_zoom={header['max_zoom']} does not match the last tile's zoom")
    if not header["min_zoom"] <= header["center_zoom"] <= header["max_zoom"]:
        problems.append(f"header center_zoom={header['center_zoom']} not within min_zoom/max_zoom")
    if header["min_lon_e7"] >= header["max_lon_e7"] or header["min_lat_e7"] >= header["max_lat_e7"]:
        problems.append("bounds has area <= 0: clients may not display tiles correctly")
    return problems


def main():
    problems = verify(sys.argv[1])
    for problem in problems:
        print(problem)
    if not problems:
        print("ok")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
