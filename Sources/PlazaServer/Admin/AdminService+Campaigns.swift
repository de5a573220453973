import Foundation
import PlazaCore
import SQLKit

/// An admin stops a running campaign (issue 40): audited, the business reads the reason, and the campaign's open
/// report item (if customers reported it) is decided with the stop, so that its reporters hear of it.
extension AdminService {
    package func stopCampaign(
        _ admin: Identity,
        _ id: UUID,
        reason: String,
        now: Date = Date()
    ) async throws -> Campaign {
        if let problem = AdminRules.reasonProblem(reason) { throw PlazaError.validation(field: "reason", problem) }
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        let (reviews, audit) = (reviews, audit)
        try await events.transaction { db -> ((), [FeedMessage]) in
            try await audit.record(
                Self.entry(admin, "campaign.stop", id, kind: "campaign", reason: reason, at: now),
                adminID: admin.user.id,
                on: db
            )
            // Offers applies it in this transaction: 404 for an unknown campaign, 409 for one not running.
            var messages: [FeedMessage] = [
                .reviewed(
                    ReviewDecision(
                        kind: .offerReport,
                        subjectId: id,
                        approved: true,
                        reason: reason,
                        action: .stopCampaign
                    )
                )
            ]
            if let open = try await reviews.openItem(kind: .offerReport, subject: id, on: db) {
                try await reviews.decide(
                    open.item.id,
                    .approved,
                    admin: admin.user.id,
                    reason: reason,
                    action: .stopCampaign,
                    now: now,
                    on: db
                )
                let told = ReviewKind.offerReport.decisionWording(open.item, approved: true, reason: reason)
                messages += open.notify.map {
                    FeedMessage.alert(user: $0, kind: .account, link: told.link, told.wording)
                }
            }
            return ((), messages)
        }
        return try await offers.stoppedCampaign(id)
    }
}
