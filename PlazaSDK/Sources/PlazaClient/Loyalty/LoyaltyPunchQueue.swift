import Foundation
import PlazaCore

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// A scan the phone has checked and kept, waiting for the server to count it.
public struct PendingPunch: Codable, Sendable, Hashable, Identifiable {
    /// Made at the scan: the server counts each id once, so sending it again is always safe.
    public var id: UUID
    public var cardId: UUID
    public var programId: UUID
    public var token: String
    /// The token's 30-second window (the velocity rule judges by it, never by the phone's clock).
    public var window: Int64
    public var scannedAt: Date

    public init(id: UUID, cardId: UUID, programId: UUID, token: String, window: Int64, scannedAt: Date) {
        self.id = id
        self.cardId = cardId
        self.programId = programId
        self.token = token
        self.window = window
        self.scannedAt = scannedAt
    }

    var submission: PunchSubmission { PunchSubmission(id: id, cardId: cardId, token: token, scannedAt: scannedAt) }
}

/// Where a `LoyaltyPunchQueue` keeps scans until the server has them: only what has not synced yet.
public protocol LoyaltyPunchStore: Sendable {
    func load() async -> [PendingPunch]
    func save(_ punches: [PendingPunch]) async
}

/// Keeps scans in memory only (lost when the app ends).
public actor InMemoryLoyaltyPunchStore: LoyaltyPunchStore {
    private var punches: [PendingPunch] = []
    public init() {}
    public func load() -> [PendingPunch] { punches }
    public func save(_ punches: [PendingPunch]) { self.punches = punches }
}

/// Keeps scans in a file sealed with AES-GCM under a key the app keeps (in the Keychain on iOS), so other apps and
/// backups cannot read card data. A file sealed with another key, or altered, reads as empty.
public struct EncryptedLoyaltyPunchFile: LoyaltyPunchStore {
    public let url: URL
    private let key: SymmetricKey

    /// `key`: 32 random bytes the app made once with `makeKey()` and keeps.
    public init(url: URL, key: Data) throws {
        guard key.count == 32 else { throw PlazaClientError.transport("The punch store's key must be 32 bytes.") }
        self.url = url
        self.key = SymmetricKey(data: key)
    }

    /// A new random key for `init(url:key:)`.
    public static func makeKey() -> Data {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
    }

    public func load() async -> [PendingPunch] {
        guard let sealed = try? Data(contentsOf: url), let box = try? AES.GCM.SealedBox(combined: sealed),
            let data = try? AES.GCM.open(box, using: key)
        else { return [] }
        return (try? PlazaJSON.decoder().decode([PendingPunch].self, from: data)) ?? []
    }

    public func save(_ punches: [PendingPunch]) async {
        guard let data = try? PlazaJSON.encoder().encode(punches),
            let sealed = try? AES.GCM.seal(data, using: key).combined
        else { return }
        #if os(iOS) || os(watchOS) || os(tvOS) || os(visionOS)
        try? sealed.write(to: url, options: [.atomic, .completeFileProtectionUntilFirstUserAuthentication])
        #else
        try? sealed.write(to: url, options: .atomic)
        #endif
    }
}

/// Why a scan was not kept: the same reasons the server gives (`PunchRefusal`), found on the phone at once.
public struct LoyaltyScanRefused: Error, Sendable, Equatable {
    public var reason: PunchRefusal
    public init(_ reason: PunchRefusal) { self.reason = reason }
}

