import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Which HTTP client the benches load Plaza through (`--http-client`).
public enum BenchHTTPClient: String, Sendable, CaseIterable {
    /// `BenchHTTPConnection`: one keep-alive connection per worker on SwiftNIO's HTTP codec, as light as the RESP client.
    case nio
    /// AsyncHTTPClient with a pool of as many HTTP/1.1 connections as workers: the kept client, measured against the light one.
    case asyncHTTPClient = "async-http-client"
}

/// One HTTP connection per worker, as each Redis worker has its own connection.
struct HTTPPool: Sendable {
    struct BenchFailure: Error, CustomStringConvertible { var description: String }

    private enum Backend: Sendable {
        case nio([BenchHTTPConnection])
        case asyncHTTPClient(HTTPClient, base: String)
    }

    private let backend: Backend

    init(port: Int, size: Int, client: BenchHTTPClient = .nio) async throws {
        switch client {
        case .nio:
            var connections: [BenchHTTPConnection] = []
            for _ in 0..<max(1, size) { connections.append(try await BenchHTTPConnection(port: port)) }
            backend = .nio(connections)
        case .asyncHTTPClient:
            var configuration = HTTPClient.Configuration()
            configuration.httpVersion = .http1Only
            configuration.connectionPool = .init(
                idleTimeout: .seconds(600),
                concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, size)
            )
            backend = .asyncHTTPClient(
                HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration),
                base: "http://127.0.0.1:\(port)"
            )
        }
    }

    /// Sends on worker `index`'s connection; anything but a success stops the bench.
    @discardableResult
    func send(
        _ index: Int,
        _ method: HTTPMethod,
        _ path: String,
        token: String,
        json body: ByteBuffer? = nil,
        idempotencyKey: String? = nil
    ) async throws
        -> ByteBuffer
    {
        let status: Int
        let reply: ByteBuffer
        switch backend {
        case .nio(let connections):
            let answer = try await connections[index % connections.count].send(
                method,
                path,
                token: token,
                json: body,
                idempotencyKey: idempotencyKey
            )
            (status, reply) = (answer.status, answer.body)
        case .asyncHTTPClient(let client, let base):
            var request = HTTPClientRequest(url: base + path)
            request.method = method
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            if let idempotencyKey { request.headers.add(name: "Idempotency-Key", value: idempotencyKey) }
            if let body {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(body)
            }
            let response = try await client.execute(request, timeout: .seconds(60))
            status = Int(response.status.code)
            reply = try await response.body.collect(upTo: 64 << 20)
        }
        guard status < 300 else {
            throw BenchFailure(description: "\(method) \(path): \(status) \(String(buffer: reply))")
        }
        return reply
    }

    /// A GET's body, as `Data` for a decoder.
    func get(_ path: String, token: String) async throws -> Data {
        Data(try await send(0, .GET, path, token: token).readableBytesView)
    }

    func close() async {
        switch backend {
        case .nio(let connections): for connection in connections { await connection.close() }
        case .asyncHTTPClient(let client, _): try? await client.shutdown()
        }
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
