import Synchronization

/// A callback that one task installs and others call, such as the feed's receiver or the database's wait observer.
///
/// The closure lives in a class instance behind the lock, never directly in the `Mutex`'s generic storage: there,
/// every `withLock` re-wrapped it in two reabstraction thunks, so after n calls invoking it ran through 2n of them.
/// Profiling `plaza bench ledger` found it: half the server's CPU in those thunks, transfers slowing as they
/// accumulated, and past a few hundred thousand transactions the chain would overflow the stack.
public final class CallbackSlot<Argument>: Sendable {
    private final class Holder: Sendable {
        let body: @Sendable (Argument) -> Void
        init(_ body: @escaping @Sendable (Argument) -> Void) { self.body = body }
    }

    private let holder = Mutex<Holder?>(nil)

    public init() {}

    public func set(_ body: @escaping @Sendable (Argument) -> Void) {
        let new = Holder(body)
        holder.withLock { $0 = new }
    }

    /// Calls the installed callback, if any.
    public func callAsFunction(_ argument: Argument) {
        holder.withLock { $0 }?.body(argument)
    }

    public var isSet: Bool { holder.withLock { $0 != nil } }
}
