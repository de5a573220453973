import Foundation
import NIOCore
import NIOPosix
import PlazaServer
import Testing

/// `plaza serve` and `plaza demo` on a port another process holds: one line naming the port, before any banner.
@Suite struct PortCheckTests {
    @Test func aTakenPortIsNamed() async throws {
        let holder = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let port = try #require(holder.localAddress?.port)
        let error = await #expect(throws: PortInUse.self) {
            try await PortCheck.requireFree(host: "127.0.0.1", port: port)
        }
        #expect(error?.description == "Port \(port) is in use: set PLAZA_PORT to another")
        try await holder.close()
        // Let go, the port is free again; but in the whole suite another test's connection can take it meanwhile, so a
        // port taken again counts only if fresh ones are too.
        var free = [port]
        for _ in 0..<2 { free.append(try await Self.freshPort()) }
        var freed = false
        for candidate in free where !freed {
            do {
                try await PortCheck.requireFree(host: "127.0.0.1", port: candidate)
                freed = true
            } catch is PortInUse {}
        }
        #expect(freed, "none of the ports \(free) counted as free once let go")
    }

    /// A port the system just gave out and took back.
    static func freshPort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let port = try #require(channel.localAddress?.port)
        try await channel.close()
        return port
    }
}
