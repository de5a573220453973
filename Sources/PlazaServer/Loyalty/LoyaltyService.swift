import Crypto
import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Loyalty punch cards: owners run programs, customers take cards and collect punches by scanning a token the counter
/// signs (online or synced later), staff redeem completed cards. Each punch counts once, whatever the retries.
package struct LoyaltyService: Sendable {
    let database: PlazaDatabase
    let events: EventBus
    /// Who may run a business's programs, and its name and locations.
    let businesses: BusinessesService
    let secretKey: String
    let idempotency: IdempotencyStore
    /// How wallet passes are signed (none configured: no passes).
    var passes = WalletPassConfiguration()
    /// Pushes pass updates after a punch or a redemption (a real Pass Type ID certificate, or a test's APNs).
    var passUpdates: PassUpdateSender?
    let store = LoyaltyStore()
    let accounts = AccountStore()

    // MARK: Programs

    package func createProgram(
        _ identity: Identity,
        business: UUID,
        _ request: LoyaltyProgramRequest,
        now: Date = Date()
    ) async throws -> LoyaltyProgram {
        let record = try await businesses.requireMember(identity, of: business, owner: true)
        let problems = LoyaltyRules.programProblems(request, now: now)
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        let program = ProgramRecord(request, business: business, now: now)
        let (store, secretKey) = (store, secretKey)
        try await events.transaction { db in
            if try await store.titleTaken(program.title, business: business, except: nil, on: db) {
                throw PlazaError.conflict(field: "title", phrase("This business runs a program of this title already."))
            }
            try await store.insert(program, now: now, on: db)
            if try await store.keys(business: business, on: db).isEmpty {
                try await store.insertKey(
                    Self.newKey(business: business, secretKey: secretKey),
                    business: business,
                    now: now,
                    on: db
                )
            }
            return ((), [try await Self.offered(business, store: store, on: db)])
        }
        return program.dto(businessName: record.name, keys: try await store.keys(business: business, on: database.sql))
    }

    /// Anyone: a program of a listed business (its team sees it before).
    func program(_ id: UUID, viewer: Identity?) async throws -> LoyaltyProgram {
        guard let program = try await store.program(id, on: database.sql) else { throw PlazaError.notFound("program") }
        let business = try await businesses.business(program.businessId, viewer: viewer)
        return program.dto(
            businessName: business.name,
            keys: try await store.keys(business: program.businessId, on: database.sql)
        )
    }

    func programs(business id: UUID, viewer: Identity?) async throws -> [LoyaltyProgram] {
        let business = try await businesses.business(id, viewer: viewer)
        let keys = try await store.keys(business: id, on: database.sql)
        return try await store.programs(business: id, on: database.sql).map {
            $0.dto(businessName: business.name, keys: keys)
        }
    }

    /// Owners pause, resume or end a program, or change it: its wording always, its rules only while no customer
    /// holds a card. Ending it expires every active card and tells each holder.
    func changeProgram(
        _ identity: Identity,
        _ id: UUID,
        _ change: LoyaltyProgramChange,
        now: Date = Date()
    ) async throws -> LoyaltyProgram {
        guard let current = try await store.program(id, on: database.sql) else { throw PlazaError.notFound("program") }
        let business = try await businesses.requireMember(identity, of: current.businessId, owner: true)
        let store = store
        try await events.transaction { db in
            guard var program = try await store.program(id, forUpdate: true, on: db) else {
                throw PlazaError.notFound("program")
            }
            guard program.state != .expired else {
                throw PlazaError(
                    .conflict,
                    .stateConflict,
                    phrase("This program has ended."),
                    detail: phrase("Start a new program instead.")
                )
            }
            let rules =
                change.punchesRequired != nil || change.levels != nil || change.cardValidDays != nil
                || change.velocityWindowMinutes != nil
            if rules, try await store.holdsCards(program: id, on: db) {
                throw PlazaError.conflict(
                    field: nil,
                    phrase("Customers hold cards of this program: only its wording can change now.")
                )
            }
            let asked = LoyaltyProgramRequest(
                title: change.title ?? program.title,
                description: change.description ?? program.description,
                punchesRequired: change.punchesRequired ?? program.punchesRequired,
                reward: change.reward ?? program.reward,
                levels: change.levels ?? program.levels,
                expiresAt: change.expiresAt,
                cardValidDays: change.cardValidDays ?? program.cardValidDays,
                minimumSpend: program.minimumSpend,
                velocityWindowMinutes: change.velocityWindowMinutes ?? program.velocityWindowMinutes,
                earnOnPayment: change.earnOnPayment ?? program.earnOnPayment,
                punchesPerPurchase: change.punchesPerPurchase ?? program.punchesPerPurchase
            )
            let problems = LoyaltyRules.programProblems(asked, now: now)
            guard problems.isEmpty else { throw PlazaError.validation(problems) }
            let renamed = ProgramRecord(asked, business: program.businessId, now: now)
            if renamed.title.lowercased() != program.title.lowercased(),
                try await store.titleTaken(renamed.title, business: program.businessId, except: id, on: db)
            {
                throw PlazaError.conflict(field: "title", phrase("This business runs a program of this title already."))
            }
            (program.title, program.description, program.reward) = (renamed.title, renamed.description, renamed.reward)
            (program.punchesRequired, program.levels, program.cardValidDays) = (
                renamed.punchesRequired, renamed.levels, renamed.cardValidDays
            )
            program.velocityWindowMinutes = renamed.velocityWindowMinutes
            // How paying earns counts for charges paid after the change, whoever holds cards.
            (program.earnOnPayment, program.punchesPerPurchase) = (renamed.earnOnPayment, renamed.punchesPerPurchase)
            if let expiresAt = change.expiresAt { program.expiresAt = expiresAt }
            var messages: [FeedMessage] = []
            let stateChanged = change.state.map { $0 != program.state } ?? false
            if let state = change.state, stateChanged {
                program.state = state
                if state == .expired {
                    messages = try await Self.ended(program, businessName: business.name, store: store, on: db)
                }
            }
            try await store.update(program, now: now, on: db)
            if stateChanged { messages.append(try await Self.offered(program.businessId, store: store, on: db)) }
            return ((), messages)
        }
        return try await self.program(id, viewer: identity)
    }

    /// Expires every active card of an ending program and tells each holder, in their language.
    static func ended(
        _ program: ProgramRecord,
        businessName: String?,
        store: LoyaltyStore,
        on db: any SQLDatabase
    ) async throws -> [FeedMessage] {
        let holders = Set(try await store.expireCards(program: program.id, on: db))
        let body = phrase("Your card of this program has expired: it collects no more punches.")
        // A business without a name gets a sentence of its own, not an English "A business" put in.
        let wording: Wording
        if let businessName {
            wording = Wording(
                title: phrase("{business} ended “{title}”"),
                body: body,
                values: ["business": businessName, "title": program.title]
            )
        } else {
            wording = Wording(title: phrase("A business ended “{title}”"), body: body, values: ["title": program.title])
        }
        return holders.sorted { $0.uuidString < $1.uuidString }.map {
            .alert(user: $0, kind: .loyalty, link: "/loyalty", wording)
        }
    }

    /// Whether customers hold cards of the program (its rules are fixed then).
    func holdsCards(program: UUID) async throws -> Bool {
        try await store.holdsCards(program: program, on: database.sql)
    }

    /// Whether the business runs a program now, for Places (`hasLoyalty` in search and nearby).
    static func offered(_ business: UUID, store: LoyaltyStore, on db: any SQLDatabase) async throws -> FeedMessage {
        .loyaltyOffered(business: business, running: try await store.runsPrograms(business: business, on: db))
    }

    /// Ends the programs whose own end has come (the loyalty background work calls it).
    func expireEndedPrograms(now: Date = Date()) async throws -> Int {
        let ids = try await store.programsPastTheirEnd(now: now, on: database.sql)
        let (store, businesses) = (store, businesses)
        for id in ids {
            try await events.transaction { db in
                guard var program = try await store.program(id, forUpdate: true, on: db), program.state != .expired
                else { return ((), []) }
                program.state = .expired
                try await store.update(program, now: now, on: db)
                let name =
                    try await businesses.store.businesses(ids: [program.businessId], on: db)[program.businessId]?.name
                return (
                    (),
                    try await Self.ended(program, businessName: name, store: store, on: db)
                        + [try await Self.offered(program.businessId, store: store, on: db)]
                )
            }
        }
        return ids.count
    }

    /// Expires the cards whose own life (`cardValidDays` from the first punch) ran out, and tells their holders (the
    /// loyalty background work calls it; a punch finds such a card expired too).
    func expireLapsedCards(now: Date = Date()) async throws -> Int {
        let (store, businesses) = (store, businesses)
        let lapsed = try await events.transaction { db in
            let cards = try await store.expireLapsedCards(now: now, limit: 500, on: db)
            let names = try await businesses.store.businesses(ids: Array(Set(cards.map(\.business))), on: db)
            let alerts = cards.map { card in
                let body = phrase(
                    "“{title}” collects no more punches; take a new card at the counter to start again."
                )
                // A card of a business without a name gets a sentence of its own, not an English word put in.
                let wording: Wording
                if let name = names[card.business]?.name {
                    wording = Wording(
                        title: phrase("Your {business} card has expired"),
                        body: body,
                        values: ["business": name, "title": card.title]
                    )
                } else {
                    wording = Wording(
                        title: phrase("Your loyalty card has expired"),
                        body: body,
                        values: ["title": card.title]
                    )
                }
                return FeedMessage.alert(
                    user: card.user,
                    kind: .loyalty,
                    link: "/loyalty/cards/\(card.card.uuidString.lowercased())",
                    wording
                )
            }
            return (cards.map(\.card), alerts)
        }
        if !lapsed.isEmpty { await passesChanged(lapsed) }
        return lapsed.count
    }

    /// A new signing key for the business; the previous ones sign nothing more, and their tokens count for the grace.
    func rotateKey(_ identity: Identity, business: UUID, now: Date = Date()) async throws -> [LoyaltySigningKey] {
        _ = try await businesses.requireMember(identity, of: business, owner: true)
        let (store, secretKey) = (store, secretKey)
        try await database.transaction { db in
            try await store.retireKeys(business: business, at: now, on: db)
            try await store.insertKey(
                Self.newKey(business: business, secretKey: secretKey),
                business: business,
                now: now,
                on: db
            )
        }
        return try await store.keys(business: business, on: database.sql)
    }

    // MARK: Keys

    /// A key's private half, derived from the operator's secret: every process signs alike and none is stored.
    static func privateKey(business: UUID, keyId: String, secretKey: String) -> Curve25519.Signing.PrivateKey {
        let bytes = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(secretKey.utf8)),
            info: Data("plaza:loyalty:\(business.uuidString.lowercased()):\(keyId)".utf8),
            outputByteCount: 32
        )
        // Any 32 bytes are an Ed25519 seed.
        return (try? Curve25519.Signing.PrivateKey(rawRepresentation: bytes.withUnsafeBytes { Data($0) }))
            ?? Curve25519.Signing.PrivateKey()
    }

    static func newKey(business: UUID, secretKey: String) -> LoyaltySigningKey {
        let keyId = Secrets.randomToken(bytes: 6)
        let key = privateKey(business: business, keyId: keyId, secretKey: secretKey)
        return LoyaltySigningKey(keyId: keyId, publicKey: key.publicKey.rawRepresentation.base64URLEncodedString())
    }

    static func verify(publicKey: Data, signature: Data, bytes: Data) -> Bool {
        (try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey))?.isValidSignature(signature, for: bytes)
            ?? false
    }
}
