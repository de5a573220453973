import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// The HTTP/1 (and WebSocket) child channel with Plaza's connection limits around it: a `ConnectionGuard` behind the
/// request decoder, and at most `perClient` open connections from one address (proxies named in
/// `PLAZA_TRUSTED_PROXIES` carry many people's connections and are not capped).
struct GuardedServerChannel<Base: ServerChildChannel>: ServerChildChannel {
    let base: Base
    let timeouts: ConnectionGuard.Timeouts
    let perClient: Int
    let trustedProxies: TrustedProxies
    let counts: ConnectionCounts
    var upgradeCheck: ConnectionGuard.UpgradeCheck?
    var drain: ServerDrain?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        let address = channel.remoteAddress?.ipAddress
        if let address, !trustedProxies.contains(address) {
            guard counts.open(address, limit: perClient) else {
                logger.debug("connection refused: too many from one address", metadata: ["address": "\(address)"])
                channel.close(promise: nil)
                return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
            }
            channel.closeFuture.whenComplete { _ in counts.close(address) }
        }
        let (timeouts, upgradeCheck, drain) = (timeouts, upgradeCheck, drain)
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(
                ConnectionGuard(timeouts: timeouts, upgradeCheck: upgradeCheck, drain: drain),
                position: .after(decoder)
            )
            return value
        }
    }

    func handle(value: Base.Value, logger: Logger) async {
        // A connection closed for its deadline ends Hummingbird's wait for its first request with an error it logs
        // at `error` level: one line per slow client would let an attacker fill the log. It is routine here.
        var logger = logger
        logger.handler = DemotingLogHandler(base: logger.handler, routine: ["Error handling upgrade result"])
        await base.handle(value: value, logger: logger)
    }
}

/// Logs the messages named `routine` at `debug` level instead of their own; everything else as it comes.
struct DemotingLogHandler: LogHandler {
    var base: any LogHandler
    let routine: Set<String>

    func log(event: LogEvent) {
        var event = event
        if routine.contains(event.message.description) { event.level = .debug }
        guard event.level >= base.logLevel else { return }
        base.log(event: event)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }
}

/// Open connections per client address, shared by every connection of the server.
final class ConnectionCounts: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// Counts one more connection from `address`, unless it has `limit` open already.
    func open(_ address: String, limit: Int) -> Bool {
        counts.withLock { counts in
            guard counts[address, default: 0] < limit else { return false }
            counts[address, default: 0] += 1
            return true
        }
    }

    func close(_ address: String) {
        counts.withLock { counts in
            let left = counts[address, default: 1] - 1
            counts[address] = left > 0 ? left : nil
        }
    }
}
