#!/usr/bin/env python3
"""Writes the integration tier's OpenStreetMap extract and the truth the tests check against.

    make_extract.py OUTDIR   ->  OUTDIR/extract.osm  (OSM XML 0.6, imported into Nominatim)
                                 OUTDIR/places.json  (the manifest: test points and their answers)

Deterministic: the same script writes the same bytes (the set-up re-imports when they change).

The geometry is invented but plausible, and every feature lies inside the real country it is
filed under, because Nominatim gives each object the country of its built-in country grid.
Country names are not in the extract: Nominatim answers them from its built-in country table,
localized, and the manifest holds the names that table gives in each test language.

Cases covered (see points()): cities as bare place nodes and as boundaries with a label node, a
suburb inside a city, a village labelling its municipality boundary, villages inside a municipality of another name, a point of that
municipality away from its villages, a hamlet outside any boundary, places lacking some or all
translations, streets (the answer at zoom 18), a point at sea and a point on land far from any
place, a city with six suburbs and a city node with three, in eleven countries.

For `hubgeo locate` (forward search): the village Asten, and museum nodes with `website` and
`wikipedia` tags in towns of the extract (museums()), each at least a kilometre from every test
point so that no reverse answer changes.
"""

import hashlib
import json
import os
import sys
from xml.sax.saxutils import quoteattr

LANGUAGES = ["nl", "en", "de", "fr", "ja"]

# Nominatim 5.3.3's built-in country names (nominatim_db/data/country-names), per language.
COUNTRIES = {
    "nl": {"nl": "Nederland", "en": "Netherlands", "de": "Niederlande", "fr": "Pays-Bas", "ja": "オランダ"},
    "be": {"nl": "België", "en": "Belgium", "de": "Belgien", "fr": "Belgique", "ja": "ベルギー"},
    "de": {"nl": "Duitsland", "en": "Germany", "de": "Deutschland", "fr": "Allemagne", "ja": "ドイツ"},
    "fr": {"nl": "Frankrijk", "en": "France", "de": "Frankreich", "fr": "France", "ja": "フランス"},
    "jp": {"nl": "Japan", "en": "Japan", "de": "Japan", "fr": "Japon", "ja": "日本"},
    "at": {"nl": "Oostenrijk", "en": "Austria", "de": "Österreich", "fr": "Autriche", "ja": "オーストリア"},
    "ch": {"nl": "Zwitserland", "en": "Switzerland", "de": "Schweiz", "fr": "Suisse", "ja": "スイス"},
    "it": {"nl": "Italië", "en": "Italy", "de": "Italien", "fr": "Italie", "ja": "イタリア"},
    "gb": {"nl": "Verenigd Koninkrijk", "en": "United Kingdom", "de": "Vereinigtes Königreich", "fr": "Royaume-Uni",
           "ja": "イギリス"},
    "pl": {"nl": "Polen", "en": "Poland", "de": "Polen", "fr": "Pologne", "ja": "ポーランド"},
    "dk": {"nl": "Denemarken", "en": "Denmark", "de": "Dänemark", "fr": "Danemark", "ja": "デンマーク"},
}

# The same table's local name (the `name` tag), answered when no language is asked.
COUNTRY_LOCAL_NAMES = {"nl": "Nederland", "be": "België / Belgique / Belgien", "de": "Deutschland", "fr": "France",
                       "jp": "日本", "at": "Österreich", "ch": "Schweiz/Suisse/Svizzera/Svizra", "it": "Italia",
                       "gb": "United Kingdom", "pl": "Polska", "dk": "Danmark"}

TIMESTAMP = "2025-01-01T00:00:00Z"

