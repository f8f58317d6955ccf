/// hubgeo's version, as sent in its User-Agent and shown by `--version`.
public enum HubGeoVersion {
    public static let current = "0.1.0"
}
