import Foundation
import PlazaCore

@testable import PlazaMedia

/// The PNG fixtures (how they were made: see `PNGDecoderTests`).
extension PNGDecoderTests {
    static let fixtures: [Fixture] = [
        Fixture(
            "gray1",
            colorType: 0,
            depth: 1,
            interlaced: false,
            transparency: .none,
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGAQAAAAA5vIloAAAAGklEQVR42mMIZWD838gU1sB8lZElbDXD/wYAMMkGDFMI1rgAAAAASUVORK5CYII="
        ),
        Fixture(
            "gray2",
            colorType: 0,
            depth: 2,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGAgAAAAB+HPO4AAAAIElEQVR42mOwtGRgDGV4zRQT48DcKibEEsNwnCE01AEAPbAFb9BiTMoAAAAASUVORK5C",
                "YII=",
            ].joined()
        ),
        Fixture(
            "gray4",
            colorType: 0,
            depth: 4,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGBAAAAADxXAYYAAAALElEQVR42mNgzjyv2sAYWdFRUc8UVtG15wLzPKHNW46whN27d+8Cw0QgmAAACuIQjt/X",
                "8VgAAAAASUVORK5CYII=",
            ].joined()
        ),
        Fixture(
            "gray8",
            colorType: 0,
            depth: 8,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAAAAAA0rOsZAAAAOUlEQVR42mNgYGbj5OEXEpVgZGWBAiZWNnYOTi5uHl5mLjZ2dg4OTk4uFqAYBDBIKmoa",
                "Wjp6BkYCADwOA3SYa3CtAAAAAElFTkSuQmCC",
            ].joined()
        ),
        Fixture(
            "gray16",
            colorType: 0,
            depth: 16,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGEAAAAABkPDdaAAAAZklEQVR42mNgYJD9bv0u8mn5namXN5+6ePD9DkbDjxpfUCGT0Uebd26vA15EPU15lHe/",
                "4k7TTeaUJJt3jm+PvfZ+FfAi9HnU0/tPWCCqYLACiBl+bvWcO7P1Za5laKftTVVN3oqvAEN8P31oHIEnAAAAAElFTkSuQmCC",
            ].joined()
        ),
        Fixture(
            "rgb8",
            colorType: 2,
            depth: 8,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAIAAACepSOSAAAAFnRFWHRDb21tZW50AG1hZGUgZm9yIFBsYXphN2j4ZQAAAChJREFUeNpjYGDnY+YSZOMV",
                "4RQQ5xGW4heTFZJUEJVRlpBXY2TlEWbBAZhYWQ6pQlkAAAAoSURBVFnZ2NjY2dk5ODg4OTm5uLi4ubl5eHh4eXmZufgEIXIQaYgKiCIWuD66FZzNAAAA",
                "I0lEQVRMwCCpoK6ooa9pYG5oYW/p4O7o4e8ZEB4YER+ZkA4AeMYL4KHPZ0gAAAAASUVORK5CYII=",
            ].joined()
        ),
        Fixture(
            "rgb16",
            colorType: 2,
            depth: 16,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGEAIAAADONf/RAAAA4UlEQVR42mNgYHD91v1G9nvy25WPrd81Pjl+K/Lp/NtPL5bf2XuJ+cTUy7dPKu7ffOrn",
                "AfttFw+Kb49d+36H6brqJYyGH8uf772r8YU0yGT0EQRt3oGg22sQDHgBglFPQTDlEQjm3QfBijsg2HQTBJlTktpjV0VAtDm+BcFjYM3er0AQZMCFF6HP",
                "rz4PfQ4x6P6TeCBkgdnmBrcNAaOAOAXOq4Czml4z/Nxqv7p1oefc/slXO2e23q9WLXyZq59cGmkZWu991LHT9ryxqOZNVXnpVEFN3nzmLT8rvu57zfIQ",
                "AFuhviiz/Nw/AAAAAElFTkSuQmCC",
            ].joined()
        ),
        Fixture(
            "palette1",
            colorType: 3,
            depth: 1,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGAQMAAAArCSaGAAAABlBMVEUK/wEy/AjnGS09AAAAGklEQVR42mMIZWD838gU1sB8lZElbDXD/wYAMMkGDFMI",
                "1rgAAAAASUVORK5CYII=",
            ].joined()
        ),
        Fixture(
            "palette2",
            colorType: 3,
            depth: 2,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGAgMAAABsqVxWAAAADFBMVEUK/wEy/Aha+Q+C9hZVGrU6AAAAIElEQVR42mOwtGRgDGV4zRQT48DcKibEEsNw",
                "nCE01AEAPbAFb9BiTMoAAAAASUVORK5CYII=",
            ].joined()
        ),
        Fixture(
            "palette4",
            colorType: 3,
            depth: 4,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGBAMAAADj6an2AAAAMFBMVEUK/wEy/Aha+Q+C9haq8x3S8CT67Ssi6jJK5zly5ECa4UfC3k7q21US2Fw61WNi",
                "0mqzkm5iAAAALElEQVR42mNgzjyv2sAYWdFRUc8UVtG15wLzPKHNW46whN27d+8Cw0QgmAAACuIQjt/X8VgAAAAASUVORK5CYII=",
            ].joined()
        ),
        Fixture(
            "palette8",
            colorType: 3,
            depth: 8,
            interlaced: false,
            transparency: .none,
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
            ].joined()
        ),
        Fixture(
            "grayAlpha8",
            colorType: 4,
            depth: 8,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAQAAAC7znxOAAAAVUlEQVR42mNgYGfmYuPlFOAR5hcTkhSVkZBnZOVhQQNMrKxsbOzsHBycnFxc3Nw8PLy8",
                "zFx8ICGQIEgYJMECUYUMGCQVFDU0DQwtLB0cPTwDAiMiEwAAOgdmkv3ljQAAAABJRU5ErkJggg==",
            ].joined()
        ),
        Fixture(
            "grayAlpha16",
            colorType: 4,
            depth: 16,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGEAQAAADrXqANAAAAs0lEQVR42mNgYHD9Jvs9+a31u8YnkU/n3y6/s/fS1Mu3T24+9fPAxYPi29/vMF3HaPix",
                "/LnGF/yQyeij0Uebdzbv3F67vQ54EfAi6mnU05RHKY/y7ufdr7hTcafpZtNN5pSk9liQIse3jm+PARV6v/J+BVIc+vzqc5CG+0/in7BATHIDm4SAKWCy",
                "Aspj+LnVfrXn3P7JM1vvV7/M1U+2DK337rQ9b3xTVV5akzefueLrvtcAl5p+9ukrAYcAAAAASUVORK5CYII=",
            ].joined()
        ),
        Fixture(
            "rgba8",
            colorType: 6,
            depth: 8,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAYAAAARx7TFAAAAgUlEQVR42mNgYOcTZeYSlGDjFZHmFBCX4xGWUuQXk1URklRQF5VR1pKQV9NlZAWKshAA",
                "TKxAwAYE7EDAAQScQMAFBNxAwAMEvEDAzMUnKApTBFMIUwzTwIJsEi7AAHSfnqKGvpmmgbmdoYW9m6WDu5+jh3+YZ0B4XGBEfFpkQnoeANJbEOOoeOKY",
                "AAAAAElFTkSuQmCC",
            ].joined()
        ),
        Fixture(
            "rgba16",
            colorType: 6,
            depth: 16,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGEAYAAABBV2iGAAABFklEQVR42mNgYHD91v3m4iPZ78lvVz5+f9P6XeOT47d4L0Q+nX/76UXt4+V39l5iPuG5",
                "b+rl2ycV96dv3Xzq5wH7ba1rLh4U3x67dvHi9ztM11UvOTiL0fBj+fO9d5kva3yhDDIZfYRAm3cQ6PYaAgNeQGDUUwhMeQSBefchsOIOBDbdhEDmlKT2",
                "2FURvsEwgxzfQuAxqIHer0Dw9CuQoReAOPT51eehQAiz4P6TeCC8/4QF4SI3FBdB3QUmo8BkCopMBRLZ9Nr1NcPPrfarWxeenu45t3/y1U7p+pmt96tV",
                "C7PTX+bqJ5dG7va3DK33PurIbd5pe95YVDNa/qaqvHSq4Gp2Td585i0/f72v+LrvNctDr+sAqqr81+VYgAIAAAAASUVORK5CYII=",
            ].joined()
        ),
        Fixture(
            "paletteAlpha4",
            colorType: 3,
            depth: 4,
            interlaced: false,
            transparency: .paletteAlpha,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGBAMAAADj6an2AAAAMFBMVEUK/wEy/Aha+Q+C9haq8x3S8CT67Ssi6jJK5zly5ECa4UfC3k7q21US2Fw61WNi",
                "0mqzkm5iAAAACnRSTlMAGTJLZH2Wr8jh/iHbfgAAACxJREFUeNpjYM48r9rAGFnRUVHPFFbRtecC8zyhzVuOsITdu3fvAsNEIJgAAAriEI7f1/FYAAAA",
                "AElFTkSuQmCC",
            ].joined()
        ),
        Fixture(
            "grayKey8",
            colorType: 0,
            depth: 8,
            interlaced: false,
            transparency: .colorKey,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAAAAAA0rOsZAAAAAnRSTlMADQgisYUAAAA5SURBVHjaY2BgZuPk4RcSlWBkZYECJlY2dg5OLm4eXmYuNnZ2",
                "Dg5OTi4WoBgEMEgqahpaOnoGRgIAPA4DdJhrcK0AAAAASUVORK5CYII=",
            ].joined()
        ),
        Fixture(
            "rgbKey8",
            colorType: 2,
            depth: 8,
            interlaced: false,
            transparency: .colorKey,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAIAAACepSOSAAAABnRSTlMADQAUABsHfAFgAAAAc0lEQVR42mNgYOdj5hJk4xXhFBDnEZbiF5MVklQQlVGW",
                "kFdjZOURZsEBmFhZWdnY2NjZ2Tk4ODg5Obm4uLi5uXl4eHh5eZm5+AQhchBpiAqIIha4PkzAIKmgrqihr2lgbmhhb+ng7ujh7xkQHhgRH5mQDgB4xgvg",
                "sYnNKgAAAABJRU5ErkJggg==",
            ].joined()
        ),
        Fixture(
            "gray16Key",
            colorType: 0,
            depth: 16,
            interlaced: false,
            transparency: .colorKey,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGEAAAAABkPDdaAAAAAnRSTlOB2asEDkIAAABmSURBVHjaY2BgkP1u/S7yafmdqZc3n7p48P0ORsOPGl9QIZPR",
                "R5t3bq8DXkQ9TXmUd7/iTtNN5pQkm3eOb4+99n4V8CL0edTT+09YIKpgsAKIGX5u9Zw7s/VlrmVop+1NVU3eiq8AQ3w/fWgcgScAAAAASUVORK5CYII=",
            ].joined()
        ),
        Fixture(
            "interlacedRGB8",
            colorType: 2,
            depth: 8,
            interlaced: true,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAIAAAHpohMEAAAAj0lEQVR42mNgYOeTkFdj4BGWYhCRVjIwt/MJjmJg4xURklRgVNI0kJGRYeASlABKyanq",
                "aOibGVk6MDBzCXIKiPOLyYrKKDMCKS4YYOLh4REQEBAREZGQkGBg5REGKuMVkRaUkAeqlFRQl1XRVtTQV9UxBuliwwGYgAYBzeHj4wMaJSQkBDRNTEwM",
                "aKCUlBQAYxMOEgz2FWoAAAAASUVORK5CYII=",
            ].joined()
        ),
        Fixture(
            "interlacedGray1",
            colorType: 0,
            depth: 1,
            interlaced: true,
            transparency: .none,
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGAQAAAAFOu7n+AAAAG0lEQVR42mNggABGEPGB8QMTA8P/Bsb/jUAaACs0BOctWmAyAAAAAElFTkSuQmCC"
        ),
        Fixture(
            "interlacedPalette2",
            colorType: 3,
            depth: 2,
            interlaced: true,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGAgMAAAEbrmzAAAAADFBMVEUK/wEy/Aha+Q+C9hZVGrU6AAAAJElEQVR42mNgAIMFjAsYOhoY7jLeZWJgCA11",
                "YLzL8JipoqIBAGN9CCSWa/39AAAAAElFTkSuQmCC",
            ].joined()
        ),
        Fixture(
            "interlacedRGBA16",
            colorType: 6,
            depth: 16,
            interlaced: true,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGEAYAAAE2UFgQAAABIklEQVR42mNgYHD91v3m4qP3O0zXVS85OIuh/M7eS8wnPPcxHD/Cuyt4w8xl9wtU07Jj",
                "NgZ9l7EVauY48Y/B+l3jk+O3eC9sPvXzgP221jWMwbNmTrjfplojsQYCGZIfrbzx/pzpEZgR2ssK52yf9Lejv+NqnXRJYtbnLMuE+rCjPgyy35Pfrnz8",
                "/mbk0/m3n17UPj718u2TivvTt148KL49du3ixYwwgZRH2CFTxR0IXHABAk8cgcAPOyCQwfBj+fO9d5kvw6xovHn8PO/R4N0rz74/bLqzej3Mqp9b7Ve3",
                "Ljw9XXFl+vy1Uz93e87tn3y1U7q+cOL29r+1zsVwp9i8owwywdwOc3rPNQiEeWHLKQiEeeXOPggEeec9EDJvgkAAXXUKOSbxLQgAAAAASUVORK5CYII=",
            ].joined()
        ),
        Fixture(
            "filter0",
            colorType: 6,
            depth: 8,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAYAAAARx7TFAAAAs0lEQVR42hWN1w/BcBSFf4kgxJ41qmrP0taoGlWJIjFDrAfjhTf//6Nzk+/pfOfcy5jT",
                "F7W5g5zDG0m5AvGMJ5wU/TG+EEpky9F0vsYJpSazIyWJTi6IhAS8xBfqilhp9YoNVWc4ItASnSrJDNJ8Tdbgx83OcKYMpgtGBVqj06ZlWeqOSKq6uYTf",
                "GtbmxOgCFUAfTMAcrMER3MGb0Qu6QAVZMyxam8vdebW/PA7X5+f2+v7+wXol+dCQoskAAAAASUVORK5CYII=",
            ].joined()
        ),
        Fixture(
            "filter1",
            colorType: 6,
            depth: 8,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAYAAAARx7TFAAAANklEQVR42mNkYOcTZSYAGFl5hKVYCABGLkEJeVYCgJFfTFaFjQBgFJFW0mQnABglFdT1",
                "OAgAAFMlBk8wWsZ3AAAAAElFTkSuQmCC",
            ].joined()
        ),
        Fixture(
            "filter2",
            colorType: 6,
            depth: 8,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAYAAAARx7TFAAAAR0lEQVR42mNiYOcTZeYSlGDjFZHmFBCX4xGWUuQXk1URklRQF5VR1pKQV9NlYgUCNiBg",
                "BwIOIOAEAi4g4AYCHiDgBYLBqAgAtS4Ji34GlBoAAAAASUVORK5CYII=",
            ].joined()
        ),
        Fixture(
            "filter3",
            colorType: 6,
            depth: 8,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAYAAAARx7TFAAAAVUlEQVR42n3NyQ7AIAhF0SbECRTn2vT/P7TUuOasLw+4HE9wyMbHbDFVT7mFVAZxm7H0",
                "xXU+YEIsRtjDHf4IAv5LLdgRyp4WoAB5v7RgR7nfrxaQ+ACfNQgr6i6/MgAAAABJRU5ErkJggg==",
            ].joined()
        ),
        Fixture(
            "filter4",
            colorType: 6,
            depth: 8,
            interlaced: false,
            transparency: .none,
            base64: [
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAGCAYAAAARx7TFAAAAJ0lEQVR42mNhYOcTZSYAWFiBgIUQYCUCgBWxEQBwRex4AIoiDhwAAMmXBLdFIe/NAAAA",
                "AElFTkSuQmCC",
            ].joined()
        ),
    ]
}
