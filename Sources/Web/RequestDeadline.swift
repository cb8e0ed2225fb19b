// A client has `limit` to send a whole request: from the connection's start, or from the end of
// the previous answer, until the last byte of the request's body. Hummingbird's idle timeout
// closes a connection that sends nothing, but one that drips a header byte or a body byte every
// few seconds (slow loris) looks busy to it and would hold its descriptor for ever; with the
// connection cap (WebServer) a few hundred of those would lock everyone out of the page. Here the
// clock is not reset by any byte: only a complete request stops it, and the answer restarts it
// (the time the bridge takes to answer is its own, not the client's).
//
// A NIO channel handler, placed after Hummingbird's HTTP decoder (HTTP1Channel's
// additionalChannelHandlers): it sees request parts and answer parts go by, and closes the channel
// when the deadline passes. Its timer is NIO's own (the event loop's scheduled task).

import NIOCore
import NIOHTTPTypes

final class RequestDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let limit: TimeAmount
    private var timer: Scheduled<Void>?
    /// Requests read whole and not yet answered (a pipelining client may send several).
    private var unanswered = 0

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            unanswered += 1
            stop()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0 { start(context) }
        }
        context.write(data, promise: promise)
    }

    private func start(_ context: ChannelHandlerContext) {
        stop()
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: limit) { channel.close(promise: nil) }
    }

    private func stop() {
        timer?.cancel()
        timer = nil
    }
}
