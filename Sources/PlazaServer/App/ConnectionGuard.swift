import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import PlazaCore

/// Holds each HTTP/1 connection to its deadlines, right behind the request decoder, where Hummingbird has none:
/// a request's head must arrive within `headerTimeout` of the connection opening (or `idleTimeout` of the previous
/// response: keep-alive), its body within `bodyTimeout` of the head (else 408 `request_timeout` when nothing was
/// answered yet, and the connection closes), and a head past the decoder's size limit gets 431 instead of a bare 400. A client trickling bytes (slowloris) therefore holds a descriptor for seconds, not
/// forever. A server shutting down closes connections that wait for a head at once.
///
/// It steps aside (removes itself) on a WebSocket handshake, whose frames it must not see.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    struct Timeouts: Sendable {
        var header: TimeAmount
        var idle: TimeAmount
        var body: TimeAmount
    }

    private enum State {
        /// Waiting for the next request's head.
        case awaitingHead
        /// The head came; the body is arriving.
        case readingBody
        /// The whole request came; its response is being written.
        case responding
    }

    /// Whether a WebSocket upgrade's credentials hold (a bearer token that is valid, or none at all); the upgrade
    /// machinery answers any refusal with a bare 400, so a bad token is refused here, as the contract says: 401.
    typealias UpgradeCheck = @Sendable (HTTPRequestHead) async -> Bool

    private let timeouts: Timeouts
    private let upgradeCheck: UpgradeCheck?
    private var state = State.awaitingHead
    /// Whether the current request's response head went out (then a deadline can only close the connection).
    private var answered = false
    /// When the current deadline passes; nil while none runs (a response being written).
    private var due: NIODeadline?
    /// The one timer of the connection, set for `timerAt`. A deadline that moves later leaves it alone: it fires,
    /// finds the deadline not yet passed and sets itself again. Re-arming a timer for each request's head and
    /// response was a tenth of a `/healthz` (issue 43).
    private var timer: Scheduled<Void>?
    private var timerAt: NIODeadline?
    /// Parts read while an upgrade's credentials are being checked, passed on once they hold.
    private var held: [NIOAny]?
    /// A read the pipeline asked for while `held` was set, issued once the check is done.
    private var readWanted = false

    /// While set, each response says `Connection: close` and the connection closes after it (`ServerDrain`).
    private let drain: ServerDrain?
    /// The response being written said `Connection: close`: close once its end is written.
    private var closeAfterResponse = false

    init(timeouts: Timeouts, upgradeCheck: UpgradeCheck? = nil, drain: ServerDrain? = nil) {
        self.timeouts = timeouts
        self.upgradeCheck = upgradeCheck
        self.drain = drain
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(timeouts.header, context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(timeouts.header, context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        due = nil
        timer?.cancel()
        timer = nil
        timerAt = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if held != nil {
            held?.append(data)
            return
        }
        guard case .head(let head) = unwrapInboundIn(data), Self.isWebSocketUpgrade(head) else {
            return take(data, context: context)
        }
        guard let upgradeCheck, head.headers.contains(name: "authorization") else {
            return stepAside(context: context, with: [data])
        }
        // Nothing more is read (see `read`) until the credentials are known: held parts stay few.
        held = [data]
        context.eventLoop.makeFutureWithTask { await upgradeCheck(head) }.assumeIsolated().whenComplete { result in
            let parts = self.held ?? []
            self.held = nil
            guard case .success(true) = result else { return self.refuseUpgrade(context: context) }
            self.stepAside(context: context, with: parts)
            if self.readWanted {
                self.readWanted = false
                context.read()
            }
        }
    }

    /// A WebSocket handshake (RFC 6455): the upgrade machinery behind this handler then switches protocols, or answers
    /// and closes (a refused or malformed handshake), so the guard may leave. Any other `Upgrade` (h2c, made-up ones)
    /// changes nothing here: such a request is held to the deadlines like any other.
    static func isWebSocketUpgrade(_ head: HTTPRequestHead) -> Bool {
        head.method == .GET && head.headers[canonicalForm: "upgrade"].contains { $0.lowercased() == "websocket" }
    }

    /// Moves the request's state on and passes the part along.
    private func take(_ data: NIOAny, context: ChannelHandlerContext) {
        switch unwrapInboundIn(data) {
        case .head:
            state = .readingBody
            answered = false
            arm(timeouts.body, context: context)
        case .body:
            break
        case .end:
            state = .responding
            due = nil
        }
        context.fireChannelRead(data)
    }

    /// A WebSocket upgrade replaces the HTTP handlers around this one: leave before frames arrive.
    private func stepAside(context: ChannelHandlerContext, with parts: [NIOAny]) {
        for part in parts { context.fireChannelRead(part) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func read(context: ChannelHandlerContext) {
        if held != nil {
            readWanted = true
            return
        }
        context.read()
    }

    /// 401 `invalid_token` as a problem document, then the connection closes.
    private func refuseUpgrade(context: ChannelHandlerContext) {
        due = nil
        answer(
            PlazaError.invalidToken,
            status: .unauthorized,
            headers: ["www-authenticate": "Bearer error=\"invalid_token\""],
            context: context
        )
    }

    /// `error` as a problem document with `status`, then the connection closes.
    private func answer(
        _ error: PlazaError,
        status: HTTPResponseStatus,
        headers extra: HTTPHeaders = [:],
        context: ChannelHandlerContext
    ) {
        let body = (try? PlazaJSON.encoder().encode(error.problem)).map { ByteBuffer(bytes: $0) } ?? ByteBuffer()
        var headers: HTTPHeaders = [
            "content-type": "application/problem+json", "connection": "close",
            "content-length": String(body.readableBytes),
            "cache-control": "no-store",
        ]
        headers.add(contentsOf: extra)
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
            promise: nil
        )
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    /// A deadline passed: a body that stopped arriving is answered 408 (unless the application answered already);
    /// a head that never came, or an idle keep-alive connection, is only closed.
    private func expire(context: ChannelHandlerContext) {
        due = nil
        guard state == .readingBody, !answered else { return context.close(promise: nil) }
        answered = true
        let error = PlazaError(
            .requestTimeout,
            .requestTimeout,
            "The request's body stopped arriving.",
            detail: "Send the whole request again; nothing of it was used."
        )
        answer(error, status: .requestTimeout, context: context)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            answered = true
            if drain?.isDraining == true, head.status != .switchingProtocols {
                head.headers.replaceOrAdd(name: "connection", value: "close")
                closeAfterResponse = true
                return context.write(wrapOutboundOut(.head(head)), promise: promise)
            }
        case .end where closeAfterResponse:
            due = nil
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        case .end where state == .responding:
            state = .awaitingHead
            arm(timeouts.idle, context: context)
        default: break
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        // The decoder cannot go on after an error: answer it and close, whatever the handlers behind would do.
        let status: HTTPResponseStatus = parserError == .headerOverflow ? .requestHeaderFieldsTooLarge : .badRequest
        due = nil
        context.write(
            wrapOutboundOut(
                .head(
                    HTTPResponseHead(
                        version: .http1_1,
                        status: status,
                        headers: ["connection": "close", "content-length": "0"]
                    )
                )
            ),
            promise: nil
        )
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, state == .awaitingHead {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func arm(_ timeout: TimeAmount, context: ChannelHandlerContext) {
        let at = NIODeadline.now() + timeout
        due = at
        if let timerAt, timerAt <= at { return }
        timer?.cancel()
        setTimer(at, context: context)
    }

    private func setTimer(_ at: NIODeadline, context: ChannelHandlerContext) {
        timerAt = at
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: at) { self.timerFired(context: context) }
    }

    private func timerFired(context: ChannelHandlerContext) {
        timer = nil
        timerAt = nil
        guard let due else { return }
        if due > .now() { return setTimer(due, context: context) }
        expire(context: context)
    }
}
