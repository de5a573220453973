import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import UnixSignals

/// What `plaza serve` and `plaza demo` do: configure logging and metrics once for the process, open the
/// services, and run the server until SIGINT or SIGTERM.
public enum ServerRunner {
    public static func run(
        _ configuration: PlazaConfiguration,
        afterMigrations: @escaping @Sendable (PlazaServices) async throws -> Void = { _ in },
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    )
        async throws
    {
        // A taken port fails here, naming it, rather than after the demo's banner said it runs.
        try await PortCheck.requireFree(host: configuration.host, port: configuration.port)
        let level = configuration.logLevel
        // One line repeated more than 5 times a second is said 5 times and then counted (`repeated=290`).
        let repeats = RepeatLimiter()
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = level
            return RepeatLimitedLogHandler(wrapping: handler, label: label, limiter: repeats)
        }
        defer { repeats.flush() }
        var logger = Logger(label: "plaza")
        logger.logLevel = level
        let services = try await PlazaServices.open(configuration, logger: logger)
        // Library metrics (swift-metrics) go into the same registry `/metrics` shows.
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: services.metrics.registry))
        if configuration.mode == .production, configuration.smtpURL == nil {
            logger.warning(
                "PLAZA_SMTP_URL is not set: e-mail (verification codes, password resets) is only logged, not sent"
            )
        }
        let app = try buildApplication(services, afterMigrations: afterMigrations, onListening: onListening)
        // SIGTERM or SIGINT: stop accepting, close idle connections, let requests in flight finish within
        // PLAZA_SHUTDOWN_SECONDS, then cancel what is left (and give that 5 seconds more).
        // With PLAZA_DRAIN_SECONDS, SIGTERM first drains (`DrainOnSignal`), whose end stops the group.
        let drainSeconds = configuration.network.drainSeconds
        var group = ServiceGroupConfiguration(
            services: drainSeconds > 0
                ? [
                    .init(service: app),
                    .init(
                        service: DrainOnSignal(drain: services.drain, seconds: drainSeconds, logger: logger),
                        successTerminationBehavior: .gracefullyShutdownGroup
                    ),
                ]
                : [.init(service: app)],
            gracefulShutdownSignals: drainSeconds > 0 ? [.sigint] : [.sigterm, .sigint],
            logger: logger
        )
        group.maximumGracefulShutdownDuration = .milliseconds(Int64(configuration.network.shutdownSeconds * 1_000))
        group.maximumCancellationDuration = .seconds(5)
        try await ServiceGroup(configuration: group).run()
    }

    /// `plaza migrate`: brings the schema up to date and exits.
    public static func migrate(_ configuration: PlazaConfiguration) async throws {
        let services = try await PlazaServices.open(configuration, logger: Logger(label: "plaza"))
        try await services.withDatabase { try await services.migrate() }
        try await services.database.close()
    }
}
