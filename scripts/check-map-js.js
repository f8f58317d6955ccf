#!/usr/bin/env node
// Loads the map page's common script (map-common.js) in a fresh VM context, with no DOM and no Leaflet:
// nothing of the page runs until HubGeoMap.start, so the script must load bare. Then checks its pure
// helpers against known answers: search folding, code point order, the ellipsoidal distance, labels.
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

console.log(`check-map-js: ${file} loads bare; fold, compareCodePoints, geodesicDistance and labels give the known answers`);
