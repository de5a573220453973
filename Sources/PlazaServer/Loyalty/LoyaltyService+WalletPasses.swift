import Crypto
import Foundation
import JWTKit
import PlazaCore
@_spi(CMS) import X509

extension LoyaltyService {
    // MARK: Wallet passes

    /// Whether this Plaza signs Apple Wallet passes (the card page shows "Add to Apple Wallet").
    var offersApplePasses: Bool { passes.apple != nil }

    /// The holder's card as an Apple Wallet store card (`.pkpass`): the business's name and colours, the punches as a
    /// field, a barcode staff scan to punch it, the business's locations so the pass surfaces at the shop; the
    /// manifest's SHA-1 hashes signed (detached CMS) with the operator's Pass Type ID certificate. 404 to all but its
    /// holder, and where no certificate is configured.
    func applePass(_ identity: Identity, card id: UUID, now: Date = Date()) async throws -> Data {
        guard passes.apple != nil else { throw PlazaError.notFound("wallet pass") }
        let card = try await card(identity, id).card
        return try await applePass(card, now: now)
    }

    /// The pass of a card, whoever asks (the holder, or Wallet with the pass's own token).
    func applePass(_ card: LoyaltyCard, now: Date = Date()) async throws -> Data {
        guard let apple = passes.apple else { throw PlazaError.notFound("wallet pass") }
        let business = try await businesses.business(card.businessId, viewer: nil)
        let serial = card.id.uuidString.lowercased()
        let pass = ApplePassJSON(
            passTypeIdentifier: apple.passTypeIdentifier,
            serialNumber: serial,
            teamIdentifier: apple.teamIdentifier,
            organizationName: business.name,
            description: "\(card.title) at \(business.name)",
            logoText: business.name,
            webServiceURL: passes.origin.isEmpty ? nil : "\(passes.origin)/passes",
            authenticationToken: passToken(card.id),
            storeCard: .init(
                primaryFields: [
                    .init(
                        key: "punches",
                        label: "PUNCHES",
                        value: "\(card.punches) of \(card.punchesRequired)",
                        changeMessage: "Now %@"
                    )
                ],
                secondaryFields: [.init(key: "reward", label: "REWARD", value: card.reward)],
                auxiliaryFields: [
                    .init(
                        key: "card",
                        label: "CARD",
                        value: card.level > 1 ? "\(card.title), level \(card.level)" : card.title
                    )
                ],
                backFields: [
                    .init(
                        key: "how",
                        label: "At the counter",
                        value: "Show this code to staff with each purchase, or scan the counter's code in Plaza."
                    )
                ]
            ),
            barcodes: [
                .init(message: Self.cardCode(card.id, secrets: Secrets(secretKey: secretKey)), altText: "\(card.title)")
            ],
            locations: business.locations.prefix(10).map {
                .init(
                    latitude: $0.latitude,
                    longitude: $0.longitude,
                    relevantText: "\(business.name): show your \(card.title)"
                )
            }
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var files = [("pass.json", try encoder.encode(pass))] + Self.passImages
        let manifest = Dictionary(
            uniqueKeysWithValues: files.map {
                ($0.0, Insecure.SHA1.hash(data: $0.1).map { String(format: "%02x", $0) }.joined())
            }
        )
        let manifestBytes = try encoder.encode(manifest)
        let signature = try CMS.sign(
            manifestBytes,
            additionalIntermediateCertificates: apple.intermediates,
            certificate: apple.certificate,
            privateKey: apple.privateKey,
            signingTime: now,
            detached: true
        )
        files += [("manifest.json", manifestBytes), ("signature", Data(signature))]
        var archive = WalletPassArchive()
        for (path, contents) in files { archive.add(path, contents) }
        return archive.data
    }

    /// The pass's `authenticationToken`: Wallet sends it back (`ApplePass <token>`) to register and to fetch updates.
    package func passToken(_ card: UUID) -> String {
        String(Secrets(secretKey: secretKey).hash("loyalty-pass-auth:\(card.uuidString.lowercased())").prefix(32))
    }

    /// The pass's images: Plaza's icon as the icon and the logo (a business's own logo when businesses have one).
    static let passImages: [(String, Data)] = {
        guard
            let url = Bundle.module.url(
                forResource: "icon-192",
                withExtension: "png",
                subdirectory: "Resources/Public/icons"
            ),
            let png = try? Data(contentsOf: url)
        else { return [] }
        return [("icon.png", png), ("icon@2x.png", png), ("logo.png", png), ("logo@2x.png", png)]
    }()

    /// What a pass's barcode says: `plaza:card:<card id>.<signature>`, a card's lasting code that staff scan to punch it
    /// (as they would a plastic loyalty card; the velocity rule keeps one punch per visit).
    static func cardCode(_ card: UUID, secrets: Secrets) -> String {
        let id = card.uuidString.lowercased()
        return "\(LoyaltyRules.cardPrefix)\(id).\(secrets.hash("loyalty-card:\(id)").prefix(16))"
    }

    /// The card a scanned pass barcode names, when Plaza signed it.
    static func card(fromCode text: String, secrets: Secrets) -> UUID? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix(LoyaltyRules.cardPrefix) else { return nil }
        let parts = trimmed.dropFirst(LoyaltyRules.cardPrefix.count).split(
            separator: ".",
            omittingEmptySubsequences: false
        )
        guard parts.count == 2, let id = UUID(uuidString: String(parts[0])),
            Secrets.constantTimeEquals(cardCode(id, secrets: secrets), trimmed)
        else { return nil }
        return id
    }
}

