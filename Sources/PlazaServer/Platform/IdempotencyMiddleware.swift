import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlazaCore

/// A request context that knows whose idempotency keys it may see (the signed-in user).
protocol IdempotencyScoped {
    var idempotencyScope: String { get }
    /// Set by `IdempotencyMiddleware` while a keyed request runs; money handlers record their response with it.
    var idempotencyClaim: IdempotencyClaim? { get set }
}

extension HTTPField.Name {
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let idempotentReplayed = HTTPField.Name("Idempotent-Replayed")!
}

/// How a POST route keeps its `Idempotency-Key`, declared where the route is registered (`SignedInRoutes`).
enum IdempotencyMode: String, Sendable, CaseIterable {
    /// The middleware stores the response once the handler is done. The key is held until it expires, since a first
    /// run that is merely slow would otherwise act a second time.
    case recordedAfter = "recorded-after"
    /// Routes that move money: the handler stores its response in the transaction that moves it
    /// (`IdempotencyStore.record(_:status:claim:on:)`), so a retry may take the key over once a short lease lapses.
    case recordedWithWork = "recorded-with-work"
    /// Batched money routes (transfers): the handler writes the key itself, with the work and the response, under a
    /// deferred claim (see `IdempotencyClaim`): a new key costs no statement of its own.
    case deferred
}

/// `Idempotency-Key` for POSTs: the first request with a key runs; a retry with the same key and body gets
/// the stored response again (marked `Idempotent-Replayed: true`); the same key with another body is refused
/// with 422. Keys are per user. Responses of 500 and above are not stored, so a retry runs again; nor is a request for a
/// second factor (`second_factor_required`, `invalid_code`), so the retry that carries one runs.
struct IdempotencyMiddleware<Context: RequestContext & IdempotencyScoped>: RouterMiddleware {
    let store: IdempotencyStore
    let maxBody: Int
    let mode: IdempotencyMode

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method == .post, let key = request.headers[.idempotencyKey] else {
            return try await next(request, context)
        }
        guard (1...255).contains(key.utf8.count), key.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw PlazaError.validation(
                field: "Idempotency-Key",
                "Use 1 to 255 visible ASCII characters, such as a UUID."
            )
        }
        var request = request
        let body = try await request.body(upTo: maxBody)
        request.body = .init(buffer: body)
        let requestHash = store.requestHash(
            Data("\(request.method.rawValue) \(request.uri.path)\n".utf8) + Data(body.readableBytesView)
        )
        let scope = context.idempotencyScope
        if mode == .deferred {
            let claim = IdempotencyClaim(scope: scope, key: key, requestHash: requestHash, deferred: true)
            var context = context
            context.idempotencyClaim = claim
            if let response = try await runDeferred(request, context: context, claim: claim, next: next) {
                return response
            }
            // The key was there already: answered below like any known key.
        }
        let lease = mode == .recordedAfter ? store.retention : store.lease

        switch try await store.start(scope: scope, key: key, requestHash: requestHash, lease: lease) {
        case .mismatch:
            throw PlazaError(
                .unprocessableContent,
                .idempotencyKeyReused,
                "This Idempotency-Key was used for another request.",
                detail: "Use a new key for a new request."
            )
        case .inProgress:
            var error = PlazaError(.conflict, .conflict, "A request with this Idempotency-Key is still running.")
            error.headers[.retryAfter] = "1"
            throw error
        case .replay(let status, let contentType, let stored):
            var headers = HTTPFields()
            headers[.contentType] = contentType
            headers[.idempotentReplayed] = "true"
            return Response(
                status: .init(code: status),
                headers: headers,
                body: .init(byteBuffer: ByteBuffer(string: stored))
            )
        case .started(let claim):
            var context = context
            context.idempotencyClaim = claim
            return try await run(request, context: context, claim: claim, next: next)
        }
    }

    /// Runs a request under a deferred claim; nil when its key turned out to be taken (nothing of the run stayed).
    private func runDeferred(
        _ request: Request,
        context: Context,
        claim: IdempotencyClaim,
        next: (Request, Context) async throws -> Response
    )
        async throws -> Response?
    {
        let response: Response
        do {
            response = try await next(request, context)
        } catch is IdempotencyKeyTaken {
            return nil
        } catch let error as PlazaError where error.asksAgain {
            // Perhaps a retry of a request that went through (its code now used): the key's stored answer, if any,
            // comes back below; otherwise the request runs there again and is refused the same way, keeping nothing.
            return nil
        } catch let error as PlazaError where error.status.code < 500 {
            response = error.problemResponse()
        }
        guard response.status.code < 500, !claim.recorded else { return response }
        let buffer = try await BufferCollector.collect(response.body)
        let stored = try await store.insert(
            [(claim, String(buffer: buffer))],
            status: Int(response.status.code),
            contentType: response.headers[.contentType] ?? "application/json",
            on: store.database.sql
        )
        guard stored.contains(claim.lease) else { return nil }
        var replayable = response
        replayable.body = .init(byteBuffer: buffer)
        return replayable
    }

    private func run(
        _ request: Request,
        context: Context,
        claim: IdempotencyClaim,
        next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let response: Response
        do {
            response = try await next(request, context)
        } catch let error as PlazaError where error.asksAgain {
            // Not kept as the key's answer: the same key with `Plaza-Second-Factor` must run.
            try? await store.abandon(claim)
            throw error
        } catch let error as PlazaError where error.status.code < 500 {
            response = error.problemResponse()
        } catch {
            try? await store.abandon(claim)
            throw error
        }
        guard response.status.code < 500 else {
            try? await store.abandon(claim)
            return response
        }
        // Money handlers record inside their own transaction; everything else is recorded here.
        if claim.recorded { return response }
        let buffer = try await BufferCollector.collect(response.body)
        try await store.record(
            claim,
            status: Int(response.status.code),
            contentType: response.headers[.contentType] ?? "application/json",
            body: String(buffer: buffer),
            on: store.database.sql
        )
        var replayable = response
        replayable.body = .init(byteBuffer: buffer)
        return replayable
    }
}

/// Thrown by a handler whose deferred claim found its key already written; its work was rolled back.
struct IdempotencyKeyTaken: Error {}
