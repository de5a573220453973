import Foundation
import Logging
import ServiceLifecycle

/// Ends the programs whose own end has come (their open cards expire, holders are told), and expires cards past their
/// own life, every minute. Every process
/// may run it: each program is ended once, under its row lock.
struct LoyaltyBackgroundService: Service {
    let loyalty: LoyaltyService
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(60))
                do {
                    _ = try await loyalty.expireEndedPrograms()
                    _ = try await loyalty.expireLapsedCards()
                } catch {
                    logger.warning("loyalty maintenance failed", metadata: ["error": "\(String(reflecting: error))"])
                }
            }
        }
    }
}
