import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PlazaCore

/// The clients of one chaos run: workers take the workload's items in order and play each (a transfer sent once, twice
/// at once or again later; a deal, an order or a coupon's claims with their racing requests), retrying an unanswered
/// request with its key until it is answered, waiting while the server is down.
final class ChaosRun: Sendable {
    let work: [ChaosBench.Work]
    let users: [LedgerBenchData.User]
    let market: ChaosMarket
    let cards: ChaosCards
    let coupons: ChaosCoupons
    let shop: ChaosShop
    let client: HTTPClient
    let base: String
    /// Every answer each transfer got (one per send that was answered in the end), by the index of its item.
    let answers: LockedBox<[[ChaosBench.Answer]]>
    /// What each deal's requests were answered, by the index of its item.
    let deals = LockedBox<[Int: ChaosDeal.Result]>([:])
    /// What each card order's requests were answered, by the index of its item.
    let orders = LockedBox<[Int: ChaosOrder.Result]>([:])
    /// What each round of coupon claims was answered, by the index of its item.
    let rounds = LockedBox<[Int: ChaosCoupon.Result]>([:])
    /// What each charge's requests were answered, by the index of its item.
    let charges = LockedBox<[Int: ChaosCharge.Result]>([:])
    /// What each loyalty card's requests were answered, by the index of its item.
    let punchCards = LockedBox<[Int: ChaosPunchCard.Result]>([:])
    /// What each auction's bids were answered, by the index of its item.
    let auctions = LockedBox<[Int: ChaosAuction.Result]>([:])
    /// Closes a listing's auction as if its end had come (in the run's own process, on the same database): true once
    /// it is closed.
    let closeAuction: @Sendable (UUID) async -> Bool
    /// The server is being killed and restarted: workers wait.
    let down = LockedBox(false)
    private let next = LockedBox(0)
    private let done = LockedBox(0)
    private let slowestAnswer = LockedBox(Duration.zero)
    private let retriedAnswers = LockedBox(0)
    /// How often an unanswered send is tried again before it counts as unanswered (about two minutes).
    static let attempts = 600

    init(
        work: [ChaosBench.Work],
        users: [LedgerBenchData.User],
        market: ChaosMarket,
        cards: ChaosCards,
        coupons: ChaosCoupons,
        shop: ChaosShop,
        client: HTTPClient,
        base: String,
        closeAuction: @escaping @Sendable (UUID) async -> Bool = { _ in false }
    ) {
        self.closeAuction = closeAuction
        self.work = work
        self.users = users
        self.market = market
        self.cards = cards
        self.coupons = coupons
        self.shop = shop
        self.client = client
        self.base = base
        answers = LockedBox(Array(repeating: [], count: work.count))
    }

    /// How many items workers have taken so far.
    var started: Int { next.get() }
    var finished: Bool { done.get() >= work.count }
    var slowest: Duration { slowestAnswer.get() }
    /// How many requests were answered only after another try: one dropped by a kill, a restart or a terminated backend,
    /// or its twin of the same key still running.
    var retried: Int { retriedAnswers.get() }

    /// One worker: takes the next item until none is left.
    func work() async {
        while true {
            let index = next.update { value -> Int in
                defer { value += 1 }
                return value
            }
            guard index < work.count else { return }
            switch work[index] {
            case .transfer(let operation):
                let got = await sent(operation.style) { await self.transfer(operation) }
                answers.update { $0[index] = got }
            case .deal(let deal):
                let result = await self.deal(deal)
                deals.update { $0[index] = result }
            case .order(let order):
                let result = await self.order(order)
                orders.update { $0[index] = result }
            case .coupon(let round):
                let result = await claims(round)
                rounds.update { $0[index] = result }
            case .charge(let charge):
                let result = await self.charge(charge)
                charges.update { $0[index] = result }
            case .punchCard(let card):
                let result = await punchCard(card)
                punchCards.update { $0[index] = result }
            case .auction(let auction):
                let result = await self.auction(auction)
                auctions.update { $0[index] = result }
            }
            done.update { $0 += 1 }
        }
    }

