import HubGeoDatabase
import HubGeoJSON
import HubGeoModel
/// The map page's own script (plain ES5 with a few ES2015 string functions; no libraries but Leaflet).
///
/// - Markers: clubs (blue circles) and museums (red squares) in a marker-cluster group, fitted on open.
/// - Popups: DOM text nodes only; links only for http(s) URLs, with `rel="noopener noreferrer"`.
/// - Language: a switcher when more than one language is given; it changes popups and labels.
/// - Search: name, nickname and Level 1 town, folded like `hubgeo search` (case, accents, width).
/// - Click: a pin and the 10 nearest organizations by ellipsoidal distance (Vincenty's inverse on
///   WGS84, which agrees with SpatiaLite's to well under a millimetre), ties by name then town as
///   `hubgeo near` orders them; in server mode `/api/near` answers instead.
enum MapScript {
    static let source = #"""
(function () {
"use strict";
var config = JSON.parse(document.getElementById("hubgeo-config").textContent);
var worldPolygons = JSON.parse(document.getElementById("hubgeo-world").textContent);

var LABELS = {
  en: {club: "Club", museum: "Museum", clubs: "Clubs", museums: "Museums", search: "Search name, nickname or town",
       town: "Town", members: "Members", website: "Website", wikipedia: "Wikipedia", nearest: "Nearest to the pin",
       none: "No organizations found.", truncated: "Showing the first {n}: zoom in to see all.", about: "About this map and licences",
       language: "Language", km: "km"},
  nl: {club: "Club", museum: "Museum", clubs: "Clubs", museums: "Musea", search: "Zoek naam, bijnaam of plaats",
       town: "Plaats", members: "Leden", website: "Website", wikipedia: "Wikipedia", nearest: "Dichtst bij de speld",
       none: "Geen organisaties gevonden.", truncated: "De eerste {n} getoond: zoom in om alles te zien.",
       about: "Over deze kaart en licenties", language: "Taal", km: "km"},
  de: {club: "Verein", museum: "Museum", clubs: "Vereine", museums: "Museen", search: "Name, Spitzname oder Ort suchen",
       town: "Ort", members: "Mitglieder", website: "Website", wikipedia: "Wikipedia", nearest: "Am nächsten zur Nadel",
       none: "Keine Organisationen gefunden.", truncated: "Die ersten {n} werden gezeigt: hineinzoomen, um alle zu sehen.",
       about: "Über diese Karte und Lizenzen", language: "Sprache", km: "km"},
  fr: {club: "Club", museum: "Musée", clubs: "Clubs", museums: "Musées", search: "Chercher nom, surnom ou ville",
       town: "Ville", members: "Membres", website: "Site web", wikipedia: "Wikipédia", nearest: "Les plus proches de l’épingle",
       none: "Aucune organisation trouvée.", truncated: "Les {n} premières : zoomez pour tout voir.",
       about: "À propos de cette carte et licences", language: "Langue", km: "km"}
};

var languages = config.languages || [];
var language = languages.length ? languages[0] : "";
function label(key) {
  var base = language.split("-")[0];
  return ((LABELS[language] || LABELS[base] || LABELS.en)[key]) || LABELS.en[key];
}

// ---- Text helpers -------------------------------------------------------------------------

/** Folds like `hubgeo search`: compatibility decomposition, marks removed, lower case. */
function fold(text) {
  return String(text || "").normalize("NFKD").replace(/[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g, "").toLowerCase();
}
/** Compares by Unicode code points, as SQLite compares UTF-8 text (BINARY collation). */
function compareCodePoints(a, b) {
  var i = 0, j = 0;
  while (i < a.length && j < b.length) {
    var x = a.codePointAt(i), y = b.codePointAt(j);
    if (x !== y) return x < y ? -1 : 1;
    i += x > 0xffff ? 2 : 1; j += y > 0xffff ? 2 : 1;
  }
  return (a.length - i) - (b.length - j) > 0 ? 1 : ((a.length - i) - (b.length - j) < 0 ? -1 : 0);
}
function element(tag, className, text) {
  var node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  node.setAttribute("dir", "auto");
  return node;
}
function isWebURL(text) { return typeof text === "string" && /^https?:\/\/[^\s]+$/i.test(text); }
function link(url, text) {
  var a = element("a", null, text);
  a.href = url; a.target = "_blank"; a.rel = "noopener noreferrer";
  return a;
}
function kilometres(metres) { return (metres / 1000).toFixed(2) + " " + label("km"); }

// ---- Ellipsoidal distance (WGS84, Vincenty's inverse) --------------------------------------

var WGS84_A = 6378137, WGS84_F = 1 / 298.257223563, WGS84_B = WGS84_A * (1 - WGS84_F);
var RAD = Math.PI / 180;
function geodesicDistance(lat1, lon1, lat2, lon2) {
  var L = (lon2 - lon1) * RAD;
  while (L > Math.PI) L -= 2 * Math.PI;
  while (L < -Math.PI) L += 2 * Math.PI;
  var U1 = Math.atan((1 - WGS84_F) * Math.tan(lat1 * RAD)), U2 = Math.atan((1 - WGS84_F) * Math.tan(lat2 * RAD));
  var sinU1 = Math.sin(U1), cosU1 = Math.cos(U1), sinU2 = Math.sin(U2), cosU2 = Math.cos(U2);
  var lambda = L, lambdaP, iterations = 0, sinSigma, cosSigma, sigma, cosSqAlpha, cos2SigmaM, sinLambda, cosLambda, sinAlpha, C;
  do {
    sinLambda = Math.sin(lambda); cosLambda = Math.cos(lambda);
    var t1 = cosU2 * sinLambda, t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda;
    sinSigma = Math.sqrt(t1 * t1 + t2 * t2);
    if (sinSigma === 0) return 0;
    cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda;
    sigma = Math.atan2(sinSigma, cosSigma);
    sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma;
    cosSqAlpha = 1 - sinAlpha * sinAlpha;
    cos2SigmaM = cosSqAlpha !== 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSqAlpha : 0;
    C = WGS84_F / 16 * cosSqAlpha * (4 + WGS84_F * (4 - 3 * cosSqAlpha));
    lambdaP = lambda;
    lambda = L + (1 - C) * WGS84_F * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)));
  } while (Math.abs(lambda - lambdaP) > 1e-13 && ++iterations < 500);
  if (iterations >= 500) {
    // Nearly antipodal points, where the iteration does not converge: the spherical distance
    // on the authalic sphere (within 0.5 % here, far beyond any organization's neighbours).
    return 6371007.2 * Math.acos(Math.max(-1, Math.min(1, Math.sin(lat1 * RAD) * Math.sin(lat2 * RAD) +
      Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.cos((lon2 - lon1) * RAD))));
  }
  var uSq = cosSqAlpha * (WGS84_A * WGS84_A - WGS84_B * WGS84_B) / (WGS84_B * WGS84_B);
  var A = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)));
  var B = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)));
  var deltaSigma = B * sinSigma * (cos2SigmaM + B / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) -
    B / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)));
  return WGS84_B * A * (sigma - deltaSigma);
}

