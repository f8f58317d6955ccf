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

A second shape, `--shape towns`, is shaped as other real data is: about N/20 towns of 20
organizations each (clubs and a few museums around the town's centre, some in the same
building), town names of two made-up syllables, organization names of two words and a number,
nicknames that are not numbered, remarks in English and Dutch of varying length with quotes,
`&` and `<` (the Dutch one first in half of the records), a website, a Wikipedia link and a
Level 2 URL on every record, and no Fotobond numbers. Its records are written town by town.

A third shape, `--shape scattered`, has no towns: every organization is a place of its own (a
town name no other organization has), at a point drawn uniformly over the sphere, so no two are
near each other and nothing clusters. Names are of two words and a number; nine in ten have a
short remark in English and Dutch, one in ten long ones (about 1,000 to 2,500 bytes in each
language, paragraphs separated by line feeds, quotes, `&`, `<` and accented letters); every
record has a website and a Wikipedia link, clubs a Level 2 URL, a fifth of the clubs a Fotobond
number.

Usage: generate.py --count N --seed S --out DIR [--shape clustered|towns|scattered]
"""
import argparse
import json
import math
import os
import random


def entry(town, name, nick, kind, latitude, longitude, optional, remark_en, fotobond=None):
    """A Level 1 record, its kind, and the properties hubgeo's GeoJSON export writes for it, in its order."""
    record = {
        "idPlus": {"town": town, "fullName": name, "nickName": nick},
        "coordinates": {"latitude": latitude, "longitude": longitude},
        "optional": optional,
    }
    properties = {"name": name, "nickName": nick, "type": kind, "town": town,
                  "website": optional["website"], "wikipedia": optional["wikipedia"],
                  "remark": remark_en, "remarkLanguage": "EN"}
    if fotobond is not None:
        properties["fotobondNumber"] = fotobond
    return record, kind, properties


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


def clustered_records(count, seed):
    """The default shape: (record, kind, properties) per organization, in file order (museums are
    written after the clubs, in this order too)."""
    points = generate(count, seed)
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
        yield entry(town, name, nick, kind, latitude, longitude, optional, remark_en, fotobond)


TOWN_HEADS = ["Aar", "Bek", "Berg", "Bos", "Brug", "Dal", "Dorn", "Eik", "Els", "Gel", "Graf", "Ham", "Heer", "Hoog",
              "Hout", "Kap", "Kerk", "Klei", "Kroon", "Lan", "Leeu", "Lin", "Maas", "Meer", "Mol", "Neer", "Nieu", "Olde",
              "Oost", "Ooster", "Putt", "Raam", "Ros", "Sant", "Schoon", "Sluis", "Spijk", "Steen", "Stroe", "Ter", "Uit",
              "Val", "Veen", "Vel", "Vlie", "Vree", "Wal", "Wes", "Wijk", "Wol", "Zand", "Zee", "Zuid", "Zwaan", "Zwart",
              "Ash", "Brad", "Clif", "Dun", "Fal", "Glen", "Hal", "Kings", "Lind", "Mar", "Nor", "Pen", "Ros", "Shel",
              "Stan", "Tor", "Wen", "Win"]
TOWN_TAILS = ["beek", "berg", "bosch", "brug", "dam", "dijk", "dorp", "drecht", "gem", "hoven", "huizen", "kerk", "land",
              "loo", "meer", "mond", "oord", "rade", "rode", "sel", "stad", "veen", "veld", "voort", "waard", "wijk",
              "woude", "zand", "ford", "ton", "bury", "ham", "field", "wick", "mouth", "by", "thorpe", "stead", "mere", "ley"]
NAME_FIRST = ["Foto", "Fotogroep", "Fotoclub", "Camera", "Kamera", "Beeld", "Licht", "Photo", "Focus", "Diafragma", "Sluiter",
              "Lens", "Zilver", "Digitaal", "Analoog", "Amateur", "Natuur", "Stads", "Kunst", "Museum"]
NAME_SECOND = ["Kring", "Club", "Groep", "Vereniging", "Werkplaats", "Atelier", "Collectief", "Society", "Circle", "Studio",
               "Huis", "Academie", "Gilde", "Vrienden", "Lichtval", "Brandpunt", "Zoeker", "Blik", "Oog", "Kader"]
PHRASES_EN = ['meets on "Tuesdays" & "Thursdays"', "shows prints <A3 & larger", 'runs a "photo walk" each month',
              "has a darkroom & a studio", 'judges the "Print of the Year" <em>not</em> online', "welcomes beginners & experts",
              "exhibits in the town hall", "shares gear (lenses < 300 mm) & tips", 'calls its archive "the attic"',
              "works with the library & the school"]
