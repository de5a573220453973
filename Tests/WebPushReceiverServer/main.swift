import Foundation
import PlazaTestSupport

// The Web Push receiver of `Tests/Support` as a process, for the browser tests: prints "listening <port>" and serves
// until it is stopped. Never part of a Plaza release.
let receiver = try await WebPushReceiver.start()
FileHandle.standardOutput.write(Data("listening \(receiver.port)\n".utf8))
while true { try await Task.sleep(for: .seconds(3_600)) }
