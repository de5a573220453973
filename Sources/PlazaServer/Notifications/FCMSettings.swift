import Foundation
import _CryptoExtras

/// What FCM's HTTP v1 API needs (`PLAZA_FCM_SERVICE_ACCOUNT`, `PLAZA_FCM_API_URL`): the Firebase project and the
/// service account whose key signs the OAuth2 assertions exchanged for bearer tokens.
public struct FCMSettings: Sendable {
    /// The Firebase project the app's tokens belong to (`project_id` of the key).
    public var projectID: String
    /// The service account (`client_email`): the assertion's `iss`.
    public var clientEmail: String
    /// The account's RSA key (`private_key`): it signs the assertion (RS256).
    public var privateKey: _RSA.Signing.PrivateKey
    /// Where assertions become bearer tokens (`token_uri`, Google's `https://oauth2.googleapis.com/token`).
    public var tokenURI: String
    /// `https://fcm.googleapis.com`, or a proxy or test server.
    public var apiURL: String

    public init(
        projectID: String,
        clientEmail: String,
        privateKey: _RSA.Signing.PrivateKey,
        tokenURI: String,
        apiURL: String = FCMSettings.googleAPI
    ) {
        self.projectID = projectID
        self.clientEmail = clientEmail
        self.privateKey = privateKey
        self.tokenURI = tokenURI
        self.apiURL = apiURL
    }

    public static let googleAPI = "https://fcm.googleapis.com"
    /// The OAuth2 scope that sends messages.
    public static let scope = "https://www.googleapis.com/auth/firebase.messaging"

    /// The fields of a service account's JSON key that are used.
    struct ServiceAccountKey: Decodable {
        var projectID: String
        var clientEmail: String
        var privateKey: String
        var tokenURI: String

        enum CodingKeys: String, CodingKey {
            case projectID = "project_id"
            case clientEmail = "client_email"
            case privateKey = "private_key"
            case tokenURI = "token_uri"
        }
    }

    /// The settings of a service account's JSON key (`text`: the JSON itself or the path of the file); the reason it
    /// cannot be used otherwise.
    static func parse(serviceAccount text: String, apiURL: String) -> Result<FCMSettings, ParseError> {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let json =
            trimmed.hasPrefix("{")
            ? Data(trimmed.utf8) : FileManager.default.contents(atPath: trimmed)
        guard let json else { return .failure(ParseError("names no readable file and is not JSON")) }
        guard let key = try? JSONDecoder().decode(ServiceAccountKey.self, from: json) else {
            return .failure(
                ParseError(
                    "must be the service account's JSON key, with project_id, client_email, private_key, token_uri"
                )
            )
        }
        guard !key.projectID.isEmpty,
            key.projectID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else { return .failure(ParseError("has a project_id that is not a Firebase project id")) }
        guard let tokenURL = URL(string: key.tokenURI), ["https", "http"].contains(tokenURL.scheme),
            tokenURL.host != nil
        else { return .failure(ParseError("has a token_uri that is not an http(s) address")) }
        guard let privateKey = try? _RSA.Signing.PrivateKey(pemRepresentation: key.privateKey) else {
            return .failure(ParseError("has a private_key that is not an RSA key (2048 bits or more) in PEM"))
        }
        return .success(
            FCMSettings(
                projectID: key.projectID,
                clientEmail: key.clientEmail,
                privateKey: privateKey,
                tokenURI: key.tokenURI,
                apiURL: apiURL
            )
        )
    }

    struct ParseError: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
