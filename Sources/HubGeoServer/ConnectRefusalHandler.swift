import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Refuses CONNECT (a request for a tunnel, which this server never opens) with the 405 and JSON
/// error that every other method but GET and HEAD gets, then closes the connection: what follows
/// a CONNECT on it is meant for a tunnel, not for this server.
///
/// NIO's HTTP/1 encoder sends any answer to a CONNECT without its body and without framing
/// headers (a 2xx would turn the connection into a tunnel), which would leave a client waiting
/// for a body that never comes. So this handler, placed after the HTTP codec, writes the refusal
/// as bytes beneath the encoder, once every earlier request on the connection has its answer.
final class ConnectRefusalHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Requests passed on whose answer has not been written to its end yet.
    private var unanswered = 0
    /// Set by a CONNECT: nothing more is read, and the refusal goes out when `unanswered` is 0.
    private var refusing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        if case .head(let request) = unwrapInboundIn(data) {
            if request.method == .connect {
                refusing = true
                RequestLog.write(method: "CONNECT", target: request.authority ?? "", status: 405, bytes: Self.body.utf8.count,
                                 milliseconds: 0)
                if unanswered == 0 { refuse(context: context) }
                return
            }
            unanswered += 1
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let isEnd = if case .end = unwrapOutboundIn(data) { true } else { false }
        context.write(data, promise: promise)
        if isEnd {
            unanswered -= 1
            if refusing && unanswered == 0 { refuse(context: context) }
        }
    }

    static let body = APIError.methodNotAllowed.json

    /// Writes the 405 beneath the HTTP encoder, then closes the connection.
    private func refuse(context: ChannelHandlerContext) {
        guard let encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) else {
            context.close(promise: nil)
            return
        }
        let text = "HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(Self.body.utf8.count)\r\nConnection: close\r\n\r\n" + Self.body
        let channel = context.channel
        encoder.writeAndFlush(NIOAny(channel.allocator.buffer(string: text))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
