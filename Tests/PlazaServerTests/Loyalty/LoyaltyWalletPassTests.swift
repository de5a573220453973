import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaTestSupport
import SwiftASN1
import Testing
@_spi(CMS) import X509
import _CryptoExtras

@testable import PlazaServer

/// A card as an Apple Wallet pass: a ZIP whose manifest hashes every file and whose detached CMS signature checks out
/// (and fails once the manifest changes; the browser tests check it with OpenSSL too); its barcode punches the card at
/// the counter. Nothing here starts a process: a test process's children and Foundation's `Process` do not mix well.
extension LoyaltyTests {
    @Test(arguments: TestEngine.enabled)
    func aCardsApplePassIsSignedAndItsBarcodePunchesAtTheCounter(_ engine: TestEngine) async throws {
        let apple = try WalletPassConfiguration.demoApple(secretKey: "wallet-pass-test-secret-0123456789abcdef")
        try await TestPlaza.withApp(engine, configure: { $0.passes.apple = apple }) { client, _ in
            let shop = try await shop(client, punches: 3, velocity: 0)
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            let carla = try await accounts.signedIn("carla").accessToken
            let card = try await takeCard(client, shop.program, token: anna)
            _ = try await sync(
                client,
                [PunchSubmission(cardId: card.id, token: try await token(client, shop).token)],
                token: anna
            )

            let path = "/v1/me/loyalty-cards/\(card.id)/apple-pass"
            #expect(try await client.send(.get, path, token: carla).status == .notFound, "only the holder's")
            let answer = try await client.send(.get, path, token: anna)
            #expect(answer.status == .ok && answer.headers[.contentType] == "application/vnd.apple.pkpass")
            let files = try Self.unzip(Data(answer.body.readableBytesView))
            #expect(
                files.keys.sorted() == [
                    "icon.png", "icon@2x.png", "logo.png", "logo@2x.png", "manifest.json", "pass.json", "signature",
                ]
            )
            let manifestBytes = try #require(files["manifest.json"])
            let signature = try #require(files["signature"])

            // The manifest names every file but itself and the signature, by SHA-1.
            let manifest = try JSONDecoder().decode([String: String].self, from: manifestBytes)
            #expect(Set(manifest.keys) == ["icon.png", "icon@2x.png", "logo.png", "logo@2x.png", "pass.json"])
            for (file, hash) in manifest {
                let bytes = try #require(files[file])
                #expect(Insecure.SHA1.hash(data: bytes).map { String(format: "%02x", $0) }.joined() == hash, "\(file)")
            }
            let passBytes = try #require(files["pass.json"])
            let pass = try #require(try JSONSerialization.jsonObject(with: passBytes) as? [String: Any])
            #expect(
                pass["passTypeIdentifier"] as? String == "pass.test.plaza.demo"
                    && pass["serialNumber"] as? String == card.id.uuidString.lowercased()
            )
            #expect(pass["organizationName"] as? String == "Bruno's Café" && pass["formatVersion"] as? Int == 1)
            let fields = try #require((pass["storeCard"] as? [String: Any])?["primaryFields"] as? [[String: Any]])
            #expect(fields.first?["value"] as? String == "1 of 3")
            let locations = try #require(pass["locations"] as? [[String: Any]])
            #expect(locations.count == 1 && locations[0]["latitude"] as? Double == shop.location.latitude)
            let barcode = try #require((pass["barcodes"] as? [[String: Any]])?.first?["message"] as? String)
            #expect(barcode.hasPrefix("plaza:card:\(card.id.uuidString.lowercased())."))

            // The detached signature is the certificate's, over exactly the manifest.
            func verification(_ content: Data) async -> CMS.SignatureVerificationResult {
                await CMS.isValidSignature(
                    dataBytes: content,
                    signatureBytes: signature,
                    trustRoots: CertificateStore([apple.certificate])
                ) {
                    SignerIsTheRoot()
                }
            }
            if case .failure(let error) = await verification(manifestBytes) {
                Issue.record("the signature does not check out: \(error)")
            }
            if case .success = await verification(Data("{}".utf8)) {
                Issue.record("a signature over another manifest checked out")
            }
            // And by OpenSSL, which shares no code with the signer: the signing goes through swift-certificates'
            // `@_spi(CMS)`, not a stable API, so a change there shows here.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pass-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            try signature.write(to: folder.appendingPathComponent("signature"))
            func openSSLAccepts(_ manifest: Data) throws -> Bool {
                try manifest.write(to: folder.appendingPathComponent("manifest.json"))
                let arguments = ["cms", "-verify", "-binary", "-inform", "DER", "-noverify", "-out", "/dev/null"]
                let paths = [
                    "-in", folder.appendingPathComponent("signature").path, "-content",
                    folder.appendingPathComponent("manifest.json").path,
                ]
                return try ExternalTool.run("openssl", arguments + paths).status == 0
            }
            #expect(try openSSLAccepts(manifestBytes), "OpenSSL accepts the signature")
            #expect(try !openSSLAccepts(Data("{}".utf8)), "and refuses it over another manifest")

