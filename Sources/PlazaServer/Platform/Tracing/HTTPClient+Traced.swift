import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1

extension HTTPClient {
    /// `execute` in a client span (`POST api.stripe.com`) when the work is traced, sending the trace along
    /// (`traceparent`) so that a traced service continues it.
    func traced(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse {
        var request = request
        let host = URLComponents(string: request.url)?.host ?? ""
        let method = request.method.rawValue
        let attributes: [(String, SpanValue)] = [
            ("http.request.method", .string(method)), ("server.address", .string(host)),
        ]
        return try await PlazaTracer.span("\(method) \(host)", kind: .client, attributes: attributes) { span in
            if let span { request.headers.replaceOrAdd(name: "traceparent", value: span.context.traceparent) }
            let response = try await execute(request, timeout: timeout)
            span?.set("http.response.status_code", .int(Int(response.status.code)))
            if response.status.code >= 500 { span?.fail("\(response.status.code)") }
            return response
        }
    }
}
