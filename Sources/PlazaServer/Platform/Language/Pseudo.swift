/// The pseudo-locale `en-XA`: English with every letter accented and a third more length, so a page shows at a glance
/// which words skipped the catalogue (plain English) and where a longer language would overflow. Values in braces,
/// tags in angle brackets and entities stay as they are.
enum Pseudo {
    static let accented: [Character: Character] = [
        "a": "á", "b": "ƀ", "c": "ç", "d": "ð", "e": "é", "f": "ƒ", "g": "ĝ", "h": "ĥ", "i": "î", "j": "ĵ", "k": "ķ",
        "l": "ļ", "m": "ɱ", "n": "ñ", "o": "ö", "p": "þ", "q": "ǫ", "r": "ŕ", "s": "š", "t": "ţ", "u": "û", "v": "ṽ",
        "w": "ŵ", "x": "ẋ", "y": "ý", "z": "ž", "A": "Å", "B": "Ɓ", "C": "Ç", "D": "Ð", "E": "É", "F": "Ƒ", "G": "Ĝ",
        "H": "Ĥ", "I": "Î", "J": "Ĵ", "K": "Ķ", "L": "Ļ", "M": "Ṁ", "N": "Ñ", "O": "Ö", "P": "Þ", "Q": "Ǫ", "R": "Ŕ",
        "S": "Š", "T": "Ţ", "U": "Û", "V": "Ṽ", "W": "Ŵ", "X": "Ẋ", "Y": "Ý", "Z": "Ž",
    ]

    static func text(_ text: Catalogue.Text) -> Catalogue.Text {
        switch text {
        case .plain(let words): .plain(self.words(words))
        case .plural(let forms): .plural(forms.mapValues(words))
        }
    }

    /// "Send money" → "Šéñð ɱöñéý ·····". The padding comes in words of at most eight dots, as a longer language
    /// has longer words, not one that cannot wrap.
    static func words(_ english: String) -> String {
        var result = ""
        var letters = 0
        var kept: Character?  // inside `{…}`, `<…>` or `&…;`: the closing character
        for character in english {
            if let closing = kept {
                result.append(character)
                if character == closing { kept = nil }
                continue
            }
            switch character {
            case "{": kept = "}"
            case "<": kept = ">"
            case "&": kept = ";"
            default: break
            }
            if kept != nil {
                result.append(character)
                continue
            }
            if let accent = accented[character] {
                result.append(accent)
                letters += 1
            } else {
                result.append(character)
            }
        }
        let padding = (letters + 2) / 3
        let words = stride(from: 0, to: padding, by: 8).map { String(repeating: "·", count: min(8, padding - $0)) }
        return padding == 0 ? result : result + " " + words.joined(separator: " ")
    }
}
