// `import HubGeo` gives the whole library: the targets it is built from are re-exported. The list is the
// HubGeo target's dependencies in Package.swift; `make docs` fails when this file differs from it.
@_exported import HubGeoClusters
@_exported import HubGeoDatabase
@_exported import HubGeoExport
@_exported import HubGeoGeocoding
@_exported import HubGeoHTTP
@_exported import HubGeoImport
@_exported import HubGeoJSON
@_exported import HubGeoModel
@_exported import HubGeoOutput
@_exported import HubGeoReader
@_exported import HubGeoTiles
@_exported import HubGeoValidation
