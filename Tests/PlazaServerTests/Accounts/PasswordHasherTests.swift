import Testing

@testable import PlazaServer

/// A log-in that names no account is checked against a decoy hash, so that its answer takes as long as a wrong
/// password's for a real account: otherwise the time tells which names have accounts.
@Suite struct PasswordHasherTests {
    @Test func aLogInForNoAccountTakesAsLongAsOneForAnAccount() async throws {
        let hasher = try await PasswordHasher(cost: 8)
        let account = try await hasher.hash("correct horse battery staple")
        // Taken in turns, the fastest of five each, so that a busy machine's pauses fall on both and do not decide.
        var known = Duration.seconds(60)
        var unknown = Duration.seconds(60)
        for _ in 0..<5 {
            for hash in [account, nil] {
                let start = ContinuousClock.now
                #expect(try await hasher.verify("not the password", hash: hash) == false)
                let took = start.duration(to: .now)
                if hash == nil { unknown = min(unknown, took) } else { known = min(known, took) }
            }
        }
        #expect(unknown > known / 3, "no account: \(unknown), an account: \(known)")
        #expect(try await hasher.verify("correct horse battery staple", hash: account))
    }

    @Test func theDecoyIsAWellFormedHashAtTheConfiguredCost() {
        let decoy = PasswordHasher.decoy(cost: 12)
        #expect(decoy.hasPrefix("$2b$12$") && decoy.count == 60)
        #expect(PasswordHasher.decoy(cost: 4).hasPrefix("$2b$04$"))
        #expect(decoy != PasswordHasher.decoy(cost: 12), "each process has a decoy of its own")
    }
}
