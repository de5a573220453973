import Foundation

/// `POST /v1/me/owntracks`.
public struct OwnTracksRequest: Codable, Sendable, Hashable {
    /// The phone's name, 1 to 60 characters; "OwnTracks" when absent or blank.
    public var name: String?

    public init(name: String? = nil) {
        self.name = name
    }
}

/// A phone reporting through the OwnTracks app with an app password of its own (`GET /v1/me/owntracks`).
public struct OwnTracksDevice: Codable, Sendable, Hashable, Identifiable {
    public var appPasswordId: UUID
    public var name: String
    public var createdAt: Date
    /// The newest message Plaza accepted with its app password; nil until the first.
    public var lastSeenAt: Date?
    /// `owntracks:///config?inline=…`: opens OwnTracks set up for Plaza. Holds the secret: only in the answer to its
    /// creation.
    public var configUrl: String?
    /// `configUrl` as an SVG QR code, for the phone's camera; only in the answer to its creation.
    public var qrSvg: String?

    public var id: UUID { appPasswordId }

    public init(
        appPasswordId: UUID,
        name: String,
        createdAt: Date,
        lastSeenAt: Date? = nil,
        configUrl: String? = nil,
        qrSvg: String? = nil
    ) {
        self.appPasswordId = appPasswordId
        self.name = name
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.configUrl = configUrl
        self.qrSvg = qrSvg
    }

    enum CodingKeys: String, CodingKey {
        case appPasswordId, name, createdAt, lastSeenAt, configUrl, qrSvg
    }

    /// `lastSeenAt` is always there (null until the first message); the secret's fields only when known.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appPasswordId, forKey: .appPasswordId)
        try container.encode(name, forKey: .name)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastSeenAt, forKey: .lastSeenAt)
        try container.encodeIfPresent(configUrl, forKey: .configUrl)
        try container.encodeIfPresent(qrSvg, forKey: .qrSvg)
    }
}

/// What OwnTracks reads from an `owntracks:///config?inline=` link (https://owntracks.org/booklet/features/remoteconfig/):
/// HTTP mode to Plaza's `/v1/owntracks` with HTTP Basic, significant-changes monitoring and a 5-minute locator
/// interval (a fair balance of battery and presence).
public struct OwnTracksConfiguration: Codable, Sendable, Hashable {
    public var type = "configuration"
    /// 3: HTTP.
    public var mode = 3
    public var url: String
    public var auth = true
    public var username: String
    public var password: String
    public var deviceId: String
    /// Two characters OwnTracks shows on its map.
    public var tid: String
    /// 1: significant changes, the battery-friendly mode.
    public var monitoring = 1
    /// Seconds between reports while moving.
    public var locatorInterval = 300

    enum CodingKeys: String, CodingKey {
        case type = "_type"
        case mode, url, auth, username, password, deviceId, tid, monitoring, locatorInterval
    }

    public init(url: String, username: String, password: String, deviceName: String) {
        self.url = url
        self.username = username
        self.password = password
        let slug = deviceName.lowercased().unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : "-"
        }
        let id = String(slug).split(separator: "-").joined(separator: "-").prefix(30)
        self.deviceId = id.isEmpty ? "phone" : String(id)
        let letters = username.uppercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        self.tid = String((letters + "PL").prefix(2))
    }

    /// `owntracks:///config?inline=` and the configuration's JSON in base64, percent-encoded.
    public var link: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(self)) ?? Data()
        var allowed = CharacterSet.alphanumerics
        allowed.remove(charactersIn: "+/=")
        let inline = json.base64EncodedString().addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return "owntracks:///config?inline=\(inline)"
    }

    /// The configuration in an `owntracks:///config?inline=` link; nil for anything else.
    public init?(link: String) {
        guard let components = URLComponents(string: link), components.scheme == "owntracks",
            let inline = components.queryItems?.first(where: { $0.name == "inline" })?.value,
            let data = Data(base64Encoded: inline),
            let configuration = try? JSONDecoder().decode(Self.self, from: data)
        else { return nil }
        self = configuration
    }
}
