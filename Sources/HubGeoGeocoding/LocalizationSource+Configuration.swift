import HubGeoModel

extension LocalizationSource {
    /// Answers in `language` as `localize` with `configuration` caches them.
    public init(language: String, configuration: NominatimConfiguration) {
        self.init(language: language, endpoint: configuration.endpointKey, zoom: configuration.zoom)
    }
}
