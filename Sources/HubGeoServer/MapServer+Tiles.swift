import Foundation
import HubGeo
import Hummingbird

/// The vector tiles of `hubgeo serve`, for MapLibre, OpenLayers, QGIS or GDAL:
///
/// - `GET /tiles/{z}/{x}/{y}.mvt` (`lang` too): the tile of the stored cluster index
///   (``ClusterTiles``: layers `clusters` and `organizations`) as `application/vnd.mapbox-vector-tile`;
///   204 when nothing lies in it; 404 for a tile that does not exist (z above
///   ``TileAddress/maximumZoom``, x or y outside 0..<2^z, a number written with a leading zero: a tile
///   has one address), 400 for a path or parameter that is not one.
/// - `GET /tiles.json`: TileJSON 3.0.0 pointing at those tiles under ``ServerSettings/publicURL``, else
///   on this server as the request's `Host` names it (then the entity tag covers the host and `Vary`
///   names it), with the bounds, zooms up to the index's separation zoom and the layers.
///
/// Both through the API's one pipeline (``MapServer/answer(_:format:variant:bytes:)``): an entity tag
/// tied to the import (and a digest of the body with `lang`), 304 for `If-None-Match`, gzip when
/// accepted (a tile as the archives store it), one snapshot of the database per answer within the
/// request timeout. A tile is small by construction: at most a few dozen items fit in it once
/// clustered, and a co-located group lists at most 100 organizations.
extension MapServer {
    func addTileRoutes(to router: Router<BasicRequestContext>) {
        router.get("/tiles/:z/:x/:y") { request, context in
            let tile: TileAddress
            do throws(APIError) {
                tile = try Self.tileAddress(z: context.parameters.get("z") ?? "", x: context.parameters.get("x") ?? "",
                                            y: context.parameters.get("y") ?? "")
            } catch {
                return self.errorResponse(error)
            }
            return await self.answer(request, format: .vectorTile, bytes: { query, store in
                try query.only(["lang"])
                let language = try query.language()
                return try store.tile(tile, localization: self.localization(language), cache: self.tileCache)
            })
        }
        router.get("/tiles.json") { request, _ in
            let base: String
            var variant: AnswerVariant?
            if let publicURL = self.settings.publicURL {
                base = publicURL.base
            } else {
                // The Host header was checked (HostHeader) before any route runs.
                base = "http://" + (request.head.authority ?? self.settings.listeningAuthority)
                variant = AnswerVariant(tag: base, vary: "Host")
            }
            return await self.answer(request, format: .json, variant: variant) { query, store in
                try query.only(["lang"])
                let language = try query.language()
                let metadata = try store.tileSetMetadata(language: language, cache: self.tileCache)
                let suffix = language.map { "?lang=\($0)" } ?? ""
                return metadata.tileJSON(tilesURL: "\(base)/tiles/{z}/{x}/{y}.mvt\(suffix)")
            }
        }
    }

    /// The tile of a `/tiles/{z}/{x}/{y}.mvt` path (Hummingbird's route parameters `z`, `x` and
    /// `y`, the last with its suffix): each number in decimal digits, as ``TileAddress`` takes it,
    /// written without leading zeros. Not Hummingbird's `require(_:as: Int.self)`, whose 400 does
    /// not name the parameter and which takes `007` and `+7` (a tile has one address: 404), nor a
    /// `{y}.mvt` route, which would answer another suffix with an empty 404 instead of the form
    /// of a tile's path.
    static func tileAddress(z: String, x: String, y: String) throws(APIError) -> TileAddress {
        let mvtSuffix = ".mvt"
        guard y.hasSuffix(mvtSuffix) else { throw APIError(status: 404, message: "tiles are /tiles/{z}/{x}/{y}.mvt", parameter: nil) }
        let yText = String(y.dropLast(mvtSuffix.count))
        var numbers: [Int] = []
        for (name, text) in [("z", z), ("x", x), ("y", yText)] {
            guard text.count <= 10, !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text) else {
                throw .badParameter(name, "\(name) \"\(text)\" is not a whole number")
            }
            numbers.append(number)
        }
        let written = "\(z)/\(x)/\(yText)"
        let canonical = numbers.map(String.init).joined(separator: "/")
        guard written == canonical else {
            throw APIError(status: 404, message: "there is no tile \(written): a tile's numbers have no leading zeros (/tiles/\(canonical).mvt)",
                           parameter: nil)
        }
        guard let tile = TileAddress(z: numbers[0], x: numbers[1], y: numbers[2]) else {
            throw APIError(status: 404, message: "there is no tile \(written): z is 0 to \(TileAddress.maximumZoom), x and y 0 to 2^z - 1",
                           parameter: nil)
        }
        return tile
    }
}
