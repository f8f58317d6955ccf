/*
 * The map page's common script: what the offline page (`hubgeo map`, map-embedded.js) and the served
 * page (`hubgeo serve`, map-served.js) share. Plain ES5 with a few ES2015 string functions; no library
 * but Leaflet. MapPage.swift inlines this file and the page's own file, in that order, in one script
 * element; the page's file calls HubGeoMap.start with what only it does.
 *
 * - Markers: clubs (blue circles) and museums (red squares), fitted on open. Where they come from and
 *   how they cluster is the page's: see its file. A cluster's icon (clusterIcon) carries a ring whose
 *   blue and red arcs are its share of clubs and museums; the legend explains it.
 * - Popups: DOM text nodes only; links only for http(s) URLs, with rel="noopener noreferrer".
 * - Language: a switcher when more than one language is given; it changes popups and labels.
 * - Search: the page finds the matches (name, nickname and Level 1 town, folded like `hubgeo search`:
 *   case, accents, width); they are listed here by name, then town.
 * - Click: a pin and the 10 nearest organizations (the page finds them), with their ellipsoidal
 *   distance (Vincenty's inverse on WGS84, which agrees with SpatiaLite's to well under a millimetre).
 *
 * Data comes only from <script type="application/json"> elements (read with JSON.parse) and, on the
 * served page, from the server's JSON answers; it reaches the page only as text nodes and attribute
 * values, never as HTML. window.hubgeo holds what the browser tests and benchmarks look at.
 */
