import Crypto
import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

extension LoyaltyService {
    // MARK: Cards

    /// A customer takes a program's card (one at a time, when the program says so).
    package func takeCard(_ identity: Identity, program id: UUID, now: Date = Date()) async throws -> LoyaltyCard {
        try identity.requireVerified()
        guard let program = try await store.program(id, on: database.sql) else { throw PlazaError.notFound("program") }
        let business = try await businesses.business(program.businessId, viewer: identity)
        guard business.listed else { throw PlazaError.notFound("program") }
        guard program.state == .active, program.expiresAt.map({ $0 > now }) ?? true else {
            throw PlazaError(
                .conflict,
                .stateConflict,
                phrase("This program takes no new cards now."),
                detail: phrase("It is paused or has ended.")
            )
        }
        let (store, user) = (store, identity.user.id)
        let card = try await database.transaction { db in
            guard let program = try await store.program(id, forUpdate: true, on: db) else {
                throw PlazaError.notFound("program")
            }
            if program.oneCardAtATime, !(try await store.openCards(program: id, user: user, on: db)).isEmpty {
                throw PlazaError.conflict(
                    field: nil,
                    phrase("You hold this program's card already: fill it and redeem it first.")
                )
            }
            let card = CardRecord(program: program, user: user, level: 1, now: now)
            try await store.insert(card, on: db)
            return card
        }
        return card.dto(businessName: business.name)
    }

    enum CardView: String {
        /// Collecting or waiting to be redeemed.
        case current
        /// Redeemed or expired.
        case history
    }

    func cards(_ identity: Identity, view: CardView, limit: Int, cursor: String?) async throws -> Page<LoyaltyCard> {
        let states: [LoyaltyCardState] = view == .current ? [.active, .completed] : [.redeemed, .expired]
        let records = try await store.cards(
            user: identity.user.id,
            states: states,
            limit: limit + 1,
            after: try cursor.map { try RowCursor.decode($0).id },
            on: database.sql
        )
        let page = Array(records.prefix(limit))
        return Page(
            items: try await named(page, on: database.sql),
            nextCursor: records.count > limit ? page.last.map { RowCursor(id: $0.id).encoded } : nil
        )
    }

    /// The reader's open card (collecting, else full) of each of the programs they hold one of: a place's page links to
    /// it instead of offering the card again.
    func heldCards(_ identity: Identity, programs: [UUID]) async throws -> [UUID: LoyaltyCard] {
        var held: [UUID: CardRecord] = [:]
        for program in programs {
            let open = try await store.openCards(program: program, user: identity.user.id, on: database.sql)
            held[program] = open.first { $0.state == .active } ?? open.first
        }
        let named = try await named(Array(held.values), on: database.sql)
        return Dictionary(uniqueKeysWithValues: named.map { ($0.programId, $0) })
    }

    /// The holder's card with its punches (and where) and its redemption; 404 to everyone else.
    func card(_ identity: Identity, _ id: UUID) async throws -> LoyaltyCardDetail {
        guard let card = try await store.card(id, on: database.sql), card.userId == identity.user.id else {
            throw PlazaError.notFound("card")
        }
        let punches = try await store.punches(card: id, on: database.sql)
        let locations = Dictionary(
            uniqueKeysWithValues: try await businesses.store.locations(businesses: [card.businessId], on: database.sql)
                .map { ($0.id, $0.name) }
        )
        return LoyaltyCardDetail(
            card: try await named([card], on: database.sql)[0],
            punches: punches.map {
                LoyaltyPunch(
                    id: $0.id,
                    locationId: $0.location,
                    locationName: locations[$0.location] ?? "",
                    scannedAt: $0.scannedAt,
                    countedAt: $0.countedAt,
                    punches: $0.punches
                )
            }
            // In the order they happened: a scan synced late sits where it was made, not where it was counted.
            .sorted {
                (min($0.scannedAt, $0.countedAt), $0.countedAt) < (min($1.scannedAt, $1.countedAt), $1.countedAt)
            },
            redemption: try await store.redemption(card: id, on: database.sql),
            paymentPunches: try await store.paymentPunches(card: id, on: database.sql)
        )
    }

