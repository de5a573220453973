import Foundation
import HTTPTypes
import Hummingbird

/// Counts requests and their latency by route template (`/v1/me/sessions/{id}`), never by raw path, and the
/// requests being answered now.
struct PlazaMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: PlazaMetrics

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        metrics.requestStarted()
        do {
            let response = try await next(request, context)
            finish(request, context, status: Int(response.status.code), since: start)
            return response
        } catch {
            // Answered by Hummingbird from the error (rare: Plaza's error middleware answers most inside): still
            // counted, so that active requests come back down and a 5xx ratio sees it.
            finish(request, context, status: Int((error as? any HTTPResponseError)?.status.code ?? 500), since: start)
            throw error
        }
    }

    private func finish(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        metrics.requestFinished(
            method: request.method.rawValue,
            endpoint: context.endpointPath,
            status: status,
            duration: ContinuousClock.now - start
        )
    }
}