# Suburbs of one city (key, lat, lon, names): many points whose returned object is not the town.
ANTWERPEN_SUBURBS = [
    ("berchem", 51.1990, 4.4270, {"name": "Berchem", "name:fr": "Berchem-Anvers"}),
    ("borgerhout", 51.2117, 4.4400, {"name": "Borgerhout"}),
    ("deurne", 51.2230, 4.4680, {"name": "Deurne", "name:ja": "デュルネ"}),
    ("merksem", 51.2460, 4.4450, {"name": "Merksem"}),
    ("hoboken", 51.1760, 4.3480, {"name": "Hoboken", "name:en": "Hoboken (Antwerp)"}),
    ("wilrijk", 51.1690, 4.3950, {"name": "Wilrijk"}),
]
MUENCHEN_SUBURBS = [
    ("schwabing", 48.1600, 11.5800, {"name": "Schwabing"}),
    ("sendling", 48.1220, 11.5450, {"name": "Sendling"}),
    ("bogenhausen", 48.1480, 11.6050, {"name": "Bogenhausen", "name:ja": "ボーゲンハウゼン"}),
]
# One city in each further country (key, country, lat, lon, names).
CAPITALS = [
    ("geneve", "ch", 46.2044, 6.1432, {"name": "Genève", "name:de": "Genf", "name:en": "Geneva", "name:fr": "Genève",
                                       "name:it": "Ginevra", "name:ja": "ジュネーヴ"}),
    ("milano", "it", 45.4642, 9.1900, {"name": "Milano", "name:de": "Mailand", "name:en": "Milan", "name:fr": "Milan",
                                       "name:nl": "Milaan", "name:ja": "ミラノ"}),
    ("london", "gb", 51.5074, -0.1278, {"name": "London", "name:fr": "Londres", "name:nl": "Londen", "name:ja": "ロンドン"}),
    ("warszawa", "pl", 52.2297, 21.0122, {"name": "Warszawa", "name:de": "Warschau", "name:en": "Warsaw",
                                          "name:fr": "Varsovie", "name:nl": "Warschau", "name:ja": "ワルシャワ"}),
    ("koebenhavn", "dk", 55.6761, 12.5683, {"name": "København", "name:de": "Kopenhagen", "name:en": "Copenhagen",
                                            "name:fr": "Copenhague", "name:nl": "Kopenhagen", "name:ja": "コペンハーゲン"}),
]


class Extract:
    """Collects nodes, ways and relations with fixed ids."""

    def __init__(self):
        self.nodes = []      # (id, lat, lon, tags)
        self.ways = []       # (id, [node ids], tags)
        self.relations = []  # (id, [(type, ref, role)], tags)
        self.next_node = 1
        self.next_way = 1
        self.next_relation = 1
        self.places = {}     # key -> dict(name tags, kind)

    def node(self, lat, lon, tags=None):
        node_id = self.next_node
        self.next_node += 1
        self.nodes.append((node_id, lat, lon, dict(tags or {})))
        return node_id

    def way(self, points, tags, closed=False):
        refs = [self.node(lat, lon) for lat, lon in points]
        if closed:
            refs.append(refs[0])
        way_id = self.next_way
        self.next_way += 1
        self.ways.append((way_id, refs, dict(tags)))
        return way_id

    def relation(self, members, tags):
        relation_id = self.next_relation
        self.next_relation += 1
        self.relations.append((relation_id, members, dict(tags)))
        return relation_id

    def place(self, key, kind, lat, lon, names):
        """A place node: place=kind with `names` ({"name": ..., "name:xx": ...})."""
        self.places[key] = {"kind": kind, "names": names, "lat": lat, "lon": lon}
        return self.node(lat, lon, {"place": kind, **names})

    def boundary(self, key, south, west, north, east, admin_level, names, label=None):
        """An administrative boundary: a closed rectangular way as the outer ring of a relation,
        with `label` (a place node id) as its label member when given."""
        ring = [(south, west), (south, east), (north, east), (north, west)]
        outer = self.way(ring, {}, closed=True)
        members = [("way", outer, "outer")]
        if label is not None:
            members.append(("node", label, "label"))
        self.places[key] = {"kind": "boundary", "names": names}
        return self.relation(members, {"type": "boundary", "boundary": "administrative",
                                       "admin_level": str(admin_level), **names})

    def street(self, name, points, highway="residential"):
        return self.way(points, {"highway": highway, "name": name})

    def xml(self):
        lines = ["<?xml version='1.0' encoding='UTF-8'?>",
                 "<osm version=\"0.6\" generator=\"hubgeo Tests/Integration/nominatim/make_extract.py\">"]

        def tag_lines(tags, indent="  "):
            return [f"{indent}<tag k={quoteattr(k)} v={quoteattr(v)}/>" for k, v in sorted(tags.items())]

        common = f'version="1" timestamp="{TIMESTAMP}"'
        for node_id, lat, lon, tags in self.nodes:
            attributes = f'id="{node_id}" {common} lat="{lat:.7f}" lon="{lon:.7f}"'
            if tags:
                lines.append(f"<node {attributes}>")
                lines += tag_lines(tags)
                lines.append("</node>")
            else:
                lines.append(f"<node {attributes}/>")
        for way_id, refs, tags in self.ways:
            lines.append(f'<way id="{way_id}" {common}>')
            lines += [f'  <nd ref="{ref}"/>' for ref in refs]
            lines += tag_lines(tags)
            lines.append("</way>")
        for relation_id, members, tags in self.relations:
            lines.append(f'<relation id="{relation_id}" {common}>')
            lines += [f'  <member type="{t}" ref="{ref}" role="{role}"/>' for t, ref, role in members]
            lines += tag_lines(tags)
            lines.append("</relation>")
        lines.append("</osm>")
        return "\n".join(lines) + "\n"