var HubGeoMap = (function () {
"use strict";

var LABELS = {
  en: {club: "Club", museum: "Museum", clubs: "Clubs", museums: "Museums", search: "Search name, nickname or town",
       town: "Town", members: "Members", website: "Website", wikipedia: "Wikipedia", nearest: "Nearest to the pin",
       none: "No organizations found.", truncated: "Showing the first {n}: zoom in to see all.", about: "About this map and licences",
       language: "Language", km: "km", here: "At this place", more: "and {n} more",
       ring: "Ring: share of clubs and museums"},
  nl: {club: "Club", museum: "Museum", clubs: "Clubs", museums: "Musea", search: "Zoek naam, bijnaam of plaats",
       town: "Plaats", members: "Leden", website: "Website", wikipedia: "Wikipedia", nearest: "Dichtst bij de speld",
       none: "Geen organisaties gevonden.", truncated: "De eerste {n} getoond: zoom in om alles te zien.",
       about: "Over deze kaart en licenties", language: "Taal", km: "km", here: "Op deze plek", more: "en nog {n}",
       ring: "Ring: aandeel clubs en musea"},
  de: {club: "Verein", museum: "Museum", clubs: "Vereine", museums: "Museen", search: "Name, Spitzname oder Ort suchen",
       town: "Ort", members: "Mitglieder", website: "Website", wikipedia: "Wikipedia", nearest: "Am nächsten zur Nadel",
       none: "Keine Organisationen gefunden.", truncated: "Die ersten {n} werden gezeigt: hineinzoomen, um alle zu sehen.",
       about: "Über diese Karte und Lizenzen", language: "Sprache", km: "km", here: "An diesem Ort", more: "und {n} weitere",
       ring: "Ring: Anteil der Vereine und Museen"},
  fr: {club: "Club", museum: "Musée", clubs: "Clubs", museums: "Musées", search: "Chercher nom, surnom ou ville",
       town: "Ville", members: "Membres", website: "Site web", wikipedia: "Wikipédia", nearest: "Les plus proches de l’épingle",
       none: "Aucune organisation trouvée.", truncated: "Les {n} premières : zoomez pour tout voir.",
       about: "À propos de cette carte et licences", language: "Langue", km: "km", here: "À cet endroit", more: "et {n} de plus",
       ring: "Anneau : part des clubs et des musées"}
};

/** The label `key` in `language` (or its base language), else in English. */
function labelIn(language, key) {
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
/** The key that orders organizations as `hubgeo search` and `hubgeo near` break ties: name, then town. */
function nameKey(p) { return String(p.name) + "\u001f" + String(p.town); }
/** Sorted by name, then town (each entry's `key`), as `hubgeo search` lists them. */
function byName(entries) { return entries.sort(function (a, b) { return compareCodePoints(a.key, b.key); }); }
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

// ---- The ring of a cluster: its share of clubs and museums ---------------------------------

var SVG_NS = "http://www.w3.org/2000/svg";
var CLUB_COLOUR = "#1f6fd1", MUSEUM_COLOUR = "#d12f1f";
/** The ring's width in pixels: the halo around a cluster's count; an arc is never drawn shorter than
 *  RING_MIN_ARC pixels, so that one museum among a thousand clubs still shows. */
var RING_WIDTH = 5, RING_MIN_ARC = 2;

function isCount(n) { return typeof n === "number" && isFinite(n) && n >= 0 && Math.floor(n) === n; }

/**
 * The arcs of a ring `circumference` pixels long for `clubs` and `museums`: {club, museum}, their
 * lengths, proportional to the counts (clockwise from the top, clubs first), a share too small to see
 * widened to RING_MIN_ARC; null unless both are whole numbers, not negative, with a positive sum
 * (a server older than the counts sends none, and its clusters keep a plain icon).
 */
function ringArcs(clubs, museums, circumference) {
  if (!isCount(clubs) || !isCount(museums) || clubs + museums === 0) return null;
  var club = circumference * clubs / (clubs + museums);
  if (clubs > 0 && museums > 0) club = Math.min(Math.max(club, RING_MIN_ARC), circumference - RING_MIN_ARC);
  return {club: club, museum: circumference - club};
}

function svgElement(tag, attributes) {
  var node = document.createElementNS(SVG_NS, tag);
  Object.keys(attributes).forEach(function (name) { node.setAttribute(name, String(attributes[name])); });
  return node;
}

/** An SVG ring `size` pixels across and `width` wide: one circle per arc that is not empty (class
 *  hubgeo-ring-club or hubgeo-ring-museum; its stroke-dasharray is its length, pathLength the whole
 *  ring's), or null when ringArcs gives none. */
function ring(clubs, museums, size, width) {
  var radius = (size - width) / 2, circumference = 2 * Math.PI * radius, centre = size / 2;
  var arcs = ringArcs(clubs, museums, circumference);
  if (!arcs) return null;
  var svg = svgElement("svg", {"class": "hubgeo-ring", width: size, height: size, viewBox: "0 0 " + size + " " + size,
                               "aria-hidden": "true", focusable: "false"});
  var start = 0;
  [["club", arcs.club, CLUB_COLOUR], ["museum", arcs.museum, MUSEUM_COLOUR]].forEach(function (arc) {
    if (arc[1] > 0) {
      svg.appendChild(svgElement("circle", {"class": "hubgeo-ring-" + arc[0], cx: centre, cy: centre, r: radius, fill: "none",
        stroke: arc[2], "stroke-width": width, pathLength: circumference.toFixed(4),
        "stroke-dasharray": arc[1].toFixed(4) + " " + circumference.toFixed(4), "stroke-dashoffset": (-start).toFixed(4),
        transform: "rotate(-90 " + centre + " " + centre + ")"}));
    }
    start += arc[1];
  });
  return svg;
}

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

// ---- The page -----------------------------------------------------------------------------

/**
 * Builds the page: the map and its world outline, the panel (search, language, the nearest list), the
 * legend and the popups. `makePage(hub)` is the page's own part: given `hub` (below), it answers
 *   {searchDelay: milliseconds after typing before searching,
 *    start(): shows the data and fits the map,
 *    open(id): opens an organization's popup (from a list),
 *    search(query, show): finds the matches and calls show(entries) (each {id, feature, key}; listed by key),
 *    nearest(point, show): finds the 10 nearest and calls show(entries) (each {id, feature, distance}),
 *    languageChanged(): (optional) redraws what shows labels,
 *    hooks: (optional) more members of window.hubgeo, which has map, distance, language, fold and an idle view}.
 */
function start(makePage) {
  var config = JSON.parse(document.getElementById("hubgeo-config").textContent);
  var worldPolygons = JSON.parse(document.getElementById("hubgeo-world").textContent);
  var languages = config.languages || [];
  var language = languages.length ? languages[0] : "";
  function label(key) { return labelIn(language, key); }
  function kilometres(metres) { return (metres / 1000).toFixed(2) + " " + label("km"); }

  // ---- The map ----------------------------------------------------------------------------

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

  /** A div icon that carries its organization's id and type (or a cluster's data) as data- attributes. */
  var HubIcon = L.DivIcon.extend({
    createIcon: function (oldIcon) {
      var icon = L.DivIcon.prototype.createIcon.call(this, oldIcon);
      if (this.options.featureId !== undefined) icon.setAttribute("data-id", this.options.featureId);
      if (this.options.featureType !== undefined) icon.setAttribute("data-type", this.options.featureType);
      var data = this.options.data || {};
      Object.keys(data).forEach(function (key) { icon.setAttribute("data-" + key, String(data[key])); });
      return icon;
    }
  });
  /** The marker of one organization: a blue circle for a club, a red square for a museum. */
  function organizationMarker(latlng, id, p) {
    var type = p.type === "museum" ? "museum" : "club";
    return L.marker(latlng, {
      icon: new HubIcon({className: "hubgeo-marker hubgeo-" + type, iconSize: [14, 14], html: "", featureId: id, featureType: type}),
      title: String(p.name || ""), keyboard: true, riseOnHover: true});
  }

  /**
   * The icon of a cluster or co-located group, `size` pixels across: `text` (its count) on a disc,
   * and, when `ringed` and the counts allow (ringArcs), the ring of its clubs and museums in place of
   * the halo around the disc (class hubgeo-ringed). `data`: its data- attributes.
   */
  function clusterIcon(className, size, text, clubs, museums, ringed, data) {
    var box = document.createElement("div"), span = document.createElement("span");
    span.textContent = text;
    box.appendChild(span);
    var drawn = ringed ? ring(clubs, museums, size, RING_WIDTH) : null;
    if (drawn) box.appendChild(drawn);
    return new HubIcon({className: className + (drawn ? " hubgeo-ringed" : ""), iconSize: [size, size], html: box, data: data});
  }

  /** Properties by language, then by feature id; the features the page holds (on the embedded page
   *  all of them, in the first language; on the served page those it has been sent). */
  var propertiesByLanguage = {};
  var featuresById = {};
  /** The features the search results and the nearest list show, which may lie outside the view. */
  var listedById = {};

  function featureOf(id) { return featuresById[id] || listedById[id]; }
  function properties(id) {
    var table = propertiesByLanguage[language] || {};
    var f = featureOf(id);
    return table[id] || (f && f.properties) || {};
  }
  function hasProperties(id) { return !!(propertiesByLanguage[language] || {})[id]; }
  function rememberFeatures(collection, lang) {
    var table = propertiesByLanguage[lang] || (propertiesByLanguage[lang] = {});
    (collection.features || []).forEach(function (f) {
      table[String(f.id)] = f.properties || {};
      if (!featuresById[String(f.id)]) featuresById[String(f.id)] = f;
    });
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

  /** Fits the map to a box (west, south, east, north), or shows the world without one. */
  function fitExtent(box) {
    if (box) {
      map.fitBounds([[box[1], box[0]], [box[3], box[2]]], {padding: [20, 20], maxZoom: 12});
    } else {
      map.setView([20, 0], 2);
    }
  }

  // ---- Legend, labels and language --------------------------------------------------------

  var legend = L.control({position: "bottomright"});
  legend.onAdd = function () {
    var box = element("div", "hubgeo-legend");
    ["club", "museum"].forEach(function (type) {
      var row = element("div", "hubgeo-legend-" + type);
      row.appendChild(element("span", "hubgeo-marker hubgeo-" + type));
      row.appendChild(element("span", "hubgeo-legend-label"));
      box.appendChild(row);
    });
    // The ring of a cluster, two clubs to one museum.
    var ringRow = element("div", "hubgeo-legend-ring");
    ringRow.appendChild(ring(2, 1, 14, 4));
    ringRow.appendChild(element("span", "hubgeo-legend-label"));
    box.appendChild(ringRow);
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
    document.querySelector(".hubgeo-legend-ring .hubgeo-legend-label").textContent = label("ring");
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

  // ---- Lists: search results and the nearest ----------------------------------------------

  function fillList(list, entries) {
    while (list.firstChild) list.removeChild(list.firstChild);
    entries.forEach(function (entry) {
      if (entry.feature) listedById[entry.id] = entry.feature;
      var item = element("li");
      item.setAttribute("data-id", entry.id);
      var button = element("button", "hubgeo-item-name", properties(entry.id).name);
      button.type = "button";
      button.addEventListener("click", function () { page.open(entry.id); });
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

  map.on("click", function (event) {
    var point = event.latlng.wrap();
    pinPoint = point;
    if (pin) map.removeLayer(pin);
    pin = L.marker(point, {icon: L.divIcon({className: "hubgeo-pin", iconSize: [18, 18], iconAnchor: [9, 18]}), interactive: false}).addTo(map);
    nearBox.setAttribute("data-lat", String(point.lat));
    nearBox.setAttribute("data-lon", String(point.lng));
    page.nearest(point, showNearest);
  });

  var searchTimer = null;
  searchInput.addEventListener("input", function () {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(runSearch, page.searchDelay);
  });
  function runSearch() {
    var query = searchInput.value;
    if (!query.trim()) { results.hidden = true; return; }
    page.search(query, showResults);
  }
  function showResults(found) {
    byName(found);
    results.hidden = false;
    fillList(results, found.slice(0, 100));
    if (!found.length) results.appendChild(element("li", null, label("none")));
  }

  function refreshAfterLanguageChange() {
    if (page.languageChanged) page.languageChanged();
    map.closePopup();
    if (!results.hidden) runSearch();
    if (pinPoint && !nearBox.hidden) fillList(nearList, Array.prototype.map.call(nearList.children, function (li) {
      var d = li.querySelector(".hubgeo-distance");
      return {id: li.getAttribute("data-id"), feature: featureOf(li.getAttribute("data-id")), distance: d ? Number(d.getAttribute("data-meters")) : undefined};
    }));
  }

  // ---- The page's own part ----------------------------------------------------------------

  var hub = {
    config: config, map: map, notice: notice, HubIcon: HubIcon, featuresById: featuresById, listedById: listedById,
    language: function () { return language; }, label: label, element: element, nameKey: nameKey, byName: byName,
    geodesicDistance: geodesicDistance, compareCodePoints: compareCodePoints, fold: fold, organizationMarker: organizationMarker,
    clusterIcon: clusterIcon, featureOf: featureOf, hasProperties: hasProperties, rememberFeatures: rememberFeatures,
    popupContent: popupContent, popupOptions: popupOptions, fitExtent: fitExtent
  };
  var page = makePage(hub);

  applyLabels();
  page.start();

  // view(): the served page's view as the server answered it (map-served.js); a page that asks the
  // server nothing has requested no view.
  var idleView = {requested: 0, shown: 0, zoom: null, items: [], organizations: 0, truncated: false, firstShownAt: null, shownAt: null};
  var hooks = {map: map, distance: geodesicDistance, language: function () { return language; }, fold: fold,
               view: function () { return idleView; }};
  Object.keys(page.hooks || {}).forEach(function (key) { hooks[key] = page.hooks[key]; });
  window.hubgeo = hooks;
}

return {start: start, fold: fold, compareCodePoints: compareCodePoints, geodesicDistance: geodesicDistance, labelIn: labelIn,
        ringArcs: ringArcs};
}());
