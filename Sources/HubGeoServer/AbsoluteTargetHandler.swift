import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// A request whose target is in absolute form (`GET http://host/path`) names its host twice: in
/// the target and in `Host`. RFC 9112 §3.2.2 makes the target's host the one that counts, and a
/// server answers 400 to a request whose hosts disagree (the trust issue's item 8). The conversion
/// to HTTP types keeps only the target's path, so this handler, placed before it, adds the
/// target's host as a `Host` when it differs from the one sent: the request then names more than
/// one host, which ``RequestLimitsMiddleware`` refuses; when they agree (or `Host` is missing) the
/// request goes on with the target's host.
///
/// The same handler sees the HTTP version, which the conversion drops: an HTTP/1.1 request in origin
/// form without `Host` is a 400 too (RFC 9112 §3.2: "A server MUST respond with a 400"), so it gets
/// an empty `Host`, which the middleware refuses as malformed; HTTP/1.0 needs no `Host`.
final class AbsoluteTargetHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if let target = Self.authority(ofAbsolute: head.uri) {
            guard !head.headers["Host"].contains(where: { $0.lowercased() == target.lowercased() }) else {
                context.fireChannelRead(data)
                return
            }
            head.headers.add(name: "Host", value: target)
        } else if head.version.major * 10 + head.version.minor >= 11, !head.headers.contains(name: "Host") {
            head.headers.add(name: "Host", value: "")
        } else {
            context.fireChannelRead(data)
            return
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// `host[:port]` of an absolute-form target; nil for the origin form (`/path`) and for `*`.
    static func authority(ofAbsolute uri: String) -> String? {
        guard let schemeEnd = uri.range(of: "://"), !uri.hasPrefix("/") else { return nil }
        let rest = uri[schemeEnd.upperBound...]
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<end]
        return String(authority.split(separator: "@").last ?? authority)
    }

    /// Added to the channel after the HTTP codec (where Hummingbird places extra handlers), it puts
    /// an ``AbsoluteTargetHandler`` before the conversion to HTTP types, and passes all else on.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        func handlerAdded(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            if let codec = try? pipeline.context(handlerType: HTTP1ToHTTPServerCodec.self) {
                try? pipeline.addHandler(AbsoluteTargetHandler(), position: .before(codec.handler))
            }
        }
    }
}
