/// hubgeo's version, as sent in its User-Agent and shown by `--version`.
package enum HubGeoVersion {
    package static let current = "0.1.0"
}
