#!/usr/bin/env python3
"""Builds standin/*.json and standin/routes.json from samples/ (real Nominatim 5.3.3 answers).

Run from this directory: python3 make_standin.py. The stand-in answers /reverse by lat, lon and
accept-language, and by zoom only where noted (namedetails is ignored); no accept-language asks
for local names. The first matching route answers, in this order:

- zoom 3 (any point but the sea): the country object with all its names (`namedetails`), in the
  language asked: Belgium at brussel, Austria at the nowhere land point, else the Netherlands.
  Real zoom-3 answers of the integration tier's Nominatim (samples/it_rev_z3_*, see
  record_samples.py), whose country names come from Nominatim's built-in table.
- noord (52.4040, 4.9430), a point in the suburb Amsterdam-Noord: at zoom 10 the city Amsterdam,
  at any other zoom the suburb, with namedetails, in the language asked (or none): real answers
  of the integration tier's Nominatim (samples/it_rev_z10_noord_*, it_rev_z14_noord_*).

- amsterdam, brussel, denhaag, eindhoven (de, en, fr, ja, nl): the real zoom-10 answer of that
  language plus the real `namedetails` of the nl namedetails sample (raw name tags do not depend
  on the language; the returned object is the same city at zoom 10 and 14). Without
  accept-language: the real zoom-10 "nolang" answer plus the same namedetails.
- berlicum, waalre: nl is the real zoom-14 answer (the village); other languages are SYNTHESIZED
  from it by swapping in the country name of that language's real zoom-10 answer. No namedetails.
  Without accept-language: the nl answer as it is (the real zoom-10 "nolang" answers of these
  Dutch places carry the same names and country, "Nederland").
- sea (54.0, 3.0): the real "Unable to geocode"; any language.
- nowhere land (47.0, 10.0): the real answer (country only, Austria); en only.
- any other point: eindhoven's answer of that language, or without accept-language its "nolang"
  answer (so the embedded data can be replayed).
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "samples")
OUT = os.path.join(HERE, "standin")
LANGS = ["de", "en", "fr", "ja", "nl"]
CITIES = ["amsterdam", "brussel", "denhaag", "eindhoven"]
VILLAGES = ["berlicum", "waalre"]


def load(name):
    with open(os.path.join(SAMPLES, name + ".json"), encoding="utf-8") as f:
        return json.load(f)


def query(name):
    with open(os.path.join(SAMPLES, name + ".url"), encoding="utf-8") as f:
        url = f.read().strip()
    params = dict(part.split("=", 1) for part in url.split("?", 1)[1].split("&"))
    return params["lat"], params["lon"]


def write(name, value):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        json.dump(value, f, ensure_ascii=False)


routes = []
# Zoom 3: the country object (sea excepted: no country there).
routes.append({"when": {"lat": "54.0", "lon": "3.0"}, "body_file": "sea.json"})
for code, place in (("be", "brussel"), ("at", "nowhere"), ("nl", None)):
    for lang in LANGS:
        write(f"country_{code}_{lang}.json", load(f"it_rev_z3_{code}_{lang}"))
        when = {"zoom": "3", "accept-language": lang}
        if place:
            lat, lon = {"brussel": query("rev_z10_brussel_nl"), "nowhere": ("47.0", "10.0")}[place]
            when.update(lat=lat, lon=lon)
        routes.append({"when": when, "body_file": f"country_{code}_{lang}.json"})
# A suburb of a city: the city at zoom 10, the suburb otherwise.
for lang in LANGS:
    write(f"noord_z10_{lang}.json", load(f"it_rev_z10_noord_{lang}"))
    routes.append({"when": {"lat": "52.404", "lon": "4.943", "zoom": "10", "accept-language": lang},
                   "body_file": f"noord_z10_{lang}.json"})
for lang in LANGS + [""]:
    name = f"noord_{lang or 'local'}.json"
    write(name, load(f"it_rev_z14_noord_{lang or 'nolang'}"))
    routes.append({"when": {"lat": "52.404", "lon": "4.943", "accept-language": lang}, "body_file": name})
for place in CITIES:
    names = load(f"rev_z10_{place}_nl_namedetails")["namedetails"]
    lat, lon = query(f"rev_z10_{place}_nl")
    for lang in LANGS:
        body = load(f"rev_z10_{place}_{lang}")
        body["namedetails"] = names
        write(f"{place}_{lang}.json", body)
        routes.append({"when": {"lat": lat, "lon": lon, "accept-language": lang}, "body_file": f"{place}_{lang}.json"})
    body = load(f"rev_z10_{place}_nolang")
    body["namedetails"] = names
    write(f"{place}_local.json", body)
    routes.append({"when": {"lat": lat, "lon": lon, "accept-language": ""}, "body_file": f"{place}_local.json"})
for place in VILLAGES:
    base = load(f"rev_z14_{place}_nl")
    lat, lon = query(f"rev_z14_{place}_nl")
    for lang in LANGS:
        body = json.loads(json.dumps(base))
        if lang != "nl":
            country = load(f"rev_z10_{place}_{lang}")["address"]["country"]
            body["display_name"] = body["display_name"].replace(base["address"]["country"], country)
            body["address"]["country"] = country
        write(f"{place}_{lang}.json", body)
        routes.append({"when": {"lat": lat, "lon": lon, "accept-language": lang}, "body_file": f"{place}_{lang}.json"})
    routes.append({"when": {"lat": lat, "lon": lon, "accept-language": ""}, "body_file": f"{place}_nl.json"})
routes.append({"when": {"lat": "54.0", "lon": "3.0"}, "body_file": "sea.json"})
write("sea.json", load("rev_sea_jsonv2"))
routes.append({"when": {"lat": "47.0", "lon": "10.0", "accept-language": "en"}, "body_file": "nowhere_en.json"})
write("nowhere_en.json", load("rev_nowhere_land_z10"))
for lang in LANGS:
    routes.append({"when": {"accept-language": lang}, "body_file": f"eindhoven_{lang}.json"})
routes.append({"when": {"accept-language": ""}, "body_file": "eindhoven_local.json"})
write("routes.json", routes)
