import Foundation
import Logging
import ServiceLifecycle

/// Expires pending charges past their time (telling both sides) every `sweepInterval`, and re-sends to the
/// processor what a stopped process recorded but never sent. Every process may run it: each step is conditional.
struct WalletBackgroundService: Service {
    let wallet: WalletService

    func run() async throws {
        let interval = wallet.configuration.sweepInterval
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(interval))
                do {
                    try await wallet.expireCharges()
                    try await wallet.resendUnsent()
                } catch {
                    wallet.logger.warning("wallet maintenance failed", metadata: ["error": "\(String(reflecting: error))"])
                }
            }
        }
    }
}