// ---- The map ------------------------------------------------------------------------------

var map = L.map("map", {maxZoom: 18, minZoom: 1, worldCopyJump: true, zoomControl: true});
map.attributionControl.setPrefix("Leaflet");
var rings = [];
worldPolygons.forEach(function (polygon) {
  rings.push(polygon.map(function (ring) {
    var x = 0, y = 0, points = [];
    for (var i = 0; i < ring.length; i += 2) {
      x += ring[i]; y += ring[i + 1];
      points.push([y / 100, x / 100]);
    }
    return points;
  }));
});
L.polygon(rings, {renderer: L.canvas({padding: 0.5}), color: "#a39a88", weight: 0.7, fillColor: "#f2efe6", fillOpacity: 1,
  interactive: false, attribution: "Natural Earth"}).addTo(map);
L.tileLayer("https://tile.openstreetmap.org/{z}/{x}/{y}.png", {
  maxZoom: 19,
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener">OpenStreetMap</a> contributors'
}).addTo(map);

var clusters = L.markerClusterGroup({showCoverageOnHover: false, maxClusterRadius: 50, chunkedLoading: true});
map.addLayer(clusters);

var HubIcon = L.DivIcon.extend({
  createIcon: function (oldIcon) {
    var icon = L.DivIcon.prototype.createIcon.call(this, oldIcon);
    icon.setAttribute("data-id", this.options.featureId);
    icon.setAttribute("data-type", this.options.featureType);
    return icon;
  }
});

/** Properties by language, then by feature id; the features of the first language (in server
 *  mode: of the view, replaced as the map moves). */
