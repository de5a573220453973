import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import PlazaCore
import ServiceLifecycle

/// `GET /v1/events`: the caller's live events, as a WebSocket or as Server-Sent Events.
///
/// - WebSocket: authenticated by a bearer header on the upgrade, by the web session cookie (pages; only from
///   our own origin, against cross-site WebSocket hijacking), or by an access token sent as the first text
///   message within 10 seconds. The server then sends `{"type":"ready",...}` and one JSON `PlazaEvent` per message.
/// - SSE (`Accept: text/event-stream` and a bearer token): for clients without WebSockets, such as
///   Foundation on Linux, whose URLSession has none. `event: ready` first, then `id`/`event`/`data` per event.
struct EventsAPI: Sendable {
    let hub: EventHub
    let accounts: AccountService
    static let authDeadline: Duration = .seconds(10)

    func addRoutes(to v1: RouterGroup<AppRequestContext>) {
        let upgrade = WebSocketUpgradeMiddleware<AppRequestContext> { inbound, outbound, context in
            try await session(inbound: inbound, outbound: outbound, context: context)
        }
        v1.get("events") { request, context in
            if request.headers[.upgrade]?.lowercased() == "websocket" {
                // A bad bearer on the upgrade is refused as on any route (the cookie and first-message ways send none).
                if context.rejectedBearer { _ = try context.requireIdentity() }
                return try await upgrade.handle(request, context: context) { _, _ in Response(status: .notFound) }
            }
            guard (request.headers[.accept] ?? "").contains("text/event-stream") else {
                throw PlazaError.malformed(
                    "Open a WebSocket, or ask for Accept: text/event-stream with a bearer token."
                )
            }
            let identity = try context.requireIdentity()
            return serverSentEvents(for: identity.user.id)
        }
    }

    // MARK: WebSocket

    private func session(
        inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter,
        context: WebSocketRouterContext<AppRequestContext>
    )
        async throws
    {
        var authenticated = context.requestContext.identity?.user.id
        if authenticated == nil, let cookie = context.request.cookies[WebCookies.session]?.value,
            Self.sameOrigin(context.request)
        {
            authenticated = try? await accounts.identity(cookie: cookie)?.user.id
        }
        let user = authenticated
        let (texts, textSink) = AsyncStream.makeStream(of: String.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            // The only reader of the socket: it ends the session when the client goes away.
            group.addTask {
                var messages = inbound.messages(maxSize: 1 << 14).makeAsyncIterator()
                while let message = try await messages.next() {
                    if case .text(let text) = message { textSink.yield(text) }
                }
                textSink.finish()
            }
            group.addTask {
                var subscriber = user
                if subscriber == nil, let token = await Self.first(of: texts, within: Self.authDeadline) {
                    subscriber = try? await accounts.identity(bearer: token)?.user.id
                }
                guard let subscriber else {
                    try await outbound.close(.policyViolation, reason: "Send a valid access token first.")
                    return
                }
                let events = hub.subscribe(subscriber)
                try await outbound.write(.text(#"{"type":"ready"}"#))
                // A server shutting down ends the session (with close code 1000) instead of waiting for the client.
                try? await cancelWhenGracefulShutdown {
                    for await event in events {
                        try await outbound.write(
                            .text(String(decoding: try PlazaJSON.encoder().encode(event), as: UTF8.self))
                        )
                    }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// A browser sends `Origin`; a cookie-authenticated socket must come from this very host.
    static func sameOrigin(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin] else { return true }
        guard let host = URL(string: origin)?.host, let authority = request.head.authority else { return false }
        let port = URL(string: origin)?.port.map { ":\($0)" } ?? ""
        return "\(host)\(port)" == authority
    }

    static func first(of texts: AsyncStream<String>, within deadline: Duration) async -> String? {
        await withTaskGroup(of: String?.self) { group in
            group.addTask {
                var iterator = texts.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: deadline)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    // MARK: Server-Sent Events

    /// Events and a keep-alive comment every 15 s (which also finds a client that went away) in one stream.
    private static func pump(_ events: AsyncStream<PlazaEvent>, into sink: AsyncStream<String>.Continuation) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events {
                    let json =
                        (try? PlazaJSON.encoder().encode(event)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
                    sink.yield("id: \(event.id.uuidString.lowercased())\nevent: \(event.type)\ndata: \(json)\n\n")
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(15))
                    sink.yield(": keep-alive\n\n")
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    private func serverSentEvents(for user: UUID) -> Response {
        let events = hub.subscribe(user)
        let (lines, sink) = AsyncStream.makeStream(of: String.self)
        // Started in the handler's task, so it sees the server's graceful shutdown, which ends the stream
        // instead of the server waiting for the client to go.
        let pump = Task {
            await withGracefulShutdownHandler {
                await Self.pump(events, into: sink)
            } onGracefulShutdown: {
                sink.finish()
            }
            sink.finish()
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-store"
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody { writer in
                defer { pump.cancel() }
                try await writer.write(ByteBuffer(string: "event: ready\ndata: {}\n\n"))
                for await line in lines { try await writer.write(ByteBuffer(string: line)) }
                try await writer.finish(nil)
            }
        )
    }
}
