import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

extension LoyaltyService {
    // MARK: Redeeming

    /// A completed card's holder gets eight digits (and their signed QR) to show at the counter, good for two minutes.
    package func redeemCode(_ identity: Identity, card id: UUID, now: Date = Date()) async throws -> RedeemCode {
        let (store, secrets) = (store, Secrets(secretKey: secretKey))
        return try await database.transaction { db in
            guard let card = try await store.card(id, forUpdate: true, on: db), card.userId == identity.user.id else {
                throw PlazaError.notFound("card")
            }
            guard card.state == .completed else {
                throw Self.stateConflict(card.state, phrase("Only a full card has a reward to redeem."))
            }
            let expiresAt = now.addingTimeInterval(LoyaltyRules.redeemCodeLifetime)
            var code = Self.eightDigits()
            while !(try await store.insertRedeemCode(code, card: card, expiresAt: expiresAt, now: now, on: db)) {
                code = Self.eightDigits()
            }
            return RedeemCode(code: code, qrPayload: Self.redeemPayload(code, secrets: secrets), expiresAt: expiresAt)
        }
    }

    /// The redeem code `code` of the card, while it lasts (the card's page shows it after the holder asked for it).
    func liveRedeemCode(_ code: String, card: UUID, now: Date = Date()) async throws -> RedeemCode? {
        guard let found = try await store.redeemCode(code, now: now, on: database.sql), found.card == card else {
            return nil
        }
        return RedeemCode(
            code: code,
            qrPayload: Self.redeemPayload(code, secrets: Secrets(secretKey: secretKey)),
            expiresAt: found.expiresAt
        )
    }

    /// Staff confirm a redeem code (typed or scanned) at a location: the card is redeemed exactly once; a second
    /// confirmation answers 409, a wrong, expired or other business's code 422 `invalid_code`.
    /// With the API's `claim`, the answer is recorded in the redeeming transaction (a retry with the key gets it again).
    func redeem(
        _ identity: Identity,
        business: UUID,
        _ request: RedemptionRequest,
        claim: IdempotencyClaim?,
        now: Date = Date()
    ) async throws -> LoyaltyRedemption {
        _ = try await businesses.requireMember(identity, of: business)
        guard try await businesses.store.location(id: request.locationId, on: database.sql)?.businessId == business
        else {
            throw PlazaError.validation(field: "locationId", phrase("This business has no such location."))
        }
        let invalid = PlazaError(
            .unprocessableContent,
            .invalidCode,
            phrase("This redeem code is wrong or expired."),
            errors: [.init(field: "code", message: "Ask the customer to open their card again for a new code.")]
        )
        guard
            let digits = Self.verifiedDigits(
                request.code,
                prefix: LoyaltyRules.redeemPrefix,
                secrets: Secrets(secretKey: secretKey)
            )
        else {
            throw invalid
        }
        let (store, staff, idempotency) = (store, identity.user, idempotency)
        let redemption = try await events.transaction { db in
            guard let found = try await store.redeemCode(digits, now: now, on: db), found.business == business,
                var card = try await store.card(found.card, forUpdate: true, on: db)
            else { throw invalid }
            guard card.state == .completed else {
                throw Self.stateConflict(
                    card.state,
                    card.state == .active
                        ? phrase("This card is not full yet: punch it instead.")
                        : phrase("This card's reward was redeemed already.")
                )
            }
            card.state = .redeemed
            card.redeemedAt = now
            // The code stays until it expires: a second confirmation learns the reward went (409), not that the code is wrong.
            try await store.save(card, on: db)
            let holder = try await accounts.user(id: card.userId, on: db)
            let redemption = LoyaltyRedemption(
                id: UUID(),
                cardId: card.id,
                programId: card.programId,
                reward: card.reward,
                customer: holder?.username ?? "",
                locationId: request.locationId,
                redeemedBy: staff.username,
                redeemedAt: now
            )
            try await store.insert(redemption, card: card, staff: staff.id, on: db)
            if let claim { try await idempotency.record(redemption, status: 201, claim: claim, on: db) }
            let team = try await businesses.store.memberIDs(businesses: [business], on: db)[business] ?? []
            let event = PlazaEvent(
                type: LoyaltyEventType.redeemed,
                occurredAt: now,
                data: try JSONValue(encoding: redemption)
            )
            return (redemption, [.event(audience: [card.userId] + team, event: event)])
        }
        await passesChanged([redemption.cardId])
        return redemption
    }

    /// A redemption without an Idempotency-Key (the pages' and the demo's).
    package func redeem(
        _ identity: Identity,
        business: UUID,
        _ request: RedemptionRequest,
        now: Date = Date()
    ) async throws -> LoyaltyRedemption {
        try await redeem(identity, business: business, request, claim: nil, now: now)
    }

    static func stateConflict(_ state: LoyaltyCardState, _ title: String) -> PlazaError {
        let detail =
            switch state {
            case .active: phrase("The card is active.")
            case .completed: phrase("The card is completed.")
            case .redeemed: phrase("The card is redeemed.")
            case .expired: phrase("The card is expired.")
            }
        var error = PlazaError(.conflict, .stateConflict, title, detail: detail)
        error.currentState = state.rawValue
        return error
    }

    static func eightDigits() -> String {
        String(format: "%08d", Int.random(in: 0..<100_000_000))
    }

    /// `plaza:redeem:<digits>.<signature>`.
    static func redeemPayload(_ digits: String, secrets: Secrets) -> String {
        signedPayload(digits, prefix: LoyaltyRules.redeemPrefix, secrets: secrets)
    }

    // MARK: History

    /// Cards completed and rewards redeemed at the business, newest first (owners and staff).
    func history(
        _ identity: Identity,
        _ filter: LoyaltyStore.HistoryFilter,
        limit: Int,
        cursor: String?
    ) async throws -> Page<LoyaltyHistoryEntry> {
        _ = try await businesses.requireMember(identity, of: filter.business)
        let offset = try cursor.map { try PlaceCursor.decodeOffset($0) } ?? 0
        let rows = try await store.history(filter, limit: offset + limit + 1, on: database.sql)
            .sorted { ($0.occurredAt, $0.cardId.uuidString) > ($1.occurredAt, $1.cardId.uuidString) }
        let page = Array(rows.dropFirst(offset).prefix(limit))
        return Page(
            items: page,
            nextCursor: rows.count > offset + limit ? PlaceCursor.encode(offset: offset + limit) : nil
        )
    }

    /// The whole history as CSV (customers' usernames guarded against formulas).
    func historyCSV(_ identity: Identity, _ filter: LoyaltyStore.HistoryFilter) async throws -> String {
        let page = try await history(identity, filter, limit: 100_000, cursor: nil)
        let rows = page.items.map {
            [
                RFC3339.format($0.occurredAt), $0.kind.rawValue, $0.programId.uuidString.lowercased(),
                $0.cardId.uuidString.lowercased(),
                CSV.guarded($0.customer), $0.locationId?.uuidString.lowercased() ?? "",
                $0.redemptionId?.uuidString.lowercased() ?? "",
            ]
        }
        return CSV.text(
            header: ["occurred_at", "kind", "program_id", "card_id", "customer", "location_id", "redemption_id"],
            rows: rows
        )
    }
}
