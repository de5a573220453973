import Foundation
import NIOCore
import NIOHTTP1

/// One HTTP connection per worker, as each Redis worker has its own connection.
struct HTTPPool: Sendable {
    struct BenchFailure: Error, CustomStringConvertible { var description: String }

    let connections: [BenchHTTPConnection]

    init(port: Int, size: Int) async throws {
        var connections: [BenchHTTPConnection] = []
        for _ in 0..<max(1, size) { connections.append(try await BenchHTTPConnection(port: port)) }
        self.connections = connections
    }

    /// Sends on worker `index`'s connection; anything but a success stops the bench.
    @discardableResult
    func send(
        _ index: Int, _ method: HTTPMethod, _ path: String, token: String, json body: ByteBuffer? = nil, idempotencyKey: String? = nil
    ) async throws
        -> ByteBuffer
    {
        let reply = try await connections[index % connections.count].send(method, path, token: token, json: body, idempotencyKey: idempotencyKey)
        guard reply.status < 300 else { throw BenchFailure(description: "\(method) \(path): \(reply.status) \(String(buffer: reply.body))") }
        return reply.body
    }

    /// A GET's body, as `Data` for a decoder.
    func get(_ path: String, token: String) async throws -> Data {
        Data(try await send(0, .GET, path, token: token).readableBytesView)
    }

    func close() async {
        for connection in connections { await connection.close() }
    }
}

/// One Redis connection per worker, as each HTTP worker has its own connection.
struct RedisPool: Sendable {
    let connections: [RedisConnection]

    init(port: Int, size: Int) async throws {
        var connections: [RedisConnection] = []
        for _ in 0..<max(1, size) { connections.append(try await RedisConnection(port: port)) }
        self.connections = connections
    }

    func connection(_ index: Int) -> RedisConnection { connections[index % connections.count] }
}
