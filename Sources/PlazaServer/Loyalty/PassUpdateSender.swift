import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import SwiftASN1
import X509

/// Tells devices that a wallet pass changed: an empty APNs push to each device's push token, on the pass type's topic,
/// authenticated by the Pass Type ID certificate itself (TLS client certificate), as Wallet's protocol wants. The device
/// then asks the pass web service which passes changed and fetches them.
package final class PassUpdateSender: Sendable {
    let client: HTTPClient
    let host: String
    let topic: String
    let logger: Logger

    init(apple: WalletPassConfiguration.Apple, host: String, trustRoots: [NIOSSLCertificate]?, logger: Logger) throws {
        var serializer = DER.Serializer()
        try serializer.serialize(apple.certificate)
        var chain = [
            NIOSSLCertificateSource.certificate(try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der))
        ]
        for intermediate in apple.intermediates {
            var der = DER.Serializer()
            try der.serialize(intermediate)
            chain.append(.certificate(try NIOSSLCertificate(bytes: der.serializedBytes, format: .der)))
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateChain = chain
        tls.privateKey = .privateKey(
            try NIOSSLPrivateKey(bytes: Array(try apple.privateKey.serializeAsPEM().pemString.utf8), format: .pem)
        )
        if let trustRoots { tls.trustRoots = .certificates(trustRoots) }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.host = host
        topic = apple.passTypeIdentifier
        self.logger = logger
    }

    deinit {
        let client = client
        Task { try? await client.shutdown() }
    }

    /// Pushes to every token; a failure is logged (Wallet also refreshes passes on its own).
    func notify(_ pushTokens: [String]) async {
        for token in Set(pushTokens) {
            do {
                var request = HTTPClientRequest(url: "\(host)/3/device/\(token)")
                request.method = .POST
                request.headers.add(name: "apns-topic", value: topic)
                request.headers.add(name: "apns-push-type", value: "background")
                request.headers.add(name: "apns-priority", value: "5")
                request.headers.add(name: "content-type", value: "application/json")
                request.body = .bytes(ByteBuffer(string: "{}"))
                let response = try await client.traced(request, timeout: .seconds(30))
                if response.status.code != 200 {
                    let text = String(buffer: try await response.body.collect(upTo: 16 * 1024))
                    logger.notice(
                        "wallet pass push refused",
                        metadata: ["status": "\(response.status.code)", "reason": "\(text.prefix(200))"]
                    )
                }
            } catch {
                logger.notice("wallet pass push failed", metadata: ["error": "\(error)"])
            }
        }
    }
}
