import HTTPTypes
import Hummingbird
import Logging
import PlazaCore

extension HTTPField.Name {
    static let traceparent = HTTPField.Name("traceparent")!
}

/// A server span for every request (`GET /v1/wallet/transfers`, named by its route), continuing the caller's trace
/// when it sends `traceparent`, carrying the request id (`plaza.request_id`); and the tracer for everything the
/// request does (SQL, outbound calls, what it queues). Without a tracer it does nothing.
struct TracingMiddleware<Context: RequestContext>: RouterMiddleware {
    let tracer: PlazaTracer?

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let tracer else { return try await next(request, context) }
        let caller = request.headers[.traceparent].flatMap(TraceContext.init(traceparent:))
        let method = request.method.rawValue
        var attributes: [(String, SpanValue)] = [
            ("http.request.method", .string(method)), ("url.path", .string(request.uri.path)),
        ]
        if let id = context.logger[metadataKey: "request_id"] {
            attributes.append(("plaza.request_id", .string("\(id)")))
        }
        return try await PlazaTracer.$current.withValue(tracer) {
            try await tracer.span(
                "\(method) \(request.uri.path)",
                kind: .server,
                parent: caller,
                attributes: attributes
            ) {
                span in
                let response: Response
                do {
                    response = try await next(request, context)
                } catch {
                    span?.set("http.response.status_code", .int(Int((error as? PlazaError)?.status.code ?? 500)))
                    throw error
                }
                if let route = context.endpointPath {
                    // OpenTelemetry's route form: `/v1/me/sessions/{id}` for the router's `/v1/me/sessions/:id`.
                    let template = route.split(separator: "/", omittingEmptySubsequences: false)
                        .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
                    span?.rename("\(method) \(template)")
                    span?.set("http.route", .string(template))
                }
                span?.set("http.response.status_code", .int(Int(response.status.code)))
                if response.status.code >= 500 { span?.fail("\(response.status.code)") }
                return response
            }
        }
    }
}
