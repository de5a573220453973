import Foundation

/// What a chat message may be, and the rules that put a warning beside one that looks like a scam: asking to pay off
/// the platform, asking for gift cards or codes, or a link that imitates Plaza. They warn the recipient; they never
/// block a message.
public enum ChatRules {
    public static let textLength = 1...2_000

    /// A quiet stretch after which a message to someone who has not read the last one alerts them again.
    public static let realertAfter: TimeInterval = 15 * 60

    /// Whether a new message alerts its recipient (push or mail, per their choices): the first one they have not read
    /// does; while that one waits unread, more only after `realertAfter` of quiet, so a burst of ten messages is one
    /// alert, not ten. `newestUnread` is the newest message to them they have not read yet, if any.
    public static func alerts(newestUnread: Date?, now: Date) -> Bool {
        guard let newestUnread else { return true }
        return now.timeIntervalSince(newestUnread) >= realertAfter
    }

    public static let offPlatform = "off_platform_payment"
    public static let giftCard = "gift_card"
    public static let lookalike = "lookalike_link"

    /// Phrases of paying elsewhere, folded (lower case, no accents).
    static let paymentPhrases = [
        "venmo", "zelle", "cash app", "cashapp", "paypal", "western union", "moneygram", "wire transfer",
        "bank transfer", "pay me directly",
        "pay outside", "outside the app", "outside plaza", "crypto", "bitcoin", "usdt", "my whatsapp", "text me at",
    ]
    /// Phrases of gift cards and codes.
    static let giftPhrases = [
        "gift card", "giftcard", "itunes card", "apple card code", "google play card", "steam card", "amazon card",
        "voucher code",
        "send me the code", "send the code", "verification code", "the code you got",
    ]

    /// The warnings for `text`; `trustedHosts` are this Plaza's own (a link there is fine).
    public static func warnings(_ text: String, trustedHosts: [String] = []) -> [MessageWarning] {
        let folded = text.folding(
            options: [.caseInsensitive, .diacriticInsensitive],
            locale: Locale(identifier: "en_US_POSIX")
        )
        var found: [MessageWarning] = []
        if paymentPhrases.contains(where: folded.contains) {
            found.append(
                MessageWarning(
                    code: offPlatform,
                    message:
                        "This message asks to pay outside Plaza. Pay through Plaza: your money is held until the handshake."
                )
            )
        }
        if giftPhrases.contains(where: folded.contains) {
            found.append(
                MessageWarning(code: giftCard, message: "Nobody honest asks for gift cards or codes. Never send them.")
            )
        }
        if hosts(in: folded).contains(where: { lookalike($0, trusted: trustedHosts.map { $0.lowercased() }) }) {
            found.append(
                MessageWarning(
                    code: lookalike,
                    message: "This link only looks like Plaza. Do not sign in or pay there."
                )
            )
        }
        return found
    }

    /// The hosts of the links in `text` (`https://x.y/...`, `www.x.y`, or a bare `x.y/...`).
    static func hosts(in text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace || "<>\"'()".contains($0) }).compactMap { word in
            var rest = Substring(word)
            if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
            let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != ":" }
            let labels = host.split(separator: ".")
            guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }), labels.last!.allSatisfy(\.isLetter),
                word.contains("/") || word.hasPrefix("www.") || word.contains("://")
            else { return nil }
            return String(host)
        }
    }

    /// A host that imitates Plaza: punycode, or "plaza" spelled with look-alike characters, or a Plaza-named host that is
    /// not this Plaza's own.
    static func lookalike(_ host: String, trusted: [String]) -> Bool {
        if trusted.contains(where: { host == $0 || host.hasSuffix("." + $0) }) { return false }
        if host.contains("xn--") { return true }
        let plain = String(host.map { ["0": "o", "1": "l", "4": "a", "3": "e", "5": "s", "@": "a"][$0] ?? $0 })
            .replacingOccurrences(
                of: "rn",
                with: "m"
            )
        return plain.contains("plaza") || plain.contains("pl-aza")
    }
}
