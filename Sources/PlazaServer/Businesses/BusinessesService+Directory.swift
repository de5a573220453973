import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

extension BusinessesService {
    /// Merchants (and admins) create businesses and become their first owner.
    package func createBusiness(
        _ identity: Identity,
        _ request: CreateBusinessRequest,
        now: Date = Date()
    ) async throws -> Business {
        try identity.require(.merchant, .admin)
        try identity.requireVerified()
        var validator = Validator()
        validator.apply(BusinessRules.nameProblem(request.name), to: "name")
        validator.check(
            (request.description ?? "").count <= BusinessRules.descriptionMaximumLength,
            "description",
            phrase("Use at most 2,000 characters.")
        )
        guard validator.isValid else { throw PlazaError.validation(validator.errors) }
        let owner = identity.user
        let record = BusinessRecord(
            name: request.name.trimmingCharacters(in: .whitespacesAndNewlines),
            category: request.category,
            description: (request.description ?? "").trimmingCharacters(in: .whitespacesAndNewlines),
            createdAt: now
        )
        let accounts = accounts
        let created = try await events.transaction { db in
            var record = record
            // Listed unless the owner waits for approval now (the identity may be a few seconds old).
            record.listed = !(try await accounts.user(id: owner.id, on: db) ?? owner).awaitsApproval
            try await store.insert(record, owner: owner.id, on: db)
            return (record, [.catalogChanged] + (try await merchantReview(owner, on: db)))
        }
        return created.dto(locations: [], role: .owner)
    }

    /// A merchant who is not approved yet (or was refused and changes their business): the admin's review gets what
    /// they run now, filed with the transaction's commit.
    func merchantReview(_ caller: UserRecord, on db: any SQLDatabase) async throws -> [FeedMessage] {
        // Read afresh: a cached identity may predate the admin's decision (another process decided a moment ago).
        guard caller.awaitsApproval, let owner = try await accounts.user(id: caller.id, on: db), owner.awaitsApproval
        else { return [] }
        let owned = try await store.roles(of: owner.id, on: db).filter { $0.value == .owner }.map(\.key)
        let records = try await store.businesses(ids: owned, on: db).values.sorted {
            ($0.createdAt, $0.name) < ($1.createdAt, $1.name)
        }
        let locations = Dictionary(grouping: try await store.locations(businesses: owned, on: db), by: \.businessId)
        let findings = BusinessRules.merchantFindings(records.map { ($0.name, $0.category, locations[$0.id] ?? []) })
        return [
            .review(
                ReviewSubmission(
                    kind: .merchant,
                    subjectId: owner.id,
                    subject: ReviewSubmission.person(displayName: owner.displayName, username: owner.username),
                    findings: findings
                )
            )
        ]
    }

    /// Businesses' part of the bus's transactions: an admin's approval of a merchant lists every business they own (a
    /// refusal changes nothing: they were not listed, and a business they share with an approved owner stays so).
    /// Businesses' part of Loyalty's transactions: a business that starts or stops running programs is marked so (the
    /// search's `hasLoyalty`); every process reloads its catalog when the message arrives.
    func loyaltyRecorder() -> EventBus.Recorder {
        let store = store
        return EventBus.Recorder { messages, db in
            var wrote = false
            for case .loyaltyOffered(let business, let running) in messages {
                try await store.setHasLoyalty(running, business: business, on: db)
                wrote = true
            }
            return wrote
        }
    }

    func reviewRecorder() -> EventBus.Recorder {
        let store = store
        return EventBus.Recorder { messages, db in
            var wrote = false
            for case .reviewed(let decision) in messages where decision.kind == .merchant && decision.approved {
                try await store.setListed(true, ownedBy: decision.subjectId, on: db)
                wrote = true
            }
            return wrote
        }
    }

    /// Anyone: a business with its locations (and the caller's role in it). One not listed yet is found only by its
    /// team and admins.
    func business(_ id: UUID, viewer: Identity?) async throws -> Business {
        // Anonymous viewers have no role; a random id matches no member.
        guard
            let (record, role) = try await store.business(id: id, roleOf: viewer?.user.id ?? UUID(), on: database.sql),
            record.listed || role != nil || viewer?.user.role == .admin
        else {
            throw PlazaError.notFound("business")
        }
        return record.dto(locations: try await store.locations(businesses: [id], on: database.sql), role: role)
    }

