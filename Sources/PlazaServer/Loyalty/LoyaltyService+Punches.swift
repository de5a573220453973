import Crypto
import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

extension LoyaltyService {
    /// Counts a batch of scans, each exactly once: a repeat of a counted scan is `duplicate` and changes nothing, the
    /// rest are counted or refused with the first reason that applies. The holder's cards are locked for the batch, so
    /// two devices syncing the same scans at once count each once.
    package func sync(_ identity: Identity, _ batch: PunchBatch, now: Date = Date()) async throws -> PunchBatchResult {
        guard LoyaltyRules.batchSize.contains(batch.punches.count) else {
            throw PlazaError.validation(
                field: "punches",
                say("Send 1 to {max} punches at a time.", ["max": String(LoyaltyRules.batchSize.upperBound)])
            )
        }
        let user = identity.user.id
        let result = try await events.transaction { db in
            var state = try await SyncState(service: self, user: user, cards: Set(batch.punches.map(\.cardId)), on: db)
            var results: [PunchResult] = []
            for submission in batch.punches {
                switch try await self.count(submission, into: &state, now: now, on: db) {
                case .counted: results.append(PunchResult(id: submission.id, status: .counted))
                case .duplicate: results.append(PunchResult(id: submission.id, status: .duplicate))
                case .refused(let reason):
                    results.append(PunchResult(id: submission.id, status: .refused, reason: reason))
                }
            }
            let (cards, messages) = try await state.finish(on: db)
            return (PunchBatchResult(results: results, cards: cards), messages)
        }
        await passesChanged(result.cards.map(\.id))
        return result
    }

    /// What one sync holds while it runs: the holder's cards (locked), their programs and keys, what changed.
    struct SyncState {
        let service: LoyaltyService
        let user: UUID
        var cards: [UUID: CardRecord] = [:]
        var programs: [UUID: ProgramRecord] = [:]
        var keys: [UUID: [LoyaltySigningKey]] = [:]
        /// Cards changed or made, in the order they were.
        var touched: [UUID] = []
        var completed: [CardRecord] = []

        init(service: LoyaltyService, user: UUID, cards ids: Set<UUID>, on db: any SQLDatabase) async throws {
            self.service = service
            self.user = user
            // In one order, so that two syncs of the same holder never wait on each other crosswise.
            for id in ids.sorted(by: { $0.uuidString < $1.uuidString }) {
                if let card = try await service.store.card(id, forUpdate: true, on: db), card.userId == user {
                    cards[id] = card
                }
            }
        }

        mutating func program(_ id: UUID, on db: any SQLDatabase) async throws -> ProgramRecord? {
            if let program = programs[id] { return program }
            programs[id] = try await service.store.program(id, on: db)
            return programs[id]
        }

        mutating func keys(_ business: UUID, on db: any SQLDatabase) async throws -> [LoyaltySigningKey] {
            if let keys = keys[business] { return keys }
            keys[business] = try await service.store.keys(business: business, on: db)
            return keys[business] ?? []
        }

        mutating func touch(_ card: CardRecord) {
            cards[card.id] = card
            if !touched.contains(card.id) { touched.append(card.id) }
        }

        /// Saves the touched cards; gives them as their holder sees them, and what to publish.
        func finish(on db: any SQLDatabase) async throws -> ([LoyaltyCard], [FeedMessage]) {
            let touched = touched.compactMap { cards[$0] }
            for card in touched { try await service.store.save(card, on: db) }
            let named = try await service.named(touched, on: db)
            return (named, try await messages(cards: named, on: db))
        }

        /// Live events for each touched card (its holder and the business's team) and an alert per completed card.
        func messages(cards: [LoyaltyCard], on db: any SQLDatabase) async throws -> [FeedMessage] {
            let teams = try await service.businesses.store.memberIDs(
                businesses: Array(Set(cards.map(\.businessId))),
                on: db
            )
            var messages: [FeedMessage] = []
            for card in cards {
                let event = PlazaEvent(
                    type: LoyaltyEventType.punched,
                    occurredAt: Date(),
                    data: try JSONValue(encoding: card)
                )
                messages.append(.event(audience: [user] + (teams[card.businessId] ?? []), event: event))
            }
            for card in completed {
                let name = cards.first { $0.businessId == card.businessId }?.businessName ?? ""
                // The English comes from the same catalogue entry as every other language's.
                messages.append(
                    .alert(
                        user: user,
                        kind: .loyalty,
                        link: "/loyalty/cards/\(card.id.uuidString.lowercased())",
                        Wording(key: "alert.loyalty.card_full", values: ["business": name, "reward": card.reward])
                    )
                )
            }
            return messages
        }
    }

