// The runners and scratch directories shared with the integration tests live in the
// HubGeoTestSupport target; every file of this target sees them as before.
@_exported import HubGeoTestSupport
