import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import SwiftASN1
import Synchronization
import X509

/// Apple's push service on loopback for the tests: HTTP/2 over TLS with a certificate made for this run, which
/// records every request (and whether it came over HTTP/2) and answers 200, or what a test asked for (410
/// `Unregistered`, 429...).
public final class APNsStandIn: Sendable {
    public struct Received: Sendable {
        public var path: String
        public var headers: [String: String]
        public var body: Data
        public var http2: Bool

        /// The device token the request was for.
        public var token: String { String(path.split(separator: "/").last ?? "") }
    }

    public let port: Int
    /// The certificate the server presents: the only root a client of this stand-in trusts.
    public let certificate: NIOSSLCertificate
    private let channel: any Channel
    private let state = Mutex<(received: [Received], answers: [String: [(status: Int, reason: String)]])>(([], [:]))

    public var received: [Received] { state.withLock { $0.received } }
    public var host: String { "https://127.0.0.1:\(port)" }

    public static func start() async throws -> APNsStandIn {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("127.0.0.1") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3_600),
            notValidAfter: now.addingTimeInterval(86_400),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            },
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        let nioCertificate = try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der)
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(nioCertificate)],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(key.derRepresentation), format: .der))
        )
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let box = Mutex<APNsStandIn?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                }.flatMap {
                    channel.configureHTTP2Pipeline(mode: .server) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandlers([
                                HTTP2FramePayloadToHTTP1ServerCodec(),
                                StreamHandler(record: { box.withLock { $0 }?.receive($0) ?? (500, "") }),
                            ])
                        }
                    }.map { _ in () }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let standIn = APNsStandIn(channel: channel, certificate: nioCertificate)
        box.withLock { $0 = standIn }
        return standIn
    }

    private init(channel: any Channel, certificate: NIOSSLCertificate) {
        self.channel = channel
        self.certificate = certificate
        port = channel.localAddress?.port ?? 0
    }

    /// The next requests for `token` are answered with `status` and `reason`, once each.
    public func answer(_ token: String, with status: Int, reason: String, times: Int = 1) {
        state.withLock {
            $0.answers[token.lowercased(), default: []] += Array(repeating: (status, reason), count: times)
        }
    }

    public func waitFor(_ count: Int, seconds: Double = 30) async throws -> [Received] {
        let deadline = Date().addingTimeInterval(seconds)
        while received.count < count, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return received
    }

    public func stop() async {
        try? await channel.close()
    }

    fileprivate func receive(_ request: Received) -> (Int, String) {
        state.withLock { state in
            state.received.append(request)
            guard var waiting = state.answers[request.token], !waiting.isEmpty else { return (200, "") }
            let answer = waiting.removeFirst()
            state.answers[request.token] = waiting
            return (answer.status, answer.reason)
        }
    }
}

/// One HTTP/2 stream, seen as HTTP/1 parts: gathers the request, records it, answers.
private final class StreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let record: @Sendable (APNsStandIn.Received) -> (Int, String)
    private var head: HTTPRequestHead?
    private var body = Data()

    init(record: @escaping @Sendable (APNsStandIn.Received) -> (Int, String)) {
        self.record = record
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(var buffer):
            body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
        case .end:
            guard let head else { return }
            var headers: [String: String] = [:]
            for header in head.headers { headers[header.name.lowercased()] = header.value }
            let (status, reason) = record(
                .init(path: head.uri, headers: headers, body: body, http2: head.version.major == 2)
            )
            var responseHeaders = HTTPHeaders()
            if let id = headers["apns-id"] { responseHeaders.add(name: "apns-id", value: id) }
            let text = reason.isEmpty ? "" : #"{"reason":"\#(reason)"}"#
            responseHeaders.add(name: "content-length", value: String(text.utf8.count))
            context.write(
                wrapOutboundOut(
                    .head(
                        HTTPResponseHead(
                            version: head.version,
                            status: .init(statusCode: status),
                            headers: responseHeaders
                        )
                    )
                ),
                promise: nil
            )
            if !text.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: text)))), promise: nil)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
