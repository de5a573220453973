import SQLKit
import Synchronization

/// A check another domain installs to refuse a change inside the transaction that makes it (a business may not be
/// deleted while it holds money): the owning domain calls it without knowing who answers.
final class VetoSlot<Argument: Sendable>: Sendable {
    typealias Check = @Sendable (Argument, any SQLDatabase) async throws -> Void
    private let checks = Mutex<[Check]>([])

    func add(_ check: @escaping Check) {
        checks.withLock { $0.append(check) }
    }

    /// Runs every installed check; the first to throw refuses the change.
    func callAsFunction(_ argument: Argument, on db: any SQLDatabase) async throws {
        for check in checks.withLock({ $0 }) { try await check(argument, db) }
    }
}
