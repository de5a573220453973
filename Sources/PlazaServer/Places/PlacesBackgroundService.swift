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
                // First wait: at start the database's own service may not be running yet.
                try await Task.sleep(for: .seconds(interval))
                do {
                    try await places.sweepQuietStays()
                    if Date().timeIntervalSince(lastPurge) > 600 {
                        let purged = try await places.purgeExpired()
                        if purged > 0 {
                            places.logger.info("purged old location points", metadata: ["points": "\(purged)"])
                        }
                        lastPurge = Date()
                    }
                } catch {
                    places.logger.warning(
                        "places maintenance failed",
                        metadata: ["error": "\(String(reflecting: error))"]
                    )
                }
            }
        }
    }
}

extension PlazaServices {
    /// Purges location data past its retention now (the background job does it every ten minutes).
    public func purgeLocations(now: Date = Date()) async throws -> Int {
        try await places.purgeExpired(now: now)
    }

    /// Ends the stays of users who went quiet now (the background job does it every few seconds).
    public func sweepPresence(now: Date = Date()) async throws {
        try await places.sweepQuietStays(now: now)
    }
}