/// Punching at a counter that never waits for the network: a scanned token is checked on the phone against the
/// business's public keys (fetched with the program), kept encrypted, shown at once, and synced when asked.
///
/// Each scan carries an id made at the scan; a batch leaves the queue only once the server has answered for it, so
/// a lost answer means the batch is sent again and the server answers `duplicate`: nothing is lost or counted twice.
public actor LoyaltyPunchQueue {
    /// What one `sync` did.
    public struct Report: Sendable, Equatable {
        public var counted = 0
        public var duplicates = 0
        /// Scans the server would not keep, by id, with its reason.
        public var refused: [UUID: PunchRefusal] = [:]
        /// The cards touched, as they now stand.
        public var cards: [LoyaltyCard] = []
    }

    private let client: PlazaClient
    private let store: any LoyaltyPunchStore
    private let batchSize: Int
    private var queue: [PendingPunch]?
    private var syncing: Task<Report, any Error>?

    public init(client: PlazaClient, store: any LoyaltyPunchStore = InMemoryLoyaltyPunchStore(), batchSize: Int = 100) {
        self.client = client
        self.store = store
        self.batchSize = max(1, min(batchSize, LoyaltyRules.batchSize.upperBound))
    }

    /// Checks a scanned token for `card` offline and keeps it; throws `LoyaltyScanRefused` with the reason the
    /// server would give (a forged or another shop's token, one past its grace, one already used on this phone,
    /// or one too soon after the last).
    @discardableResult
    public func scan(
        _ text: String,
        card: LoyaltyCard,
        program: LoyaltyProgram,
        at now: Date = Date()
    ) async throws -> PendingPunch {
        guard card.programId == program.id else { throw LoyaltyScanRefused(.wrongProgram) }
        guard card.state == .active else { throw LoyaltyScanRefused(.cardNotActive) }
        guard let token = SignedPunchToken(text) else { throw LoyaltyScanRefused(.malformed) }
        if let problem = LoyaltyRules.tokenProblem(
            token,
            programId: program.id,
            businessId: program.businessId,
            keys: program.signingKeys,
            now: now,
            verify: Self.verify
        ) {
            throw LoyaltyScanRefused(problem)
        }
        var current = await loaded()
        let ofProgram = current.filter { $0.programId == program.id }
        if ofProgram.contains(where: { $0.token == text }) { throw LoyaltyScanRefused(.replayed) }
        if ofProgram.contains(where: {
            LoyaltyRules.tooSoon(window: token.payload.window, last: $0.window, minutes: program.velocityWindowMinutes)
        }) {
            throw LoyaltyScanRefused(.tooSoon)
        }
        let punch = PendingPunch(
            id: UUID(),
            cardId: card.id,
            programId: program.id,
            token: text,
            window: token.payload.window,
            scannedAt: now
        )
        current.append(punch)
        queue = current
        await store.save(current)
        return punch
    }

    /// Scans waiting to be synced, oldest first.
    public var pending: [PendingPunch] {
        get async { await loaded() }
    }

    /// What a card shows before the server has answered: its counted punches and the ones waiting, up to full.
    public func punchesShown(on card: LoyaltyCard) async -> Int {
        let waiting = await loaded().count { $0.cardId == card.id }
        return min(card.punches + waiting, card.punchesRequired)
    }

    /// Sends every waiting scan, batch by batch. A network failure stops it with the error; what was not answered
    /// stays queued. Every answered scan leaves the queue, counted or not.
    @discardableResult
    public func sync() async throws -> Report {
        if let syncing { return try await syncing.value }
        let task = Task { try await self.sendAll() }
        syncing = task
        defer { syncing = nil }
        return try await task.value
    }

    private func sendAll() async throws -> Report {
        var report = Report()
        var cards: [UUID: LoyaltyCard] = [:]
        while true {
            let batch = Array(await loaded().prefix(batchSize))
            guard !batch.isEmpty else { break }
            let result = try await client.syncPunches(batch.map(\.submission))
            for answer in result.results {
                switch answer.status {
                case .counted: report.counted += 1
                case .duplicate: report.duplicates += 1
                case .refused: report.refused[answer.id] = answer.reason ?? .malformed
                }
            }
            for card in result.cards { cards[card.id] = card }
            // Scans made while the batch was away stay.
            let answered = Set(batch.map(\.id))
            let remaining = await loaded().filter { !answered.contains($0.id) }
            queue = remaining
            await store.save(remaining)
        }
        report.cards = cards.values.sorted { $0.createdAt < $1.createdAt }
        return report
    }

    private func loaded() async -> [PendingPunch] {
        if let queue { return queue }
        let stored = await store.load()
        queue = stored
        return stored
    }

    static func verify(publicKey: Data, signature: Data, bytes: Data) -> Bool {
        (try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey))?.isValidSignature(signature, for: bytes)
            ?? false
    }
}
