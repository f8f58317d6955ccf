#!/usr/bin/env node
// Loads the map page's common script (map-common.js) in a fresh VM context, with no DOM and no Leaflet:
// nothing of the page runs until HubGeoMap.start, so the script must load bare. Then checks its pure
// helpers against known answers: search folding, code point order, the ellipsoidal distance, labels,
// the arcs of a cluster's ring.
// The browser tests (MapPageBrowserTests) check the whole page; this is the quick check `make check-js` runs.
//
// Usage: node scripts/check-map-js.js Sources/HubGeoExport/Map/Web/map-common.js
"use strict";
const assert = require("assert");
const fs = require("fs");
const vm = require("vm");

const file = process.argv[2];
if (!file) {
  console.error("usage: check-map-js.js MAP-COMMON.JS");
  process.exit(64);
}
const context = {};
vm.runInNewContext(fs.readFileSync(file, "utf8"), context, {filename: file});
const hub = context.HubGeoMap;
assert.strictEqual(typeof hub, "object", "map-common.js defines HubGeoMap");
assert.strictEqual(typeof hub.start, "function");

// Folding, as `hubgeo search` folds: width, accents, ligatures, case.
assert.strictEqual(hub.fold("ＦＯＴＯ Ëindhoven"), "foto eindhoven");
assert.strictEqual(hub.fold("Ĳsselﬁlm Ǆ Żory"), "ijsselfilm dz zory");
assert.strictEqual(hub.fold(undefined), "");

// By code points (SQLite's BINARY order), not by UTF-16 code units: U+1F600 sorts after U+FFFF.
assert.strictEqual(hub.compareCodePoints("\u{1F600}", "\uFFFF"), 1);
assert.strictEqual(hub.compareCodePoints("\uFFFF", "\u{1F600}"), -1);
assert.strictEqual(hub.compareCodePoints("Club\u001fA", "Club\u001fA"), 0);
assert.strictEqual(hub.compareCodePoints("Club", "Club\u001fA"), -1);
assert.strictEqual(hub.compareCodePoints("B", "A\u{1F600}"), 1);

// Vincenty's inverse on WGS84: one degree along the equator is a·π/180; his own test line, Flinders
// Peak to Buninyong, is 54,972.271 m; a point to itself is 0; nearly antipodal points, where the
// iteration does not converge, answer within 0.5 % (half a meridian, 20,003,931.459 m, is the shortest way).
function near(actual, expected, tolerance, what) {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} m of ${expected}`);
}
near(hub.geodesicDistance(0, 0, 0, 1), 6378137 * Math.PI / 180, 1e-6, "1° along the equator");
const dms = (d, m, s) => d + m / 60 + s / 3600;
near(hub.geodesicDistance(-dms(37, 57, 3.72030), dms(144, 25, 29.52440), -dms(37, 39, 10.15610), dms(143, 55, 35.38390)),
     54972.271, 0.001, "Flinders Peak to Buninyong");
assert.strictEqual(hub.geodesicDistance(51.4, 5.4, 51.4, 5.4), 0);
near(hub.geodesicDistance(0, 0, 0, 179.9), 20003931.459, 0.005 * 20003931.459, "nearly antipodal");

// Labels: a regional language falls back to its base, an unknown one to English.
assert.strictEqual(hub.labelIn("nl-BE", "museums"), "Musea");
assert.strictEqual(hub.labelIn("xx", "town"), "Town");

// The ring of a cluster: arcs proportional to its clubs and museums, adding up to the ring; a share too
// small to see widened to 2 px; no ring without both counts (an older server) or with nothing to share.
const ringOf = (clubs, museums, circumference) => JSON.stringify(hub.ringArcs(clubs, museums, circumference));
assert.strictEqual(ringOf(3, 1, 100), JSON.stringify({club: 75, museum: 25}));
assert.strictEqual(ringOf(5, 0, 100), JSON.stringify({club: 100, museum: 0}));
assert.strictEqual(ringOf(0, 7, 100), JSON.stringify({club: 0, museum: 100}));
assert.strictEqual(ringOf(999, 1, 100), JSON.stringify({club: 98, museum: 2}));
assert.strictEqual(ringOf(1, 999, 100), JSON.stringify({club: 2, museum: 98}));
for (const [clubs, museums] of [[undefined, 3], [3, undefined], [0, 0], [-1, 2], [1.5, 2], ["2", 1], [NaN, 1], [Infinity, 1]]) {
  assert.strictEqual(hub.ringArcs(clubs, museums, 100), null, `no ring for ${clubs} clubs and ${museums} museums`);
}
assert.strictEqual(hub.labelIn("nl", "ring"), "Ring: aandeel clubs en musea");
for (const language of ["en", "nl", "de", "fr"]) assert.ok(hub.labelIn(language, "ring").length > 10, `a ring label in ${language}`);

console.log(`check-map-js: ${file} loads bare; fold, compareCodePoints, geodesicDistance, labels and ring arcs give the known answers`);