PHRASES_NL = ['komt op "dinsdag" & "donderdag" samen', "toont afdrukken <A3 & groter", 'houdt elke maand een "fotowandeling"',
              "heeft een doka & een studio", 'kiest de "Foto van het Jaar" <b>niet</b> online', "verwelkomt beginners & gevorderden",
              "exposeert in het gemeentehuis", "deelt spullen (lenzen < 300 mm) & tips", 'noemt het archief "de zolder"',
              "werkt samen met bibliotheek & school"]


def towns_records(count, seed):
    """The towns shape (see the module's doc): (record, kind, properties) per organization, town by town."""
    rng = random.Random(seed)
    town_count = max(1, count // 20)
    names = sorted({head + tail for head in TOWN_HEADS for tail in TOWN_TAILS})
    rng.shuffle(names)
    towns = []
    for index in range(town_count):
        name = names[index % len(names)]
        if index >= len(names):  # more towns than names: a second Bergdam, as real data has
            name += f" {['aan Zee', 'Oost', 'West', 'Noord', 'Zuid', 'Binnen', 'Buiten'][(index // len(names) - 1) % 7]}"
            if index >= 8 * len(names):
                name += f" {index // len(names)}"
        latitude = math.degrees(math.asin(rng.uniform(-0.6, 0.95)))
        towns.append((name, latitude, rng.uniform(-180, 180), rng.uniform(0.5, 6)))
    for index in range(count):
        town, c_lat, c_lon, spread = towns[index * town_count // count]
        position = index - (index * town_count // count) * count // town_count  # within the town (names unique in it)
        kind = "museum" if rng.random() < 0.06 else "club"
        if kind == "museum":
            name = f"{rng.choice(['Museum', 'Fotomuseum', 'Huis'])} {rng.choice(NAME_SECOND)} {position + 1}"
        else:
            name = f"{rng.choice(NAME_FIRST)} {rng.choice(NAME_SECOND)} {position + 1}"
        nick = "".join(word[:5] for word in name.split()[:2]) + town[:4]
        if index > 0 and rng.random() < 0.08:  # in the same building as the organization before it
            latitude, longitude = previous
        else:
            latitude = round(max(-90.0, min(90.0, c_lat + rng.gauss(0, spread) / 111.2)), 6)
            longitude = round((c_lon + rng.gauss(0, spread) / (111.2 * max(0.05, math.cos(math.radians(c_lat)))) + 180) % 360 - 180, 6)
        previous = (latitude, longitude)
        founded = rng.randrange(1890, 2024)
        sentences = rng.randrange(1, 6)
        picks = [rng.randrange(len(PHRASES_EN)) for _ in range(sentences)]
        remark_en = f"{name} of {town}, founded in {founded}, " + "; it ".join(PHRASES_EN[p] for p in picks) + "."
        remark_nl = f"{name} uit {town}, opgericht in {founded}, " + "; ze ".join(PHRASES_NL[p] for p in picks) + "."
        slug = nick.lower()
        remarks = [{"language": "EN", "value": remark_en}, {"language": "NL", "value": remark_nl}]
        if rng.random() < 0.5:
            remarks.reverse()
        optional = {"website": f"https://{slug}.example.nl/",
                    "wikipedia": f"https://nl.wikipedia.org/wiki/{town.replace(' ', '_')}#{name.replace(' ', '_')}",
                    "level2URL": f"https://raw.example.com/{town.replace(' ', '')}/{slug}.level2.json",
                    "remark": remarks}
        yield entry(town, name, nick, kind, latitude, longitude, optional, remark_en)


PLACE_WORDS = ["Saint", "Port", "Mount", "Lake", "Cape", "Fort", "New", "Old", "Upper", "Lower", "North", "South", "East",
               "West", "Great", "Little", "San", "Santa", "Bad", "Villa"]
LONG_EN = ['The club was founded by "a handful of friends" who met in a café & shared one darkroom.',
           "Its members print large (A2 & more) and small (<A5), on baryta, rag and plain glossy paper.",
           'Each season ends with the "Salon", a juried show that has hung in the town hall since the 1970s.',
           "Evenings alternate between critique, a guest speaker and practical work: lighting, flash & studio portraits.",
           "The archive holds negatives from 1931 onwards, scanned by volunteers; access is free for researchers.",
           'Beginners get a mentor for their first year; the "Tuesday group" goes out whatever the weather.',
           "Exhibitions travel to the library, the hospital & the station hall, where the public votes for a favourite.",
           "Members judge regional competitions and enter the national ones, with results posted <em>in the newsletter</em>."]
LONG_NL = ['De vereniging werd opgericht door "een handvol vrienden" die in een café samenkwamen & één doka deelden.',
           "De leden printen groot (A2 & meer) en klein (<A5), op baryt, katoen en gewoon glanzend papier.",
           'Elk seizoen eindigt met de "Salon", een gejureerde expositie die sinds de jaren zeventig in het stadhuis hangt.',
           "De avonden wisselen tussen bespreking, een gastspreker en praktijk: belichting, flits & studioportretten.",
           "Het archief bevat negatieven vanaf 1931, gescand door vrijwilligers; onderzoekers krijgen gratis toegang.",
           'Beginners krijgen het eerste jaar een mentor; de "dinsdaggroep" gaat met elk weer op pad.',
           "Exposities reizen naar de bibliotheek, het ziekenhuis & de stationshal, waar het publiek een favoriet kiest.",
           "Leden jureren regionale wedstrijden en doen mee aan de nationale, met uitslagen <em>in de nieuwsbrief</em>."]


def scattered_records(count, seed):
    """The scattered shape (see the module's doc): (record, kind, properties) per organization, each in a place
    of its own, uniformly over the sphere."""
    rng = random.Random(seed)
    heads = sorted(set(TOWN_HEADS))
    for index in range(count):
        town = f"{rng.choice(PLACE_WORDS)} {rng.choice(heads)}{rng.choice(TOWN_TAILS)} {index}"
        latitude = round(math.degrees(math.asin(rng.uniform(-1, 1))), 6)
        longitude = round(rng.uniform(-180, 180), 6)
        kind = "museum" if rng.random() < 0.08 else "club"
        first = rng.choice(["Museum", "Fotomuseum", "Huis"]) if kind == "museum" else rng.choice(NAME_FIRST)
        name = f"{first} {rng.choice(NAME_SECOND)} {index}"
        nick = f"{first[:5]}{index}"
        founded = rng.randrange(1890, 2024)
        if rng.random() < 0.1:
            paragraphs = rng.randrange(3, 6)
            picks = [[rng.randrange(len(LONG_EN)) for _ in range(rng.randrange(3, 6))] for _ in range(paragraphs)]
            body_en = "\n".join(" ".join(LONG_EN[p] for p in paragraph) for paragraph in picks)
            body_nl = "\n".join(" ".join(LONG_NL[p] for p in paragraph) for paragraph in picks)
            remark_en = f'{name} of {town} ("{nick}"), founded in {founded} & still in the same café, <1 km from the station.\n{body_en}'
            remark_nl = f'{name} uit {town} ("{nick}"), opgericht in {founded} & nog steeds in hetzelfde café, <1 km van het station.\n{body_nl}'
        else:
            pick = rng.randrange(len(PHRASES_EN))
            remark_en = f"{name} of {town}, founded in {founded}, {PHRASES_EN[pick]}."
            remark_nl = f"{name} uit {town}, opgericht in {founded}, {PHRASES_NL[pick]}."
        slug = nick.lower()
        optional = {"website": f"https://{slug}.example.org/",
                    "wikipedia": f"https://en.wikipedia.org/wiki/{town.replace(' ', '_')}"}
        if kind == "club":
            optional["level2URL"] = f"https://raw.example.com/scattered/{slug}.level2.json"
        optional["remark"] = [{"language": "EN", "value": remark_en}, {"language": "NL", "value": remark_nl}]
        fotobond = 1000 + index % 9000 if kind == "club" and rng.random() < 0.2 else None
        if fotobond is not None:
            optional["nlSpecific"] = {"fotobondNumber": fotobond}
        yield entry(town, name, nick, kind, latitude, longitude, optional, remark_en, fotobond)


SHAPES = {"clustered": clustered_records, "towns": towns_records, "scattered": scattered_records}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    parser.add_argument("--shape", choices=list(SHAPES), default="clustered")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    records = SHAPES[args.shape](args.count, args.seed)

    with open(os.path.join(args.out, "bench.level1.json"), "w", encoding="utf-8") as level1, \
            open(os.path.join(args.out, "bench.geojson"), "w", encoding="utf-8") as geojson:
        level1.write('{"level1Header": {"level1URLIncludes": []},\n "clubs": [\n')
        geojson.write('{"type": "FeatureCollection", "features": [\n')
        museums = []
        first_club = True
        for index, (record, kind, properties) in enumerate(records):
            if kind == "museum":
                museums.append(record)
            else:
                level1.write(("" if first_club else ",\n") + json.dumps(record, ensure_ascii=False))
                first_club = False
            identity = record["idPlus"]
            latitude, longitude = record["coordinates"]["latitude"], record["coordinates"]["longitude"]
            feature = {"type": "Feature", "id": stable_id(identity["town"], identity["fullName"]), "properties": properties,
                       "geometry": {"type": "Point", "coordinates": [longitude, latitude]}}
            geojson.write(("" if index == 0 else ",\n") + json.dumps(feature, ensure_ascii=False))
        level1.write('\n],\n "museums": [\n')
        level1.write(",\n".join(json.dumps(m, ensure_ascii=False) for m in museums))
        level1.write("\n]}\n")
        geojson.write("\n]}\n")


if __name__ == "__main__":
    main()
