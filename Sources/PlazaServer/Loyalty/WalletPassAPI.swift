import Foundation
import Hummingbird
import Logging
import PlazaCore

/// Apple Wallet's pass web service at `/passes/v1/…` (a pass's `webServiceURL` is `{PLAZA_BASE_URL}/passes`), as
/// Apple's protocol has it: register and unregister a device, list a device's updated passes, fetch the latest pass,
/// and Wallet's log messages.
struct WalletPassAPI: Sendable {
    let loyalty: LoyaltyService
    let maxBody: Int
    let logger: Logger

    struct Registration: Decodable {
        var pushToken: String
    }

    struct Updated: Encodable {
        var serialNumbers: [String]
        var lastUpdated: String
    }

    struct Logs: Decodable {
        var logs: [String]
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        let service = router.group("passes/v1")
        service.post("devices/:device/registrations/:passType/:serial", use: register)
        service.delete("devices/:device/registrations/:passType/:serial", use: unregister)
        service.get("devices/:device/registrations/:passType", use: updated)
        service.get("passes/:passType/:serial", use: latest)
        service.post("log", use: log)
    }

    @Sendable func register(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(as: Registration.self, limit: maxBody)
        let created = try await loyalty.registerPassDevice(
            context.parameters.get("device") ?? "",
            passType: context.parameters.get("passType") ?? "",
            serial: context.parameters.get("serial") ?? "",
            authorization: request.headers[.authorization],
            pushToken: body.pushToken
        )
        return Response(status: created ? .created : .ok)
    }

    @Sendable func unregister(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await loyalty.unregisterPassDevice(
            context.parameters.get("device") ?? "",
            passType: context.parameters.get("passType") ?? "",
            serial: context.parameters.get("serial") ?? "",
            authorization: request.headers[.authorization]
        )
        return Response(status: .ok)
    }

    @Sendable func updated(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard
            let found = try await loyalty.updatedPasses(
                context.parameters.get("device") ?? "",
                passType: context.parameters.get("passType") ?? "",
                since: request.uri.queryParameters.get("passesUpdatedSince")
            )
        else { return Response(status: .noContent) }
        return try .json(Updated(serialNumbers: found.serialNumbers, lastUpdated: found.lastUpdated))
    }

    @Sendable func latest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let since = request.headers[.ifModifiedSince].flatMap(Self.httpDate.date(from:))
        guard
            let (pass, changed) = try await loyalty.latestPass(
                passType: context.parameters.get("passType") ?? "",
                serial: context.parameters.get("serial") ?? "",
                authorization: request.headers[.authorization],
                ifModifiedSince: since
            )
        else { return Response(status: .notModified) }
        var response = Response.download(
            pass,
            contentType: "application/vnd.apple.pkpass",
            filename: "plaza-loyalty-card.pkpass"
        )
        response.headers[.lastModified] = Self.httpDate.string(from: changed)
        return response
    }

    @Sendable func log(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(as: Logs.self, limit: maxBody)
        for line in body.logs.prefix(20) {
            logger.info("wallet pass log", metadata: ["message": "\(line.prefix(500))"])
        }
        return Response(status: .ok)
    }

    /// `Wed, 25 Nov 2026 02:50:00 GMT`.
    static let httpDate: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()
}
