import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

extension LoyaltyService {
    // MARK: The customer's code, scanned by staff

    /// An active card's holder gets eight digits (and their signed QR) that staff scan or type to punch the card: for
    /// shops that prefer to scan the customer. Good for this 30-second window (and a little more for typing), once.
    func punchCode(_ identity: Identity, card id: UUID, now: Date = Date()) async throws -> CustomerCode {
        let (store, secrets) = (store, Secrets(secretKey: secretKey))
        return try await database.transaction { db in
            guard let card = try await store.card(id, forUpdate: true, on: db), card.userId == identity.user.id else {
                throw PlazaError.notFound("card")
            }
            guard card.state == .active else {
                throw Self.stateConflict(card.state, phrase("Only a card still collecting takes punches."))
            }
            let expiresAt = LoyaltyRules.customerCodeExpiry(now)
            var code = Self.eightDigits()
            while !(try await store.insertCardCode(code, card: card, expiresAt: expiresAt, now: now, on: db)) {
                code = Self.eightDigits()
            }
            return CustomerCode(
                code: code,
                qrPayload: Self.signedPayload(code, prefix: LoyaltyRules.punchPrefix, secrets: secrets),
                expiresAt: expiresAt
            )
        }
    }

    /// Staff punch a customer's card by the code it shows (or its wallet pass's barcode), at a location: the counter
    /// signs a token of this window and the punch is judged exactly as a scan of it would be (the velocity rule, the
    /// card's state). A wrong, expired, used or other business's code answers 422 `invalid_code`. With the API's
    /// `claim`, the answer is recorded in the punching transaction: a retry with the key gets it again and punches
    /// nothing.
    func punchCustomer(
        _ identity: Identity,
        business: UUID,
        _ request: CounterPunchRequest,
        claim: IdempotencyClaim? = nil,
        now: Date = Date()
    ) async throws -> CounterPunch {
        let record = try await businesses.requireMember(identity, of: business)
        guard record.listed else { throw PlazaError.merchantNotApproved }
        let asked = request.count ?? 1
        if let problem = LoyaltyRules.counterCountProblem(asked, punchesRequired: LoyaltyRules.counterCount.upperBound)
        {
            throw PlazaError.validation(field: "count", problem)
        }
        guard try await businesses.store.location(id: request.locationId, on: database.sql)?.businessId == business
        else {
            throw PlazaError.validation(field: "locationId", phrase("This business has no such location."))
        }
        let invalid = PlazaError(
            .unprocessableContent,
            .invalidCode,
            phrase("This customer code is wrong or expired."),
            errors: [.init(field: "code", message: "Ask the customer to show their card's code again.")]
        )
        // The card's rotating code (single use), or the lasting code of its wallet pass.
        let secrets = Secrets(secretKey: secretKey)
        let passCard = Self.card(fromCode: request.code, secrets: secrets)
        let digits =
            passCard == nil
            ? Self.verifiedDigits(request.code, prefix: LoyaltyRules.punchPrefix, secrets: secrets) : nil
        guard passCard != nil || digits != nil else { throw invalid }
        let (store, idempotency) = (store, idempotency)
        let answer = try await events.transaction { db in
            var cardID = passCard
            if let digits {
                guard let found = try await store.cardCode(digits, now: now, on: db), found.business == business else {
                    throw invalid
                }
                // Two counters scanning one code: only the delete that took it counts (on PostgreSQL both read it).
                guard try await store.deleteCardCode(digits, on: db) else { throw invalid }
                cardID = found.card
            }
            guard let cardID, let card = try await store.card(cardID, on: db), card.businessId == business else {
                throw invalid
            }
            var state = try await SyncState(service: self, user: card.userId, cards: [card.id], on: db)
            let before = state.cards[card.id]?.punches ?? card.punches
            if let problem = LoyaltyRules.counterCountProblem(asked, punchesRequired: card.punchesRequired) {
                throw PlazaError.validation(field: "count", problem)
            }
            let (token, _) = try await self.signToken(
                business: business,
                program: card.programId,
                location: request.locationId,
                now: now,
                on: db
            )
            let submission = PunchSubmission(cardId: card.id, token: token, scannedAt: now)
            let verdict = try await self.count(submission, into: &state, punches: asked, now: now, on: db)
            let (cards, messages) = try await state.finish(on: db)
            var shown = cards.first { $0.id == card.id }
            if shown == nil { shown = try await self.named([state.cards[card.id] ?? card], on: db).first }
            guard let shown else { throw invalid }
            let holder = try await self.accounts.user(id: card.userId, on: db)?.username ?? ""
            let answer: CounterPunch
            switch verdict {
            case .counted, .duplicate:
                answer = CounterPunch(
                    id: submission.id,
                    status: .counted,
                    customer: holder,
                    card: shown,
                    punchesAdded: shown.punches - before
                )
            case .refused(let reason):
                answer = CounterPunch(
                    id: submission.id,
                    status: .refused,
                    reason: reason,
                    customer: holder,
                    card: shown
                )
            }
            if let claim { try await idempotency.record(answer, status: 200, claim: claim, on: db) }
            guard answer.status == .counted, answer.punchesAdded > 0 else { return (answer, messages) }
            return (answer, messages + [Self.arrival(answer, holder: card.userId)])
        }
        if answer.status == .counted { await passesChanged([answer.card.id]) }
        return answer
    }

    /// "Punched: Coffee card, 4 of 10": the holder's phone shows where they are, in their language, that staff punched
    /// their card.
    static func arrival(_ punch: CounterPunch, holder: UUID) -> FeedMessage {
        let card = punch.card
        let values = [
            "card": card.title, "punches": String(card.punches), "required": String(card.punchesRequired),
            "business": card.businessName,
        ]
        return .arrival(
            user: holder,
            kind: .loyalty,
            link: "/loyalty/cards/\(card.id.uuidString.lowercased())",
            wording: Wording(key: "alert.loyalty.punched", values: values, count: punch.punchesAdded)
        )
    }

    /// The digits of a code a customer showed, when its signature (if scanned) is the server's.
    static func verifiedDigits(_ text: String, prefix: String, secrets: Secrets) -> String? {
        guard let (digits, signature) = LoyaltyRules.customerDigits(text, prefix: prefix) else { return nil }
        if let signature,
            !Secrets.constantTimeEquals(
                signedPayload(digits, prefix: prefix, secrets: secrets),
                "\(prefix)\(digits).\(signature)"
            )
        {
            return nil
        }
        return digits
    }

    /// `<prefix><digits>.<signature>`: a scanned code is known to come from Plaza, not typed into a QR maker.
    static func signedPayload(_ digits: String, prefix: String, secrets: Secrets) -> String {
        "\(prefix)\(digits).\(secrets.hash("loyalty-\(prefix):\(digits)").prefix(16))"
    }
}

extension LoyaltyService {
    /// Owners and staff: what their counter saw lately, newest first.
    func counterActivity(
        _ identity: Identity,
        business: UUID,
        since: Date,
        limit: Int = 12
    ) async throws -> [CounterActivity] {
        _ = try await businesses.requireMember(identity, of: business)
        return try await store.counterActivity(business: business, since: since, limit: limit, on: database.sql)
    }
}
