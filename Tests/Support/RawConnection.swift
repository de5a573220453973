import NIOCore
import NIOPosix
import Synchronization

/// A bare TCP connection to a server on loopback, for what no HTTP client would send: half a request, a huge head,
/// a body that pauses. Collects what the server answers and notices when it hangs up.
public final class RawConnection: Sendable {
    private let channel: any Channel
    private let received: Received

    final class Received: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let state = Mutex<(text: String, closed: Bool)>(("", false))

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            state.withLock { $0.text += String(buffer: buffer) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            state.withLock { $0.closed = true }
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }

    public init(port: Int, host: String = "127.0.0.1") async throws {
        let received = Received()
        self.received = received
        channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(received) }
            }
            .connect(host: host, port: port).get()
    }

    public func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text))
    }

    /// What arrived so far, and whether the server closed the connection.
    public var state: (text: String, closed: Bool) { received.state.withLock { $0 } }

    /// Waits until `done` holds for what arrived (or `timeout` passes) and returns it.
    @discardableResult
    public func wait(
        timeout: Duration,
        until done: @Sendable ((text: String, closed: Bool)) -> Bool
    ) async throws -> (text: String, closed: Bool) {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, !done(state) { try await Task.sleep(for: .milliseconds(20)) }
        return state
    }

    public func close() async {
        try? await channel.close()
    }
}
