import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import PlazaDemo
import PlazaServer
import Synchronization

/// A minimal HTTP/1.1 keep-alive client for the benches, built like the Redis one (`RedisConnection`): one
/// connection, one request at a time, SwiftNIO's own HTTP codec. Both peers are then measured through
/// clients of the same weight on the same event loops. Kept instead of AsyncHTTPClient because of a measurement:
/// through AsyncHTTPClient the bench itself became the limit (`/healthz` −38 %, presence −44 %; docs/benchmarks.md,
/// "The benches' HTTP client"). `--http-client async-http-client` repeats that comparison.
final class BenchHTTPConnection: Sendable {
    struct Reply: Sendable {
        var status: Int
        var body: ByteBuffer
    }

    struct ConnectionClosed: Error {}

    private let port: Int
    private let current: Mutex<(channel: any Channel, handler: ResponseHandler)>
    private let host: String

    init(port: Int) async throws {
        self.port = port
        current = Mutex(try await Self.connect(port: port))
        host = "127.0.0.1:\(port)"
    }

    private static func connect(port: Int) async throws -> (channel: any Channel, handler: ResponseHandler) {
        let handler = ResponseHandler()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return (channel, handler)
    }

    /// The connection, opened again when the server closed it: a server closes a keep-alive connection idle for
    /// `PLAZA_IDLE_TIMEOUT` (30 s), and loading a million points into PostGIS took longer than that between two rows.
    /// A request written to the closed one was never answered, and the bench waited forever.
    private func open() async throws -> (channel: any Channel, handler: ResponseHandler) {
        let known = current.withLock { $0 }
        guard !known.channel.isActive else { return known }
        let fresh = try await Self.connect(port: port)
        current.withLock { $0 = fresh }
        return fresh
    }

    /// Sends one request and waits for the whole response.
    func send(
        _ method: HTTPMethod,
        _ path: String,
        token: String,
        json body: ByteBuffer? = nil,
        idempotencyKey: String? = nil,
        contentType: String = "application/json"
    ) async throws -> Reply {
        var request = HTTPRequestHead(version: .http1_1, method: method, uri: path)
        request.headers.add(name: "Host", value: host)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let idempotencyKey { request.headers.add(name: "Idempotency-Key", value: idempotencyKey) }
        if let body {
            request.headers.add(name: "Content-Type", value: contentType)
            request.headers.add(name: "Content-Length", value: String(body.readableBytes))
        }
        let (channel, handler) = try await open()
        let head = request
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Reply, any Error>) in
            channel.eventLoop.execute {
                // Closed meanwhile: its handler will hear of nothing more.
                guard channel.isActive else { return continuation.resume(throwing: ConnectionClosed()) }
                handler.waiting.append(continuation)
                channel.write(HTTPClientRequestPart.head(head), promise: nil)
                if let body { channel.write(HTTPClientRequestPart.body(.byteBuffer(body)), promise: nil) }
                channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            }
        }
    }

    func close() async {
        try? await current.withLock { $0.channel }.close()
    }

    /// Lives on the connection's event loop only: gathers each response and hands it to the oldest waiter.
    final class ResponseHandler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPClientResponsePart
        var waiting: [CheckedContinuation<Reply, any Error>] = []
        private var status = 0
        private var body = ByteBuffer()

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                status = Int(head.status.code)
                body.clear()
            case .body(var part):
                body.writeBuffer(&part)
            case .end:
                guard !waiting.isEmpty else { return }
                waiting.removeFirst().resume(returning: Reply(status: status, body: body))
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            for waiter in waiting { waiter.resume(throwing: ConnectionClosed()) }
            waiting.removeAll()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            for waiter in waiting { waiter.resume(throwing: error) }
            waiting.removeAll()
            context.close(promise: nil)
        }
    }
}
