import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import PlazaDemo
import PlazaServer

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

    private let channel: any Channel
    private let handler: ResponseHandler
    private let host: String

    init(port: Int) async throws {
        let handler = ResponseHandler()
        channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        self.handler = handler
        host = "127.0.0.1:\(port)"
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
        let (channel, handler, head) = (channel, handler, request)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Reply, any Error>) in
            channel.eventLoop.execute {
                handler.waiting.append(continuation)
                channel.write(HTTPClientRequestPart.head(head), promise: nil)
                if let body { channel.write(HTTPClientRequestPart.body(.byteBuffer(body)), promise: nil) }
                channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            }
        }
    }

    func close() async {
        try? await channel.close()
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
