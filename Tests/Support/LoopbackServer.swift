import Hummingbird
import Logging

/// A stand-in's HTTP server on a free loopback port: the Stripe and geocoder stand-ins answer through it.
public struct LoopbackServer: Sendable {
    struct NotStarted: Error {}

    let task: Task<Void, any Error>
    public let port: Int

    public static func start(
        name: String,
        responder: CallbackResponder<BasicRequestContext>
    ) async throws -> LoopbackServer {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: name)
        logger.logLevel = .critical
        let app = Application(
            responder: responder,
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: name),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        let task = Task { try await app.runService() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw NotStarted() }
        return LoopbackServer(task: task, port: port)
    }

    public func stop() async {
        task.cancel()
        _ = await task.result
    }
}