    /// The businesses the caller owns or works for.
    package func myBusinesses(_ identity: Identity) async throws -> [Business] {
        let roles = try await store.roles(of: identity.user.id, on: database.sql)
        let records = try await store.businesses(ids: Array(roles.keys), on: database.sql)
        let locations = Dictionary(
            grouping: try await store.locations(businesses: Array(roles.keys), on: database.sql),
            by: \.businessId
        )
        return records.values.sorted {
            ($0.name.lowercased(), $0.id.uuidString) < ($1.name.lowercased(), $1.id.uuidString)
        }
        .map { $0.dto(locations: locations[$0.id] ?? [], role: roles[$0.id]) }
    }

    package func updateBusiness(
        _ identity: Identity,
        _ id: UUID,
        _ request: UpdateBusinessRequest,
        now: Date = Date()
    ) async throws -> Business {
        var record = try await requireMember(identity, of: id, owner: true)
        var validator = Validator()
        if let name = request.name { validator.apply(BusinessRules.nameProblem(name), to: "name") }
        if let description = request.description {
            validator.check(
                description.count <= BusinessRules.descriptionMaximumLength,
                "description",
                phrase("Use at most 2,000 characters.")
            )
        }
        let problems = validator.errors + BusinessRules.counterProblems(request)
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        if let name = request.name { record.name = name.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let tips = request.tipPercents { record.tipPercents = tips.sorted() }
        if let taxId = request.taxId?.trimmingCharacters(in: .whitespacesAndNewlines) {
            record.taxId = taxId.isEmpty ? nil : taxId
        }
        if let rate = request.taxRate {
            record.taxBasisPoints = BusinessRules.taxBasisPoints(rate).flatMap { $0 == 0 ? nil : $0 }
        }
        if let category = request.category { record.category = category }
        if let description = request.description {
            record.description = description.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let (updated, owner) = (record, identity.user)
        try await events.transaction { db in
            try await store.update(updated, now: now, on: db)
            return ((), [.catalogChanged] + (try await merchantReview(owner, on: db)))
        }
        return try await business(id, viewer: identity)
    }

    func deleteBusiness(_ identity: Identity, _ id: UUID) async throws {
        _ = try await requireMember(identity, of: id, owner: true)
        let checks = deletionChecks
        try await events.transaction { db in
            try await checks(id, on: db)
            try await store.delete(id: id, on: db)
            return ((), [.catalogChanged])
        }
    }

    /// Text search by name and category, ordered by name.
    func search(
        text: String?,
        category: BusinessCategory?,
        hasLoyalty: Bool? = nil,
        only: Set<UUID>? = nil,
        limit: Int,
        cursor: String?
    ) async throws -> Page<BusinessSummary> {
        let after = try cursor.map { try PlaceCursor.decodeID($0) }
        let records = try await store.search(
            text: text,
            category: category,
            hasLoyalty: hasLoyalty,
            only: only,
            limit: limit + 1,
            after: after,
            on: database.sql
        )
        let page = Array(records.prefix(limit))
        let locations = Dictionary(
            grouping: try await store.locations(businesses: page.map(\.id), on: database.sql),
            by: \.businessId
        )
        let items = page.map {
            BusinessSummary(
                id: $0.id,
                name: $0.name,
                category: $0.category,
                location: locations[$0.id]?.first,
                distanceMeters: nil,
                hasLoyalty: $0.hasLoyalty
            )
        }
        return Page(
            items: items,
            nextCursor: records.count > limit ? page.last.map { PlaceCursor.encode(id: $0.id) } : nil
        )
    }

    /// Businesses with a location within `radius` metres, nearest first, each with its nearest location.
    func nearby(
        _ point: Coordinate,
        radius: Double,
        category: BusinessCategory?,
        hasLoyalty: Bool? = nil,
        only: Set<UUID>? = nil,
        limit: Int,
        cursor: String?
    ) async throws -> Page<BusinessSummary> {
        try await prepare()
        let offset = try cursor.map { try PlaceCursor.decodeOffset($0) } ?? 0
        var seen = Set<UUID>()
        var items: [BusinessSummary] = []
        for (entry, distance) in catalog.near(point, radius: radius)
        where seen.insert(entry.location.businessId).inserted {
            if let category, entry.category != category { continue }
            if let hasLoyalty, entry.hasLoyalty != hasLoyalty { continue }
            if let only, !only.contains(entry.location.businessId) { continue }
            items.append(
                BusinessSummary(
                    id: entry.location.businessId,
                    name: entry.businessName,
                    category: entry.category,
                    location: entry.location,
                    distanceMeters: (distance * 10).rounded() / 10,
                    hasLoyalty: entry.hasLoyalty
                )
            )
        }
        let page = Array(items.dropFirst(offset).prefix(limit))
        return Page(
            items: page,
            nextCursor: offset + limit < items.count ? PlaceCursor.encode(offset: offset + limit) : nil
        )
    }

    // MARK: Members

    func members(_ identity: Identity, business: UUID) async throws -> [BusinessMember] {
        _ = try await requireMember(identity, of: business)
        return try await store.members(business: business, on: database.sql)
    }

    /// Refuses to let the account go while it is the last owner of a business: the business would stay public with
    /// nobody to run it, withdraw its money or answer for its charges.
    func requireNotLastOwner(_ user: UUID, on db: any SQLDatabase) async throws {
        let names = try await store.soleOwnerships(user: user, on: db)
        guard let first = names.first else { return }
        throw PlazaError(
            .conflict,
            .conflict,
            names.count > 1
                ? sayCount(names.count - 1, "count.only_owner_and_more", ["name": first])
                : say("You are the only owner of {name}.", ["name": first]),
            detail: phrase("Make someone else an owner (My business → Staff) or delete the business first.")
        )
    }

    /// Links an account by username, or changes its role. An owner cannot demote the last owner.
    func setMember(
        _ identity: Identity,
        business: UUID,
        _ request: AddMemberRequest,
        now: Date = Date()
    ) async throws -> BusinessMember {
        _ = try await requireMember(identity, of: business, owner: true)
        let username = AccountRules.normalizedUsername(request.username)
        guard let user = try await accounts.user(login: username, on: database.sql), !username.contains("@") else {
            throw PlazaError.validation(field: "username", phrase("No account has this username."))
        }
        try await events.transaction { db in
            if request.role == .staff, try await store.role(of: user.id, in: business, on: db) == .owner,
                try await store.ownerCount(business: business, on: db) <= 1
            {
                throw PlazaError.conflict(field: "role", phrase("A business needs at least one owner."))
            }
            try await store.setMember(business: business, user: user.id, role: request.role, now: now, on: db)
            return ((), [.catalogChanged])
        }
        return BusinessMember(username: user.username, displayName: user.displayName, role: request.role, addedAt: now)
    }

    func removeMember(_ identity: Identity, business: UUID, username: String) async throws {
        _ = try await requireMember(identity, of: business, owner: true)
        let username = AccountRules.normalizedUsername(username)
        // Only a name that could be a username is looked up (a `%00` in the path would fail PostgreSQL's text type).
        guard AccountRules.usernameProblem(username) == nil,
            let user = try await accounts.user(login: username, on: database.sql)
        else {
            throw PlazaError.notFound("member")
        }
        try await events.transaction { db in
            let role = try await store.role(of: user.id, in: business, on: db)
            guard role != nil else { throw PlazaError.notFound("member") }
            if role == .owner, try await store.ownerCount(business: business, on: db) <= 1 {
                throw PlazaError.conflict(field: "username", phrase("A business needs at least one owner."))
            }
            _ = try await store.removeMember(business: business, user: user.id, on: db)
            return ((), [.catalogChanged])
        }
    }
}

extension Optional {
    package func asyncMap<U>(_ transform: (Wrapped) async throws -> U) async rethrows -> U? {
        guard let self else { return nil }
        return try await transform(self)
    }
}

/// The opaque cursors of place lists: the last id of a page ordered by name, or an offset into a
/// distance-ordered list.
enum PlaceCursor {
    static func encode(id: UUID) -> String { Data("i:\(id.uuidString)".utf8).base64EncodedString() }
    static func encode(offset: Int) -> String { Data("o:\(offset)".utf8).base64EncodedString() }

    static func decodeID(_ text: String) throws -> UUID {
        guard let value = decoded(text), value.hasPrefix("i:"), let id = UUID(uuidString: String(value.dropFirst(2)))
        else { throw invalid }
        return id
    }

    static func decodeOffset(_ text: String) throws -> Int {
        guard let value = decoded(text), value.hasPrefix("o:"), let offset = Int(value.dropFirst(2)), offset >= 0,
            offset < 1_000_000
        else {
            throw invalid
        }
        return offset
    }

    private static func decoded(_ text: String) -> String? {
        Data(base64Encoded: text).flatMap { String(data: $0, encoding: .utf8) }
    }

    private static var invalid: PlazaError {
        PlazaError.validation(field: "cursor", phrase("This cursor is not one Plaza gave out."))
    }
}
