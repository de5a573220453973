import Foundation
import Testing

@testable import PlazaCore

/// 9×6 PNGs made once by a small Python encoder (zlib + struct, in the PR that added them), every one checked against
/// Pillow 13's decoder before it was kept. Sample `c` of the pixel at (x, y) is `v = 3x + 5y + 7c + xy` modulo 2^depth, or
/// `(2557v + 11c) mod 65536` at 16 bits; palette entry `i` is (40i + 10, 255 − 3i, 7i + 1) mod 256; row `r` of each pass
/// uses filter `r mod 5` (the `filterN` fixtures: filter N on every row). `paletteAlpha4`'s tRNS gives entries 0–9 alpha
/// 25i; the colour-key fixtures make the colour of pixel (2, 1) transparent. `rgb8` carries a tEXt chunk and splits its
/// data over several IDAT chunks.
@Suite struct PNGDecoderTests {
    enum Transparency: Sendable {
        case none, paletteAlpha, colorKey
    }

    struct Fixture: Sendable, CustomTestStringConvertible {
        var name: String
        var colorType: Int
        var depth: Int
        var interlaced: Bool
        var transparency: Transparency
        var png: Data

        init(_ name: String, colorType: Int, depth: Int, interlaced: Bool, transparency: Transparency, base64: String) {
            self.name = name
            self.colorType = colorType
            self.depth = depth
            self.interlaced = interlaced
            self.transparency = transparency
            png = Data(base64Encoded: base64)!
        }

        var testDescription: String { name }
    }

