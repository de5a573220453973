import Foundation
import PlazaCore

extension LoyaltyService {
    /// The key the web app seals a customer's offline punches with before its service worker keeps them (issue 40):
    /// 32 bytes as hex, the keyed hash of the user's id, so only a page of this signed-in person can read or send
    /// what waits on the device, and another person signed in later on the same browser cannot.
    func offlineSealKey(_ identity: Identity) -> String {
        Secrets(secretKey: secretKey).hash("offline-punches:v1:\(identity.user.id.uuidString.lowercased())")
    }
}
