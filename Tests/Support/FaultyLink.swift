import NIOCore
import NIOPosix
import Synchronization

/// A TCP relay on loopback between Plaza and its PostgreSQL server, that a test can make fail as a network or a
/// database does: `freeze()` holds every byte both ways (a server stopped with SIGSTOP, or a cable pulled: connections
/// stay open, nothing answers), `cut()` closes every connection and refuses new ones (a server down or restarting),
/// `heal()` delivers what was held and takes connections again.
public final class FaultyLink: Sendable {
    /// The loopback port Plaza connects to instead of the server's.
    public var port: Int { state.withLock(\.port) }
    private let target: (host: String, port: Int)
    private let state = Mutex<State>(State())

    private struct State {
        var port = 0
        var frozen = false
        var server: (any Channel)?
        var glues: [Glue] = []
    }

    public static func start(to host: String, port: Int) async throws -> FaultyLink {
        let link = FaultyLink(target: (host, port))
        let server = try await link.listen(on: 0)
        link.state.withLock { $0.port = server.localAddress?.port ?? 0 }
        return link
    }

    private init(target: (host: String, port: Int)) {
        self.target = target
    }

    /// Holds every byte from now on, both ways, until `heal()`.
    public func freeze() {
        state.withLock { $0.frozen = true }
    }

    /// Closes every connection and stops listening, until `heal()`.
    public func cut() async {
        let (server, glues) = state.withLock { state -> ((any Channel)?, [Glue]) in
            defer {
                state.server = nil
                state.glues = []
            }
            return (state.server, state.glues)
        }
        try? await server?.close()
        for glue in glues { glue.close() }
    }

    /// Delivers what was held and takes new connections again.
    public func heal() async throws {
        let (glues, listening) = state.withLock { state -> ([Glue], Bool) in
            state.frozen = false
            return (state.glues, state.server != nil)
        }
        for glue in glues { glue.release() }
        if !listening { _ = try await listen(on: port) }
    }

    public func stop() async {
        await cut()
    }

    var isFrozen: Bool { state.withLock(\.frozen) }

    /// The local ports of the relay's connections to the server: what the server sees as its clients' ports
    /// (`pg_stat_activity.client_port`), so that a test can end exactly its own backends.
    public var serverSidePorts: [Int] {
        state.withLock { $0.glues.compactMap { $0.outboundPort } }
    }

    private func listen(on port: Int) async throws -> any Channel {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [self] inbound in
                let glue = Glue(link: self, own: inbound)
                state.withLock { $0.glues.append(glue) }
                return inbound.pipeline.addHandler(glue).flatMap {
                    ClientBootstrap(group: inbound.eventLoop)
                        .channelInitializer { outbound in
                            let back = Glue(link: self, own: outbound, outbound: true)
                            back.connect(to: inbound)
                            self.state.withLock { $0.glues.append(back) }
                            return outbound.pipeline.addHandler(back)
                        }
                        .connect(host: self.target.host, port: self.target.port)
                        .map { outbound in glue.connect(to: outbound) }
                        .flatMapErrorThrowing { _ in inbound.close(promise: nil) }
                }
            }
            .bind(host: "127.0.0.1", port: port).get()
        state.withLock { $0.server = server }
        return server
    }

    /// Forwards what its channel reads to its partner, or holds it while the link is frozen or the partner not there.
    final class Glue: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        private let link: FaultyLink
        private let own: any Channel
        private let relay = Mutex<(partner: (any Channel)?, held: [ByteBuffer])>((nil, []))
        private let outbound: Bool
        /// For the glue of a connection to the server: its local port (known once connected).
        var outboundPort: Int? { outbound ? own.localAddress?.port : nil }

        init(link: FaultyLink, own: any Channel, outbound: Bool = false) {
            self.link = link
            self.own = own
            self.outbound = outbound
        }

        func connect(to partner: any Channel) {
            relay.withLock { $0.partner = partner }
            release()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            let frozen = link.isFrozen
            // Under the lock, so that what `release` sends stays in order with what arrives meanwhile.
            relay.withLock { relay in
                guard !frozen, let partner = relay.partner, relay.held.isEmpty else {
                    relay.held.append(buffer)
                    return
                }
                partner.writeAndFlush(buffer, promise: nil)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            relay.withLock { $0.partner }?.close(promise: nil)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }

        /// Sends what was held, unless the link is frozen.
        func release() {
            guard !link.isFrozen else { return }
            relay.withLock { relay in
                guard let partner = relay.partner, !relay.held.isEmpty else { return }
                for buffer in relay.held { partner.write(buffer, promise: nil) }
                partner.flush()
                relay.held = []
            }
        }

        func close() {
            own.close(promise: nil)
        }
    }
}