var propertiesByLanguage = {};
var markersById = {};
var featuresById = {};
/** The features the search results and the nearest list show, which may lie outside the view. */
var listedById = {};

function featureOf(id) { return featuresById[id] || listedById[id]; }
function properties(id) {
  var table = propertiesByLanguage[language] || {};
  var f = featureOf(id);
  return table[id] || (f && f.properties) || {};
}

function popupContent(id) {
  var p = properties(id);
  var box = element("div", "hubgeo-popup");
  box.appendChild(element("div", "hubgeo-popup-name", p.name));
  var kind = label(p.type === "museum" ? "museum" : "club") + (p.nickName ? " · " + p.nickName : "");
  box.appendChild(element("div", "hubgeo-popup-kind", kind));
  var town = element("p", "hubgeo-popup-town");
  town.appendChild(element("span", null, label("town") + ": "));
  town.appendChild(element("span", "hubgeo-popup-level1-town", p.town));
  box.appendChild(town);
  if (p.localizedTown || p.localizedCountry) {
    box.appendChild(element("p", "hubgeo-popup-localized", [p.localizedTown, p.localizedCountry].filter(Boolean).join(", ")));
  }
  var links = element("p", "hubgeo-popup-links");
  if (isWebURL(p.website)) links.appendChild(link(p.website, label("website")));
  if (isWebURL(p.wikipedia)) {
    if (links.childNodes.length) links.appendChild(document.createTextNode(" · "));
    links.appendChild(link(p.wikipedia, label("wikipedia")));
  }
  if (links.childNodes.length) box.appendChild(links);
  if (p.remark) {
    var remark = element("p", "hubgeo-popup-remark", p.remark);
    if (p.remarkLanguage) remark.setAttribute("lang", String(p.remarkLanguage).toLowerCase());
    box.appendChild(remark);
  }
  if (typeof p.memberCount === "number") box.appendChild(element("p", "hubgeo-popup-members", label("members") + ": " + p.memberCount));
  return box;
}

/** Popups keep clear of the panel on a wide screen. */
function popupOptions() {
  var wide = map.getSize().x > 760;
  return {maxWidth: 320, autoPanPaddingTopLeft: L.point(wide ? 380 : 10, 20), autoPanPaddingBottomRight: L.point(20, 20)};
}

function markerFor(feature) {
  var c = feature.geometry.coordinates, p = feature.properties || {};
  var type = p.type === "museum" ? "museum" : "club";
  var marker = L.marker([c[1], c[0]], {
    icon: new HubIcon({className: "hubgeo-marker hubgeo-" + type, iconSize: [14, 14], html: "", featureId: String(feature.id), featureType: type}),
    title: String(p.name || ""), keyboard: true, riseOnHover: true
  });
  marker.featureId = String(feature.id);
  marker.bindPopup(function () { return popupContent(marker.featureId); }, popupOptions());
  return marker;
}

function rememberFeatures(collection, lang) {
  var table = propertiesByLanguage[lang] || (propertiesByLanguage[lang] = {});
  (collection.features || []).forEach(function (f) {
    table[String(f.id)] = f.properties || {};
    if (!featuresById[String(f.id)]) featuresById[String(f.id)] = f;
  });
}

/** Opens the popup of an organization, zooming in as far as its cluster needs; one outside the
 *  view (server mode) gets its popup at its place, from the listed feature. */
function openOrganization(id) {
  var marker = markersById[id], f = featureOf(id);
  if (marker && clusters.hasLayer(marker)) {
    clusters.zoomToShowLayer(marker, function () { marker.openPopup(); });
  } else if (f) {
    var c = f.geometry.coordinates;
    L.popup(popupOptions()).setLatLng([c[1], c[0]]).setContent(popupContent(id)).openOn(map);
  }
}

// ---- Legend, labels and language ----------------------------------------------------------

var legend = L.control({position: "bottomright"});
legend.onAdd = function () {
  var box = element("div", "hubgeo-legend");
  ["club", "museum"].forEach(function (type) {
    var row = element("div", "hubgeo-legend-" + type);
    row.appendChild(element("span", "hubgeo-marker hubgeo-" + type));
    row.appendChild(element("span", "hubgeo-legend-label"));
    box.appendChild(row);
  });
  return box;
};
legend.addTo(map);

