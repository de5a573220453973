import NIOCore
import NIOPosix

/// Where Swift concurrency runs Plaza's request handlers.
public enum ConcurrencyExecutor {
    /// Makes SwiftNIO's event loops Swift concurrency's global executor, so that a request no longer hops
    /// from the event loop that read it to a thread of the concurrency pool and back for every await.
    /// Call first thing in `main`, once. Nothing in Plaza blocks a thread in an async context: SQLite,
    /// bcrypt and files run on the NIO thread pool. `PLAZA_GLOBAL_EXECUTOR=swift` keeps Swift's own pool.
    @discardableResult
    public static func install(_ choice: PlazaConfiguration.GlobalExecutor) -> Bool {
        guard choice == .eventLoops else { return false }
        return NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
