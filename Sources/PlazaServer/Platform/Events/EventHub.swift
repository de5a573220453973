import Foundation
import PlazaCore
import Synchronization

/// The listeners connected to this process (`GET /v1/events` sockets), by user. Each event reaches every
/// listener of its audience once.
final class EventHub: Sendable {
    private let listeners = Mutex<[UUID: [UUID: AsyncStream<PlazaEvent>.Continuation]]>([:])

    /// A stream of `user`'s events until the returned stream is dropped or cancelled.
    func subscribe(_ user: UUID) -> AsyncStream<PlazaEvent> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: PlazaEvent.self, bufferingPolicy: .bufferingNewest(256))
        listeners.withLock { $0[user, default: [:]][id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.listeners.withLock { listeners in
                listeners[user]?[id] = nil
                if listeners[user]?.isEmpty == true { listeners[user] = nil }
            }
        }
        return stream
    }

    /// Whether anyone in `audience` has a stream open here.
    func listens(toAny audience: [UUID]) -> Bool {
        listeners.withLock { listeners in audience.contains { listeners[$0] != nil } }
    }

    func deliver(_ event: PlazaEvent, to audience: [UUID]) {
        let targets = listeners.withLock { listeners in
            audience.flatMap { listeners[$0].map { Array($0.values) } ?? [] }
        }
        for continuation in targets { continuation.yield(event) }
    }
}
