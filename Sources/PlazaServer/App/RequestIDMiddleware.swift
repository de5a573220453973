import HTTPTypes
import Hummingbird
import Logging

extension HTTPField.Name {
    static let requestID = HTTPField.Name("X-Request-ID")!
}

/// Gives every request an id (the client's `X-Request-ID` when it is sane), puts it in the logs and
/// the response, and logs one line per request.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let given = request.headers[.requestID].flatMap { id in
            id.count <= 64 && id.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } ? id : nil
        }
        let id = given ?? context.id
        var context = context
        context.logger[metadataKey: "request_id"] = .string(id)
        let start = ContinuousClock.now
        var response = try await next(request, context)
        response.headers[.requestID] = id
        let elapsed = ContinuousClock.now - start
        context.logger.info(
            "\(request.method) \(request.uri.path) \(response.status.code)",
            metadata: [
                "ms": .stringConvertible(
                    Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
                )
            ]
        )
        return response
    }
}