    /// The cards as their holder sees them, with their businesses' names.
    func named(_ cards: [CardRecord], on db: any SQLDatabase) async throws -> [LoyaltyCard] {
        let names = try await businesses.store.businesses(ids: Array(Set(cards.map(\.businessId))), on: db).mapValues(
            \.name
        )
        return cards.map { $0.dto(businessName: names[$0.businessId] ?? "") }
    }

    // MARK: Punch tokens

    /// What the counter shows for a program at a location: a token signed for this 30-second window, and six digits to
    /// type instead. Owners and staff only, of a listed business.
    package func punchToken(
        _ identity: Identity,
        business: UUID,
        program programID: UUID,
        location: UUID,
        now: Date = Date()
    ) async throws -> PunchToken {
        let record = try await businesses.requireMember(identity, of: business)
        guard record.listed else { throw PlazaError.merchantNotApproved }
        guard let program = try await store.program(programID, on: database.sql), program.businessId == business else {
            throw PlazaError.validation(field: "programId", phrase("This business runs no such program."))
        }
        guard program.state == .active else {
            throw PlazaError(.conflict, .stateConflict, phrase("This program is paused or has ended."))
        }
        guard try await businesses.store.location(id: location, on: database.sql)?.businessId == business else {
            throw PlazaError.validation(field: "locationId", phrase("This business has no such location."))
        }
        let store = store
        return try await database.transaction { db in
            let (token, payload) = try await self.signToken(
                business: business,
                program: programID,
                location: location,
                now: now,
                on: db
            )
            let expiresAt = LoyaltyRules.windowEnd(payload.window)
            var code = Secrets.sixDigitCode()
            // Typed digits outlive the window by a little: the customer may be typing while the QR turns.
            let typable = expiresAt.addingTimeInterval(LoyaltyRules.codeTypingGrace)
            while !(try await store.insertCode(
                code,
                program: programID,
                token: token,
                expiresAt: typable,
                now: now,
                on: db
            )) {
                code = Secrets.sixDigitCode()
            }
            return PunchToken(
                token: token,
                code: code,
                programId: programID,
                locationId: location,
                keyId: payload.keyId,
                expiresAt: expiresAt
            )
        }
    }

    /// A token of this window for a program at a location, signed by the business's current key.
    func signToken(
        business: UUID,
        program: UUID,
        location: UUID,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> (text: String, payload: PunchTokenPayload) {
        guard let key = try await store.keys(business: business, on: db).first(where: { $0.retiredAt == nil }) else {
            throw PlazaError.conflict(field: nil, phrase("This business has no signing key."))
        }
        let payload = PunchTokenPayload(
            businessId: business,
            programId: program,
            locationId: location,
            window: LoyaltyRules.window(now),
            counter: try await store.nextCounter(business: business, on: db),
            keyId: key.keyId
        )
        let bytes = try JSONEncoder().encode(payload)
        let signature = try Self.privateKey(business: business, keyId: key.keyId, secretKey: secretKey).signature(
            for: bytes
        )
        return (SignedPunchToken.text(payloadBytes: bytes, signature: signature), payload)
    }

    /// The customer's loyalty settings: whether paying may take a first card of a program that earns on payment.
    func settings(_ identity: Identity) async throws -> LoyaltySettings {
        LoyaltySettings(cardOnPayment: try await store.cardOnPayment(user: identity.user.id, on: database.sql))
    }

    func setSettings(
        _ identity: Identity,
        _ settings: LoyaltySettings,
        now: Date = Date()
    ) async throws -> LoyaltySettings {
        try await store.setCardOnPayment(settings.cardOnPayment, user: identity.user.id, now: now, on: database.sql)
        return settings
    }
}
