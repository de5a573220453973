import Foundation

/// Runs one of the PDF tools (qpdf, poppler-utils). A missing tool is an error, so the test fails rather than skips:
/// these checks are the independent reading of our output.
struct PDFTool {
    struct Missing: Error, CustomStringConvertible {
        var name: String
        var description: String { "\(name) is not installed (apt-get install qpdf poppler-utils)" }
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ name: String, _ arguments: [String]) throws -> Output {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") + ["/usr/bin", "/usr/local/bin"]
        guard let executable = paths.map({ "\($0)/\(name)" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
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
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }
}
