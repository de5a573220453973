import Foundation
import PlazaCore
import SQLKit

extension AdminService {
    /// Who a merchant's review item is about, read afresh: their identity and whether payouts reach a bank (issue 39:
    /// the admin sees who the merchant is before approving).
    func merchant(_ id: UUID, on db: any SQLDatabase) async throws -> ReviewMerchant? {
        guard let user = try? await accounts.adminUser(id, on: db) else { return nil }
        return ReviewMerchant(
            displayName: user.displayName,
            username: user.username,
            email: user.email,
            emailVerified: user.emailVerified,
            memberSince: user.createdAt,
            payoutAccount: try await wallet.payoutStatus(user: id, on: db)
        )
    }
}
