import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlazaCore

extension Response {
    /// A JSON response in Plaza's coding (camelCase, ISO 8601 dates).
    static func json(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) throws -> Response {
        let data = try PlazaJSON.encoder().encode(value)
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The same response for JSON encoded already.
    static func json(encoded json: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: json))
        )
    }

    /// The same response for a value that writes its own JSON (long lists).
    static func json(writing value: some JSONWritable, status: HTTPResponse.Status = .ok) -> Response {
        var writer = JSONWriter()
        value.write(to: &writer)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: writer.buffer)
        )
    }

    /// A CSV download.
    static func csv(_ text: String, filename: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"\(filename)\"",
                .cacheControl: "no-store",
            ],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    /// A file to download: `bytes` of `contentType`, saved as `filename`.
    static func download(_ bytes: Data, contentType: String, filename: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: contentType, .contentDisposition: "attachment; filename=\"\(filename)\"",
                .cacheControl: "no-store",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    /// `204 No Content`.
    static var noContent: Response { Response(status: .noContent) }
}

extension PlazaError {
    /// The problem document as a response.
    func problemResponse() -> Response {
        let data = (try? PlazaJSON.encoder().encode(problem)) ?? Data()
        var headers = self.headers
        headers[.contentType] = "application/problem+json"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
