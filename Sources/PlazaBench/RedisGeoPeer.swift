import Foundation
import NIOCore
import NIOPosix
import PlazaDemo
import PlazaServer

/// A minimal Redis client for `plaza bench geo`: RESP2 commands over one connection, replies in order.
final class RedisConnection: Sendable {
    /// The replies of RESP2: simple strings, errors, integers, bulk strings and arrays.
    indirect enum Reply: Sendable {
        case string(String)
        case error(String)
        case integer(Int)
        case bulk(String?)
        case array([Reply])

        var strings: [String] {
            if case .array(let items) = self {
                return items.compactMap { if case .bulk(let text?) = $0 { text } else { nil } }
            }
            return []
        }
    }

    struct RedisError: Error, CustomStringConvertible { var description: String }

    private let channel: any Channel
    private let handler: ReplyHandler

    init(port: Int) async throws {
        let handler = ReplyHandler()
        channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        self.handler = handler
    }

    /// Sends one command and waits for its reply; an error reply throws.
    @discardableResult
    func command(_ words: [String]) async throws -> Reply {
        var buffer = channel.allocator.buffer(capacity: 64 + words.reduce(0) { $0 + $1.utf8.count + 16 })
        buffer.writeString("*\(words.count)\r\n")
        for word in words {
            buffer.writeString("$\(word.utf8.count)\r\n")
            buffer.writeString(word)
            buffer.writeString("\r\n")
        }
        let (channel, handler, message) = (channel, handler, buffer)
        let reply = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Reply, any Error>) in
            channel.eventLoop.execute {
                handler.waiting.append(continuation)
                channel.writeAndFlush(message, promise: nil)
            }
        }
        if case .error(let text) = reply { throw RedisError(description: text) }
        return reply
    }

    func close() async {
        try? await channel.close()
    }

    /// Lives on the connection's event loop only: queues the waiting callers and parses replies as bytes arrive.
    final class ReplyHandler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        var waiting: [CheckedContinuation<Reply, any Error>] = []
        private var buffer = ByteBuffer()

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var incoming = unwrapInboundIn(data)
            buffer.writeBuffer(&incoming)
            while !waiting.isEmpty {
                var copy = buffer
                guard let reply = Self.read(&copy) else { break }
                buffer = copy
                waiting.removeFirst().resume(returning: reply)
            }
            buffer.discardReadBytes()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            for continuation in waiting { continuation.resume(throwing: error) }
            waiting.removeAll()
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            for continuation in waiting { continuation.resume(throwing: RedisError(description: "connection closed")) }
            waiting.removeAll()
        }

        private static func line(_ buffer: inout ByteBuffer) -> String? {
            let bytes = buffer.readableBytesView
            guard let carriage = bytes.firstIndex(of: UInt8(ascii: "\r")), bytes.index(after: carriage) < bytes.endIndex
            else { return nil }
            guard let text = buffer.readString(length: carriage - bytes.startIndex) else { return nil }
            buffer.moveReaderIndex(forwardBy: 2)
            return text
        }

        /// One whole reply, or `nil` (and `buffer` in an unspecified state) when more bytes are needed.
        static func read(_ buffer: inout ByteBuffer) -> Reply? {
            guard let kind = buffer.readInteger(as: UInt8.self), let head = line(&buffer) else { return nil }
            switch kind {
            case UInt8(ascii: "+"): return .string(head)
            case UInt8(ascii: "-"): return .error(head)
            case UInt8(ascii: ":"): return .integer(Int(head) ?? 0)
            case UInt8(ascii: "$"):
                guard let length = Int(head) else { return nil }
                if length < 0 { return .bulk(nil) }
                guard buffer.readableBytes >= length + 2, let text = buffer.readString(length: length) else {
                    return nil
                }
                buffer.moveReaderIndex(forwardBy: 2)
                return .bulk(text)
            case UInt8(ascii: "*"):
                guard let count = Int(head) else { return nil }
                var items: [Reply] = []
                for _ in 0..<max(0, count) {
                    guard let item = read(&buffer) else { return nil }
                    items.append(item)
                }
                return .array(items)
            default: return nil
            }
        }
    }
}
