import Foundation
import Logging
import PlazaDemo
import PlazaServer
import PostgresNIO

/// The PostGIS side of `plaza bench geo`: the same points in a `geography` column with a GiST index,
/// queried with `ST_DWithin` on the sphere (the distance Plaza uses; PostGIS's default is the WGS 84 spheroid).
struct PostGISPeer: Sendable {
    let client: PostgresClient
    let logger: Logger

    init(url: URL, connections: Int, logger: Logger) throws {
        var configuration = try PlazaDatabase.postgresConfiguration(url: url)
        configuration.options.maximumConnections = connections
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
    }

    /// Creates the table (replacing an old one) and loads the points, then indexes and analyzes it.
    func load(_ points: [(UUID, Double, Double)]) async throws {
        try await client.query("CREATE EXTENSION IF NOT EXISTS postgis", logger: logger)
        try await client.query("DROP TABLE IF EXISTS bench_points", logger: logger)
        try await client.query(
            "CREATE TABLE bench_points (id uuid PRIMARY KEY, geog geography(Point, 4326) NOT NULL)",
            logger: logger
        )
        for start in stride(from: 0, to: points.count, by: 5_000) {
            let chunk = points[start..<min(start + 5_000, points.count)]
            // Three parallel arrays unnested in one statement: one round trip per 5,000 points.
            let ids = chunk.map(\.0)
            let longitudes = chunk.map(\.1)
            let latitudes = chunk.map(\.2)
            try await client.query(
                """
                INSERT INTO bench_points (id, geog) SELECT id, ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography
                FROM unnest(\(ids)::uuid[], \(longitudes)::float8[], \(latitudes)::float8[]) AS t(id, lon, lat)
                """,
                logger: logger
            )
        }
        try await client.query("CREATE INDEX bench_points_geog ON bench_points USING gist (geog)", logger: logger)
        try await client.query("ANALYZE bench_points", logger: logger)
    }

    /// The ids within `radius` metres of the point, on the sphere.
    func within(_ radius: Double, latitude: Double, longitude: Double) async throws -> [UUID] {
        let rows = try await client.query(
            """
            SELECT id FROM bench_points
            WHERE ST_DWithin(geog, ST_SetSRID(ST_MakePoint(\(longitude), \(latitude)), 4326)::geography, \(radius), false)
            """,
            logger: logger
        )
        var ids: [UUID] = []
        for try await id in rows.decode(UUID.self) { ids.append(id) }
        return ids
    }
}