def localized(names, language):
    """Nominatim's choice of a name in one language: name:xx, else name."""
    return names.get(f"name:{language}", names["name"])


def build():
    x = Extract()

    # --- Netherlands -------------------------------------------------------------------
    # Amsterdam: a municipality boundary whose label node is the city, with a suburb and streets.
    amsterdam_names = {"name": "Amsterdam", "name:nl": "Amsterdam", "name:en": "Amsterdam",
                       "name:de": "Amsterdam", "name:fr": "Amsterdam", "name:ja": "アムステルダム"}
    amsterdam_label = x.place("amsterdam", "city", 52.3731, 4.8922, amsterdam_names)
    x.boundary("amsterdam-boundary", 52.30, 4.75, 52.43, 5.02, 8, amsterdam_names, label=amsterdam_label)
    x.place("noord", "suburb", 52.4050, 4.9450,
            {"name": "Amsterdam-Noord", "name:en": "Amsterdam North", "name:ja": "アムステルダム北"})
    x.street("Damrak", [(52.3740, 4.8935), (52.3760, 4.8960), (52.3778, 4.8990)])
    x.street("Kalverstraat", [(52.3690, 4.8910), (52.3710, 4.8920), (52.3728, 4.8928)])
    x.street("Buiksloterweg", [(52.3980, 4.9300), (52.4010, 4.9370), (52.4040, 4.9440)])

    # Den Haag: a bare place node, a name that differs in most languages.
    x.place("denhaag", "city", 52.0799, 4.3113,
            {"name": "Den Haag", "name:nl": "Den Haag", "name:en": "The Hague", "name:de": "Den Haag",
             "name:fr": "La Haye", "name:ja": "ハーグ"})
    x.street("Lange Voorhout", [(52.0830, 4.3120), (52.0840, 4.3140), (52.0845, 4.3160)])

    # Sint-Michielsgestel: a municipality named after none of the villages it holds.
    x.boundary("sint-michielsgestel", 51.61, 5.30, 51.72, 5.48, 8,
               {"name": "Sint-Michielsgestel", "name:nl": "Sint-Michielsgestel"})
    x.place("berlicum", "village", 51.6779, 5.4011, {"name": "Berlicum", "name:ja": "ベルリクム"})
    x.place("dendungen", "village", 51.6650, 5.3700,
            {"name": "Den Dungen", "name:nl": "Den Dungen", "name:fr": "Les Dunes"})
    x.street("Kerkwijk", [(51.6770, 5.3995), (51.6782, 5.4015), (51.6790, 5.4030)])

    # --- Belgium ------------------------------------------------------------------------
    x.place("brussel", "city", 50.8466, 4.3528,
            {"name": "Bruxelles - Brussel", "name:nl": "Brussel", "name:fr": "Bruxelles", "name:en": "Brussels",
             "name:de": "Brüssel", "name:ja": "ブリュッセル"})
    x.street("Rue Neuve - Nieuwstraat", [(50.8500, 4.3560), (50.8520, 4.3580), (50.8535, 4.3595)])
    # Sint-Genesius-Rode: a municipality boundary whose label node is the village; the
    # translations are on the node only, and Nominatim merges them into the boundary it answers
    # with (addresstype village, at zoom 10 too: the boundary has rank 14).
    rode_label = x.place("rode", "village", 50.7497, 4.3572,
                         {"name": "Sint-Genesius-Rode", "name:nl": "Sint-Genesius-Rode", "name:fr": "Rhode-Saint-Genèse",
                          "name:de": "Sankt-Genesius-Rode", "name:ja": "シント・ジェネジウス・ローデ"})
    x.boundary("rode-boundary", 50.72, 4.33, 50.77, 4.39, 8, {"name": "Sint-Genesius-Rode"}, label=rode_label)

    # Antwerpen: a municipality boundary labelled by the city, with six suburbs (points in
    # suburbs: the returned object is the suburb, the town is the city).
    antwerpen_names = {"name": "Antwerpen", "name:nl": "Antwerpen", "name:en": "Antwerp", "name:de": "Antwerpen",
                       "name:fr": "Anvers", "name:ja": "アントウェルペン"}
    antwerpen_label = x.place("antwerpen", "city", 51.2194, 4.4025, antwerpen_names)
    x.boundary("antwerpen-boundary", 51.14, 4.32, 51.28, 4.50, 8, antwerpen_names, label=antwerpen_label)
    for key, lat, lon, names in ANTWERPEN_SUBURBS:
        x.place(key, "suburb", lat, lon, names)

    # --- Germany ------------------------------------------------------------------------
    x.place("koeln", "city", 50.9375, 6.9603,
            {"name": "Köln", "name:nl": "Keulen", "name:en": "Cologne", "name:fr": "Cologne", "name:ja": "ケルン"})
    x.street("Hohe Straße", [(50.9370, 6.9550), (50.9385, 6.9565), (50.9400, 6.9575)])
    # Aachen: some translations only (no en, de or ja: those fall back to the local name).
    x.place("aachen", "city", 50.7753, 6.0839, {"name": "Aachen", "name:nl": "Aken", "name:fr": "Aix-la-Chapelle"})
    # Monschau: a town with no translation at all.
    x.place("monschau", "town", 50.5549, 6.2400, {"name": "Monschau"})

    # München: a bare city node (no boundary) with three suburbs inside its reach.
    x.place("muenchen", "city", 48.1374, 11.5755,
            {"name": "München", "name:de": "München", "name:en": "Munich", "name:fr": "Munich", "name:nl": "München",
             "name:ja": "ミュンヘン"})
    for key, lat, lon, names in MUENCHEN_SUBURBS:
        x.place(key, "suburb", lat, lon, names)

    # --- France -------------------------------------------------------------------------
    x.place("lille", "city", 50.6292, 3.0573, {"name": "Lille", "name:nl": "Rijsel", "name:ja": "リール"})
    # A hamlet in open country, inside no boundary: the town is the hamlet.
    x.place("hameau", "hamlet", 49.3000, 2.5000, {"name": "Le Petit Hameau"})

    # --- Japan --------------------------------------------------------------------------
    x.place("tokyo", "city", 35.6812, 139.7671,
            {"name": "東京", "name:ja": "東京", "name:en": "Tokyo", "name:nl": "Tokio", "name:de": "Tokio",
             "name:fr": "Tokyo"})

    # --- More countries: one city each ------------------------------------------------
    for key, _, lat, lon, names in CAPITALS:
        x.place(key, "city", lat, lon, names)

    # --- Forward search (hubgeo locate) -------------------------------------------------
    # Asten: a village in open country (no boundary), the town of a club added by hand.
    x.place("asten", "village", 51.4037, 5.7486, {"name": "Asten"})
    for museum in MUSEUMS:
        x.node(museum["lat"], museum["lon"], {"tourism": "museum", "name": museum["name"],
                                              "website": museum["website"], "wikipedia": museum["wikipedia"]})

    return x


