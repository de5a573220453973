import HTTPTypes
import HummingbirdCore
import NIOCore

/// Collects a response body into one buffer, for responses that must be stored (idempotency).
final class BufferCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        var copy = buffer
        self.buffer.writeBuffer(&copy)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}

    static func collect(_ body: ResponseBody) async throws -> ByteBuffer {
        let collector = BufferCollector()
        try await body.write(collector)
        return collector.buffer
    }
}
