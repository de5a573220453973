import Crypto
import Foundation
import PlazaCore

/// Turns a true position into the dot the public map shows (geo-indistinguishability, Andrés et al. 2013).
///
/// The position is snapped to the centre of its ~110 m grid cell, then moved by planar Laplace noise of
/// parameter `epsilon` (per metre): bearing uniform, distance Gamma(2, 1/ε) distributed (the sum of two
/// exponentials), so the expected offset is 2/ε (200 m at the default 0.01). The noise is drawn from an
/// HMAC of (user, cell, day): every report from the same cell on the same day yields the same dot, so
/// averaging many reports learns nothing more than one report. Each released dot satisfies
/// ε-geo-indistinguishability for points within a cell-day; distinct cells or days compose additively.
struct MapObfuscator: Sendable {
    let epsilon: Double
    private let key: SymmetricKey
    static let cellDegrees = 0.001

    init(epsilon: Double, secretKey: String) {
        self.epsilon = epsilon
        key = SymmetricKey(data: SHA256.hash(data: Data("plaza:map-noise:\(secretKey)".utf8)))
    }

    func publish(_ coordinate: Coordinate, user: UUID, at time: Date) -> Coordinate {
        let (cell, center) = GeoCells(cellDegrees: Self.cellDegrees).cellCenter(of: coordinate)
        let day = Int((time.timeIntervalSince1970 / 86_400).rounded(.down))
        let mac = Array(
            HMAC<SHA256>.authenticationCode(for: Data("\(user.uuidString)|\(cell)|\(day)".utf8), using: key)
        )
        let (u1, u2, u3) = (Self.unit(mac, 0), Self.unit(mac, 8), Self.unit(mac, 16))
        let bearing = 2 * Double.pi * u1
        let distance = -(log(u2) + log(u3)) / epsilon
        return center.destination(distance: distance, bearing: bearing)
    }

    /// A uniform value in (0, 1) from 53 bits of `bytes` at `offset`.
    private static func unit(_ bytes: [UInt8], _ offset: Int) -> Double {
        let bits = bytes[offset..<offset + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } >> 11
        return (Double(bits) + 0.5) / Double(UInt64(1) << 53)
    }
}
