import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore

/// A browser's view of the pages: it keeps cookies and submits forms with their CSRF token.
actor PageSession {
    let client: any TestClientProtocol
    private(set) var cookies: [String: String] = [:]

    init(_ client: any TestClientProtocol) {
        self.client = client
    }

    func get(_ path: String) async throws -> TestResponse {
        var headers: HTTPFields = [.accept: "text/html"]
        if !cookies.isEmpty { headers[.cookie] = cookieHeader }
        let response = try await client.execute(uri: path, method: .get, headers: headers)
        remember(response)
        return response
    }

    /// Posts `fields` (plus the CSRF token of `formPage`'s HTML, unless `csrf` is given).
    func post(_ path: String, _ fields: [String: String], csrf: String? = nil) async throws -> TestResponse {
        var fields = fields
        if let csrf { fields["_csrf"] = csrf }
        let body = fields.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }.joined(separator: "&")
        return try await send(path, ByteBuffer(string: body), type: "application/x-www-form-urlencoded")
    }

    /// Posts JSON as a page script does: the session's cookies, and the page's CSRF token as `X-CSRF-Token` if given.
    func postJSON(_ path: String, _ body: some Encodable, csrf: String?) async throws -> TestResponse {
        var headers: HTTPFields = [.accept: "application/json", .contentType: "application/json"]
        if !cookies.isEmpty { headers[.cookie] = cookieHeader }
        if let csrf { headers[HTTPField.Name("X-CSRF-Token")!] = csrf }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let response = try await client.execute(
            uri: path,
            method: .post,
            headers: headers,
            body: ByteBuffer(bytes: try encoder.encode(body))
        )
        remember(response)
        return response
    }

    /// Posts a form with a file as a browser does (`multipart/form-data`): `fields`, the CSRF token when given, then
    /// `file` as (field, file name, type, bytes).
    func postMultipart(
        _ path: String,
        _ fields: [String: String],
        file: (name: String, filename: String, type: String, data: Data),
        csrf: String?
    ) async throws -> TestResponse {
        let boundary = "----PlazaTest\(UUID().uuidString.prefix(8))"
        var body = Data()
        var all = fields
        if let csrf { all["_csrf"] = csrf }
        for (name, value) in all.sorted(by: { $0.key < $1.key }) {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        body += Data(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\"\r\nContent-Type: \(file.type)\r\n\r\n"
                .utf8
        )
        body += file.data + Data("\r\n--\(boundary)--\r\n".utf8)
        return try await send(path, ByteBuffer(bytes: body), type: "multipart/form-data; boundary=\(boundary)")
    }

    private func send(_ path: String, _ body: ByteBuffer, type: String) async throws -> TestResponse {
        var headers: HTTPFields = [.accept: "text/html", .contentType: type]
        if !cookies.isEmpty { headers[.cookie] = cookieHeader }
        let response = try await client.execute(uri: path, method: .post, headers: headers, body: body)
        remember(response)
        return response
    }

    /// Loads `page`, then submits `fields` to `action` with the page's CSRF token.
    func submit(_ page: String, to action: String, _ fields: [String: String]) async throws -> TestResponse {
        let form = try await get(page)
        return try await post(action, fields, csrf: Self.csrfToken(in: String(buffer: form.body)))
    }

    /// Follows a 303 as a browser does (a GET of its location, without the fragment); anything else comes back as is.
    func follow(_ response: TestResponse) async throws -> TestResponse {
        guard response.status == .seeOther, let location = response.headers[.location] else { return response }
        return try await get(String(location.prefix { $0 != "#" }))
    }

    static func csrfToken(in html: String) -> String {
        guard let range = html.range(of: #"name="_csrf" value=""#) else { return "" }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    private var cookieHeader: String { cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }

    private func remember(_ response: TestResponse) {
        for header in response.headers[values: .setCookie] {
            let pair = header.split(separator: ";")[0].split(
                separator: "=",
                maxSplits: 1,
                omittingEmptySubsequences: false
            )
            guard pair.count == 2 else { continue }
            cookies[String(pair[0])] = pair[1].isEmpty ? nil : String(pair[1])
        }
    }

    static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }
}
