import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A submitted HTML form with a file (`multipart/form-data`, RFC 7578): its text fields and files by name. Pages that
/// take a picture without needing a script post one (the card studio's "Add a photo").
struct MultipartForm: Sendable {
    struct Part: Sendable {
        var name: String
        var filename: String?
        var contentType: String?
        var data: Data
    }

    /// The largest form: a picture of at most `MediaService.maximumBytes` and a few fields.
    static let maximumBytes = 10 * 1_024 * 1_024 + 64 * 1_024
    static let maximumParts = 32

    private(set) var parts: [Part] = []

    /// Nil when `contentType` is not multipart with a boundary, or the body is not made of its parts.
    init?(_ body: Data, contentType: String) {
        guard contentType.lowercased().hasPrefix("multipart/form-data"),
            let boundary = Self.parameter("boundary", in: contentType), !boundary.isEmpty, boundary.count <= 200
        else { return nil }
        let delimiter = Data("\r\n--\(boundary)".utf8)
        let data = Data("\r\n".utf8) + body
        guard var at = data.range(of: delimiter)?.upperBound else { return nil }
        while parts.count < Self.maximumParts {
            // After a delimiter: "--" ends the form; otherwise a line break, the part's headers, a blank line.
            if data[at...].starts(with: Data("--".utf8)) { return }
            guard data[at...].starts(with: Data("\r\n".utf8)),
                let headerEnd = data.range(of: Data("\r\n\r\n".utf8), in: (at + 2)..<data.endIndex),
                let next = data.range(of: delimiter, in: headerEnd.upperBound..<data.endIndex)
            else { return nil }
            let headers = String(decoding: data[(at + 2)..<headerEnd.lowerBound], as: UTF8.self)
            var part = Part(name: "", data: Data(data[headerEnd.upperBound..<next.lowerBound]))
            for line in headers.components(separatedBy: "\r\n") {
                let pair = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2 else { continue }
                switch pair[0].lowercased() {
                case "content-disposition":
                    part.name = Self.parameter("name", in: pair[1]) ?? ""
                    part.filename = Self.parameter("filename", in: pair[1])
                case "content-type": part.contentType = pair[1]
                default: break
                }
            }
            parts.append(part)
            at = next.upperBound
        }
        return nil
    }

    /// A text field's value ("" when absent).
    subscript(_ name: String) -> String {
        parts.first { $0.name == name && $0.filename == nil }.map { String(decoding: $0.data, as: UTF8.self) } ?? ""
    }

    /// The file field `name` when a file was picked (a browser sends an empty part without a file name otherwise).
    func file(_ name: String) -> Part? {
        parts.first { $0.name == name && $0.filename?.isEmpty == false && !$0.data.isEmpty }
    }

    /// `name=value` or `name="value"` among `;`-separated parameters.
    static func parameter(_ name: String, in header: String) -> String? {
        for item in header.split(separator: ";").dropFirst() {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == name else { continue }
            let value = pair[1]
            return value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"")
                ? String(value.dropFirst().dropLast()) : value
        }
        return nil
    }
}

extension Request {
    /// Reads a multipart form body, at most `MultipartForm.maximumBytes`: nil when it is none.
    func decodeMultipart() async throws -> MultipartForm? {
        let body = try await body(upTo: MultipartForm.maximumBytes)
        return MultipartForm(Data(body.readableBytesView), contentType: headers[.contentType] ?? "")
    }
}
