import Foundation
import HubGeo
import HTTPTypes
import Hummingbird
import NIOCore

/// The vector tiles of `hubgeo serve`, for MapLibre, OpenLayers, QGIS or GDAL:
///
/// - `GET /tiles/{z}/{x}/{y}.mvt` (`lang` too): the tile of the stored cluster index
///   (``ClusterTiles``: layers `clusters` and `organizations`) as `application/vnd.mapbox-vector-tile`;
///   204 when nothing lies in it; 404 for a tile that does not exist (z above the index's zoom
///   limit, x or y outside 0..<2^z), 400 for a path or parameter that is not one.
/// - `GET /tiles.json`: TileJSON 3.0.0 pointing at those tiles on this server (the request's
///   `Host`), with the bounds, zooms up to the index's separation zoom and the layers.
///
/// As the API: an entity tag tied to the import (and a digest of the body with `lang`), 304 for
/// `If-None-Match`, gzip when accepted, one snapshot of the database per answer within the request
/// timeout. A tile is small by construction: at most a few dozen items fit in it once clustered,
/// and a co-located group lists at most 100 organizations.
extension MapServer {
    func addTileRoutes(to router: Router<BasicRequestContext>) {
        router.get("/tiles/:z/:x/:y") { request, context in
            await self.tileResponse(request, z: context.parameters.get("z") ?? "", x: context.parameters.get("x") ?? "",
                                    y: context.parameters.get("y") ?? "")
        }
        router.get("/tiles.json") { request, _ in
            let host = Self.publicHost(request.head.authority) ?? "\(self.settings.host):\(self.settings.port)"
            return await self.answer(request, contentType: "application/json") { query, store in
                try query.only(["lang"])
                let language = try query.language()
                let metadata = try store.tileSetMetadata(language: language, cache: self.tileCache)
                let suffix = language.map { "?lang=\($0)" } ?? ""
                return metadata.tileJSON(tilesURL: "http://\(host)/tiles/{z}/{x}/{y}.mvt\(suffix)")
            }
        }
    }

    /// The `Host` header when it is a plain host (letters, digits, dots, hyphens, a bracketed IPv6
    /// address) with an optional port; nil for anything else, which is never echoed.
    static func publicHost(_ header: String?) -> String? {
        guard let header, !header.isEmpty, header.count <= 255 else { return nil }
        let allowed = header.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || ".-:[]".unicodeScalars.contains(scalar))
        }
        return allowed ? header : nil
    }

    func tileResponse(_ request: Request, z: String, x: String, y: String) async -> Response {
        let mvtSuffix = ".mvt"
        guard y.hasSuffix(mvtSuffix) else {
            return response(APIError(status: 404, message: "tiles are /tiles/{z}/{x}/{y}.mvt", parameter: nil).json,
                            status: .notFound, contentType: "application/json")
        }
        let yText = String(y.dropLast(mvtSuffix.count))
        let numbers = [("z", z), ("x", x), ("y", yText)].map { name, text in
            (name, text, text.count <= 10 && !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } ? Int(text) : nil)
        }
        if let bad = numbers.first(where: { $0.2 == nil }) {
            return response(APIError.badParameter(bad.0, "\(bad.0) \"\(bad.1)\" is not a whole number").json,
                            status: .badRequest, contentType: "application/json")
        }
        guard let tile = TileAddress(z: numbers[0].2!, x: numbers[1].2!, y: numbers[2].2!),
              tile.z <= ClusterOptions.zoomLimit else {
            return response(APIError(status: 404, message: "there is no tile \(z)/\(x)/\(yText): z is 0 to \(ClusterOptions.zoomLimit), "
                                     + "x and y 0 to 2^z - 1", parameter: nil).json,
                            status: .notFound, contentType: "application/json")
        }
        let query = QueryParameters(query: request.uri.query ?? "")
        let ifNoneMatch = request.headers[.ifNoneMatch]
        let settingsTag = self.settingsTag
        let tooLate = APIError(status: 503, message: "the query took longer than \(settings.requestTimeout)", parameter: nil)
        enum TileOutcome: Sendable {
            case body([UInt8], tag: String?)
            case notModified(tag: String)
        }
        do {
            let answered = try await watchdog.run {
                try await self.store.snapshot { store -> TileOutcome in
                    try query.only(["lang"])
                    let language = try query.language()
                    guard let version = try store.importVersion() else {
                        return .body(try store.tile(tile, localization: self.localization(language), cache: self.tileCache), tag: nil)
                    }
                    var opaque = version + "." + settingsTag + ".t"
                    if language == nil, EntityTag.matches(ifNoneMatch, EntityTag.weak(opaque)) {
                        return .notModified(tag: EntityTag.weak(opaque))
                    }
                    let bytes = try store.tile(tile, localization: self.localization(language), cache: self.tileCache)
                    if language != nil {
                        var digest = FNV1a()
                        digest.addField(String(decoding: bytes, as: UTF8.self))
                        opaque += "." + FNV1a.hex(digest.value)
                    }
                    let tag = EntityTag.weak(opaque)
                    return EntityTag.matches(ifNoneMatch, tag) ? .notModified(tag: tag) : .body(bytes, tag: tag)
                }
            }
            guard let outcome = answered else { throw tooLate }
            let contentType = "application/vnd.mapbox-vector-tile"
            switch outcome {
            case .body(let bytes, let tag):
                var headers = Self.cachingHeaders(tag: tag)
                headers[.contentType] = contentType
                if bytes.isEmpty { return Response(status: .noContent, headers: headers) }
                var body = ByteBuffer(bytes: bytes)
                if GzipEncoding.isAccepted(request.headers[.acceptEncoding]), let compressed = try? GzipEncoding.compress(body) {
                    body = compressed
                    headers[.contentEncoding] = "gzip"
                }
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
            case .notModified(let tag):
                var headers = Self.cachingHeaders(tag: tag)
                headers[.contentType] = contentType
                return Response(status: .notModified, headers: headers)
            }
        } catch {
            return failure(error, of: request, tooLate: tooLate)
        }
    }
}
