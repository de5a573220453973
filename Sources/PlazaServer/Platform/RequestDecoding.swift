import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlazaCore

extension Request {
    /// Reads the JSON body as `T`, answering every way it can go wrong with a problem:
    /// 413 past the size limit, 400 for malformed JSON, 422 naming each missing or mistyped field.
    func decodeJSON<T: Decodable>(as type: T.Type, limit: Int) async throws -> T {
        let buffer = try await body(upTo: limit)
        if let contentType = headers[.contentType], !contentType.lowercased().hasPrefix("application/json"),
            !contentType.lowercased().hasPrefix("application/merge-patch+json")
        {
            throw PlazaError(
                .unsupportedMediaType,
                .unsupportedMediaType,
                phrase("Send JSON."),
                detail: phrase("Content-Type must be application/json.")
            )
        }
        if buffer.readableBytes == 0 { throw PlazaError.malformed(phrase("The body is empty; send a JSON object.")) }
        if let fast = T.self as? any FastJSONDecodable.Type,
            let value = buffer.withUnsafeReadableBytes({ fast.init(json: $0) }) as? T
        {
            return value
        }
        let data = Data(buffer.readableBytesView)
        if let fields = NulText.fields(in: data), !fields.isEmpty {
            throw PlazaError.validation(
                fields.map { FieldError(field: $0, message: phrase("Remove the NUL character (U+0000).")) }
            )
        }
        do {
            return try PlazaJSON.decoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            if let fields = NumberFields.misfits(T.self, in: data), !fields.isEmpty {
                throw PlazaError.validation(
                    fields.map { FieldError(field: $0, message: phrase("Expected a whole number.")) }
                )
            }
            throw PlazaError(decoding: error)
        }
    }
}

extension Request {
    /// `decodeJSON` for a body that may be left out: nil when it is empty.
    func decodeJSONIfPresent<T: Decodable>(as type: T.Type, limit: Int) async throws -> T? {
        var request = self
        let buffer = try await request.body(upTo: limit)
        guard buffer.readableBytes > 0 else { return nil }
        request.body = .init(buffer: buffer)
        return try await request.decodeJSON(as: type, limit: limit)
    }

    /// The whole body, or 413 `payload_too_large` past `limit` bytes (the rest is not read).
    func body(upTo limit: Int) async throws -> ByteBuffer {
        var request = self
        do {
            return try await request.collectBody(upTo: limit)
        } catch {
            throw PlazaError(
                .contentTooLarge,
                .payloadTooLarge,
                phrase("The request body is too large."),
                detail: say("At most {limit} bytes.", ["limit": String(limit)])
            )
        }
    }
}

extension PlazaError {
    /// Maps a `DecodingError` to a problem that names the field (`points.3.latitude`).
    init(decoding error: DecodingError) {
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            (codingPath + (last.map { [$0] } ?? [])).map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(
                separator: "."
            )
        }
        switch error {
        case .keyNotFound(let key, let context):
            self = .validation(field: path(context.codingPath, key), phrase("This field is required."))
        case .valueNotFound(_, let context) where context.debugDescription.hasPrefix("null is not accepted"):
            self = .validation(field: path(context.codingPath), phrase("Leave this field out instead of sending null."))
        case .valueNotFound(_, let context):
            self = .validation(field: path(context.codingPath), phrase("This field is required."))
        case .typeMismatch(let type, let context):
            self = .validation(field: path(context.codingPath), PlazaError.expected(type))
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            self = .malformed(phrase("The body is not valid JSON."))
        case .dataCorrupted(let context):
            self = .validation(field: path(context.codingPath), phrase("This value is not one of the accepted ones."))
        @unknown default:
            self = .malformed(phrase("The body could not be read."))
        }
    }

    /// What a field of the wrong JSON type should have been, a whole sentence per type (said when shown).
    static func expected(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: phrase("Expected a string.")
        case is Bool.Type: phrase("Expected true or false.")
        case is Int.Type, is Int64.Type, is Int32.Type: phrase("Expected a whole number.")
        case is Double.Type, is Float.Type: phrase("Expected a number.")
        case is [Any].Type: phrase("Expected an array.")
        default: phrase("Expected another type.")
        }
    }
}
