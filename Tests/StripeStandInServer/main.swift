import Foundation
import PlazaTestSupport

// The Stripe stand-in of `Tests/Support` as a process, for the browser tests: `stripe-stand-in <webhook URL>`
// prints "listening <port>" and serves until it is stopped. Never part of a Plaza release.
let stripe = try await StripeStandIn.start()
stripe.sendWebhooks(to: CommandLine.arguments.dropFirst().first)
FileHandle.standardOutput.write(Data("listening \(stripe.port)\n".utf8))
while true { try await Task.sleep(for: .seconds(3_600)) }
