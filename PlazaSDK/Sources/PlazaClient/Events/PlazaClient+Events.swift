import Foundation
import PlazaCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension PlazaClient {
    /// The signed-in user's live events (`presence.entered`, `nearby.business`, …) until the stream is
    /// cancelled or the connection drops (then iterate a new `events()`).
    ///
    /// The first element has type `ready`: from then on nothing is missed. Uses Server-Sent Events, which
    /// URLSession streams on every platform (Foundation on Linux has no WebSocket client).
    public func events() -> AsyncThrowingStream<PlazaEvent, any Error> {
        AsyncThrowingStream { continuation in
            let opening = Task {
                do {
                    let refresh: @Sendable (String) async throws -> Tokens = { [self] refreshToken in
                        let response: TokenResponse = try await self.send(
                            "POST",
                            "v1/auth/refresh",
                            body: RefreshRequest(refreshToken: refreshToken)
                        )
                        return Tokens(response)
                    }
                    guard let token = try await tokens.validAccessToken(refresh: refresh) else {
                        throw PlazaClientError.notSignedIn
                    }
                    var request = URLRequest(url: baseURL.appendingPathComponent("v1/events"))
                    request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
                    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                    request.timeoutInterval = 60
                    let stream = EventStreamDelegate(continuation: continuation)
                    let session = URLSession(configuration: .ephemeral, delegate: stream, delegateQueue: nil)
                    let task = session.dataTask(with: request)
                    continuation.onTermination = { _ in
                        task.cancel()
                        session.invalidateAndCancel()
                    }
                    task.resume()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in opening.cancel() }
        }
    }
}

extension PlazaEventType {
    /// The first element of `PlazaClient.events()`: the server is now delivering.
    public static let ready = "ready"
}

/// Parses a `text/event-stream` body as it arrives (https://html.spec.whatwg.org/multipage/server-sent-events.html).
final class EventStreamDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Only the session's serial delegate queue touches `buffer`.
    private var buffer = Data()
    private let continuation: AsyncThrowingStream<PlazaEvent, any Error>.Continuation

    init(continuation: AsyncThrowingStream<PlazaEvent, any Error>.Continuation) {
        self.continuation = continuation
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            continuation.finish(
                throwing: status == 401
                    ? PlazaClientError.notSignedIn : PlazaClientError.unreadableResponse(status: status)
            )
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        buffer.append(data)
        while let end = buffer.firstRange(of: Data("\n\n".utf8)) {
            let block = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
            buffer.removeSubrange(buffer.startIndex..<end.upperBound)
            handle(block)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error, (error as NSError).code != NSURLErrorCancelled {
            continuation.finish(throwing: PlazaClientError.transport(error.localizedDescription))
        } else {
            continuation.finish()
        }
    }

    private func handle(_ block: String) {
        var type = "message"
        var data: [Substring] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) where !line.hasPrefix(":") {
            if line.hasPrefix("event:") { type = line.dropFirst(6).trimmingCharacters(in: .whitespaces) }
            if line.hasPrefix("data:") { data.append(line.dropFirst(5).drop { $0 == " " }) }
        }
        if type == PlazaEventType.ready {
            continuation.yield(PlazaEvent(type: type, occurredAt: Date(), data: .object([:])))
        } else if !data.isEmpty,
            let event = try? PlazaJSON.decoder().decode(PlazaEvent.self, from: Data(data.joined(separator: "\n").utf8))
        {
            continuation.yield(event)
        }
    }
}