    static let fixtures: [Fixture] = [
        Fixture(
            "gray1", colorType: 0, depth: 1, interlaced: false, transparency: .none,
            base64: "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGAQAAAAA5vIloAAAAGklEQVR42mMIZWD838gU1sB8lZElbDXD/wYAMMkGDFMI1rgAAAAASUVORK5CYII="),
        Fixture(
            "gray2", colorType: 0, depth: 2, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGAgAAAAB+HPO4AAAAIElEQVR42mOwtGRgDGV4zRQT48DcKibEEsNwnCE01AEAPbAFb9BiTMoAAAAASUVORK5C",
                "YII=",
            ].joined()),
        Fixture(
            "gray4", colorType: 0, depth: 4, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGBAAAAADxXAYYAAAALElEQVR42mNgzjyv2sAYWdFRUc8UVtG15wLzPKHNW46whN27d+8Cw0QgmAAACuIQjt/X",
                "8VgAAAAASUVORK5CYII=",
            ].joined()),
        Fixture(
            "gray8", colorType: 0, depth: 8, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAAAAAA0rOsZAAAAOUlEQVR42mNgYGbj5OEXEpVgZGWBAiZWNnYOTi5uHl5mLjZ2dg4OTk4uFqAYBDBIKmoa",
                "Wjp6BkYCADwOA3SYa3CtAAAAAElFTkSuQmCC",
            ].joined()),
        Fixture(
            "gray16", colorType: 0, depth: 16, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGEAAAAABkPDdaAAAAZklEQVR42mNgYJD9bv0u8mn5namXN5+6ePD9DkbDjxpfUCGT0Uebd26vA15EPU15lHe/",
                "4k7TTeaUJJt3jm+PvfZ+FfAi9HnU0/tPWCCqYLACiBl+bvWcO7P1Za5laKftTVVN3oqvAEN8P31oHIEnAAAAAElFTkSuQmCC",
            ].joined()),
        Fixture(
            "rgb8", colorType: 2, depth: 8, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAIAAACepSOSAAAAFnRFWHRDb21tZW50AG1hZGUgZm9yIFBsYXphN2j4ZQAAAChJREFUeNpjYGDnY+YSZOMV",
                "4RQQ5xGW4heTFZJUEJVRlpBXY2TlEWbBAZhYWQ6pQlkAAAAoSURBVFnZ2NjY2dk5ODg4OTm5uLi4ubl5eHh4eXmZufgEIXIQaYgKiCIWuD66FZzNAAAA",
                "I0lEQVRMwCCpoK6ooa9pYG5oYW/p4O7o4e8ZEB4YER+ZkA4AeMYL4KHPZ0gAAAAASUVORK5CYII=",
            ].joined()),
        Fixture(
            "rgb16", colorType: 2, depth: 16, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGEAIAAADONf/RAAAA4UlEQVR42mNgYHD91v1G9nvy25WPrd81Pjl+K/Lp/NtPL5bf2XuJ+cTUy7dPKu7ffOrn",
                "AfttFw+Kb49d+36H6brqJYyGH8uf772r8YU0yGT0EQRt3oGg22sQDHgBglFPQTDlEQjm3QfBijsg2HQTBJlTktpjV0VAtDm+BcFjYM3er0AQZMCFF6HP",
                "rz4PfQ4x6P6TeCBkgdnmBrcNAaOAOAXOq4Czml4z/Nxqv7p1oefc/slXO2e23q9WLXyZq59cGmkZWu991LHT9ryxqOZNVXnpVEFN3nzmLT8rvu57zfIQ",
                "AFuhviiz/Nw/AAAAAElFTkSuQmCC",
            ].joined()),
        Fixture(
            "palette1", colorType: 3, depth: 1, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGAQMAAAArCSaGAAAABlBMVEUK/wEy/AjnGS09AAAAGklEQVR42mMIZWD838gU1sB8lZElbDXD/wYAMMkGDFMI",
                "1rgAAAAASUVORK5CYII=",
            ].joined()),
        Fixture(
            "palette2", colorType: 3, depth: 2, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGAgMAAABsqVxWAAAADFBMVEUK/wEy/Aha+Q+C9hZVGrU6AAAAIElEQVR42mOwtGRgDGV4zRQT48DcKibEEsNw",
                "nCE01AEAPbAFb9BiTMoAAAAASUVORK5CYII=",
            ].joined()),
        Fixture(
            "palette4", colorType: 3, depth: 4, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGBAMAAADj6an2AAAAMFBMVEUK/wEy/Aha+Q+C9haq8x3S8CT67Ssi6jJK5zly5ECa4UfC3k7q21US2Fw61WNi",
                "0mqzkm5iAAAALElEQVR42mNgzjyv2sAYWdFRUc8UVtG15wLzPKHNW46whN27d+8Cw0QgmAAACuIQjt/X8VgAAAAASUVORK5CYII=",
            ].joined()),
        Fixture(
            "palette8", colorType: 3, depth: 8, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAMAAAAmGUT3AAADAFBMVEUK/wEy/Aha+Q+C9haq8x3S8CT67Ssi6jJK5zly5ECa4UfC3k7q21US2Fw61WNi",
                "0mqKz3GyzHjayX8CxoYqw41SwJR6vZuiuqLKt6nytLAasbdCrr5qq8WSqMy6pdPiotoKn+EynOhame+Clvaqk/3SkAT6jQsiihJKhxlyhCCagSfCfi7q",
                "ezUSeDw6dUNickqKb1GybFjaaV8CZmYqY21SYHR6XXuiWoLKV4nyVJAaUZdCTp5qS6WSSKy6RbPiQroKP8EyPMhaOc+CNtaqM93SMOT6LesiKvJKJ/ly",
                "JACaIQfCHg7qGxUSGBw6FSNiEiqKDzGyDDjaCT8CBkYqA01SAFR6/Vui+mLK92ny9HAa8XdC7n5q64WS6Iy65ZPi4poK36Ey3Kha2a+C1raq073S0MT6",
                "zcsiytJKx9lyxOCawefCvu7qu/USuPw6tQNisgqKrxGyrBjaqR8CpiYqoy1SoDR6nTuimkLKl0nylFAakVdCjl5qi2WSiGy6hXPignoKf4EyfIhaeY+C",
                "dpaqc53ScKT6basiarJKZ7lyZMCaYcfCXs7qW9USWNw6VeNiUuqKT/GyTPjaSf8CRgYqQw1SQBR6PRuiOiLKNynyNDAaMTdCLj5qK0WSKEy6JVPiIloK",
                "H2EyHGhaGW+CFnaqE33SEIT6DYsiCpJKB5lyBKCaAafC/q7q+7US+Lw69cNi8sqK79Gy7Nja6d8C5uYq4+1S4PR63fui2gLK1wny1BAa0RdCzh5qyyWS",
                "yCy6xTPiwjoKv0EyvEhauU+Ctlaqs13SsGT6rWsiqnJKp3lypICaoYfCno7qm5USmJw6laNikqqKj7GyjLjaib8ChsYqg81SgNR6fduieuLKd+nydPAa",
                "cfdCbv5qawWSaAy6ZRPiYhoKXyEyXChaWS+CVjaqUz3SUET6TUsiSlJKR1lyRGCaQWfCPm7qO3USOHw6NYNiMoqKL5GyLJjaKZ8CJqYqI61SILR6Hbui",
                "GsLKF8nyFNAaEddCDt5qC+WSCOy6BfPiAvo+D4RdAAAAOUlEQVR42mNgYGbj5OEXEpVgZGWBAiZWNnYOTi5uHl5mLjZ2dg4OTk4uFqAYBDBIKmoaWjp6",
                "BkYCADwOA3SYa3CtAAAAAElFTkSuQmCC",
            ].joined()),
        Fixture(
            "grayAlpha8", colorType: 4, depth: 8, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAQAAAC7znxOAAAAVUlEQVR42mNgYGfmYuPlFOAR5hcTkhSVkZBnZOVhQQNMrKxsbOzsHBycnFxc3Nw8PLy8",
                "zFx8ICGQIEgYJMECUYUMGCQVFDU0DQwtLB0cPTwDAiMiEwAAOgdmkv3ljQAAAABJRU5ErkJggg==",
            ].joined()),
        Fixture(
            "grayAlpha16", colorType: 4, depth: 16, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGEAQAAADrXqANAAAAs0lEQVR42mNgYHD9Jvs9+a31u8YnkU/n3y6/s/fS1Mu3T24+9fPAxYPi29/vMF3HaPix",
                "/LnGF/yQyeij0Uebdzbv3F67vQ54EfAi6mnU05RHKY/y7ufdr7hTcafpZtNN5pSk9liQIse3jm+PARV6v/J+BVIc+vzqc5CG+0/in7BATHIDm4SAKWCy",
                "Aspj+LnVfrXn3P7JM1vvV7/M1U+2DK337rQ9b3xTVV5akzefueLrvtcAl5p+9ukrAYcAAAAASUVORK5CYII=",
            ].joined()),
        Fixture(
            "rgba8", colorType: 6, depth: 8, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAYAAAARx7TFAAAAgUlEQVR42mNgYOcTZeYSlGDjFZHmFBCX4xGWUuQXk1URklRQF5VR1pKQV9NlZAWKshAA",
                "TKxAwAYE7EDAAQScQMAFBNxAwAMEvEDAzMUnKApTBFMIUwzTwIJsEi7AAHSfnqKGvpmmgbmdoYW9m6WDu5+jh3+YZ0B4XGBEfFpkQnoeANJbEOOoeOKY",
                "AAAAAElFTkSuQmCC",
            ].joined()),
        Fixture(
            "rgba16", colorType: 6, depth: 16, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGEAYAAABBV2iGAAABFklEQVR42mNgYHD91v3m4iPZ78lvVz5+f9P6XeOT47d4L0Q+nX/76UXt4+V39l5iPuG5",
                "b+rl2ycV96dv3Xzq5wH7ba1rLh4U3x67dvHi9ztM11UvOTiL0fBj+fO9d5kva3yhDDIZfYRAm3cQ6PYaAgNeQGDUUwhMeQSBefchsOIOBDbdhEDmlKT2",
                "2FURvsEwgxzfQuAxqIHer0Dw9CuQoReAOPT51eehQAiz4P6TeCC8/4QF4SI3FBdB3QUmo8BkCopMBRLZ9Nr1NcPPrfarWxeenu45t3/y1U7p+pmt96tV",
                "C7PTX+bqJ5dG7va3DK33PurIbd5pe95YVDNa/qaqvHSq4Gp2Td585i0/f72v+LrvNctDr+sAqqr81+VYgAIAAAAASUVORK5CYII=",
            ].joined()),
        Fixture(
            "paletteAlpha4", colorType: 3, depth: 4, interlaced: false, transparency: .paletteAlpha,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGBAMAAADj6an2AAAAMFBMVEUK/wEy/Aha+Q+C9haq8x3S8CT67Ssi6jJK5zly5ECa4UfC3k7q21US2Fw61WNi",
                "0mqzkm5iAAAACnRSTlMAGTJLZH2Wr8jh/iHbfgAAACxJREFUeNpjYM48r9rAGFnRUVHPFFbRtecC8zyhzVuOsITdu3fvAsNEIJgAAAriEI7f1/FYAAAA",
                "AElFTkSuQmCC",
            ].joined()),
        Fixture(
            "grayKey8", colorType: 0, depth: 8, interlaced: false, transparency: .colorKey,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAAAAAA0rOsZAAAAAnRSTlMADQgisYUAAAA5SURBVHjaY2BgZuPk4RcSlWBkZYECJlY2dg5OLm4eXmYuNnZ2",
                "Dg5OTi4WoBgEMEgqahpaOnoGRgIAPA4DdJhrcK0AAAAASUVORK5CYII=",
            ].joined()),
        Fixture(
            "rgbKey8", colorType: 2, depth: 8, interlaced: false, transparency: .colorKey,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAIAAACepSOSAAAABnRSTlMADQAUABsHfAFgAAAAc0lEQVR42mNgYOdj5hJk4xXhFBDnEZbiF5MVklQQlVGW",
                "kFdjZOURZsEBmFhZWdnY2NjZ2Tk4ODg5Obm4uLi5uXl4eHh5eZm5+AQhchBpiAqIIha4PkzAIKmgrqihr2lgbmhhb+ng7ujh7xkQHhgRH5mQDgB4xgvg",
                "sYnNKgAAAABJRU5ErkJggg==",
            ].joined()),
        Fixture(
            "gray16Key", colorType: 0, depth: 16, interlaced: false, transparency: .colorKey,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGEAAAAABkPDdaAAAAAnRSTlOB2asEDkIAAABmSURBVHjaY2BgkP1u/S7yafmdqZc3n7p48P0ORsOPGl9QIZPR",
                "R5t3bq8DXkQ9TXmUd7/iTtNN5pQkm3eOb4+99n4V8CL0edTT+09YIKpgsAKIGX5u9Zw7s/VlrmVop+1NVU3eiq8AQ3w/fWgcgScAAAAASUVORK5CYII=",
            ].joined()),
        Fixture(
            "interlacedRGB8", colorType: 2, depth: 8, interlaced: true, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAIAAAHpohMEAAAAj0lEQVR42mNgYOeTkFdj4BGWYhCRVjIwt/MJjmJg4xURklRgVNI0kJGRYeASlABKyanq",
                "aOibGVk6MDBzCXIKiPOLyYrKKDMCKS4YYOLh4REQEBAREZGQkGBg5REGKuMVkRaUkAeqlFRQl1XRVtTQV9UxBuliwwGYgAYBzeHj4wMaJSQkBDRNTEwM",
                "aKCUlBQAYxMOEgz2FWoAAAAASUVORK5CYII=",
            ].joined()),
        Fixture(
            "interlacedGray1", colorType: 0, depth: 1, interlaced: true, transparency: .none,
            base64: "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGAQAAAAFOu7n+AAAAG0lEQVR42mNggABGEPGB8QMTA8P/Bsb/jUAaACs0BOctWmAyAAAAAElFTkSuQmCC"),
        Fixture(
            "interlacedPalette2", colorType: 3, depth: 2, interlaced: true, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGAgMAAAEbrmzAAAAADFBMVEUK/wEy/Aha+Q+C9hZVGrU6AAAAJElEQVR42mNgAIMFjAsYOhoY7jLeZWJgCA11",
                "YLzL8JipoqIBAGN9CCSWa/39AAAAAElFTkSuQmCC",
            ].joined()),
        Fixture(
            "interlacedRGBA16", colorType: 6, depth: 16, interlaced: true, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGEAYAAAE2UFgQAAABIklEQVR42mNgYHD91v3m4qP3O0zXVS85OIuh/M7eS8wnPPcxHD/Cuyt4w8xl9wtU07Jj",
                "NgZ9l7EVauY48Y/B+l3jk+O3eC9sPvXzgP221jWMwbNmTrjfplojsQYCGZIfrbzx/pzpEZgR2ssK52yf9Lejv+NqnXRJYtbnLMuE+rCjPgyy35Pfrnz8",
                "/mbk0/m3n17UPj718u2TivvTt148KL49du3ixYwwgZRH2CFTxR0IXHABAk8cgcAPOyCQwfBj+fO9d5kvw6xovHn8PO/R4N0rz74/bLqzej3Mqp9b7Ve3",
                "Ljw9XXFl+vy1Uz93e87tn3y1U7q+cOL29r+1zsVwp9i8owwywdwOc3rPNQiEeWHLKQiEeeXOPggEeec9EDJvgkAAXXUKOSbxLQgAAAAASUVORK5CYII=",
            ].joined()),
        Fixture(
            "filter0", colorType: 6, depth: 8, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAYAAAARx7TFAAAAs0lEQVR42hWN1w/BcBSFf4kgxJ41qmrP0taoGlWJIjFDrAfjhTf//6Nzk+/pfOfcy5jT",
                "F7W5g5zDG0m5AvGMJ5wU/TG+EEpky9F0vsYJpSazIyWJTi6IhAS8xBfqilhp9YoNVWc4ItASnSrJDNJ8Tdbgx83OcKYMpgtGBVqj06ZlWeqOSKq6uYTf",
                "GtbmxOgCFUAfTMAcrMER3MGb0Qu6QAVZMyxam8vdebW/PA7X5+f2+v7+wXol+dCQoskAAAAASUVORK5CYII=",
            ].joined()),
        Fixture(
            "filter1", colorType: 6, depth: 8, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAYAAAARx7TFAAAANklEQVR42mNkYOcTZSYAGFl5hKVYCABGLkEJeVYCgJFfTFaFjQBgFJFW0mQnABglFdT1",
                "OAgAAFMlBk8wWsZ3AAAAAElFTkSuQmCC",
            ].joined()),
        Fixture(
            "filter2", colorType: 6, depth: 8, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAYAAAARx7TFAAAAR0lEQVR42mNiYOcTZeYSlGDjFZHmFBCX4xGWUuQXk1URklRQF5VR1pKQV9NlYgUCNiBg",
                "BwIOIOAEAi4g4AYCHiDgBYLBqAgAtS4Ji34GlBoAAAAASUVORK5CYII=",
            ].joined()),
        Fixture(
            "filter3", colorType: 6, depth: 8, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAYAAAARx7TFAAAAVUlEQVR42n3NyQ7AIAhF0SbECRTn2vT/P7TUuOasLw+4HE9wyMbHbDFVT7mFVAZxm7H0",
                "xXU+YEIsRtjDHf4IAv5LLdgRyp4WoAB5v7RgR7nfrxaQ+ACfNQgr6i6/MgAAAABJRU5ErkJggg==",
            ].joined()),
        Fixture(
            "filter4", colorType: 6, depth: 8, interlaced: false, transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAYAAAARx7TFAAAAJ0lEQVR42mNhYOcTZSYAWFiBgIUQYCUCgBWxEQBwRex4AIoiDhwAAMmXBLdFIe/NAAAA",
                "AElFTkSuQmCC",
            ].joined()),
    ]

    static func fixture(_ name: String) -> Fixture {
        fixtures.first { $0.name == name }!
    }

    // MARK: The expected pixels, from the formulas above

    static func value(_ x: Int, _ y: Int, _ channel: Int, depth: Int) -> Int {
        let v = 3 * x + 5 * y + 7 * channel + x * y
        return depth == 16 ? (v * 2557 + channel * 11) % 65536 : v % (1 << depth)
    }

    /// The PNG specification's scaling to 8 bits: low depths stretched to 0–255, 16 bits divided by 257 and rounded.
    static func eightBit(_ value: Int, depth: Int) -> UInt8 {
        depth == 16 ? UInt8((Double(value) / 257).rounded()) : UInt8(value * 255 / ((1 << depth) - 1))
    }

    static func expectedPixel(_ fixture: Fixture, x: Int, y: Int) -> [UInt8] {
        let depth = fixture.depth
        switch fixture.colorType {
        case 3:
            let index = value(x, y, 0, depth: depth)
            let entry = [(40 * index + 10) % 256, (255 - 3 * index + 256) % 256, (7 * index + 1) % 256].map { UInt8($0) }
            return fixture.transparency == .paletteAlpha ? entry + [index < 10 ? UInt8(25 * index % 256) : 255] : entry
        default:
            let channels = [0: 1, 2: 3, 4: 2, 6: 4][fixture.colorType]!
            let raw = (0..<channels).map { value(x, y, $0, depth: depth) }
            let key = (0..<channels).map { value(2, 1, $0, depth: depth) }
            let pixel = raw.map { eightBit($0, depth: depth) }
            return fixture.transparency == .colorKey ? pixel + [raw == key ? 0 : 255] : pixel
        }
    }

    static func expectedSamples(_ fixture: Fixture) -> [UInt8] {
        (0..<6).flatMap { y in (0..<9).flatMap { x in expectedPixel(fixture, x: x, y: y) } }
    }

    // MARK: Reading and writing chunks, independently of the decoder

    static func chunks(_ png: Data) -> [(type: String, body: [UInt8])] {
        let bytes = [UInt8](png)
        var chunks: [(type: String, body: [UInt8])] = []
        var position = 8
        while position + 12 <= bytes.count {
            let length = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
            chunks.append((type, Array(bytes[(position + 8)..<(position + 8 + length)])))
            position += 12 + length
        }
        return chunks
    }

    static func png(_ chunks: [(type: String, body: [UInt8])]) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for chunk in chunks {
            let typed = Array(chunk.type.utf8) + chunk.body
            bytes += bigEndian(chunk.body.count) + typed + bigEndian(Int(crc(typed)))
        }
        return Data(bytes)
    }

    static func bigEndian(_ value: Int) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    /// CRC-32 bit by bit, the slow way the specification's annex describes.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? crc >> 1 ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func header(width: Int, height: Int, depth: Int, colorType: Int, interlace: UInt8 = 0) -> (type: String, body: [UInt8]) {
        ("IHDR", bigEndian(width) + bigEndian(height) + [UInt8(depth), UInt8(colorType), 0, 0, interlace])
    }

    /// A zlib stream of one stored block, so tests can write any scanlines they like.
    static func storedZlib(_ bytes: [UInt8]) -> [UInt8] {
        [0x78, 0x01, 0x01, UInt8(bytes.count & 0xFF), UInt8(bytes.count >> 8), UInt8(~bytes.count & 0xFF), UInt8(~bytes.count >> 8 & 0xFF)]
            + bytes + InflateTests.bigEndianAdler32(bytes)
    }

    // MARK: Tests

    @Test(arguments: fixtures)
    func everyColourTypeAndBitDepthDecodesToTheExpectedPixels(_ fixture: Fixture) throws {
        // The fixture is what its name says.
        let header = try #require(Self.chunks(fixture.png).first)
        #expect(header.type == "IHDR" && Int(header.body[8]) == fixture.depth && Int(header.body[9]) == fixture.colorType)
        #expect(header.body[12] == (fixture.interlaced ? 1 : 0))
        let image = try PNGDecoder.decode(fixture.png)
        let expected = Self.expectedSamples(fixture)
        #expect(image.width == 9 && image.height == 6)
        #expect(image.channels == expected.count / 54)
        #expect(image.samples == expected)
    }

    @Test(arguments: 0...4)
    func eachScanlineFilterIsUndone(filter: Int) throws {
        let fixture = Self.fixture("filter\(filter)")
        let data = Self.chunks(fixture.png).filter { $0.type == "IDAT" }.flatMap(\.body)
        let scanlines = try Inflate.zlib(data, limit: 1 << 16)
        // RGBA at 8 bits: a filter byte and 36 bytes a row.
        #expect(stride(from: 0, to: scanlines.count, by: 37).allSatisfy { scanlines[$0] == UInt8(filter) })
        #expect(try PNGDecoder.decode(fixture.png).samples == Self.expectedSamples(fixture))
    }

    /// 12×8 RGB, 8 bits, samples from the LCG below, which puts the neighbours on every side of one another (the smooth
    /// fixtures above never make Paeth pick the upper-left pixel): rows use filter `r mod 5` in `noiseRGB8`, Paeth in
    /// `noisePaeth`. Same Python encoder, same Pillow check.
    static let noise: [String: String] = [
        "noiseRGB8": [
            "iVBORw0KGgoAAAANSUhEUgAAAAwAAAAICAIAAABChommAAABM0lEQVR42gEoAdf+AFPDfXiOtE23SC9tRj0Z5XAkTLug41j8eHT6jLGVXK+1MhJT/gGT",
            "0SOZdMogpNxNJLRmz4QxdVT8EkuEZM0+HV9I7GYKxl+drdoCk9m1UJEpKSjdwT3Rh0NQI+us7rN0Fo2OVndOAlFgw1VzwKWNA+f1B+mfuOHTRwomjum0",
            "1EltikEiQhJUDFccQpyTWUBjzHPDzAS4sc9ypPvFMhB5Q0vOUfrNdUrLarDZDeg8TmVyQ7INVXuk+GcAtXTw9qfGFEo6tt+NmjqwDizQfKV78qGO5Vhr",
            "CwrwYrjwnlmsAfazOF7M9zCRKzOjMDyhqOjnv1chaGHa83ogEhmSzUvYA+Lr9QKQ5xTa6SVZ2elijSB+7E0PoCsfiBNmNacqfi+Df7PX7rxc5DzJWpJB",
            "zQIR6QAAAABJRU5ErkJggg==",
        ].joined(),
        "noisePaeth": [
            "iVBORw0KGgoAAAANSUhEUgAAAAwAAAAICAIAAABChommAAABM0lEQVR42gEoAdf+BFPDfSXLN9UplOK2/g6snzMLZ0t8l51clRz+FD2b0P4g1mOezARA",
            "DqaZt3AgWxVqVrRmzxwxdVS8w72EJ/U+HVRIO6YKxl/L8G0Ek9m1VpEp+SiQwT3R7UNQIx2sx8W/FvHnVgcfAsZ4w8pywFL0BNSgm6rl5sniHBPRqdxh",
            "nFBhuEze7/5A4pfso0qcQ1Fdzk4NtwS4sc9ypPvFMhB5Q0vOUfrNdUrLarDZDeg8TmVyQ7INVXuk+GcEA3mu4DPPHiUSondlRlsjdBogginUdtn+zk92",
            "JiCFV64+PLC8BEE/SF7M93DGKwHU/VkagkEBv1e33hfa0XogEhveOw/YA7VS9QSQ5xTa6QiJ2ek8VyBYAE15oCsfCVBmh5qkaZpyf4CfRwxn5HX6kY2w",
            "ovTlNgAAAABJRU5ErkJggg==",
        ].joined(),
    ]

    @Test(arguments: ["noiseRGB8", "noisePaeth"])
    func noisyPixelsTakeEveryBranchOfTheFilters(name: String) throws {
        var seed = 3
        var expected: [UInt8] = []
        for _ in 0..<(12 * 8 * 3) {
            seed = (seed * 1_103_515_245 + 12345) % (1 << 31)
            expected.append(UInt8(seed >> 16 & 0xFF))
        }
        let image = try PNGDecoder.decode(Data(base64Encoded: try #require(Self.noise[name]))!)
        #expect(image.width == 12 && image.height == 8 && image.channels == 3)
        #expect(image.samples == expected)
    }

    @Test func ancillaryChunksAreSkippedAndSplitImageDataJoined() throws {
        let fixture = Self.fixture("rgb8")
        let types = Self.chunks(fixture.png).map(\.type)
        #expect(types.contains("tEXt") && types.filter { $0 == "IDAT" }.count > 2)
        #expect(try PNGDecoder.decode(fixture.png).samples == Self.expectedSamples(fixture))
    }

    @Test func aBadCRCIsRefused() {
        let bytes = [UInt8](Self.fixture("rgb8").png)
        for chunk in Self.chunks(Self.fixture("rgb8").png) {
            guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: Array(chunk.type.utf8) + chunk.body) }) else {
                Issue.record("chunk \(chunk.type) not found")
                continue
            }
            // A changed type, body or stored CRC byte.
            for offset in [0, 4 + chunk.body.count / 2, 4 + chunk.body.count + 3] {
                var damaged = bytes
                damaged[start + offset] ^= 0x20
                #expect(throws: PNGDecoder.Failure.damaged, "\(chunk.type) +\(offset)") { try PNGDecoder.decode(Data(damaged)) }
            }
        }
    }

    @Test func everyCutOffFileIsRefused() {
        let png = Self.fixture("interlacedRGBA16").png
        for length in 0..<png.count {
            let failure: PNGDecoder.Failure = length < 8 ? .notPNG : .truncated
            #expect(throws: failure, "cut at \(length)") { try PNGDecoder.decode(png.prefix(length)) }
        }
    }

    @Test func oversizedDimensionsAreRefusedFromTheHeaderAlone() {
        // Only a header: were the size not refused right there, the missing data would be reported instead.
        for (width, height, depth, colorType) in [(100_000, 100_000, 8, 2), (0x7FFF_FFFF, 0x7FFF_FFFF, 16, 6), (8000, 7000, 8, 6)] {
            let png = Self.png([Self.header(width: width, height: height, depth: depth, colorType: colorType)])
            #expect(throws: PNGDecoder.Failure.tooLarge, "\(width)×\(height)") { try PNGDecoder.decode(png) }
        }
        // The limit counts the channels a picture can decode to: RGB may gain alpha from a tRNS chunk.
        let rgb = Self.fixture("rgb8").png
        #expect(throws: PNGDecoder.Failure.tooLarge) { try PNGDecoder.decode(rgb, maxSamples: 9 * 6 * 4 - 1) }
        #expect((try? PNGDecoder.decode(rgb, maxSamples: 9 * 6 * 4)) != nil)
    }

    @Test func invalidHeadersAndChunkOrdersAreRefused() {
        let data = ("IDAT", Self.storedZlib([0, 1, 2]))
        let end = ("IEND", [UInt8]())
        let cases: [(String, [(type: String, body: [UInt8])])] = [
            ("bit depth 3", [Self.header(width: 2, height: 1, depth: 3, colorType: 0), data, end]),
            ("4-bit RGB", [Self.header(width: 2, height: 1, depth: 4, colorType: 2), data, end]),
            ("colour type 5", [Self.header(width: 2, height: 1, depth: 8, colorType: 5), data, end]),
            ("zero width", [Self.header(width: 0, height: 1, depth: 8, colorType: 0), data, end]),
            ("interlace method 2", [Self.header(width: 2, height: 1, depth: 8, colorType: 0, interlace: 2), data, end]),
            ("data before the header", [data, Self.header(width: 2, height: 1, depth: 8, colorType: 0), end]),
            (
                "two headers",
                [Self.header(width: 2, height: 1, depth: 8, colorType: 0), Self.header(width: 2, height: 1, depth: 8, colorType: 0), data, end]
            ),
            ("no image data", [Self.header(width: 2, height: 1, depth: 8, colorType: 0), end]),
            ("palette picture without a palette", [Self.header(width: 2, height: 1, depth: 8, colorType: 3), data, end]),
            ("tRNS on RGBA", [Self.header(width: 1, height: 1, depth: 8, colorType: 6), ("tRNS", [0, 0, 0, 0, 0, 0]), data, end]),
            ("unknown critical chunk", [Self.header(width: 2, height: 1, depth: 8, colorType: 0), ("CRIT", [1]), data, end]),
        ]
        for (name, chunks) in cases {
            #expect(throws: PNGDecoder.Failure.damaged, "\(name)") { try PNGDecoder.decode(Self.png(chunks)) }
        }
        // The control: the same chunks in order make a 2×1 gray picture, and an unknown ancillary chunk is skipped.
        let good = Self.png([Self.header(width: 2, height: 1, depth: 8, colorType: 0), ("abCd", [1]), data, end])
        #expect((try? PNGDecoder.decode(good))?.samples == [1, 2])
    }

    @Test func wrongScanlinesAreRefused() {
        let header = Self.header(width: 2, height: 2, depth: 8, colorType: 0)
        func decode(_ scanlines: [UInt8]) throws -> [UInt8] {
            try PNGDecoder.decode(Self.png([header, ("IDAT", Self.storedZlib(scanlines)), ("IEND", [])])).samples
        }
        #expect((try? decode([0, 10, 20, 2, 1, 1])) == [10, 20, 11, 21])
        #expect(throws: PNGDecoder.Failure.damaged, "filter type 5") { try decode([0, 10, 20, 5, 1, 1]) }
        #expect(throws: PNGDecoder.Failure.damaged, "a byte short") { try decode([0, 10, 20, 2, 1]) }
        #expect(throws: PNGDecoder.Failure.damaged, "a byte over") { try decode([0, 10, 20, 2, 1, 1, 0]) }
    }

    @Test func aPaletteIndexPastThePaletteIsRefused() throws {
        // palette2 uses indices 0–3; keep only its first two entries.
        let chunks = Self.chunks(Self.fixture("palette2").png).map { chunk in
            chunk.type == "PLTE" ? (chunk.type, Array(chunk.body.prefix(6))) : chunk
        }
        #expect(throws: PNGDecoder.Failure.damaged) { try PNGDecoder.decode(Self.png(chunks)) }
    }

    @Test func theSizeIsReadFromTheHeaderAlone() throws {
        let size = try #require(PNGDecoder.size(Self.fixture("rgb8").png.prefix(33)))
        #expect(size.width == 9 && size.height == 6)
        #expect(PNGDecoder.size(Self.fixture("rgb8").png.prefix(32)) == nil)
    }

    @Test func damagedImageDataNeverTraps() {
        var random = InflateTests.SplitMix64(seed: 2083)
        for name in ["interlacedRGBA16", "palette4", "rgb8", "interlacedGray1"] {
            let chunks = Self.chunks(Self.fixture(name).png)
            for _ in 0..<150 {
                // Damage behind a correct CRC, so the damage reaches the inflater, the filters and the unpacking.
                let damaged = chunks.map { chunk -> (type: String, body: [UInt8]) in
                    guard chunk.type == "IDAT", random.next() % 2 == 0 else { return chunk }
                    var body = chunk.body
                    body[Int(random.next() % UInt64(body.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
                    return (chunk.type, body)
                }
                _ = try? PNGDecoder.decode(Self.png(damaged))
            }
        }
        #expect((try? PNGDecoder.decode(Self.fixture("rgb8").png)) != nil)
    }
}