var searchInput = document.getElementById("hubgeo-search");
var languageSelect = document.getElementById("hubgeo-lang");
var results = document.getElementById("hubgeo-results");
var notice = document.getElementById("hubgeo-notice");
var nearBox = document.getElementById("hubgeo-near");
var nearList = document.getElementById("hubgeo-near-list");

function applyLabels() {
  document.documentElement.setAttribute("lang", language || "en");
  searchInput.placeholder = label("search");
  searchInput.setAttribute("aria-label", label("search"));
  languageSelect.setAttribute("aria-label", label("language"));
  document.querySelector(".hubgeo-legend-club .hubgeo-legend-label").textContent = label("clubs");
  document.querySelector(".hubgeo-legend-museum .hubgeo-legend-label").textContent = label("museums");
  document.getElementById("hubgeo-near-title").textContent = label("nearest");
  document.querySelector("#hubgeo-about summary").textContent = label("about");
}

if (languages.length > 1) {
  languages.forEach(function (code) {
    var option = element("option", null, code);
    option.value = code;
    languageSelect.appendChild(option);
  });
  languageSelect.hidden = false;
  languageSelect.addEventListener("change", function () {
    language = languageSelect.value;
    applyLabels();
    refreshAfterLanguageChange();
  });
}

// ---- Lists: search results and the nearest ------------------------------------------------

function fillList(list, entries) {
  while (list.firstChild) list.removeChild(list.firstChild);
  entries.forEach(function (entry) {
    if (entry.feature) listedById[entry.id] = entry.feature;
    var item = element("li");
    item.setAttribute("data-id", entry.id);
    var button = element("button", "hubgeo-item-name", properties(entry.id).name);
    button.type = "button";
    button.addEventListener("click", function () { openOrganization(entry.id); });
    item.appendChild(button);
    if (typeof entry.distance === "number") {
      var distance = element("span", "hubgeo-distance", kilometres(entry.distance));
      distance.setAttribute("data-meters", String(entry.distance));
      item.appendChild(distance);
    }
    list.appendChild(item);
  });
}

var pin = null, pinPoint = null;
function showNearest(entries) {
  nearBox.hidden = false;
  fillList(nearList, entries);
  if (!entries.length) nearList.appendChild(element("li", null, label("none")));
}

function embeddedNearest(lat, lon, count) {
  var all = [];
  Object.keys(featuresById).forEach(function (id) {
    var f = featuresById[id], c = f.geometry.coordinates, p = f.properties || {};
    all.push({id: id, feature: f, distance: geodesicDistance(lat, lon, c[1], c[0]), key: String(p.name) + "\u001f" + String(p.town)});
  });
  all.sort(function (a, b) { return a.distance - b.distance || compareCodePoints(a.key, b.key); });
  return all.slice(0, count);
}

map.on("click", function (event) {
  var point = event.latlng.wrap();
  pinPoint = point;
  if (pin) map.removeLayer(pin);
  pin = L.marker(point, {icon: L.divIcon({className: "hubgeo-pin", iconSize: [18, 18], iconAnchor: [9, 18]}), interactive: false}).addTo(map);
  nearBox.setAttribute("data-lat", String(point.lat));
  nearBox.setAttribute("data-lon", String(point.lng));
  if (config.mode === "server") {
    fetchJSON("/api/near?lat=" + point.lat + "&lon=" + point.lng + "&nearest=10" + languageParameter(), function (collection) {
      rememberFeatures(collection, language);
      showNearest(collection.features.map(function (f) {
        var c = f.geometry.coordinates;
        return {id: String(f.id), feature: f, distance: geodesicDistance(point.lat, point.lng, c[1], c[0])};
      }));
    });
  } else {
    showNearest(embeddedNearest(point.lat, point.lng, 10));
  }
});

