import Foundation
import Synchronization

/// Verified bearer tokens and the identity behind them, for a few seconds: a client sending many requests
/// costs one session read per `lifetime` instead of one per request.
///
/// This process forgets everything at once whenever an account or a session changes here (log-out,
/// revocation, password, profile, deletion). Another process sharing the database notices such a change
/// when its own entry ages out, at most `lifetime` later; an access token can never outlive its expiry.
final class IdentityCache: Sendable {
    private struct Entry {
        var identity: Identity
        var until: Date
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Counts clears, so that a read begun before one cannot store what it read after it.
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())
    let lifetime: TimeInterval
    /// Past this many tokens the cache starts afresh rather than growing without bound.
    let capacity: Int

    init(lifetime: TimeInterval = 5, capacity: Int = 50_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The cached identity, or nil and the generation to hand back to `store` after reading the database.
    func identity(for token: String, now: Date) -> (Identity?, generation: UInt64) {
        state.withLock { state in
            guard let entry = state.entries[token] else { return (nil, state.generation) }
            guard entry.until > now else {
                state.entries[token] = nil
                return (nil, state.generation)
            }
            return (entry.identity, state.generation)
        }
    }

    func store(_ identity: Identity, for token: String, tokenExpires: Date, now: Date, generation: UInt64) {
        guard lifetime > 0 else { return }
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[token] = Entry(identity: identity, until: min(tokenExpires, now.addingTimeInterval(lifetime)))
        }
    }

    /// Forgets every identity (an account or a session changed).
    func clear() {
        state.withLock { state in
            state.entries.removeAll(keepingCapacity: true)
            state.generation &+= 1
        }
    }
}
