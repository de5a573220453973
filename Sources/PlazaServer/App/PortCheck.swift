import Foundation
import NIOCore
import NIOPosix

/// The port `plaza serve` or `plaza demo` would listen on is taken: said in one line, before anything says "running"
/// (issue 39: a busy port printed the demo's banner and then the process died).
public struct PortInUse: Error, CustomStringConvertible, Equatable {
    public var port: Int

    public var description: String { "Port \(port) is in use: set PLAZA_PORT to another" }
}

/// Binds the server's address once and lets it go again, so a taken port is reported before migrations and banners.
public enum PortCheck {
    public static func requireFree(host: String, port: Int) async throws {
        guard port != 0 else { return }
        do {
            // The same socket options as the server's own listener: a port left in TIME_WAIT counts as free.
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: host, port: port)
                .get()
            try await channel.close()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw PortInUse(port: port)
        }
    }
}
