import Foundation
import Hummingbird
import PlazaCore

/// Issue 40: what a card page's script needs to keep punches made offline, and the sync it sends them to.
extension LoyaltyPages {
    /// The sealing key of the reader's offline punches, and the sentences their sync results are told with.
    struct OfflinePunches: Sendable {
        var key: String
        var reasons: [Reason]

        struct Reason: Sendable {
            var code: String
            var sentence: String
        }
    }

    /// Punches the page's service worker kept while offline (`PunchBatch`, as `POST /v1/me/loyalty-punches` takes it,
    /// the results the same), sent with the page's CSRF header: the web app's twin of the SDK's queue.
    @Sendable func syncPunches(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: PunchBatch.self, limit: maxBody)
        return try .json(try await loyalty.sync(context.identity, body))
    }

    static func offlinePunches(_ key: String) -> OfflinePunches {
        OfflinePunches(
            key: key,
            reasons: PunchRefusal.allCases.map { .init(code: $0.rawValue, sentence: offlineSentence($0)) }
        )
    }

    /// Why a punch kept offline did not count, told when it reached Plaza later.
    static func offlineSentence(_ reason: PunchRefusal) -> String {
        switch reason {
        case .invalidCode:
            say(
                "Typed digits count only within a minute, and reached Plaza later: when offline, scan the counter's code."
            )
        case .expired: say("The counter's code was older than a week when it reached Plaza.")
        default: say(sentence(reason))
        }
    }
}