    enum Verdict {
        case counted, duplicate
        case refused(PunchRefusal)
    }

    /// Judges one scan and counts it when nothing stands against it.
    func count(
        _ submission: PunchSubmission,
        into state: inout SyncState,
        punches asked: Int = 1,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Verdict {
        guard var card = state.cards[submission.cardId] else { return .refused(.notFound) }
        let earlier = try await store.punch(submission.id, on: db)
        let text: String
        if let token = submission.token {
            text = token
        } else if let code = submission.code?.filter(\.isNumber), code.count == 6,
            let token = try await store.token(code: code, program: card.programId, now: now, on: db)
        {
            text = token
        } else {
            // Typed digits are looked up only while they last: a repeat of a counted one is known by its id.
            if let earlier, earlier.cardId == card.id { return .duplicate }
            if submission.code == nil { return .refused(.malformed) }
            return .refused(earlier == nil ? .invalidCode : .idReused)
        }
        guard let token = SignedPunchToken(text) else { return .refused(.malformed) }
        let hash = SHA256.hash(data: token.payloadBytes).hexString
        // A repeat is `duplicate` whatever happened since (the window passed, the card filled): it changes nothing.
        if let earlier, earlier.tokenHash == hash { return .duplicate }
        guard let program = try await state.program(card.programId, on: db) else { return .refused(.notFound) }
        if let problem = LoyaltyRules.tokenProblem(
            token,
            programId: card.programId,
            businessId: card.businessId,
            keys: try await state.keys(card.businessId, on: db),
            now: now,
            verify: Self.verify
        ) {
            return .refused(problem)
        }
        // In the contract's order: the token's own faults first, then an id that counted another token.
        if earlier != nil { return .refused(.idReused) }
        if try await store.usedToken(user: state.user, tokenHash: hash, on: db) { return .refused(.replayed) }
        let windows = Int64(program.velocityWindowMinutes) * 60 / LoyaltyRules.windowSeconds
        if windows > 0,
            try await store.punchedNear(
                user: state.user,
                program: program.id,
                window: token.payload.window,
                windows: windows,
                on: db
            )
        {
            return .refused(.tooSoon)
        }
        if card.state == .active, let end = card.expiresAt, end <= now {
            card.state = .expired
            state.touch(card)
        }
        let ended = program.expiresAt.map { $0 <= now } ?? false
        guard card.state == .active, program.state == .active, !ended else { return .refused(.cardNotActive) }
        let added = max(min(asked, card.punchesRequired - card.punches), 1)
        guard
            try await store.insertPunch(
                id: submission.id,
                card: card,
                location: token.payload.locationId,
                tokenHash: hash,
                window: token.payload.window,
                scannedAt: submission.scannedAt,
                punches: added,
                cardPunches: card.punches + added,
                now: now,
                on: db
            )
        else { return .refused(.replayed) }
        try await state.add(added, to: card, of: program, now: now, on: db)
        return .counted
    }
}

extension LoyaltyService.SyncState {
    /// Adds punches to an active card (at most what it still needs): the first starts its validity, the one that fills
    /// it completes it and starts the next level's card. Returns the card as it is after them.
    @discardableResult
    mutating func add(
        _ count: Int,
        to card: CardRecord,
        of program: ProgramRecord,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> CardRecord {
        var card = card
        let before = card.punches
        card.punches = min(card.punches + max(count, 0), card.punchesRequired)
        if before == 0, card.punches > 0, let days = program.cardValidDays {
            card.expiresAt = now.addingTimeInterval(Double(days) * 86_400)
        }
        guard card.punches >= card.punchesRequired else {
            touch(card)
            return card
        }
        card.state = .completed
        card.completedAt = now
        completed.append(card)
        // Completing a level's card starts the next level's.
        let next = CardRecord(program: program, user: user, level: card.level + 1, now: now)
        try await service.store.insert(next, on: db)
        touch(card)
        touch(next)
        return card
    }
}
