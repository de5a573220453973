import Foundation
import Logging
import ServiceLifecycle

/// Starts approved campaigns whose time came and ends those past their end, every minute.
struct OffersBackgroundService: Service {
    let offers: OffersService
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(60))
                do {
                    try await offers.advanceCampaigns()
                } catch {
                    logger.warning("offers maintenance failed", metadata: ["error": "\(String(reflecting: error))"])
                }
            }
        }
    }
}
