import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore

extension TestClientProtocol {
    /// Sends `body` as JSON (or nothing), with a bearer token when given.
    public func send(
        _ method: HTTPRequest.Method,
        _ path: String,
        json body: (some Encodable)? = Optional<Acknowledgement>.none,
        token: String? = nil,
        headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = headers
        if let token { headers[.authorization] = "Bearer \(token)" }
        var buffer: ByteBuffer?
        if let body {
            buffer = ByteBuffer(bytes: try PlazaJSON.encoder().encode(body))
            if headers[.contentType] == nil { headers[.contentType] = "application/json" }
        }
        return try await execute(uri: path, method: method, headers: headers, body: buffer)
    }

    /// Sends raw bytes, for malformed-input tests.
    public func sendRaw(
        _ method: HTTPRequest.Method,
        _ path: String,
        body: String,
        contentType: String? = "application/json",
        token: String? = nil
    )
        async throws -> TestResponse
    {
        var headers = HTTPFields()
        if let contentType { headers[.contentType] = contentType }
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(uri: path, method: method, headers: headers, body: ByteBuffer(string: body))
    }
}

extension TestResponse {
    /// The body decoded as `T` in Plaza's JSON coding.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try PlazaJSON.decoder().decode(T.self, from: Data(body.readableBytesView))
    }

    /// The problem document, when this is one.
    public var problem: Problem? {
        guard headers[.contentType] == "application/problem+json" else { return nil }
        return try? decode(Problem.self)
    }

    public var text: String { String(buffer: body) }
}
