import Synchronization

/// A value made once, on first need: the first caller starts making it, every caller (then and later) awaits that
/// one making. It runs in a task of its own, so a caller that goes away does not cancel it for the others.
final class AsyncOnce<Value: Sendable>: Sendable {
    private let make: @Sendable () async throws -> Value
    private let making = Mutex<Task<Value, any Error>?>(nil)

    init(_ make: @escaping @Sendable () async throws -> Value) {
        self.make = make
    }

    var value: Value {
        get async throws {
            let make = make
            let task = making.withLock { making -> Task<Value, any Error> in
                if let making { return making }
                let task = Task { try await make() }
                making = task
                return task
            }
            return try await task.value
        }
    }
}