    /// Sends one keyed request as its style says: once, twice at once, or again a moment after its answer.
    func sent<T: Sendable>(_ style: ChaosBench.Operation.Style, _ send: @escaping @Sendable () async -> T) async -> [T]
    {
        switch style {
        case .once:
            return [await send()]
        case .twice:
            async let first = send()
            async let second = send()
            return [await first, await second]
        case .againLater:
            let first = await send()
            try? await Task.sleep(for: .milliseconds(50))
            return [first, await send()]
        }
    }

    /// A transfer until its answer is final: made or refused.
    func transfer(_ operation: ChaosBench.Operation) async -> ChaosBench.Answer {
        let body = #"{"to":"\#(users[operation.to].username)","amount":\#(operation.amount),"currency":"USD"}"#
        guard
            let reply = await call("/v1/transfers", token: users[operation.from].token, key: operation.key, body: body)
        else { return .unanswered }
        if reply.status == 201, let id = Self.id(in: reply.body) { return .made(id) }
        return .refused(reply.status)
    }

    /// Sends (a POST unless told) until the answer is final: 5xx, 409 "still running" and dropped connections are tried again (with the same
    /// key, when there is one). Nil when no answer came even after every attempt.
    func call(
        _ path: String,
        method: HTTPMethod = .POST,
        token: String,
        key: String? = nil,
        body: String? = nil
    ) async -> ChaosReply? {
        var retried = false
        for _ in 0..<Self.attempts {
            // A run that failed (its server would not start) cancels its workers: they stop instead of waiting forever.
            while down.get(), !Task.isCancelled { try? await Task.sleep(for: .milliseconds(50)) }
            guard !Task.isCancelled else { return nil }
            var request = HTTPClientRequest(url: base + path)
            request.method = method
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            if let key { request.headers.add(name: "Idempotency-Key", value: key) }
            if let body {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(string: body))
            }
            let started = ContinuousClock.now
            do {
                let response = try await client.execute(request, timeout: .seconds(30))
                let reply = try await response.body.collect(upTo: 1 << 20)
                let took = ContinuousClock.now - started
                slowestAnswer.update { $0 = max($0, took) }
                let status = Int(response.status.code)
                if status < 500, status != 409 || !String(buffer: reply).contains("still running") {
                    if retried { retriedAnswers.update { $0 += 1 } }
                    return ChaosReply(status: status, body: reply, retried: retried)
                }
            } catch {
                // Dropped by a kill, refused while it restarts, or timed out: the same request again.
            }
            retried = true
            try? await Task.sleep(for: .milliseconds(200))
        }
        return nil
    }

    /// The `id` of a created object in an answer's body.
    static func id(in reply: ByteBuffer) -> UUID? {
        struct Made: Decodable { var id: UUID }
        return try? JSONDecoder().decode(Made.self, from: Data(reply.readableBytesView)).id
    }

    /// A request body in Plaza's JSON (its dates as the server reads them).
    static func json(_ value: some Encodable) -> String {
        (try? PlazaJSON.encoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// An answer's body decoded as Plaza writes it; nil when it is not one.
    static func decode<T: Decodable>(_ type: T.Type, _ reply: ChaosReply) -> T? {
        try? PlazaJSON.decoder().decode(type, from: Data(reply.body.readableBytesView))
    }
}

/// A final answer: its status and body, and whether an earlier try of the same request went unanswered (a request with
/// no key may then have been done by that try, and answer 409 now).
struct ChaosReply: Sendable {
    var status: Int
    var body: ByteBuffer
    var retried: Bool

    /// "409 {…}", or "unanswered".
    static func describe(_ reply: ChaosReply?) -> String {
        reply.map { "\($0.status) \(String(buffer: $0.body))" } ?? "unanswered"
    }
}
