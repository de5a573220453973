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
        // Let go, the same port is free again.
        try await PortCheck.requireFree(host: "127.0.0.1", port: port)
    }
}