# Museums for the forward search: name, position, tags, and the town and country Nominatim's
# address gives them (the town key as `localize` reads it).
MUSEUMS = [
    {"name": "Fotomuseum Den Haag", "lat": 52.0896, "lon": 4.2803, "town": "Den Haag", "townKey": "city",
     "countryCode": "nl", "website": "https://www.fotomuseumdenhaag.nl/", "wikipedia": "nl:Fotomuseum Den Haag"},
    {"name": "Museum Klok & Peel", "lat": 51.4010, "lon": 5.7440, "town": "Asten", "townKey": "village",
     "countryCode": "nl", "website": "https://www.klokenpeel.nl/", "wikipedia": "nl:Museum Klok & Peel"},
    {"name": "FotoMuseum Antwerpen", "lat": 51.2085, "lon": 4.3930, "town": "Antwerpen", "townKey": "city",
     "countryCode": "be", "website": "https://fomu.atomium.be/", "wikipedia": "nl:FotoMuseum Provincie Antwerpen"},
]


def museums():
    """The museum nodes as the manifest gives them to the tests."""
    return [dict(museum, country=COUNTRIES[museum["countryCode"]]) for museum in MUSEUMS]


def town_of(x, key, town_key):
    names = x.places[key]["names"]
    return {"key": town_key, "local": names["name"],
            "names": {language: localized(names, language) for language in LANGUAGES}}


