import Foundation
@testable import HubGeoServer
import Testing

/// The time at the head of each line of the request log, which `RequestLog.timestamp()`
/// writes by hand from the UTC calendar parts of the system's clock (CPOSIX).
@Suite("The request log's time")
struct RequestLogTimeTests {
    @Test("RFC 3339 in UTC with milliseconds, and the time it was written")
    func timestampIsNowInUTC() throws {
        let before = Date()
        let stamp = RequestLog.timestamp()
        let after = Date()
        #expect(stamp.utf8.count == 24 && stamp.hasSuffix("Z"), "\(stamp)")
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let written = try #require(parser.date(from: stamp), "\(stamp)")
        // The milliseconds are cut, not rounded: the stamp may be up to 1 ms before `before`.
        #expect(written >= before.addingTimeInterval(-0.002) && written <= after, "\(stamp) is not between \(before) and \(after)")
    }
}
