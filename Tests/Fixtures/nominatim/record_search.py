#!/usr/bin/env python3
"""Records the forward-search answers of the stand-in (standin/search_*.json and
standin/search_routes.json) from a real Nominatim 5.3.3: the integration tier's server
(Tests/Integration/nominatim, `make nominatim-start`), imported from make_extract.py's extract.

    python3 record_search.py [BASE_URL]     (default http://127.0.0.1:28088)

Each search is asked as `hubgeo locate` asks (format=jsonv2, addressdetails=1, extratags=1,
limit=5), without accept-language (the local names) and in English; the routes replay an answer
for its `q` and `accept-language` ("" = none sent).
"""
import json
import os
import sys
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:28088"
SEARCHES = {
    "asten": "Asten",
    "denhaag": "Den Haag",
    "antwerpen": "Antwerpen",
    "berlicum": "Berlicum",
    "fotomuseum": "Fotomuseum Den Haag",
    "klokenpeel": "Museum Klok & Peel",
    "fomu": "FotoMuseum Antwerpen",
    "beeldhoek": "Fotokring Beeldhoek Asten",
}


def main():
    routes = []
    for key, query in SEARCHES.items():
        for language in [None, "en"]:
            params = {"q": query, "format": "jsonv2", "addressdetails": "1", "extratags": "1", "limit": "5"}
            if language:
                params["accept-language"] = language
            url = f"{BASE}/search?{urllib.parse.urlencode(params)}"
            with urllib.request.urlopen(url) as response:
                body = response.read()
            name = f"search_{key}_{language or 'local'}.json"
            with open(os.path.join(HERE, "standin", name), "wb") as f:
                f.write(body)
            routes.append({"when": {"q": query, "accept-language": language or ""}, "body_file": name})
    with open(os.path.join(HERE, "standin", "search_routes.json"), "w", encoding="utf-8") as f:
        json.dump(routes, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
