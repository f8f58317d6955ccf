/// Whether a reverse-geocoding answer names a place: what the geocode cache stores per answer.
package enum GeocodeStatus: String, Sendable, Codable {
    /// Nominatim returned a place.
    case found
    /// `{"error":"Unable to geocode"}`: no place here (at sea, far from all data). A valid answer.
    case noResult = "no_result"
}
