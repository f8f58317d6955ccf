// `import HubGeo` gives the whole library: the targets it is built from are re-exported.
@_exported import HubGeoHTTP
@_exported import HubGeoJSON
@_exported import HubGeoModel
