import Foundation
import PlazaCore
import PlazaServer

extension DemoData {
    /// Five months of the bakery's coffee card, so its figures have something to show: fourteen guests (who cannot log
    /// in) come by on random days, fill cards and mostly redeem them; two chose to share their visits with Bruno, and nine
    /// subscribed to the bakery's offers (so the campaign editor's estimate has people to count).
    static func seedLoyaltyHistory(
        _ services: PlazaServices,
        owner: Identity,
        program: UUID,
        business: UUID,
        location: UUID,
        now: Date = Date()
    ) async throws {
        let loyalty = services.loyalty
        var generator = SystemRandomNumberGenerator()
        for number in 1...14 {
            let username = String(format: "guest%02d", number)
            _ = try await services.createAccount(
                email: "\(username)@demo.plaza.test",
                username: username,
                displayName: "Guest \(number)",
                password: UUID().uuidString + UUID().uuidString,
                role: .customer,
                checkPolicy: false
            )
            guard let user = try await AccountStore().user(login: username, on: services.database.sql) else { continue }
            let guest = Identity(user: user, sessionID: UUID())
            // Regulars come every few days; others now and then. Each visit is at least a day after the last.
            let visits = Int.random(in: 6...34, using: &generator)
            let days = Set((0..<visits).map { _ in Int.random(in: 1...150, using: &generator) }).sorted(by: >)
            var card = try await loyalty.takeCard(
                guest,
                program: program,
                now: now.addingTimeInterval(-Double(days[0] + 1) * 86_400)
            )
            for day in days {
                let at = now.addingTimeInterval(
                    -Double(day) * 86_400 + Double(Int.random(in: 8...18, using: &generator)) * 3_600 - 86_400 / 2
                )
                let token = try await loyalty.punchToken(
                    owner,
                    business: business,
                    program: program,
                    location: location,
                    now: at
                )
                let result = try await loyalty.sync(
                    guest,
                    PunchBatch(punches: [PunchSubmission(cardId: card.id, token: token.token, scannedAt: at)]),
                    now: at
                )
                guard let full = result.cards.first(where: { $0.id == card.id }),
                    let next = result.cards.first(where: { $0.state == .active })
                else { continue }
                if full.state == .completed, Int.random(in: 0..<10, using: &generator) < 8 {
                    let later = at.addingTimeInterval(600)
                    let code = try await loyalty.redeemCode(guest, card: full.id, now: later)
                    _ = try await loyalty.redeem(
                        owner,
                        business: business,
                        RedemptionRequest(code: code.code, locationId: location),
                        now: later
                    )
                }
                card = next
            }
            if number <= 2 { _ = try await loyalty.setSharing(guest, business: business, share: true) }
            if number <= 9 { _ = try await services.offers.subscribe(guest, business: business, SubscriptionRequest()) }
        }
    }
}