var searchTimer = null;
searchInput.addEventListener("input", function () {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(runSearch, config.mode === "server" ? 250 : 0);
});
function runSearch() {
  var query = searchInput.value;
  if (!query.trim()) { results.hidden = true; return; }
  if (config.mode === "server") {
    fetchJSON("/api/search?q=" + encodeURIComponent(query) + languageParameter(), function (collection) {
      rememberFeatures(collection, language);
      showResults(byName(collection.features.map(function (f) {
        return {id: String(f.id), feature: f, key: String(f.properties.name) + "\u001f" + String(f.properties.town)};
      })));
    });
    return;
  }
  var folded = fold(query), found = [];
  Object.keys(featuresById).forEach(function (id) {
    var f = featuresById[id], p = f.properties || {};
    if (fold(p.name).indexOf(folded) >= 0 || fold(p.nickName).indexOf(folded) >= 0 || fold(p.town).indexOf(folded) >= 0) {
      found.push({id: id, feature: f, key: String(p.name) + "\u001f" + String(p.town)});
    }
  });
  showResults(byName(found));
}
/** Sorted by name, then town, as `hubgeo search` lists them. */
function byName(entries) { return entries.sort(function (a, b) { return compareCodePoints(a.key, b.key); }); }
function showResults(found) {
  results.hidden = false;
  fillList(results, found.slice(0, 100));
  if (!found.length) results.appendChild(element("li", null, label("none")));
}

// ---- Data: inlined, or from the server by bounding box ------------------------------------

function languageParameter() { return language ? "&lang=" + encodeURIComponent(language) : ""; }
function fetchJSON(url, done, controller) {
  fetch(url, controller ? {signal: controller.signal} : {}).then(function (response) {
    if (!response.ok) throw new Error(url + ": HTTP " + response.status);
    return response.json();
  }).then(done).catch(function (error) { if (error.name !== "AbortError") console.error(String(error)); });
}

/** Shows the collection's features: markers already shown stay (with any open popup), others come and go. */
function setMarkers(collection) {
  var next = {}, added = [], removed = [];
  (collection.features || []).forEach(function (f) {
    var id = String(f.id);
    if (markersById[id]) { next[id] = markersById[id]; return; }
    next[id] = markerFor(f);
    added.push(next[id]);
  });
  Object.keys(markersById).forEach(function (id) { if (!next[id]) removed.push(markersById[id]); });
  markersById = next;
  clusters.removeLayers(removed);
  clusters.addLayers(added);
}

var pending = null;
function loadView() {
  if (pending) pending.abort();
  pending = new AbortController();
  var b = map.getBounds(), south = Math.max(-90, b.getSouth()), north = Math.min(90, b.getNorth());
  var west = b.getWest(), east = b.getEast();
  if (east - west >= 360) { west = -180; east = 180; } else {
    west = L.Util.wrapNum(west, [-180, 180], true); east = L.Util.wrapNum(east, [-180, 180], true);
  }
  var url = "/api/bbox?minlat=" + south.toFixed(6) + "&minlon=" + west.toFixed(6) + "&maxlat=" + north.toFixed(6) +
    "&maxlon=" + east.toFixed(6) + languageParameter();
  fetchJSON(url, function (collection) {
    featuresById = {};
    propertiesByLanguage[language] = {};
    rememberFeatures(collection, language);
    setMarkers(collection);
    notice.hidden = !collection.truncated;
    notice.textContent = collection.truncated ? label("truncated").replace("{n}", String(collection.features.length)) : "";
  }, pending);
}

function refreshAfterLanguageChange() {
  if (config.mode === "server") { loadView(); } else { clusters.refreshClusters(); }
  map.closePopup();
  if (!results.hidden) runSearch();
  if (pinPoint && !nearBox.hidden) fillList(nearList, Array.prototype.map.call(nearList.children, function (li) {
    var d = li.querySelector(".hubgeo-distance");
    return {id: li.getAttribute("data-id"), feature: featureOf(li.getAttribute("data-id")), distance: d ? Number(d.getAttribute("data-meters")) : undefined};
  }));
}

applyLabels();
if (config.mode === "server") {
  var e = config.extent;
  if (e) { map.fitBounds([[e[1], e[0]], [e[3], e[2]]], {padding: [20, 20], maxZoom: 12}); } else { map.setView([20, 0], 2); }
  map.on("moveend", loadView);
  loadView();
} else {
  var first = null;
  Object.keys(config.collections).forEach(function (lang) {
    rememberFeatures(config.collections[lang], lang);
    if (first === null) first = config.collections[lang];
  });
  if (!languages.length) language = "";
  setMarkers(first || {features: []});
  if (first && first.bbox) {
    var box = first.bbox;
    map.fitBounds([[box[1], box[0]], [box[3], box[2]]], {padding: [20, 20], maxZoom: 12});
  } else {
    map.setView([20, 0], 2);
  }
}

window.hubgeo = {map: map, clusters: clusters, markers: function () { return markersById; }, distance: geodesicDistance,
  language: function () { return language; }, fold: fold};
}());
"""#
}