/// `pass.json` of a store card (Apple's PassKit package format).
struct ApplePassJSON: Encodable {
    struct Field: Encodable {
        var key: String
        var label: String
        var value: String
        var changeMessage: String?
    }

    struct Fields: Encodable {
        var primaryFields: [Field]
        var secondaryFields: [Field]
        var auxiliaryFields: [Field]
        var backFields: [Field]
    }

    struct Barcode: Encodable {
        var format = "PKBarcodeFormatQR"
        var message: String
        var messageEncoding = "iso-8859-1"
        var altText: String
    }

    struct Location: Encodable {
        var latitude: Double
        var longitude: Double
        var relevantText: String
    }

    var formatVersion = 1
    var passTypeIdentifier: String
    var serialNumber: String
    var teamIdentifier: String
    var organizationName: String
    var description: String
    var logoText: String
    var webServiceURL: String?
    var authenticationToken: String
    var foregroundColor = "rgb(255, 255, 255)"
    var backgroundColor = "rgb(15, 81, 50)"
    var labelColor = "rgb(209, 231, 221)"
    var storeCard: Fields
    var barcodes: [Barcode]
    var locations: [Location]
}

extension LoyaltyService {
    /// Whether this Plaza signs Google Wallet links (the card page shows "Save to Google Wallet").
    var offersGooglePasses: Bool { passes.google != nil }

    /// The holder's card as a "Save to Google Wallet" link: a JWT (RS256, the service account's key) carrying the
    /// program's `loyaltyClass` and the card's `loyaltyObject` (punches, the pass barcode, the shop's locations).
    func googleWalletLink(_ identity: Identity, card id: UUID, now: Date = Date()) async throws -> GoogleWalletLink {
        guard let google = passes.google else { throw PlazaError.notFound("wallet pass") }
        let detail = try await card(identity, id)
        let card = detail.card
        let business = try await businesses.business(card.businessId, viewer: identity)
        let classId = "\(google.issuerId).plaza-\(card.programId.uuidString.lowercased())"
        let claims = GoogleWalletClaims(
            iss: google.serviceAccount,
            iat: Int(now.timeIntervalSince1970),
            origins: passes.origin.isEmpty ? [] : [passes.origin],
            payload: .init(
                loyaltyClasses: [
                    .init(
                        id: classId,
                        issuerName: business.name,
                        programName: card.title,
                        programLogo: .init(sourceUri: .init(uri: "\(passes.origin)/icons/icon-512.png"))
                    )
                ],
                loyaltyObjects: [
                    .init(
                        id: "\(google.issuerId).plaza-\(card.id.uuidString.lowercased())",
                        classId: classId,
                        accountId: identity.user.username,
                        accountName: identity.user.displayName,
                        loyaltyPoints: .init(
                            label: "Punches",
                            balance: .init(string: "\(card.punches) of \(card.punchesRequired)")
                        ),
                        barcode: .init(
                            value: Self.cardCode(card.id, secrets: Secrets(secretKey: secretKey)),
                            alternateText: card.title
                        ),
                        locations: business.locations.prefix(10).map {
                            .init(latitude: $0.latitude, longitude: $0.longitude)
                        }
                    )
                ]
            )
        )
        let keys = JWTKeyCollection()
        await keys.add(rsa: google.privateKey, digestAlgorithm: .sha256)
        let jwt = try await keys.sign(claims)
        return GoogleWalletLink(saveUrl: "https://pay.google.com/gp/v/save/\(jwt)", jwt: jwt)
    }
}

/// The claims of a "Save to Google Wallet" JWT (Google's `savetowallet` format).
struct GoogleWalletClaims: JWTPayload {
    struct Image: Codable {
        struct Source: Codable { var uri: String }
        var sourceUri: Source
    }

    struct LoyaltyClass: Codable {
        var id: String
        var issuerName: String
        var programName: String
        var programLogo: Image
        var hexBackgroundColor = "#0f5132"
        var reviewStatus = "UNDER_REVIEW"
    }

    struct LoyaltyObject: Codable {
        struct Points: Codable {
            struct Balance: Codable { var string: String }
            var label: String
            var balance: Balance
        }

        struct Barcode: Codable {
            var type = "QR_CODE"
            var value: String
            var alternateText: String
        }

        struct Location: Codable {
            var latitude: Double
            var longitude: Double
        }

        var id: String
        var classId: String
        var state = "ACTIVE"
        var accountId: String
        var accountName: String
        var loyaltyPoints: Points
        var barcode: Barcode
        var locations: [Location]
    }

    struct Payload: Codable {
        var loyaltyClasses: [LoyaltyClass]
        var loyaltyObjects: [LoyaltyObject]
    }

    var iss: String
    var aud = "google"
    var typ = "savetowallet"
    /// Whole seconds: Google wants an integer.
    var iat: Int
    var origins: [String]
    var payload: Payload

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
