import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PlazaCore
import SQLKit

/// What operators and load balancers call: health, readiness, metrics, and the API contract.
struct OperationsAPI: Sendable {
    let services: PlazaServices
    /// Read by programs (load balancers, scrapers): errors are problem documents, and no visitor cookie is set.
    static let machinePaths: Set<String> = ["/healthz", "/readyz", "/metrics", "/openapi.yaml"]

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("healthz", use: health)
        router.get("readyz", use: ready)
        // With PLAZA_METRICS_PORT the metrics have a listener of their own; else a token, or (dev and demo only) nothing.
        if services.configuration.network.metricsPort == nil { addMetrics(to: router) }
        router.get("openapi.yaml", use: openAPI)
        router.get("v1/languages", use: languages)
        let reference = APIReference(services: services)
        router.get("docs/api", use: reference.page)
        router.get("docs/api/:section", use: reference.section)
    }

    /// Anyone: the process is up. The body is written once (a load balancer asks many times a second).
    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        .json(encoded: Self.healthy)
    }

    static let healthy = #"{"status":"ok"}"#

    /// Anyone: whether this process can serve now, naming each check (`Readiness`); 503 when one fails, so a load
    /// balancer stops sending traffic here. Answers within two seconds whatever the database does.
    @Sendable func ready(_ request: Request, context: AppRequestContext) async throws -> Response {
        let report = await Readiness(services: services).report()
        if report.status != "ready" {
            context.logger.warning("not ready", metadata: ["checks": "\(report.checks.sorted { $0.key < $1.key })"])
        }
        return try .json(report, status: report.status == "ready" ? .ok : .serviceUnavailable)
    }

    func addMetrics(to router: Router<AppRequestContext>) {
        router.get("metrics", use: metrics)
    }

    /// Prometheus text, for the holder of `PLAZA_METRICS_TOKEN`, on `PLAZA_METRICS_PORT`'s own listener, or in dev and
    /// demo mode; a production server configured with neither does not serve it (404), since it tells who does what.
    @Sendable func metrics(_ request: Request, context: AppRequestContext) async throws -> Response {
        let network = services.configuration.network
        if let token = network.metricsToken {
            let given =
                request.headers[.authorization].flatMap {
                    $0.lowercased().hasPrefix("bearer ") ? String($0.dropFirst(7)) : nil
                } ?? ""
            guard Secrets.constantTimeEquals(given, token) else {
                var error = PlazaError.unauthorized
                error.headers[.wwwAuthenticate] = "Bearer realm=\"metrics\""
                throw error
            }
        } else if network.metricsPort == nil, services.configuration.mode == .production {
            throw PlazaError.notFound("page")
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(
            status: .ok,
            headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: services.metrics.render()))
        )
    }

    /// Anyone: the languages this Plaza offers and the operator's default, for an app's picker. They change only with a
    /// release or a restart, so caches may keep them a few minutes.
    @Sendable func languages(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(services.catalogue.languageList, headers: [.cacheControl: "public, max-age=300"])
    }

    /// Anyone: the OpenAPI 3.1 contract.
    @Sendable func openAPI(_ request: Request, context: AppRequestContext) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/yaml; charset=utf-8"
        return Response(
            status: .ok,
            headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: APIReference.specText))
        )
    }
}
