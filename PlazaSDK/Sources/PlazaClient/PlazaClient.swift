import Foundation
import PlazaCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Plaza SDK: every call of the API as an `async` method with typed models.
///
/// ```swift
/// let plaza = PlazaClient(baseURL: URL(string: "https://plaza.example")!)
/// try await plaza.login("anna", password: "…")
/// let me = try await plaza.me()
/// ```
/// Access tokens are refreshed automatically. On Apple platforms they are kept in the Keychain (`KeychainTokenStore`);
/// elsewhere in memory unless you pass a `TokenStore` of your own.
public final class PlazaClient: Sendable {
    public let baseURL: URL
    let session: URLSession
    let tokens: TokenManager

    /// - Parameters:
    ///   - baseURL: the Plaza's address, e.g. `https://plaza.example`.
    ///   - tokenStore: where the sign-in is kept; `nil` is the Keychain on Apple platforms and memory elsewhere.
    ///   - session: the `URLSession` requests go through.
    public init(
        baseURL: URL,
        tokenStore: (any TokenStore)? = nil,
        session: URLSession = URLSession(configuration: .ephemeral)
    ) {
        self.baseURL = baseURL
        self.session = session
        tokens = TokenManager(store: tokenStore ?? Self.defaultTokenStore(for: baseURL))
    }

    /// The Keychain where there is one (an item per Plaza host), memory elsewhere.
    static func defaultTokenStore(for baseURL: URL) -> any TokenStore {
        #if canImport(Security)
        KeychainTokenStore(service: "Plaza " + (baseURL.host ?? baseURL.absoluteString))
        #else
        InMemoryTokenStore()
        #endif
    }

    /// Whether the client holds tokens (it may still find the session revoked on the next call).
    public var isSignedIn: Bool {
        get async { await tokens.store.load() != nil }
    }

    // MARK: Plumbing

    enum Auth {
        case none
        case required
    }

    /// Sends a request and decodes the answer; with `.required`, signs it and refreshes once on `invalid_token`.
    func send<Response: Decodable>(
        _ method: String,
        _ path: String,
        query: [URLQueryItem] = [],
        body: (some Encodable)? = Optional<Acknowledgement>.none,
        auth: Auth = .none,
        idempotencyKey: String? = nil,
        secondFactor: String? = nil,
        as type: Response.Type = Response.self
    ) async throws -> Response {
        let data = try await sendRaw(
            method,
            path,
            query: query,
            body: body,
            auth: auth,
            idempotencyKey: idempotencyKey,
            secondFactor: secondFactor
        )
        do {
            return try PlazaJSON.decoder().decode(Response.self, from: data.isEmpty ? Data("{}".utf8) : data)
        } catch {
            throw PlazaClientError.unreadableResponse(status: 200)
        }
    }

    /// Like `send`, for answers that are a file (a wallet pass): the bytes as they came.
    func sendData(
        _ method: String,
        _ path: String,
        query: [URLQueryItem] = [],
        auth: Auth = .none,
        accept: String = "application/json"
    ) async throws -> Data {
        try await sendRaw(
            method,
            path,
            query: query,
            body: Optional<Acknowledgement>.none,
            auth: auth,
            idempotencyKey: nil,
            accept: accept
        )
    }

    /// Like `send`, for answers without a body (204).
    func sendVoid(
        _ method: String,
        _ path: String,
        body: (some Encodable)? = Optional<Acknowledgement>.none,
        auth: Auth = .none,
        secondFactor: String? = nil
    ) async throws {
        _ = try await sendRaw(
            method,
            path,
            query: [],
            body: body,
            auth: auth,
            idempotencyKey: nil,
            secondFactor: secondFactor
        )
    }

    /// Sends raw bytes (an upload) as `contentType` and decodes the answer.
    func upload<Response: Decodable>(
        _ path: String,
        _ data: Data,
        contentType: String,
        as type: Response.Type = Response.self
    ) async throws
        -> Response
    {
        let answer = try await sendRaw(
            "POST",
            path,
            query: [],
            body: Optional<Acknowledgement>.none,
            auth: .required,
            idempotencyKey: nil,
            raw: (data, contentType)
        )
        do {
            return try PlazaJSON.decoder().decode(Response.self, from: answer)
        } catch {
            throw PlazaClientError.unreadableResponse(status: 200)
        }
    }

    private func sendRaw(
        _ method: String,
        _ path: String,
        query: [URLQueryItem],
        body: (some Encodable)?,
        auth: Auth,
        idempotencyKey: String?,
        secondFactor: String? = nil,
        raw: (Data, String)? = nil,
        accept: String = "application/json"
    ) async throws -> Data {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        request.setValue(accept, forHTTPHeaderField: "Accept")
        request.setValue("PlazaClient/1", forHTTPHeaderField: "User-Agent")
        if let idempotencyKey { request.setValue(idempotencyKey, forHTTPHeaderField: "Idempotency-Key") }
        if let secondFactor { request.setValue(secondFactor, forHTTPHeaderField: "Plaza-Second-Factor") }
        if let body {
            request.httpBody = try PlazaJSON.encoder().encode(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let (data, contentType) = raw {
            request.httpBody = data
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
        guard case .required = auth else { return try await perform(request) }

        let refresh: @Sendable (String) async throws -> Tokens = { [self] refreshToken in
            try await self.refreshTokens(refreshToken)
        }
        guard let token = try await tokens.validAccessToken(refresh: refresh) else {
            throw PlazaClientError.notSignedIn
        }
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        do {
            return try await perform(request)
        } catch PlazaClientError.problem(let problem) where problem.code == .invalidToken {
            guard let fresh = try await tokens.refresh(failedToken: token, using: refresh) else {
                throw PlazaClientError.notSignedIn
            }
            request.setValue("Bearer \(fresh.accessToken)", forHTTPHeaderField: "Authorization")
            return try await perform(request)
        }
    }

    private func perform(_ request: URLRequest) async throws -> Data {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw PlazaClientError.transport(error.localizedDescription)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            if let problem = try? PlazaJSON.decoder().decode(Problem.self, from: data) {
                if problem.code == .secondFactorRequired {
                    throw PlazaClientError.secondFactorRequired(problem.factors ?? [])
                }
                throw PlazaClientError.problem(problem)
            }
            throw PlazaClientError.unreadableResponse(status: status)
        }
        return data
    }

    /// `POST /v1/auth/refresh` without the token manager (it calls this).
    private func refreshTokens(_ refreshToken: String) async throws -> Tokens {
        let response: TokenResponse = try await send(
            "POST",
            "v1/auth/refresh",
            body: RefreshRequest(refreshToken: refreshToken)
        )
        return Tokens(response)
    }
}

extension Tokens {
    init(_ response: TokenResponse, now: Date = Date()) {
        self.init(
            accessToken: response.accessToken,
            refreshToken: response.refreshToken,
            accessTokenExpiresAt: now.addingTimeInterval(TimeInterval(response.expiresIn))
        )
    }
}
