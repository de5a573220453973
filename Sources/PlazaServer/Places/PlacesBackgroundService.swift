import Foundation
import Logging
import ServiceLifecycle

/// Ends stays whose user went quiet (announcing the exits) every `sweepInterval`, and purges location data
/// past its retention every ten minutes. Every process may run it: closing a stay is a conditional update,
/// so each exit is counted and announced once.
struct PlacesBackgroundService: Service {
    let places: PlacesService

    func run() async throws {
        let interval = places.configuration.sweepInterval
        try? await cancelWhenGracefulShutdown {
            var lastPurge = Date.distantPast
            while !Task.isCancelled {
                do {
                    try await places.sweepQuietStays()
                    if Date().timeIntervalSince(lastPurge) > 600 {
                        let purged = try await places.purgeExpired()
                        if purged > 0 { places.logger.info("purged old location points", metadata: ["points": "\(purged)"]) }
                        lastPurge = Date()
                    }
                } catch {
                    places.logger.warning("places maintenance failed", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: .seconds(interval))
            }
        }
    }
}
