import Foundation

/// A university's network on this Plaza: who belongs (e-mail domains), where it is, and when its terms end (a student's
/// verification lasts until the next term end and a grace period).
public struct Campus: Codable, Sendable, Hashable {
    public var id: UUID
    public var name: String
    /// `uni.edu` (that domain only) or `*.uni.edu` (any subdomain, and the domain itself).
    public var domains: [String]
    public var center: Coordinate
    /// The campus's outline, when the operator drew one.
    public var boundary: [Coordinate]?
    /// `YYYY-MM-DD`, ascending.
    public var termEnds: [String]
    public var createdAt: Date

    public init(
        id: UUID,
        name: String,
        domains: [String],
        center: Coordinate,
        boundary: [Coordinate]? = nil,
        termEnds: [String],
        createdAt: Date
    ) {
        self.id = id
        self.name = name
        self.domains = domains
        self.center = center
        self.boundary = boundary
        self.termEnds = termEnds
        self.createdAt = createdAt
    }
}

/// `POST /v1/admin/campuses`.
public struct CampusRequest: Codable, Sendable, Hashable {
    public var name: String
    public var domains: [String]
    public var center: Coordinate
    public var boundary: [Coordinate]?
    public var termEnds: [String]

    public init(
        name: String,
        domains: [String],
        center: Coordinate,
        boundary: [Coordinate]? = nil,
        termEnds: [String] = []
    ) {
        self.name = name
        self.domains = domains
        self.center = center
        self.boundary = boundary
        self.termEnds = termEnds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        domains = try container.decode([String].self, forKey: .domains)
        center = try container.decode(Coordinate.self, forKey: .center)
        boundary = try container.decodeUnlessNull([Coordinate].self, forKey: .boundary)
        termEnds = try container.decodeUnlessNull([String].self, forKey: .termEnds) ?? []
    }
}

/// A campus as a person picking theirs sees it.
public struct CampusSummary: Codable, Sendable, Hashable {
    public var id: UUID
    public var name: String
    public var domains: [String]

    public init(id: UUID, name: String, domains: [String]) {
        self.id = id
        self.name = name
        self.domains = domains
    }
}

/// A place on campus to meet a stranger: the emergency telephone poles, campus police, a library lobby.
public struct SafeSpot: Codable, Sendable, Hashable {
    public var id: UUID
    public var campusId: UUID
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var description: String
    public var hours: String

    public init(
        id: UUID,
        campusId: UUID,
        name: String,
        latitude: Double,
        longitude: Double,
        description: String,
        hours: String
    ) {
        self.id = id
        self.campusId = campusId
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.description = description
        self.hours = hours
    }
}

/// `POST /v1/admin/campuses/{id}/safe-spots`.
public struct SafeSpotRequest: Codable, Sendable, Hashable {
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var description: String
    public var hours: String

    public init(name: String, latitude: Double, longitude: Double, description: String = "", hours: String = "") {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.description = description
        self.hours = hours
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        latitude = try container.decode(Double.self, forKey: .latitude)
        longitude = try container.decode(Double.self, forKey: .longitude)
        description = try container.decodeUnlessNull(String.self, forKey: .description) ?? ""
        hours = try container.decodeUnlessNull(String.self, forKey: .hours) ?? ""
    }
}

/// `POST /v1/me/campus-email`.
public struct CampusEmailRequest: Codable, Sendable, Hashable {
    public var email: String

    public init(email: String) {
        self.email = email
    }
}

/// `POST /v1/me/campus-email/verify`.
public struct CampusEmailVerification: Codable, Sendable, Hashable {
    public var email: String
    public var code: String

    public init(email: String, code: String) {
        self.email = email
        self.code = code
    }
}

public struct CampusReference: Codable, Sendable, Hashable {
    public var id: UUID
    public var name: String

    public init(id: UUID, name: String) {
        self.id = id
        self.name = name
    }
}

/// The campus a person proved they belong to, and until when (then they prove it again).
public struct CampusMembership: Codable, Sendable, Hashable {
    public var campus: CampusReference
    public var verifiedUntil: Date

    public init(campus: CampusReference, verifiedUntil: Date) {
        self.campus = campus
        self.verifiedUntil = verifiedUntil
    }
}

/// The marketplace's user agreement and whether (and which version) the reader signed.
public struct MarketAgreement: Codable, Sendable, Hashable {
    public var version: Int
    public var text: String
    public var signedVersion: Int?
    public var signedAt: Date?

    public init(version: Int, text: String, signedVersion: Int?, signedAt: Date?) {
        self.version = version
        self.text = text
        self.signedVersion = signedVersion
        self.signedAt = signedAt
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(text, forKey: .text)
        try container.encode(signedVersion, forKey: .signedVersion)
        try container.encode(signedAt, forKey: .signedAt)
    }

    /// Signed, and the version in force.
    public var isSigned: Bool { signedVersion == version }
}

/// `POST /v1/market/agreement/sign`: the version read.
public struct AgreementSignature: Codable, Sendable, Hashable {
    public var version: Int

    public init(version: Int) {
        self.version = version
    }
}

/// A listing category of the operator's list.
public struct MarketCategory: Codable, Sendable, Hashable {
    public var slug: String
    public var name: String

    public init(slug: String, name: String) {
        self.slug = slug
        self.name = name
    }
}

/// `PUT /v1/admin/market/categories/{slug}`.
public struct CategoryName: Codable, Sendable, Hashable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}
