"""Reads the vector tiles hubgeo writes with the readers people use, for the tests.

    vector_tiles.py pmtiles FILE   every tile of a PMTiles archive (the `pmtiles` package's reader)
    vector_tiles.py folder DIR     every z/x/y.mvt of a folder
    vector_tiles.py tile FILE      one MVT file

Prints JSON: {"header": ..., "metadata": ..., "tiles": [{"z", "x", "y", "layers": {name: [feature]}}]},
each tile decoded by mapbox-vector-tile (y down, as stored), features as
{"id", "x", "y", "properties"}.
"""
import gzip
import json
import os
import sys

import mapbox_vector_tile


def decode(data):
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    decoded = mapbox_vector_tile.decode(data, default_options={"y_coord_down": True})
    layers = {}
    for name, layer in decoded.items():
        layers[name] = [
            {"id": feature.get("id"), "x": feature["geometry"]["coordinates"][0],
             "y": feature["geometry"]["coordinates"][1], "properties": feature["properties"],
             "type": feature["geometry"]["type"], "extent": layer["extent"]}
            for feature in layer["features"]
        ]
    return layers


def main():
    kind, path = sys.argv[1], sys.argv[2]
    out = {"tiles": []}
    if kind == "pmtiles":
        from pmtiles.reader import MmapSource, Reader, all_tiles
        with open(path, "rb") as f:
            source = MmapSource(f)
            reader = Reader(source)
            header = reader.header()
            out["header"] = {k: (v.value if hasattr(v, "value") else v) for k, v in header.items()}
            out["metadata"] = reader.metadata()
            for (z, x, y), data in all_tiles(source):
                # The reader's own lookup by z/x/y must find the same bytes.
                assert reader.get(z, x, y) == data, (z, x, y)
                out["tiles"].append({"z": z, "x": x, "y": y, "layers": decode(data)})
    elif kind == "folder":
        for z in sorted(os.listdir(path)):
            if not z.isdigit():
                continue
            for x in os.listdir(os.path.join(path, z)):
                for name in os.listdir(os.path.join(path, z, x)):
                    with open(os.path.join(path, z, x, name), "rb") as f:
                        out["tiles"].append({"z": int(z), "x": int(x), "y": int(name.split(".")[0]),
                                             "layers": decode(f.read())})
    else:
        with open(path, "rb") as f:
            out["tiles"].append({"layers": decode(f.read())})
    json.dump(out, sys.stdout)


main()
