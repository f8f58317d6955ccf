import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// What an HTTP/1 request head says that the conversion to HTTP types drops, written into its
/// fields so that ``RequestLimitsMiddleware`` and Hummingbird act on it:
///
/// - A target in absolute form (`GET http://host/path`) names its host twice: in the target and
///   in `Host`. RFC 9112 §3.2.2 makes the target's host the one that counts, and a server answers
///   400 to a request whose hosts disagree (the trust issue's item 8). The conversion keeps only
///   the target's path, so the target's host is added as a `Host` when it differs from the one
///   sent: the request then names more than one host, which the middleware refuses; when they
///   agree (or `Host` is missing) the request goes on with the target's host.
/// - The version. An HTTP/1.1 request in origin form without `Host` is a 400 (RFC 9112 §3.2: "A
///   server MUST respond with a 400"): it gets an empty `Host`, which the middleware refuses.
///   HTTP/1.0 needs no `Host`, and its connection ends after the answer unless the client asked
///   for `keep-alive` (RFC 9112 §9.3): without that option it gets `Connection: close`, which
///   Hummingbird honours (the converted request reads as HTTP/1.1, which would keep it open).
final class RequestHeadHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let before = head.headers
        if let target = Self.authority(ofAbsolute: head.uri) {
            if !head.headers["Host"].contains(where: { $0.lowercased() == target.lowercased() }) {
                head.headers.add(name: "Host", value: target)
            }
        } else if head.version.major == 1 && head.version.minor >= 1, !head.headers.contains(name: "Host") {
            head.headers.add(name: "Host", value: "")
        }
        if head.version.major == 1 && head.version.minor == 0, !head.isKeepAlive {
            head.headers.replaceOrAdd(name: "Connection", value: "close")
        }
        context.fireChannelRead(head.headers == before ? data : wrapInboundOut(.head(head)))
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
    /// a ``RequestHeadHandler`` before the conversion to HTTP types, and passes all else on.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        func handlerAdded(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            if let codec = try? pipeline.context(handlerType: HTTP1ToHTTPServerCodec.self) {
                try? pipeline.addHandler(RequestHeadHandler(), position: .before(codec.handler))
            }
        }
    }
}
