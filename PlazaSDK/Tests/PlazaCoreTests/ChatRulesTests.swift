import Foundation
import PlazaCore
import Testing

/// The warnings beside chat messages that look like scams: they name what they saw and never block.
@Suite struct ChatRulesTests {
    @Test(
        arguments: [
            ("Can you pay with Zelle instead?", [ChatRules.offPlatform]),
            ("Send me a Steam card and it's yours", [ChatRules.giftCard]),
            ("I'll text you the code, send the code back", [ChatRules.giftCard]),
            ("Log in at https://pl4za.app/login to pay", [ChatRules.lookalike]),
            ("See www.xn--plza-qqa.com/deal", [ChatRules.lookalike]),
            ("Pay by PayPal at https://plaza-secure.net/x", [ChatRules.offPlatform, ChatRules.lookalike]),
            ("Meet at the library at 5? The photos are at https://plaza.example.edu/market/listings/1", []),
            ("Is it still available? 25 is fine.", []),
            ("The plaza in front of the library works for me", []),
        ] as [(String, [String])]
    )
    func messagesThatLookLikeScamsAreFlagged(text: String, codes: [String]) {
        #expect(ChatRules.warnings(text, trustedHosts: ["plaza.example.edu"]).map(\.code) == codes)
    }
}
