import Foundation
import PlazaCore
import SQLKit

/// A student proves their campus address once (issue 39): an account's address verified with Accounts' code or link
/// (`FeedMessage.emailVerified`) whose domain is a campus's makes them a student of that campus, as the marketplace's
/// own code would. Accounts only publishes; the marketplace decides what the address means to it.
extension MarketService {
    /// The marketplace's part of the bus's transactions: records the membership inside the verifying transaction. An
    /// address that verifies another account's membership, or a student whose current membership rests on another
    /// address, stays as it is.
    func verifiedAddressRecorder() -> EventBus.Recorder {
        let store = store
        return EventBus.Recorder(record: { messages, db in
            var wrote = false
            for case .emailVerified(let user, let email) in messages {
                let now = Date()
                guard
                    let campus = try await store.campuses(on: db).first(where: {
                        MarketRules.belongs(email, to: $0.domains)
                    })
                else { continue }
                if let member = try await store.member(user: user, on: db), member.verifiedUntil > now,
                    member.email != email
                {
                    continue
                }
                let until = MarketRules.verifiedUntil(termEnds: campus.termEnds, now: now)
                let recorded = try await store.verify(
                    user: user,
                    campus: campus.id,
                    email: email,
                    now: now,
                    until: until,
                    on: db
                )
                wrote = wrote || recorded
            }
            return wrote
        })
    }
}
