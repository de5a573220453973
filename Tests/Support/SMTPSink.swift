import Foundation
import NIOCore
import NIOExtras
import NIOPosix
import Synchronization

/// A local SMTP server for tests (RFC 5321, the subset a relay speaks to a client): it accepts every message,
/// checks AUTH PLAIN when given credentials, and keeps what it received.
public final class SMTPSink: Sendable {
    public struct Message: Sendable {
        public var from: String
        public var recipients: [String]
        /// The DATA section, dot-unstuffed, lines joined with "\n".
        public var data: String
    }

    private let channel: any Channel
    private let received = Mutex<[Message]>([])
    public let port: Int

    public var messages: [Message] { received.withLock { $0 } }

    /// Starts listening on a free loopback port.
    public static func start(username: String? = nil, password: String? = nil) async throws -> SMTPSink {
        let box = Mutex<SMTPSink?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                    try channel.pipeline.syncOperations.addHandler(
                        SessionHandler(credentials: username.map { ($0, password ?? "") }) { message in
                            box.withLock { $0 }?.received.withLock { $0.append(message) }
                        }
                    )
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let sink = SMTPSink(channel: channel)
        box.withLock { $0 = sink }
        return sink
    }

    private init(channel: any Channel) {
        self.channel = channel
        port = channel.localAddress?.port ?? 0
    }

    public func stop() async throws {
        try await channel.close()
    }

    /// One client connection.
    final class SessionHandler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        let credentials: (String, String)?
        let deliver: @Sendable (Message) -> Void
        var from = ""
        var recipients: [String] = []
        var inData = false
        var lines: [String] = []
        var authenticated = false

        init(credentials: (String, String)?, deliver: @escaping @Sendable (Message) -> Void) {
            self.credentials = credentials
            self.deliver = deliver
        }

        func channelActive(context: ChannelHandlerContext) {
            reply("220 sink.test ESMTP ready", context)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var line = String(buffer: unwrapInboundIn(data))
            if line.hasSuffix("\r") { line.removeLast() }
            if inData {
                if line == "." {
                    inData = false
                    deliver(Message(from: from, recipients: recipients, data: lines.joined(separator: "\n")))
                    lines = []
                    reply("250 2.0.0 queued", context)
                } else {
                    lines.append(line.hasPrefix("..") ? String(line.dropFirst()) : line)
                }
                return
            }
            let verb = line.prefix(4).uppercased()
            switch verb {
            case "EHLO", "HELO": reply("250-sink.test\r\n250 AUTH PLAIN", context)
            case "AUTH":
                let token = line.split(separator: " ").last.map(String.init) ?? ""
                let decoded = Data(base64Encoded: token).map { String(decoding: $0, as: UTF8.self) } ?? ""
                let parts = decoded.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
                if let (user, password) = credentials, parts.count == 3, parts[1] == user, parts[2] == password {
                    authenticated = true
                    reply("235 2.7.0 accepted", context)
                } else {
                    reply("535 5.7.8 bad credentials", context)
                }
            case "MAIL":
                if credentials != nil && !authenticated { return reply("530 5.7.0 authentication required", context) }
                from = Self.address(in: line)
                recipients = []
                reply("250 OK", context)
            case "RCPT":
                recipients.append(Self.address(in: line))
                reply("250 OK", context)
            case "DATA":
                inData = true
                reply("354 go on", context)
            case "QUIT":
                reply("221 bye", context)
                context.close(promise: nil)
            default: reply("250 OK", context)
            }
        }

        static func address(in line: String) -> String {
            guard let open = line.firstIndex(of: "<"), let close = line.lastIndex(of: ">") else { return "" }
            return String(line[line.index(after: open)..<close])
        }

        func reply(_ text: String, _ context: ChannelHandlerContext) {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text + "\r\n")), promise: nil)
        }
    }
}
