/*
 * The offline page's own part (`hubgeo map`), after map-common.js: every organization is inlined, one
 * GeoJSON FeatureCollection per language in the page's configuration, and clustered in the browser by
 * Leaflet.markercluster. Search and the nearest list are answered here, from the inlined features:
 * search folds like `hubgeo search`; the nearest are measured on the ellipsoid and ordered as
 * `hubgeo near` orders them (distance, then name, then town). A cluster's icon rings its count with its
 * share of clubs and museums, as the served page's does.
 */
HubGeoMap.start(function (hub) {
"use strict";
var map = hub.map;
var clusters = L.markerClusterGroup({showCoverageOnHover: false, maxClusterRadius: 50, chunkedLoading: true, iconCreateFunction: clusterIcon});
var markersById = {}, childMarkers = [];

/** Leaflet.markercluster's own icon (its sizes and colours), with the ring of the cluster's clubs and
 *  museums, counted from its markers. The plugin makes an icon only for a cluster it shows, so the
 *  clusters of a view count each organization once; one array serves every count. */
function clusterIcon(cluster) {
  childMarkers.length = 0;
  cluster.getAllChildMarkers(childMarkers);
  var count = childMarkers.length, museums = 0;
  for (var i = 0; i < count; i++) if (childMarkers[i].options.icon.options.featureType === "museum") museums += 1;
  childMarkers.length = 0;
  var size = count < 10 ? "small" : count < 100 ? "medium" : "large";
  return hub.clusterIcon("marker-cluster marker-cluster-" + size, 40, String(count), count - museums, museums, true,
                         {count: count, clubs: count - museums, museums: museums});
}

function markerFor(feature) {
  var c = feature.geometry.coordinates, id = String(feature.id);
  var marker = hub.organizationMarker([c[1], c[0]], id, feature.properties || {});
  marker.featureId = id;
  marker.bindPopup(function () { return hub.popupContent(marker.featureId); }, hub.popupOptions());
  return marker;
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

/** Opens the popup of an organization, zooming in as far as its cluster needs. */
function open(id) {
  var marker = markersById[id], f = hub.featureOf(id);
  if (marker && clusters.hasLayer(marker)) {
    clusters.zoomToShowLayer(marker, function () { marker.openPopup(); });
  } else if (f) {
    var c = f.geometry.coordinates;
    L.popup(hub.popupOptions()).setLatLng([c[1], c[0]]).setContent(hub.popupContent(id)).openOn(map);
  }
}

function search(query, show) {
  var folded = hub.fold(query), found = [];
  Object.keys(hub.featuresById).forEach(function (id) {
    var f = hub.featuresById[id], p = f.properties || {};
    if (hub.fold(p.name).indexOf(folded) >= 0 || hub.fold(p.nickName).indexOf(folded) >= 0 || hub.fold(p.town).indexOf(folded) >= 0) {
      found.push({id: id, feature: f, key: hub.nameKey(p)});
    }
  });
  show(found);
}

function nearest(point, show) {
  var all = [];
  Object.keys(hub.featuresById).forEach(function (id) {
    var f = hub.featuresById[id], c = f.geometry.coordinates;
    all.push({id: id, feature: f, distance: hub.geodesicDistance(point.lat, point.lng, c[1], c[0]), key: hub.nameKey(f.properties || {})});
  });
  all.sort(function (a, b) { return a.distance - b.distance || hub.compareCodePoints(a.key, b.key); });
  show(all.slice(0, 10));
}

function start() {
  map.addLayer(clusters);
  var collections = hub.config.collections, first = null;
  Object.keys(collections).forEach(function (lang) {
    hub.rememberFeatures(collections[lang], lang);
    if (first === null) first = collections[lang];
  });
  setMarkers(first || {features: []});
  hub.fitExtent(first && first.bbox);
}

return {
  searchDelay: 0, start: start, open: open, search: search, nearest: nearest,
  languageChanged: function () { clusters.refreshClusters(); },
  hooks: {clusters: clusters, markers: function () { return markersById; }}
};
});
