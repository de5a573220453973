#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value many threads read at once and few write, behind a POSIX read-write lock: the live index and
/// the catalog answer every presence query in parallel on both cores, where a mutex let one at a time.
final class ReadWriteLock<Value>: @unchecked Sendable {
    private var value: Value
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init(_ value: Value) {
        self.value = value
        lock = .allocate(capacity: 1)
        precondition(pthread_rwlock_init(lock, nil) == 0, "pthread_rwlock_init failed")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func read<T>(_ body: (Value) throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(value)
    }

    func write<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(&value)
    }
}
