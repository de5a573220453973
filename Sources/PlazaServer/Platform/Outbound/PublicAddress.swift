#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which addresses are public unicast: what a call on a user's behalf may reach.
enum PublicAddress {
    /// IPv4's special ranges (RFC 6890 and its successors): this network, private, loopback, CGNAT, link-local,
    /// protocol assignments, documentation, 6to4 relays, benchmarking, multicast, reserved and broadcast.
    static let specialIPv4 = TrustedProxies(
        parsing:
            "0.0.0.0/8, 10.0.0.0/8, 100.64.0.0/10, 127.0.0.0/8, 169.254.0.0/16, 172.16.0.0/12, 192.0.0.0/24, 192.0.2.0/24, "
            + "192.88.99.0/24, 192.168.0.0/16, 198.18.0.0/15, 198.51.100.0/24, 203.0.113.0/24, 224.0.0.0/4, 240.0.0.0/4"
    )!
    /// IPv6 is public only within global unicast (2000::/3), less its protocol assignments (Teredo, ORCHID...),
    /// documentation and 6to4. Everything else is refused: loopback, unspecified, IPv4-mapped and -translated
    /// (an IPv4 address spelt as IPv6), unique local, link-local, site-local, multicast.
    static let globalIPv6 = TrustedProxies(parsing: "2000::/3")!
    static let specialIPv6 = TrustedProxies(parsing: "2001::/23, 2001:db8::/32, 2002::/16, 3fff::/20")!

    /// Whether the 4 or 16 bytes of `address` are a public unicast address.
    static func isPublicUnicast(_ address: [UInt8]) -> Bool {
        switch address.count {
        case 4: !specialIPv4.ranges.contains { $0.contains(address) }
        case 16:
            globalIPv6.ranges.contains { $0.contains(address) } && !specialIPv6.ranges.contains { $0.contains(address) }
        default: false
        }
    }

    /// `address` written out (`203.0.113.7`, `2001:db8::1`).
    static func text(_ address: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let family = address.count == 4 ? AF_INET : AF_INET6
        let written = address.withUnsafeBytes { bytes in
            inet_ntop(family, bytes.baseAddress, &buffer, socklen_t(buffer.count))
        }
        return written == nil ? "?" : String(cString: buffer)
    }
}