def points(x):
    """The test points: where an organization could be, and what its town and country are.

    `town` is the answer at zoom 13-18 (hubgeo's default is 14); `townZoom10`, when given, the
    answer at zoom 10, where Nominatim does not reach villages and hamlets."""
    def point(point_id, case, lat, lon, country, town=None, town_zoom10="same"):
        entry = {"id": point_id, "case": case, "lat": lat, "lon": lon,
                 "countryCode": country,
                 "country": COUNTRIES[country] if country else None,
                 "countryLocal": COUNTRY_LOCAL_NAMES[country] if country else None,
                 "town": town}
        entry["townZoom10"] = town if town_zoom10 == "same" else town_zoom10
        return entry

    municipality = town_of(x, "sint-michielsgestel", "municipality")
    return [
        point("amsterdam-centre", "city from a boundary with a label node", 52.3702, 4.8952, "nl",
              town_of(x, "amsterdam", "city")),
        point("amsterdam-damrak", "on a street of a city", 52.3761, 4.8962, "nl", town_of(x, "amsterdam", "city")),
        point("amsterdam-noord", "in a suburb of a city: the town is the city", 52.4040, 4.9430, "nl",
              town_of(x, "amsterdam", "city")),
        point("denhaag", "city node, names differ per language", 52.0812, 4.3131, "nl", town_of(x, "denhaag", "city")),
        point("berlicum", "village inside a municipality of another name", 51.6785, 5.4020, "nl",
              town_of(x, "berlicum", "village"), town_zoom10=municipality),
        point("dendungen", "second village of that municipality, partly translated", 51.6655, 5.3705, "nl",
              town_of(x, "dendungen", "village"), town_zoom10=municipality),
        point("sint-michielsgestel-fields", "in the municipality, away from its villages", 51.6300, 5.4600, "nl",
              municipality),
        point("brussel", "bilingual city: local name in no language", 50.8480, 4.3550, "be",
              town_of(x, "brussel", "city")),
        point("rode", "village labelling its municipality boundary, translated on the node only", 50.7420, 4.3700,
              "be", town_of(x, "rode", "village")),
        point("koeln", "city without name:de (the local name)", 50.9380, 6.9560, "de", town_of(x, "koeln", "city")),
        point("aachen", "city with only nl and fr translations", 50.7760, 6.0850, "de", town_of(x, "aachen", "city")),
        point("monschau", "town with no translation at all", 50.5555, 6.2410, "de", town_of(x, "monschau", "town"),
              town_zoom10=None),
        point("lille", "city with nl and ja translations only", 50.6300, 3.0580, "fr", town_of(x, "lille", "city")),
        point("hameau", "hamlet outside any boundary", 49.3010, 2.5010, "fr", town_of(x, "hameau", "hamlet"),
              town_zoom10=None),
        point("tokyo", "city whose local name is Japanese", 35.6820, 139.7680, "jp", town_of(x, "tokyo", "city")),
        *[point(f"antwerpen-{key}", "in a suburb of a city with a boundary: the town is the city",
                round(lat + 0.0015, 4), round(lon + 0.0015, 4), "be", town_of(x, "antwerpen", "city"))
          for key, lat, lon, _ in ANTWERPEN_SUBURBS],
        point("antwerpen-centre", "city from a boundary with a label node, differing names", 51.2330, 4.3860, "be",
              town_of(x, "antwerpen", "city")),
        *[point(f"muenchen-{key}", "in a suburb of a city node without a boundary: the town is the city",
                round(lat + 0.0015, 4), round(lon - 0.0015, 4), "de", town_of(x, "muenchen", "city"))
          for key, lat, lon, _ in MUENCHEN_SUBURBS],
        *[point(key, "a city in a further country", round(lat + 0.002, 4), round(lon + 0.002, 4), country,
                town_of(x, key, "city"))
          for key, country, lat, lon, _ in CAPITALS],
        point("north-sea", "at sea: no place at all", 54.0, 3.0, None, None),
        point("tyrol-nowhere", "on land far from any place: country only", 47.0, 10.0, "at", None),
    ]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_extract.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    x = build()
    osm = x.xml().encode("utf-8")
    manifest = {
        "comment": "Written by Tests/Integration/nominatim/make_extract.py; the truth of the integration tests.",
        "extractSHA256": hashlib.sha256(osm).hexdigest(),
        "languages": LANGUAGES,
        "points": points(x),
        "museums": museums(),
    }
    with open(os.path.join(out, "extract.osm"), "wb") as f:
        f.write(osm)
    with open(os.path.join(out, "places.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
