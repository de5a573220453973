import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PlazaCore
import PlazaMedia
import PlazaServer

/// `plaza bench media`: what costly pictures do to everyone else. A `plaza serve` of its own (or another build's with
/// `--server`, for before and after) answers `/healthz`, probed one request at a time every 10 ms: first on a quiet
/// server, then while `uploaders` clients upload worst-case PNGs in a loop, a 7000 × 7000 (over the default pixel
/// budget) and a 6300 × 6300 (under it: decoded and thumbnailed in full), each a flat picture of a few hundred KB. The
/// peer is the same server's quiet `/healthz`: the goal is the same p99 under the uploads.
public struct MediaBench: Sendable {
    public struct Options: Sendable {
        public var uploaders = 8
        public var seconds = 20.0
        /// Another build's `plaza` to serve (its schema must match this one's).
        public var server: String?
        public init() {}
    }

    var configuration: PlazaConfiguration
    let options: Options

    public init(configuration: PlazaConfiguration, options: Options) {
        self.configuration = configuration
        self.options = options
    }

    public func run() async throws -> String {
        try await BenchSetup.withServices(configuration) { services, _ in
            guard let user = try await LedgerBenchData.seed(accounts: 1, funding: 1, services: services).first else {
                throw HTTPPool.BenchFailure(description: "the bench's user was not created")
            }
            let pictures = [Self.flatPNG(side: 7_000), Self.flatPNG(side: 6_300)].map { ByteBuffer(bytes: $0) }
            let server = try await BenchChildServer(
                storage: services.configuration.storage,
                secretKey: services.configuration.secretKey ?? "",
                logger: BenchSetup.logger,
                binary: options.server
            )
            defer { server.stop() }
            let quiet = try await Self.probe(port: server.port, seconds: options.seconds / 2)
            let (loaded, statuses) = try await withThrowingTaskGroup(of: (LoadMeter.Result?, [Int: Int]).self) {
                group in
                let deadline = ContinuousClock.now + .seconds(options.seconds)
                for uploader in 0..<options.uploaders {
                    group.addTask {
                        let connection = try await BenchHTTPConnection(port: server.port)
                        var (turn, statuses) = (uploader, [Int: Int]())
                        while ContinuousClock.now < deadline {
                            let reply = try? await connection.send(
                                .POST,
                                "/v1/media",
                                token: user.token,
                                json: pictures[turn % 2],
                                contentType: "image/png"
                            )
                            statuses[reply?.status ?? 0, default: 0] += 1
                            turn += 1
                        }
                        await connection.close()
                        return (nil, statuses)
                    }
                }
                group.addTask {
                    // Let every uploader start first.
                    try await Task.sleep(for: .milliseconds(200))
                    return (try await Self.probe(port: server.port, seconds: options.seconds - 0.2), [:])
                }
                var (result, statuses): (LoadMeter.Result?, [Int: Int]) = (nil, [:])
                for try await (probe, counts) in group {
                    result = result ?? probe
                    statuses.merge(counts, uniquingKeysWith: +)
                }
                return (result, statuses)
            }
            guard let loaded else { throw HTTPPool.BenchFailure(description: "the probe did not finish") }
            let answered = statuses.sorted { $0.key < $1.key }.map { "\($1) × \($0 == 0 ? "no answer" : String($0))" }
            func row(_ what: String, _ result: LoadMeter.Result) -> String {
                let format = { (value: Double) in String(format: "%.2f", value) }
                return
                    "| \(what) | \(result.operations) | \(format(result.p50)) | \(format(result.p99)) | \(format(result.latencies.last ?? 0)) |"
            }
            return """
                plaza bench media: \(options.uploaders) uploaders of a 7000 × 7000 and a 6300 × 6300 PNG (\(pictures[0].readableBytes / 1_024) and \
                \(pictures[1].readableBytes / 1_024) KB) for \(Int(options.seconds)) s, server \(options.server ?? "this build"), \
                \(services.database.engine.rawValue), \(ProcessInfo.processInfo.activeProcessorCount) cores
                | /healthz, one at a time every 10 ms | probes | p50 ms | p99 ms | max ms |
                |---|---:|---:|---:|---:|
                \(row("quiet server (peer)", quiet))
                \(row("under the uploads (Plaza)", loaded))
                Uploads answered: \(answered.joined(separator: ", ")).
                """
        }
    }

    /// `/healthz` one request at a time, 10 ms apart, for `seconds`.
    static func probe(port: Int, seconds: Double) async throws -> LoadMeter.Result {
        let connection = try await BenchHTTPConnection(port: port)
        let clock = ContinuousClock()
        let start = clock.now
        var latencies: [Double] = []
        while clock.now < start + .seconds(seconds) {
            let begin = clock.now
            _ = try await connection.send(.GET, "/healthz", token: "")
            latencies.append(LoadMeter.milliseconds(clock.now - begin))
            try await Task.sleep(for: .milliseconds(10))
        }
        await connection.close()
        return LoadMeter.Result(
            operations: latencies.count,
            seconds: LoadMeter.milliseconds(clock.now - start) / 1_000,
            latencies: latencies
        )
    }

    /// A white RGB PNG `side` pixels square: tiny on disk, `side`² × 3 bytes once decoded.
    static func flatPNG(side: Int) -> Data {
        var raw = [UInt8](repeating: 255, count: side * (side * 3 + 1))
        for row in 0..<side { raw[row * (side * 3 + 1)] = 0 }
        let header =
            withUnsafeBytes(of: UInt32(side).bigEndian, Array.init)
            + withUnsafeBytes(of: UInt32(side).bigEndian, Array.init) + [8, 2, 0, 0, 0]
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init) + typed
                + withUnsafeBytes(of: CRC32.checksum(typed[...]).bigEndian, Array.init)
        }
        return Data(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", Deflate.zlib(raw))
                + chunk("IEND", [])
        )
    }
}
