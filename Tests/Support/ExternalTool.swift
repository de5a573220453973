import Foundation

/// Runs a tool that reads Plaza's output independently (qpdf, poppler-utils, Chromium). A missing tool is an error, so
/// the test fails rather than skips.
public struct ExternalTool {
    public struct Missing: Error, CustomStringConvertible {
        public var name: String
        public var description: String { "\(name) is not installed (apt-get install qpdf poppler-utils chromium)" }
    }

    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    public static func run(_ name: String, _ arguments: [String]) throws -> Output {
        let paths =
            (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") + [
                "/usr/bin", "/usr/local/bin",
            ]
        guard
            let executable = paths.map({ "\($0)/\(name)" }).first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            throw Missing(name: name)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting so a large output cannot fill the pipe and stall the tool.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self)
        )
    }
}
