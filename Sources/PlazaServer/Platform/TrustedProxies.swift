import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reverse proxies whose `X-Forwarded-For` Plaza believes (`PLAZA_TRUSTED_PROXIES`: addresses or
/// CIDR ranges, IPv4 or IPv6). Behind a proxy every connection comes from the proxy, so without this one client's
/// bad log-ins would lock everyone out; believing those headers from anyone else would let a client pick its address.
struct TrustedProxies: Sendable, Equatable {
    struct Range: Sendable, Equatable {
        let bytes: [UInt8]
        let prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var left = prefix
            for (a, b) in zip(address, bytes) where left > 0 {
                let bits = min(8, left)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if a & mask != b & mask { return false }
                left -= bits
            }
            return true
        }
    }

    let ranges: [Range]

    static let none = TrustedProxies(ranges: [])

    /// `10.0.0.0/8, 127.0.0.1, ::1, fd00::/8`; nil when an entry is not an address or range.
    init?(parsing text: String) {
        var ranges: [Range] = []
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
            guard let bytes = Self.bytes(of: parts[0]) else { return nil }
            let maximum = bytes.count * 8
            guard let prefix = parts.count == 2 ? Int(parts[1]) : maximum, (0...maximum).contains(prefix) else {
                return nil
            }
            ranges.append(Range(bytes: bytes, prefix: prefix))
        }
        self.ranges = ranges
    }

    init(ranges: [Range]) {
        self.ranges = ranges
    }

    func contains(_ address: String) -> Bool {
        guard !ranges.isEmpty, let bytes = Self.bytes(of: address) else { return false }
        return ranges.contains { $0.contains(bytes) }
    }

    /// The client behind a trusted `peer`: the right-most address of `X-Forwarded-For` that is not itself a trusted
    /// proxy (each proxy appends the address it saw), else `peer` itself. Only `X-Forwarded-For` counts: common proxies
    /// append to it but pass a client's own `Forwarded` header through untouched, so reading that one too would let a
    /// client choose its address.
    func client(peer: String, forwardedFor: String?) -> String {
        guard contains(peer), let forwardedFor else { return peer }
        let chain = forwardedFor.split(separator: ",").map { Self.node(String($0)) }.filter {
            Self.bytes(of: $0) != nil
        }
        return chain.last(where: { !contains($0) }) ?? chain.first ?? peer
    }

    /// `"[2001:db8::1]:4711"`, `192.0.2.60:8080` or `192.0.2.60` as the bare address.
    static func node(_ text: String) -> String {
        var node = text.trimmingCharacters(in: .whitespaces)
        if node.hasPrefix("\""), node.hasSuffix("\""), node.count >= 2 { node = String(node.dropFirst().dropLast()) }
        if node.hasPrefix("["), let end = node.firstIndex(of: "]") {
            return String(node[node.index(after: node.startIndex)..<end])
        }
        if node.filter({ $0 == ":" }).count == 1, let colon = node.firstIndex(of: ":") { return String(node[..<colon]) }
        return node
    }

    /// The 4 or 16 bytes of an IPv4 or IPv6 address.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
