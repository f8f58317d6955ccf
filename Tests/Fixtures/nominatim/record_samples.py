#!/usr/bin/env python3
"""Records the answers that samples/ lacks from a real Nominatim 5.3.3: the integration tier's
server (Tests/Integration/nominatim, `make nominatim-start`), imported from make_extract.py's extract.

    python3 record_samples.py [BASE_URL]     (default http://127.0.0.1:28088)

Writes samples/it_*.{json,url,status} (body, request, status line), as the other samples:
- it_rev_z3_{nl,be,at}_{de,en,fr,ja,nl}: zoom 3 with namedetails at Eindhoven, Brussel and the
  Austrian point: the country object with all its names (Nominatim's built-in country table,
  the same on every 5.3.3 server without country boundaries).
- it_rev_z14_noord_{de,en,fr,ja,nl,nolang} and it_rev_z10_noord_{de,en,fr,ja,nl}: a point in the
  suburb Amsterdam-Noord (52.4040, 4.9430) with namedetails: at zoom 14 the suburb (its address's
  city is Amsterdam), at zoom 10 the city Amsterdam itself.
"""
import os
import sys
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:28088"
LANGS = ["de", "en", "fr", "ja", "nl"]
COUNTRY_POINTS = {"nl": ("51.42398", "5.45010"), "be": ("50.8466", "4.3528"), "at": ("47.0", "10.0")}
NOORD = ("52.4040", "4.9430")


def record(name, lat, lon, zoom, lang):
    query = f"format=jsonv2&lat={lat}&lon={lon}&zoom={zoom}&addressdetails=1&namedetails=1"
    if lang:
        query += f"&accept-language={lang}"
    url = f"{BASE}/reverse?{query}"
    with urllib.request.urlopen(url) as response:
        body = response.read()
        status = f"HTTP {response.status} {response.headers.get('Content-Type')}"
    for suffix, data in (("json", body), ("url", url.encode()), ("status", status.encode())):
        with open(os.path.join(HERE, "samples", f"{name}.{suffix}"), "wb") as f:
            f.write(data)


for code, (lat, lon) in COUNTRY_POINTS.items():
    for lang in LANGS:
        record(f"it_rev_z3_{code}_{lang}", lat, lon, 3, lang)
for lang in LANGS + [None]:
    record(f"it_rev_z14_noord_{lang or 'nolang'}", *NOORD, 14, lang)
for lang in LANGS:
    record(f"it_rev_z10_noord_{lang}", *NOORD, 10, lang)
