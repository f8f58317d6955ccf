/*
 * The served page's own part (`hubgeo serve`), after map-common.js: the server clusters
 * (`/api/clusters`). The page loads the clusters of the view after every move (debounced; an answer to
 * an older view is dropped), zooms to a cluster's expansion zoom on a click (or lists its organizations
 * when that is past the map's last zoom), lists a co-located group, and loads an organization's popup
 * from `/api/organizations/{id}` on a click. Search asks `/api/search`, a click on the map `/api/near`.
 * A cluster's icon rings its count with its share of clubs and museums (the answer's `clubs` and
 * `museums`); so does a co-located group's when it holds both.
 */
HubGeoMap.start(function (hub) {
"use strict";
var map = hub.map;

function languageParameter() { return hub.language() ? "&lang=" + encodeURIComponent(hub.language()) : ""; }
function fetchJSON(url, done, controller) {
  fetch(url, controller ? {signal: controller.signal} : {}).then(function (response) {
    if (!response.ok) throw new Error(url + ": HTTP " + response.status);
    return response.json();
  }).then(done).catch(function (error) { if (error.name !== "AbortError") console.error(String(error)); });
}

// ---- The clusters of the view, from /api/clusters -----------------------------------------

var itemMarkers = {};
var itemLayer = L.layerGroup();
var viewTimer = null, viewController = null, viewSequence = 0;
var viewState = {requested: 0, shown: 0, zoom: null, items: [], organizations: 0, truncated: false, firstShownAt: null, shownAt: null};

/** The view as the API takes it: west, south, east, north, a little wider than the screen so that
 *  markers do not pop in at the edges; the whole world when it shows every longitude, and the
 *  poles when it reaches the map's edge (85.05°, where every latitude beyond is drawn). */
function viewBox() {
  var b = map.getBounds().pad(0.1), west = b.getWest(), east = b.getEast();
  var south = b.getSouth() <= -85.05 ? -90 : b.getSouth(), north = b.getNorth() >= 85.05 ? 90 : b.getNorth();
  if (east - west >= 360) { west = -180; east = 180; } else {
    west = L.Util.wrapNum(west, [-180, 180], true); east = L.Util.wrapNum(east, [-180, 180], true);
  }
  return [west, Math.max(-90, south), east, Math.min(90, north)];
}

/** After a move: the view's clusters, once the map has been still for a moment. */
function scheduleView() {
  clearTimeout(viewTimer);
  viewTimer = setTimeout(loadClusters, 120);
}

function loadClusters() {
  if (viewController) viewController.abort();
  viewController = new AbortController();
  var sequence = ++viewSequence, zoom = Math.round(map.getZoom());
  viewState.requested = sequence;
  var url = "/api/clusters?bbox=" + viewBox().map(function (v) { return v.toFixed(5); }).join(",") + "&zoom=" + zoom;
  fetchJSON(url, function (collection) {
    if (sequence !== viewSequence) return;  // an answer to an older view
    showItems(collection, zoom);
    viewState.shown = sequence;
    viewState.shownAt = performance.now();
    if (viewState.firstShownAt === null) viewState.firstShownAt = viewState.shownAt;
  }, viewController);
}

/** Drawn where the view is: a longitude shifted by 360° when the map shows another copy of the world. */
function inView(lat, lon) {
  var center = map.getCenter().lng;
  while (lon - center > 180) lon -= 360;
  while (lon - center < -180) lon += 360;
  return L.latLng(lat, lon);
}

function abbreviated(count) {
  if (count >= 1000000) return (count / 1000000).toFixed(count >= 10000000 ? 0 : 1).replace(/\.0$/, "") + "M";
  if (count >= 10000) return Math.round(count / 1000) + "k";
  if (count >= 1000) return (count / 1000).toFixed(1).replace(/\.0$/, "") + "k";
  return String(count);
}

/** A cluster's or group's icon, sized by its count, with the ring of its clubs and museums (a group's
 *  only when it holds both; any of them without the counts, as from an older server, plain). */
function countIcon(className, p, ringed, data) {
  var size = p.count < 100 ? 36 : p.count < 10000 ? 42 : 50;
  if (typeof p.clubs === "number" && typeof p.museums === "number") { data.clubs = p.clubs; data.museums = p.museums; }
  return hub.clusterIcon(className, size, abbreviated(p.count), p.clubs, p.museums, ringed, data);
}

function itemMarker(f) {
  var p = f.properties || {}, c = f.geometry.coordinates, id = String(f.id), marker;
  var latlng = inView(c[1], c[0]);
  if (p.kind === "cluster") {
    var size = p.count < 100 ? "small" : p.count < 10000 ? "medium" : "large";
    marker = L.marker(latlng, {icon: countIcon("marker-cluster marker-cluster-" + size + " hubgeo-cluster", p, true,
      {"cluster-id": id, count: p.count, "expansion-zoom": p.expansionZoom}), keyboard: true, title: String(p.count)});
    marker.on("click", function () { openCluster(f); });
  } else if (p.kind === "colocated") {
    marker = L.marker(latlng, {icon: countIcon("marker-cluster hubgeo-group", p, p.clubs > 0 && p.museums > 0, {"group-id": id, count: p.count}),
      keyboard: true, title: (p.organizations || []).map(function (o) { return o.name; }).join(", ")});
    marker.on("click", function () { openGroup(f); });
  } else {
    marker = hub.organizationMarker(latlng, id, p);
    marker.on("click", function () { openOrganization(id, false); });
  }
  marker.itemFeature = f;
  return marker;
}

/** Shows the view's items: markers of items still shown stay, others come and go. */
function showItems(collection, zoom) {
  var next = {};
  (collection.features || []).forEach(function (f) {
    var key = String(f.id);
    next[key] = itemMarkers[key] || itemMarker(f);
    next[key].setLatLng(inView(f.geometry.coordinates[1], f.geometry.coordinates[0]));
    if (!itemLayer.hasLayer(next[key])) itemLayer.addLayer(next[key]);
  });
  Object.keys(itemMarkers).forEach(function (key) { if (!next[key]) itemLayer.removeLayer(itemMarkers[key]); });
  itemMarkers = next;
  viewState.zoom = zoom;
  viewState.items = (collection.features || []).map(function (f) {
    return {id: String(f.id), kind: f.properties.kind, count: f.properties.count, clubs: f.properties.clubs, museums: f.properties.museums,
            expansionZoom: f.properties.expansionZoom,
            lat: f.geometry.coordinates[1], lon: f.geometry.coordinates[0], bbox: f.bbox || null};
  });
  viewState.organizations = collection.organizations;
  viewState.truncated = !!collection.truncated;
  hub.notice.hidden = !collection.truncated;
  hub.notice.textContent = collection.truncated ? hub.label("truncated").replace("{n}", String((collection.features || []).length)) : "";
}

// ---- Clusters, groups and organizations opened ---------------------------------------------

/** A cluster splits at its expansion zoom: the map goes there, centred on it. Past the map's last
 *  zoom (organizations a few metres apart) its organizations are listed instead. */
function openCluster(f) {
  var c = f.geometry.coordinates, zoom = f.properties.expansionZoom;
  if (zoom <= map.getMaxZoom()) {
    map.setView(inView(c[1], c[0]), zoom);
    return;
  }
  var b = f.bbox;
  fetchJSON("/api/bbox?minlat=" + b[1] + "&minlon=" + b[0] + "&maxlat=" + b[3] + "&maxlon=" + b[2] + languageParameter(), function (collection) {
    hub.rememberFeatures(collection, hub.language());
    showPlaceList(inView(c[1], c[0]), hub.byName(collection.features.map(function (feature) {
      hub.listedById[String(feature.id)] = feature;
      return {id: String(feature.id), name: feature.properties.name, type: feature.properties.type, key: hub.nameKey(feature.properties)};
    })), f.properties.count);
  });
}

/** A co-located group: a popup listing its organizations (by name); a click on one opens it. */
function openGroup(f) {
  var c = f.geometry.coordinates, members = f.properties.organizations || [];
  showPlaceList(inView(c[1], c[0]), members.map(function (o) { return {id: String(o.id), name: o.name, type: o.type}; }), f.properties.count);
}

function showPlaceList(latlng, entries, count) {
  var element = hub.element, box = element("div", "hubgeo-place");
  box.appendChild(element("div", "hubgeo-place-title", hub.label("here")));
  var list = element("ol", "hubgeo-place-list");
  entries.forEach(function (entry) {
    var item = element("li");
    item.setAttribute("data-id", entry.id);
    item.appendChild(element("span", "hubgeo-marker hubgeo-" + (entry.type === "museum" ? "museum" : "club")));
    var button = element("button", "hubgeo-item-name", entry.name);
    button.type = "button";
    button.addEventListener("click", function () { openOrganization(entry.id, false, latlng); });
    item.appendChild(button);
    list.appendChild(item);
  });
  box.appendChild(list);
  if (count > entries.length) box.appendChild(element("p", "hubgeo-place-more", hub.label("more").replace("{n}", String(count - entries.length))));
  L.popup(hub.popupOptions()).setLatLng(latlng).setContent(box).openOn(map);
}

/** The popup of an organization, with its details from the server in the chosen language (once per
 *  language). `move`: the map first goes to it, close enough to tell it from its neighbours. */
function openOrganization(id, move, at) {
  function show() {
    var f = hub.featureOf(id);
    if (!f) return;
    var c = f.geometry.coordinates, latlng = at || inView(c[1], c[0]);
    if (move) {
      map.setView(latlng, Math.max(map.getZoom(), 14), {animate: false});
      latlng = inView(c[1], c[0]);
    }
    L.popup(L.extend(hub.popupOptions(), {offset: L.point(0, -4)})).setLatLng(latlng).setContent(hub.popupContent(id)).openOn(map);
  }
  if (hub.hasProperties(id) && hub.featureOf(id)) { show(); return; }
  var language = hub.language();
  fetchJSON("/api/organizations/" + encodeURIComponent(id) + (language ? "?lang=" + encodeURIComponent(language) : ""), function (collection) {
    hub.rememberFeatures(collection, hub.language());
    (collection.features || []).forEach(function (f) { hub.listedById[String(f.id)] = f; });
    show();
  });
}

// ---- Search and the nearest, from the server ----------------------------------------------

function search(query, show) {
  fetchJSON("/api/search?q=" + encodeURIComponent(query) + languageParameter(), function (collection) {
    hub.rememberFeatures(collection, hub.language());
    show(collection.features.map(function (f) { return {id: String(f.id), feature: f, key: hub.nameKey(f.properties)}; }));
  });
}

function nearest(point, show) {
  fetchJSON("/api/near?lat=" + point.lat + "&lon=" + point.lng + "&nearest=10" + languageParameter(), function (collection) {
    hub.rememberFeatures(collection, hub.language());
    show(collection.features.map(function (f) {
      var c = f.geometry.coordinates;
      return {id: String(f.id), feature: f, distance: hub.geodesicDistance(point.lat, point.lng, c[1], c[0])};
    }));
  });
}

function start() {
  itemLayer.addTo(map);
  hub.fitExtent(hub.config.extent);
  map.on("moveend", scheduleView);
  loadClusters();
}

return {
  searchDelay: 250, start: start, search: search, nearest: nearest,
  open: function (id) { openOrganization(id, true); },
  hooks: {view: function () { return viewState; }}
};
});
