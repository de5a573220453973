import Foundation
import Hummingbird

/// Counts requests and their latency by route template (`/v1/me/sessions/{id}`), never by raw path.
struct PlazaMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: PlazaMetrics

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let route = context.endpointPath.map { $0.replacingOccurrences(of: ":", with: "") } ?? "unmatched"
        metrics.requestFinished(
            method: request.method.rawValue,
            route: route,
            status: Int(response.status.code),
            duration: ContinuousClock.now - start
        )
        return response
    }
}