            // Staff scan the pass's barcode: a punch, as with the card's rotating code.
            let punched = try await client.send(
                .post,
                "/v1/businesses/\(shop.business.id)/loyalty/punches",
                json: CounterPunchRequest(code: barcode, locationId: shop.location.id),
                token: shop.owner,
                headers: WalletDriver.keyed(UUID().uuidString)
            )
            #expect(try punched.decode(CounterPunch.self).card.punches == 2)
            let forged = try await client.send(
                .post,
                "/v1/businesses/\(shop.business.id)/loyalty/punches",
                json: CounterPunchRequest(
                    code: "plaza:card:\(card.id.uuidString.lowercased()).0000000000000000",
                    locationId: shop.location.id
                ),
                token: shop.owner,
                headers: WalletDriver.keyed(UUID().uuidString)
            )
            #expect(forged.problem?.code == .invalidCode)
        }
    }

    /// A card's "Save to Google Wallet" link: a JWT whose RS256 signature checks out with the service account's public
    /// key, carrying the program's class and the card's object.
    @Test(arguments: TestEngine.enabled)
    func aCardsGoogleWalletLinkIsASignedJWT(_ engine: TestEngine) async throws {
        let google = try WalletPassConfiguration.demoGoogle()
        try await TestPlaza.withApp(engine, configure: { $0.passes.google = google }) { client, _ in
            let shop = try await shop(client, punches: 3, velocity: 0)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let card = try await takeCard(client, shop.program, token: anna)
            let path = "/v1/me/loyalty-cards/\(card.id)/google-wallet"
            #expect(try await client.send(.get, path, token: shop.owner).status == .notFound, "only the holder's")
            let link = try await client.send(.get, path, token: anna).decode(GoogleWalletLink.self)
            #expect(link.saveUrl == "https://pay.google.com/gp/v/save/\(link.jwt)")
            let parts = link.jwt.split(separator: ".").map(String.init)
            try #require(parts.count == 3)
            let headerBytes = try #require(Data(base64URL: parts[0]))
            let claimBytes = try #require(Data(base64URL: parts[1]))
            let signature = try #require(Data(base64URL: parts[2]))
            let header = try JSONSerialization.jsonObject(with: headerBytes) as? [String: Any]
            #expect(header?["alg"] as? String == "RS256")
            let claims = try #require(try JSONSerialization.jsonObject(with: claimBytes) as? [String: Any])
            #expect(
                claims["aud"] as? String == "google" && claims["typ"] as? String == "savetowallet"
                    && claims["iat"] is Int
            )
            #expect(claims["iss"] as? String == google.serviceAccount)
            let payload = try #require(claims["payload"] as? [String: Any])
            let object = try #require((payload["loyaltyObjects"] as? [[String: Any]])?.first)
            let loyaltyClass = try #require((payload["loyaltyClasses"] as? [[String: Any]])?.first)
            #expect(
                object["classId"] as? String == loyaltyClass["id"] as? String
                    && object["accountId"] as? String == "anna"
            )
            #expect(
                (object["id"] as? String)?.hasPrefix("\(google.issuerId).") == true
                    && object["state"] as? String == "ACTIVE"
            )
            #expect(((object["barcode"] as? [String: Any])?["value"] as? String)?.hasPrefix("plaza:card:") == true)
            #expect(
                loyaltyClass["programName"] as? String == "Coffee card"
                    && loyaltyClass["issuerName"] as? String == "Bruno's Café"
            )

            // The RS256 signature over `header.payload` checks out with the service account's public key, and only there.
            let key = try _RSA.Signing.PublicKey(pemRepresentation: google.publicKeyPEM)
            let rsa = _RSA.Signing.RSASignature(rawRepresentation: signature)
            #expect(key.isValidSignature(rsa, for: Data("\(parts[0]).\(parts[1])".utf8), padding: .insecurePKCS1v1_5))
            #expect(!key.isValidSignature(rsa, for: Data("\(parts[0]).e30".utf8), padding: .insecurePKCS1v1_5))
        }
    }

    /// Apple's pass web service: a device registers with the pass's token, is pushed to after a punch, learns which
    /// passes changed, fetches the latest (304 while nothing changed), and unregisters.
    @Test(arguments: TestEngine.enabled)
    func walletDevicesRegisterAndFetchAPassAfterAPunch(_ engine: TestEngine) async throws {
        let apple = try WalletPassConfiguration.demoApple(secretKey: "wallet-pass-test-secret-0123456789abcdef")
        let apns = try await APNsStandIn.start()
        defer { Task { await apns.stop() } }
        let configure: (inout PlazaConfiguration) -> Void = {
            $0.passes.apple = apple
            $0.passes.apnsHost = apns.host
            $0.passes.apnsTrustRoots = [apns.certificate]
        }
        try await TestPlaza.withApp(engine, configure: configure) { client, services in
            let shop = try await shop(client, punches: 3, velocity: 0)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let card = try await takeCard(client, shop.program, token: anna)
            let serial = card.id.uuidString.lowercased()
            let token = services.loyalty.passToken(card.id)
            func headers(_ token: String?) -> HTTPFields {
                var fields = HTTPFields()
                if let token { fields[.authorization] = "ApplePass \(token)" }
                return fields
            }
            let registration = "/passes/v1/devices/device-1/registrations/pass.test.plaza.demo/\(serial)"
            let push = ["pushToken": "0f0e0d0c"]
            #expect(
                try await client.send(.post, registration, json: push, headers: headers("wrong")).status
                    == .unauthorized
            )
            #expect(try await client.send(.post, registration, json: push, headers: headers(token)).status == .created)
            #expect(
                try await client.send(.post, registration, json: push, headers: headers(token)).status == .ok,
                "registered already"
            )

            let list = "/passes/v1/devices/device-1/registrations/pass.test.plaza.demo"
            let first = try await client.send(.get, list)
            let updated = try JSONSerialization.jsonObject(with: Data(first.body.readableBytesView)) as? [String: Any]
            #expect(first.status == .ok && updated?["serialNumbers"] as? [String] == [serial])
            let tag = try #require(updated?["lastUpdated"] as? String)
            #expect(
                try await client.send(.get, "\(list)?passesUpdatedSince=\(tag)").status == .noContent,
                "nothing new"
            )

            let passPath = "/passes/v1/passes/pass.test.plaza.demo/\(serial)"
            let anonymous = try await client.send(.get, passPath, headers: headers(nil))
            #expect(anonymous.status == .unauthorized, "\(anonymous.status) \(anonymous.text)")
            let pass = try await client.send(.get, passPath, headers: headers(token))
            let modified = try #require(pass.headers[.lastModified])
            #expect(pass.status == .ok && pass.headers[.contentType] == "application/vnd.apple.pkpass")
            var conditional = headers(token)
            conditional[.ifModifiedSince] = modified
            #expect(try await client.send(.get, passPath, headers: conditional).status == .notModified)

            // A punch changes the card: the device hears of it and gets the new pass.
            try await Task.sleep(for: .milliseconds(1_100))
            _ = try await sync(
                client,
                [PunchSubmission(cardId: card.id, token: try await self.token(client, shop).token)],
                token: anna
            )
            // APNs tells the device, on the pass type's topic, with an empty payload.
            let pushed = try #require(try await apns.waitFor(1).first)
            #expect(
                pushed.token == "0f0e0d0c" && pushed.headers["apns-topic"] == "pass.test.plaza.demo"
                    && pushed.body == Data("{}".utf8)
            )
            let after = try await client.send(.get, "\(list)?passesUpdatedSince=\(tag)")
            #expect(after.status == .ok, "the punched card is listed again")
            #expect(try await client.send(.get, passPath, headers: conditional).status == .ok)

            #expect(try await client.send(.delete, registration, headers: headers(token)).status == .ok)
            #expect(try await client.send(.get, list).status == .noContent, "unregistered, nothing to list")
            #expect(try await client.send(.post, "/passes/v1/log", json: ["logs": ["a line"]]).status == .ok)
        }
    }

    /// The demo's signer is its own root: the chain is the one certificate the test trusts (its key usage and basic
    /// constraints are what Apple's Pass Type ID certificates carry, not a CA's).
    struct SignerIsTheRoot: VerifierPolicy {
        let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [
            .X509ExtensionID.basicConstraints, .X509ExtensionID.keyUsage,
        ]
        func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
            chain.count == 1 ? .meetsPolicy : .failsToMeetPolicy(reason: "a chain of \(chain.count)")
        }
    }

    /// The files of a ZIP of stored entries (what a `.pkpass` is), read from its local headers; their CRC-32s checked.
    static func unzip(_ data: Data) throws -> [String: Data] {
        let bytes = [UInt8](data)
        func le(_ at: Int, _ size: Int) -> Int { (0..<size).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        var files: [String: Data] = [:]
        var at = 0
        while at + 30 <= bytes.count, le(at, 4) == 0x0403_4b50 {
            let (size, nameLength, extra) = (le(at + 18, 4), le(at + 26, 2), le(at + 28, 2))
            let name = String(decoding: bytes[(at + 30)..<(at + 30 + nameLength)], as: UTF8.self)
            let start = at + 30 + nameLength + extra
            let contents = Data(bytes[start..<(start + size)])
            #expect(UInt32(le(at + 14, 4)) == crc32(contents), "\(name)'s CRC")
            files[name] = contents
            at = start + size
        }
        #expect(le(at, 4) == 0x0201_4b50, "the central directory follows the files")
        return files
    }

    /// CRC-32 bit by bit (ISO 3309's reflected polynomial), independent of the zlib the archive is written with.
    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }
}
