import Foundation
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one guard for every address the server calls on a user's behalf (Web Push endpoints today, anything later):
/// the address must be `https`, on a host the operator knows (built-in push services plus `PLAZA_PUSH_HOSTS`), named
/// by a name (never an IP address in any spelling, never `localhost`), on the default port; when it is called, its
/// name is resolved once and every address it resolves to must be public unicast, and the connection goes to the
/// address that was checked (`OutboundCall`). A literal origin in the list (`http://127.0.0.1:9300`) lets exactly
/// that origin through: the only way to an http or non-public endpoint, made for a test's stand-in.
package struct OutboundGuard: Sendable {
    /// Host names (`fcm.googleapis.com`) and suffix patterns (`*.notify.windows.com`), lower case.
    package var hosts: [String]
    /// Origins let through as they are (`http://127.0.0.1:9300`), lower case, without a trailing slash.
    package var origins: Set<String>
    /// Every address a host name resolves to, as 4 or 16 bytes (the system's resolver; tests answer for it).
    package var resolve: @Sendable (String) -> [[UInt8]] = OutboundGuard.systemResolve

    /// The push services of the browsers people use: Chrome and Edge's (FCM), Firefox's, Safari's, and Windows'.
    package static let pushServices = [
        "fcm.googleapis.com", "updates.push.services.mozilla.com", "web.push.apple.com", "*.notify.windows.com",
    ]

    /// The built-in push services and `extra` (host names, `*.` patterns and literal origins).
    package init(pushServicesAnd extra: [String] = []) {
        hosts = Self.pushServices
        origins = []
        for entry in extra.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !entry.isEmpty {
            if entry.contains("://") {
                origins.insert(entry.hasSuffix("/") ? String(entry.dropLast()) : entry)
            } else {
                hosts.append(entry)
            }
        }
    }

    /// Whether `entry` can be an entry of `PLAZA_PUSH_HOSTS`: a host name, `*.` and a host name, or an origin.
    static func isValidEntry(_ entry: String) -> Bool {
        if entry.contains("://") {
            guard let url = URLComponents(string: entry), ["http", "https"].contains(url.scheme),
                url.host?.isEmpty == false
            else { return false }
            return url.path.isEmpty || url.path == "/"
        }
        let name = entry.hasPrefix("*.") ? String(entry.dropFirst(2)) : entry
        return name.contains(".") && !isIPAddress(name)
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
    }

    /// The origin (`scheme://host[:port]`, lower case) of `url`.
    static func origin(of url: URLComponents) -> String {
        "\(url.scheme ?? "")://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")".lowercased()
    }

    /// Why `address` may not be called, in words for the person who sent it; nil when it may.
    package func refusal(_ address: String) -> String? {
        guard let url = URLComponents(string: address), let scheme = url.scheme?.lowercased(),
            let host = url.host?.lowercased(), !host.isEmpty
        else { return "This is not a push service address." }
        if origins.contains(Self.origin(of: url)) { return nil }
        guard url.user == nil, url.password == nil else {
            return "A push service address carries no user name or password."
        }
        guard scheme == "https" else { return "Push services are reached over https." }
        let name = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        if Self.isIPAddress(name) || name == "localhost" || name.hasSuffix(".localhost") {
            return "A push service is named by its host name, not an IP address or localhost."
        }
        guard url.port == nil || url.port == 443 else { return "Push services are reached on the https port." }
        guard matches(name) else { return "This is not a push service Plaza sends to." }
        return nil
    }

    /// Whether `host` is one of the hosts, or a subdomain of a `*.` pattern's (not the bare domain).
    func matches(_ host: String) -> Bool {
        hosts.contains { pattern in
            pattern.hasPrefix("*.")
                ? host.hasSuffix(pattern.dropFirst()) && host.count > pattern.count - 1 : host == pattern
        }
    }

    /// Whether `text` is an IP address in any spelling a resolver takes: dotted, shortened (`127.1`), octal,
    /// hexadecimal (`0x7f000001`), one number (`2130706433`), or IPv6 (with an embedded IPv4 or a zone).
    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        let unzoned = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text
        return inet_aton(text, &v4) != 0 || inet_pton(AF_INET6, unzoned, &v6) == 1
    }
}

/// An address, resolved and checked: what a guarded call connects to.
package struct CheckedTarget: Sendable, Hashable {
    /// The host name in the URL (the TLS server name and the `Host` header).
    package var host: String
    /// The address the connection goes to: one that was checked; nil for an operator's literal origin (as it is).
    package var address: String?
}

extension OutboundGuard {
    /// Why a call to `address` may not go ahead: refused by `refusal`, or its name resolves to nothing or to any
    /// address that is not public unicast (DNS rebinding to a private address is refused, not skipped).
    package enum Refused: Error, CustomStringConvertible {
        case notAllowed(String)
        case unresolved(String)
        case notPublic(String)

        package var description: String {
            switch self {
            case .notAllowed(let reason): "not allowed: \(reason)"
            case .unresolved(let host): "\(host) does not resolve"
            case .notPublic(let address): "resolves to a non-public address \(address)"
            }
        }
    }

    /// Resolves `address`'s host once (off the event loops) and checks every answer; the first is the one to call.
    package func target(_ address: String) async throws -> CheckedTarget {
        if let reason = refusal(address) { throw Refused.notAllowed(reason) }
        guard let url = URLComponents(string: address), let host = url.host?.lowercased() else {
            throw Refused.notAllowed(address)
        }
        if origins.contains(Self.origin(of: url)) { return CheckedTarget(host: host, address: nil) }
        let resolve = resolve
        let resolved = try await NIOThreadPool.singleton.runIfActive { resolve(host) }
        guard let first = resolved.first else { throw Refused.unresolved(host) }
        if let bad = resolved.first(where: { !PublicAddress.isPublicUnicast($0) }) {
            throw Refused.notPublic(PublicAddress.text(bad))
        }
        return CheckedTarget(host: host, address: PublicAddress.text(first))
    }

    /// Every IPv4 and IPv6 address `host` resolves to, as raw bytes (4 or 16), in the resolver's order.
    package static func systemResolve(_ host: String) -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, "443", &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let socket = current.pointee.ai_addr {
                switch Int32(socket.pointee.sa_family) {
                case AF_INET:
                    socket.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                        addresses.append(withUnsafeBytes(of: v4.pointee.sin_addr) { Array($0) })
                    }
                case AF_INET6:
                    socket.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                        addresses.append(withUnsafeBytes(of: v6.pointee.sin6_addr) { Array($0) })
                    }
                default: break
                }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}
