#!/usr/bin/env python3
"""Synthetic Photo Club Hub data for benchmarks.

Writes N organizations as one Level 1 file (`bench.level1.json`) and the same organizations as a
GeoJSON FeatureCollection (`bench.geojson`) for the peer tools, with the feature id and the
properties that `hubgeo export geojson` writes. Records are as rich as the real ones: a website, a wikipedia
link, a level2URL (clubs), a Fotobond number (some clubs), and remarks in English and Dutch
with quotes, `&` and `<`, which exports must escape. The points are spread like
real settlements: most lie in clusters (towns with several clubs) around random centres on
the land-rich latitudes, the rest uniformly over the sphere, and a few share coordinates
with an earlier organization (clubs meeting in the same building).

Usage: generate.py --count N --seed S --out DIR
"""
import argparse
import json
import math
import os
import random


def generate(count, seed):
    rng = random.Random(seed)
    centres = []
    for _ in range(max(10, count // 50)):
        latitude = math.degrees(math.asin(rng.uniform(-0.8, 0.95)))  # more land in the north
        centres.append((latitude, rng.uniform(-180, 180), rng.uniform(1, 15)))  # spread in km
    points = []
    for index in range(count):
        kind = rng.random()
        if kind < 0.05 and points:
            latitude, longitude = points[rng.randrange(len(points))]
        elif kind < 0.75:
            c_lat, c_lon, spread = centres[rng.randrange(len(centres))]
            d_lat = rng.gauss(0, spread) / 111.2
            d_lon = rng.gauss(0, spread) / (111.2 * max(0.05, math.cos(math.radians(c_lat))))
            latitude = max(-90.0, min(90.0, c_lat + d_lat))
            longitude = (c_lon + d_lon + 180) % 360 - 180
        else:
            latitude = math.degrees(math.asin(rng.uniform(-1, 1)))
            longitude = rng.uniform(-180, 180)
        points.append((round(latitude, 6), round(longitude, 6)))
    return points


def stable_id(town, full_name):
    """hubgeo's feature id: FNV-1a 64 of the town, a 0x1F separator and the full name (UTF-8)."""
    value = 0xcbf29ce484222325
    for byte in town.encode() + b"\x1f" + full_name.encode():
        value = ((value ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{value:016x}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    points = generate(args.count, args.seed)

    with open(os.path.join(args.out, "bench.level1.json"), "w", encoding="utf-8") as level1, \
            open(os.path.join(args.out, "bench.geojson"), "w", encoding="utf-8") as geojson:
        level1.write('{"level1Header": {"level1URLIncludes": []},\n "clubs": [\n')
        geojson.write('{"type": "FeatureCollection", "features": [\n')
        museums = []
        first_club = True
        for index, (latitude, longitude) in enumerate(points):
            kind = "museum" if index % 10 == 0 else "club"
            town = f"Town {index // 7}"
            name = f"Bench {kind} {index}"
            nick = f"bench{index}"
            remark_en = (f'Organization {index} of {town} meets on "Tuesdays" & shows prints <A3; '
                         f'founded in {1950 + index % 70}, with exhibitions, workshops and outings.')
            remark_nl = (f'Vereniging {index} uit {town} komt op "dinsdag" samen & toont afdrukken <A3; '
                         f'opgericht in {1950 + index % 70}, met exposities, workshops en uitjes.')
            optional = {"website": f"https://www.example.org/clubs/{nick}/",
                        "wikipedia": f"https://en.wikipedia.org/wiki/Bench_{kind}_{index}"}
            if kind == "club":
                optional["level2URL"] = f"https://www.example.org/JSON/{nick}.level2.json"
            optional["remark"] = [{"language": "EN", "value": remark_en}, {"language": "NL", "value": remark_nl}]
            fotobond = 1000 + index % 9000 if kind == "club" and index % 3 == 0 else None
            if fotobond is not None:
                optional["nlSpecific"] = {"fotobondNumber": fotobond}
            record = {
                "idPlus": {"town": town, "fullName": name, "nickName": nick},
                "coordinates": {"latitude": latitude, "longitude": longitude},
                "optional": optional,
            }
            if kind == "museum":
                museums.append(record)
            else:
                level1.write(("" if first_club else ",\n") + json.dumps(record, ensure_ascii=False))
                first_club = False
            # The properties hubgeo's GeoJSON export writes for this record, in its order.
            properties = {"name": name, "nickName": nick, "type": kind, "town": town,
                          "website": optional["website"], "wikipedia": optional["wikipedia"],
                          "remark": remark_en, "remarkLanguage": "EN"}
            if fotobond is not None:
                properties["fotobondNumber"] = fotobond
            feature = {"type": "Feature", "id": stable_id(town, name), "properties": properties,
                       "geometry": {"type": "Point", "coordinates": [longitude, latitude]}}
            geojson.write(("" if index == 0 else ",\n") + json.dumps(feature, ensure_ascii=False))
        level1.write('\n],\n "museums": [\n')
        level1.write(",\n".join(json.dumps(m, ensure_ascii=False) for m in museums))
        level1.write("\n]}\n")
        geojson.write("\n]}\n")


if __name__ == "__main__":
    main()
