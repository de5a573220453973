import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// One HTTP call on a user's behalf, through `OutboundGuard`: to the address that was checked (the name stays the TLS
/// server name and the `Host`), redirects never followed (a 3xx is the answer), a short timeout, and at most 64 KB
/// of answer read.
package struct OutboundCall: Sendable {
    package var addresses: OutboundGuard
    /// Connecting, then the whole answer, each within this.
    package var timeout: TimeAmount = .seconds(10)

    package init(addresses: OutboundGuard, timeout: TimeAmount = .seconds(10)) {
        self.addresses = addresses
        self.timeout = timeout
    }

    /// What the service answered.
    struct Answer: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: String
    }

    /// Sends `request`; throws `OutboundGuard.Refused` before anything is sent when its address may not be called.
    func execute(_ request: HTTPClientRequest) async throws -> Answer {
        let target = try await addresses.target(request.url)
        let response = try await Self.clients.client(for: target).traced(request, timeout: timeout)
        let body = String(buffer: try await response.body.collect(upTo: 64 * 1024))
        return Answer(status: Int(response.status.code), headers: response.headers, body: body)
    }

    /// A client per checked target, kept for its connections (push services are few; TLS handshakes are not free).
    static let clients = TargetClients(capacity: 32)
}

/// HTTP clients, one per (host, checked address): each can connect only to its address, as `dnsOverride` pins it.
/// Bounded; the least recently used is shut down when a new target needs room.
final class TargetClients: Sendable {
    private let state = Mutex<(clients: [CheckedTarget: HTTPClient], order: [CheckedTarget])>(([:], []))
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    func client(for target: CheckedTarget) -> HTTPClient {
        let (client, evicted) = state.withLock { state -> (HTTPClient, HTTPClient?) in
            state.order.removeAll { $0 == target }
            state.order.append(target)
            if let client = state.clients[target] { return (client, nil) }
            // No timeouts of the client's own: each call's deadline (`OutboundCall.timeout`) bounds connecting and reading.
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                timeout: .init(connect: nil, read: nil)
            )
            if let address = target.address { configuration.dnsOverride = [target.host: address] }
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            state.clients[target] = client
            guard state.order.count > capacity else { return (client, nil) }
            let oldest = state.order.removeFirst()
            return (client, state.clients.removeValue(forKey: oldest))
        }
        if let evicted { Task { try? await evicted.shutdown() } }
        return client
    }
}
