import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// The campus marketplace: the operator's campuses and safe spots, students proving a campus address, the user
/// agreement, and the gate every marketplace route passes (a current campus membership, then the signed agreement).
package struct MarketService: Sendable {
    let database: PlazaDatabase
    /// The six-digit codes mailed to a campus address (the limits of an e-mail verification).
    let accounts: AccountService
    /// Listing photos: attached to a listing, they are anyone's to fetch.
    let media: MediaService
    /// Where chat messages are published (live on `events()`, and as alerts).
    let events: EventBus
    /// Chat messages at rest.
    let cipher: MessageCipher
    /// Prices are in the Plaza's first currency.
    var currency = "USD"
    /// This Plaza's own hosts: a link there in a message is no look-alike.
    var trustedHosts: [String] = []
    /// Keyed hashes of handshake codes and tokens.
    let secrets: Secrets
    /// Paying through Plaza records its answer with the money (`Idempotency-Key`).
    let idempotency: IdempotencyStore
    /// The wallet's answer for paying through Plaza; nil refuses paying (deals without money still work).
    var payments: (any MarketPayments)? = nil
    /// Places' newest positions, for a meetup's location share; nil shows nobody.
    var positions: (any MeetupPositions)? = nil
    let store = MarketStore()
    let listings = ListingStore()
    let chat = ChatStore()
    let deals = DealStore()
    let trust = TrustStore()
    let follows = FollowStore()
    let bids = BidStore()

    // MARK: Campuses (admins)

    package func createCampus(_ request: CampusRequest, now: Date = Date()) async throws -> Campus {
        let problems = MarketRules.problems(request)
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        let campus = Campus(
            id: UUID(),
            name: request.name.trimmingCharacters(in: .whitespacesAndNewlines),
            domains: request.domains.compactMap(MarketRules.domain),
            center: request.center,
            boundary: request.boundary,
            termEnds: request.termEnds.sorted(),
            createdAt: now
        )
        let claimed = try await store.campuses(on: database.sql).flatMap { other in
            other.domains.map { ($0, other.name) }
        }
        if let (domain, other) = claimed.first(where: { campus.domains.contains($0.0) }) {
            throw PlazaError.conflict(
                field: "domains",
                say("{domain} belongs to {campus} already.", ["domain": domain, "campus": other])
            )
        }
        try await store.insert(campus, on: database.sql)
        return campus
    }

    /// Every campus with its settings, for admins.
    package func allCampuses() async throws -> [Campus] {
        try await store.campuses(on: database.sql)
    }

    /// Every campus, for a person picking theirs.
    func campuses() async throws -> [CampusSummary] {
        try await store.campuses(on: database.sql).map { CampusSummary(id: $0.id, name: $0.name, domains: $0.domains) }
    }

    package func addSafeSpot(campus id: UUID, _ request: SafeSpotRequest, now: Date = Date()) async throws -> SafeSpot {
        guard try await store.campus(id, on: database.sql) != nil else { throw PlazaError.notFound("campus") }
        let problems = MarketRules.problems(request)
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        let spot = SafeSpot(
            id: UUID(),
            campusId: id,
            name: request.name.trimmingCharacters(in: .whitespacesAndNewlines),
            latitude: request.latitude,
            longitude: request.longitude,
            description: request.description,
            hours: request.hours
        )
        try await store.insert(spot, now: now, on: database.sql)
        return spot
    }

    func removeSafeSpot(campus: UUID, _ id: UUID) async throws {
        guard try await store.deleteSafeSpot(id, campus: campus, on: database.sql) else {
            throw PlazaError.notFound("safe spot")
        }
    }

    /// A campus's safe spots: for its members, or an admin.
    func safeSpots(campus: UUID) async throws -> [SafeSpot] {
        try await store.safeSpots(campus: campus, on: database.sql)
    }

    // MARK: Students

    /// Mails a code to a campus address: 422 naming `email` when no campus has its domain. An address that verifies
    /// another account already is answered alike (its owner is told instead, and no code is sent), so that nobody
    /// can learn which addresses are members.
    func startCampusEmail(_ identity: Identity, email raw: String, client: String, now: Date = Date()) async throws {
        let email = AccountRules.normalizedEmail(raw)
        _ = try await campus(of: email)
        let holder = try await store.holder(email: email, on: database.sql)
        let other = holder == identity.user.id ? nil : holder
        try await accounts.mailCampusCode(identity, email: email, takenBy: other, client: client, now: now)
    }

    /// Proves the address with its code: the user belongs to its campus until the next term end and the grace period.
    func verifyCampusEmail(
        _ identity: Identity,
        _ request: CampusEmailVerification,
        client: String,
        now: Date = Date()
    ) async throws
        -> CampusMembership
    {
        let email = AccountRules.normalizedEmail(request.email)
        let campus = try await campus(of: email)
        // The code first: only who reads the mailbox learns that the address is taken (no code went to anyone else).
        try await accounts.checkCampusCode(
            identity,
            email: email,
            code: request.code.trimmingCharacters(in: .whitespaces),
            client: client,
            now: now
        )
        let until = MarketRules.verifiedUntil(termEnds: campus.termEnds, now: now)
        let store = store
        let recorded = try await database.transaction { db in
            try await store.verify(
                user: identity.user.id,
                campus: campus.id,
                email: email,
                now: now,
                until: until,
                on: db
            )
        }
        guard recorded else { throw Self.addressTaken }
        return CampusMembership(campus: CampusReference(id: campus.id, name: campus.name), verifiedUntil: until)
    }

    /// Records a verified membership and the signed agreement without the mailed code: for seeding (the demo, the
    /// benchmark's students), never a route.
    package func enroll(_ identity: Identity, email: String, now: Date = Date()) async throws {
        let email = AccountRules.normalizedEmail(email)
        let campus = try await campus(of: email)
        let until = MarketRules.verifiedUntil(termEnds: campus.termEnds, now: now)
        guard
            try await store.verify(
                user: identity.user.id,
                campus: campus.id,
                email: email,
                now: now,
                until: until,
                on: database.sql
            )
        else {
            throw Self.addressTaken
        }
        try await store.sign(user: identity.user.id, version: MarketRules.agreementVersion, now: now, on: database.sql)
    }

    /// The user's current membership; nil when they never verified or it lapsed.
    func membership(_ identity: Identity, now: Date = Date()) async throws -> CampusMembership? {
        try await standing(identity, now: now)?.membership
    }

    /// The student's current membership and their agreement, read together (every marketplace request asks).
    private func standing(
        _ identity: Identity,
        now: Date
    ) async throws -> (membership: CampusMembership, signedVersion: Int?, suspended: Bool)? {
        guard let standing = try await store.standing(user: identity.user.id, on: database.sql),
            standing.verifiedUntil > now
        else { return nil }
        let membership = CampusMembership(
            campus: CampusReference(id: standing.campusId, name: standing.campusName),
            verifiedUntil: standing.verifiedUntil
        )
        return (membership, standing.signedVersion, standing.suspended)
    }

    /// The gate of every marketplace route: 403 `campus_required` without a current membership, then 403
    /// `agreement_required` until the agreement in force is signed, then 403 `market_suspended` while an upheld report
    /// suspends them (the decisions and the appeal stay open to them, and `allowSuspended` routes: reporting and blocking,
    /// which keep a student safe whatever they did). Answers the campus.
    func requireStudent(
        _ identity: Identity,
        now: Date = Date(),
        allowSuspended: Bool = false
    ) async throws -> CampusMembership {
        guard let standing = try await standing(identity, now: now) else { throw PlazaError.campusRequired }
        guard standing.signedVersion == MarketRules.agreementVersion else { throw PlazaError.agreementRequired }
        guard allowSuspended || !standing.suspended else { throw PlazaError.marketSuspended }
        return standing.membership
    }

    /// The campus whose domain the address has; refused beside `email` when none, or when it verifies someone else.
    private func campus(of email: String) async throws -> Campus {
        guard AccountRules.emailProblem(email) == nil else {
            throw PlazaError.validation(field: "email", phrase("Enter your university e-mail address."))
        }
        guard
            let campus = try await store.campuses(on: database.sql).first(where: {
                MarketRules.belongs(email, to: $0.domains)
            })
        else {
            throw PlazaError.validation(
                field: "email",
                phrase("No campus on this Plaza uses this address's domain; use your university address.")
            )
        }
        return campus
    }

    static let addressTaken = PlazaError.conflict(
        field: "email",
        phrase("This campus address verifies another Plaza account.")
    )

    /// Tells students, a week ahead, that their campus verification runs out (then the marketplace asks for their
    /// address again). Run every minute with the other maintenance; each is told once per verification.
    @discardableResult
    package func remindExpiringMembers(now: Date = Date()) async throws -> Int {
        let store = store
        return try await events.transaction(publishing: { db in
            let due = try await store.remindExpiring(now: now, ahead: MarketRules.reminderAhead, limit: 500, on: db)
            // Days left rather than a date (the page shows it): a date would be written the English way.
            let alerts = due.map { user, until in
                FeedMessage.alert(
                    user: user,
                    kind: .market,
                    link: "/market",
                    Wording(
                        key: "alert.market.verification_ends",
                        count: max(1, Int((until.timeIntervalSince(now) / 86_400).rounded()))
                    )
                )
            }
            return (alerts.count, alerts)
        })
    }

    // MARK: The agreement

    func agreement(_ identity: Identity) async throws -> MarketAgreement {
        let signature = try await store.signature(user: identity.user.id, on: database.sql)
        return MarketAgreement(
            version: MarketRules.agreementVersion,
            text: MarketRules.agreementText,
            signedVersion: signature.version,
            signedAt: signature.at
        )
    }

    /// Whether an upheld report suspended the user from the marketplace.
    func isSuspended(_ identity: Identity) async throws -> Bool {
        try await store.signature(user: identity.user.id, on: database.sql).suspended
    }

    /// Signs the version read; signing an older one than in force is 409 with the current version to read.
    func sign(_ identity: Identity, version: Int, now: Date = Date()) async throws -> MarketAgreement {
        guard version == MarketRules.agreementVersion else {
            throw PlazaError(
                .conflict,
                .stateConflict,
                phrase("A newer version of the agreement is in force."),
                detail: say("Read version {version} and sign it.", ["version": String(MarketRules.agreementVersion)]),
                errors: [
                    FieldError(
                        field: "version",
                        message: say("Sign version {version}.", ["version": String(MarketRules.agreementVersion)])
                    )
                ]
            )
        }
        try await store.sign(user: identity.user.id, version: version, now: now, on: database.sql)
        return try await agreement(identity)
    }

    /// Unsigns: the user's listings are hidden and marketplace actions refused until they sign again.
    func unsign(_ identity: Identity, now: Date = Date()) async throws -> MarketAgreement {
        try await store.sign(user: identity.user.id, version: nil, now: now, on: database.sql)
        return try await agreement(identity)
    }

    // MARK: Categories

    func categories() async throws -> [MarketCategory] {
        try await store.categories(on: database.sql)
    }

    /// Adds a category (or renames one): admins.
    package func saveCategory(_ category: MarketCategory) async throws -> (MarketCategory, created: Bool) {
        var validator = Validator()
        validator.apply(MarketRules.categorySlugProblem(category.slug), to: "slug")
        let name = category.name.trimmingCharacters(in: .whitespacesAndNewlines)
        validator.check(
            (1...60).contains(name.count),
            "name",
            phrase("Give the category a name of at most 60 characters.")
        )
        guard validator.isValid else { throw PlazaError.validation(validator.errors) }
        let saved = MarketCategory(slug: category.slug, name: name)
        return (saved, try await store.save(saved, on: database.sql))
    }
}
