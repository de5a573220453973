import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import SQLKit

/// What operators and load balancers call: health, readiness, metrics, and the API contract.
struct OperationsAPI: Sendable {
    let services: PlazaServices

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("healthz", use: health)
        router.get("readyz", use: ready)
        router.get("metrics", use: metrics)
        router.get("openapi.yaml", use: openAPI)
        let reference = APIReference(services: services)
        router.get("docs/api", use: reference.page)
    }

    /// Anyone: the process is up.
    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(["status": "ok"])
    }

    /// Anyone: the database answers; 503 otherwise, so a load balancer stops sending traffic here.
    @Sendable func ready(_ request: Request, context: AppRequestContext) async throws -> Response {
        do {
            _ = try await services.database.sql.raw("SELECT 1 AS ok").first()
            return try .json(["status": "ready", "database": services.database.engine.rawValue])
        } catch {
            context.logger.warning("readiness check failed", metadata: ["error": "\(error)"])
            return try .json(["status": "unavailable", "database": services.database.engine.rawValue], status: .serviceUnavailable)
        }
    }

    /// Anyone on the network: Prometheus text. Operators keep `/metrics` off the public internet at the proxy.
    @Sendable func metrics(_ request: Request, context: AppRequestContext) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: services.metrics.render())))
    }

    /// Anyone: the OpenAPI 3.1 contract.
    @Sendable func openAPI(_ request: Request, context: AppRequestContext) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/yaml; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: APIReference.specText)))
    }
}
