import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Issue 41: the pages in the reader's language, from one catalogue per language.
@Suite struct LanguageTests {
    static let catalogue = try! Catalogue.load(pseudo: true)

    /// The shipped languages against English: German and Spanish have every key and the same values in braces;
    /// Arabic has at least the shell, home and the wallet's actions.
    @Test func germanAndSpanishSayEverythingEnglishSays() throws {
        let english = try Self.texts("en")
        #expect(english.count > 100)
        for tag in ["de", "es"] {
            let texts = try Self.texts(tag)
            let missing = english.keys.filter { texts[$0] == nil }.sorted()
            #expect(missing.isEmpty, "\(tag).json lacks \(missing)")
            for (key, text) in texts {
                #expect(english[key] != nil, "\(tag).json has \(key), which English does not")
                #expect(Self.values(text) == Self.values(english[key] ?? text), "\(tag): \(key) names other values")
            }
        }
        let arabic = try Self.texts("ar")
        let shell = english.keys.filter { ["shell.", "home.", "wallet.action."].contains(where: $0.hasPrefix) }
        #expect(shell.filter { arabic[$0] == nil }.isEmpty)
    }

    /// Every language's words leave every template parseable (start-up parses them only once the server listens, so a
    /// translation that broke one would otherwise first show as English on that language's page).
    @Test func everyLanguagesTemplatesParse() throws {
        let templates = try Templates.load(catalogue: Self.catalogue)
        try templates.warm()
        #expect(Set(templates.libraries.keys) == Set(Self.catalogue.languages.map(\.tag)))
        let german = try #require(templates.render(["code": "X"], withTemplate: "error", language: "de"))
        let english = try #require(templates.render(["code": "X"], withTemplate: "error", language: "en"))
        #expect(german.contains("lang=\"de\"") && english.contains("lang=\"en\""))
        #expect(templates.render([:], withTemplate: "error", language: "zz")?.contains("lang=\"en\"") == true)
    }

    /// Every `[[key]]` of every template is in English (start-up checks it too, so a typo never reaches a page).
    @Test func everyWordOfTheTemplatesIsInTheCatalogue() throws {
        let english = Self.catalogue.words("en")
        for (name, source) in try Templates.sources() {
            for key in Templates.keys(in: source) where !key.hasPrefix("@") {
                #expect(english.has(key), "\(name): \(key)")
            }
        }
    }

    /// Every sentence the Swift code gives to `say` or `phrase` is in English's catalogue as `=<sentence>`, so
    /// German and Spanish must say it too (the test above) and the pseudo-locale accents it; its values are in
    /// braces, never interpolated (an interpolated sentence would never match its entry).
    @Test func everySentenceTheSwiftCodeSaysIsInTheCatalogue() throws {
        let english = try Self.texts("en")
        let sources = URL(filePath: #filePath).deletingLastPathComponent()
            .appending(path: "../../../Sources/PlazaServer").standardizedFileURL
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var said = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            let code = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n",
                omittingEmptySubsequences: false
            )
            .filter { !$0.trimmingPrefix(while: \.isWhitespace).hasPrefix("//") }.joined(separator: "\n")
            for match in code.matches(of: Self.sayCall) {
                let sentence = Self.literal(String(match.output.1))
                let key = match.output.2.map { "\(sentence) [\($0)]" } ?? sentence
                #expect(!sentence.contains("\\("), "\(file.lastPathComponent): say(\(sentence)) interpolates")
                #expect(english["=" + key] as? String == sentence, "\(file.lastPathComponent): =\(key)")
                said += 1
            }
        }
        #expect(said > 0)
        // The marketplace's agreement is shown in the reader's words only while English's is the one in force.
        #expect(Catalogue.englishWords("market.agreement.text") == MarketRules.agreementText)
    }

    @Test func pluralsFollowEachLanguagesRules() {
        #expect(PluralRules.category(of: 1, language: "en") == "one")
        #expect(PluralRules.category(of: 0, language: "en") == "other")
        #expect(PluralRules.category(of: 1, language: "de-AT") == "one")
        #expect(PluralRules.category(of: 2, language: "es") == "other")
        #expect(PluralRules.category(of: 0, language: "fr") == "one")
        #expect(
            [0, 1, 2, 3, 10, 11, 99, 100, 102, 111].map { PluralRules.category(of: $0, language: "ar") } == [
                "zero", "one", "two", "few", "few", "many", "many", "other", "other", "many",
            ]
        )
        let texts: [String: Catalogue.Text] = [
            "punches": .plural(["one": "{count} punch", "other": "{count} punches"])
        ]
        let words = Catalogue.Words(
            language: .init(tag: "en", name: "English", dir: "ltr"),
            texts: texts,
            fallback: [:]
        )
        #expect(words.plural("punches", count: 1, shown: "1") == "1 punch")
        #expect(words.plural("punches", count: 1_204, shown: "1,204") == "1,204 punches")
    }

    @Test func aValueIsPutInOnceAndTheTextIsEscapedForTheTemplate() {
        // A person's name that looks like a value stays as typed.
        #expect(
            Catalogue.fill("You sent {amount} to {name}.", ["amount": "$7", "name": "{amount}"])
                == "You sent $7 to {amount}."
        )
        #expect(Catalogue.fill("{unknown} stays", ["amount": "1"]) == "{unknown} stays")
        let words = Catalogue.Words(
            language: .init(tag: "en", name: "English", dir: "ltr"),
            texts: ["a": .plain("Tom & <Jerry> say \"hi\", {name}")],
            fallback: [:]
        )
        #expect(
            Templates.translate("<p>[[a]]</p><html lang=\"[[@tag]]\">", words)
                == "<p>Tom &amp; &lt;Jerry&gt; say &quot;hi&quot;, {{name}}</p><html lang=\"en\">"
        )
        // Only a whole marker is a word; brackets and braces around anything else stay as written.
        #expect(
            Templates.translate("[[[a]]] [[ a]] [[a b]] [[]] [[@tag]][[a]]", words)
                == "[Tom &amp; &lt;Jerry&gt; say &quot;hi&quot;, {{name}}] [[ a]] [[a b]] [[]] en"
                + "Tom &amp; &lt;Jerry&gt; say &quot;hi&quot;, {{name}}"
        )
        #expect(Templates.mustacheValues("{a}{b.c} {} {d e} {f") == "{{a}}{{b.c}} {} {d e} {f")
        #expect(Templates.keys(in: "x [[a.b-c]] y [[@js]] [[d]") == ["a.b-c", "@js"])
    }

    @Test func theBrowsersLanguageIsMatchedToAnOfferedOne() {
        let catalogue = Self.catalogue
        #expect(catalogue.best(acceptLanguage: "de-AT,de;q=0.9,en;q=0.8") == "de")
        #expect(catalogue.best(acceptLanguage: "fr-FR, es;q=0.5, en;q=0.4") == "es")
        #expect(catalogue.best(acceptLanguage: "en;q=0.2, es;q=0.9") == "es")
        #expect(catalogue.best(acceptLanguage: "de;q=0, es;q=0.1") == "es")
        #expect(catalogue.best(acceptLanguage: "fr, zz") == nil)
        #expect(catalogue.best(acceptLanguage: "en-xa") == "en-XA")
        #expect(catalogue.choose(account: "es", acceptLanguage: "de") == "es")
        #expect(catalogue.choose(account: nil, acceptLanguage: "fr") == "en")
        #expect(try! Catalogue.load(pseudo: false).offers("en-XA") == false)
    }

    @Test func thePseudoLocaleAccentsEveryLetterAndKeepsValuesAndTags() {
        #expect(Pseudo.words("Send {amount} to <b>Ann</b> &amp; co") == "Šéñð {amount} ţö <b>Åññ</b> &amp; çö ····")
        #expect(Pseudo.words(String(repeating: "a", count: 30)).hasSuffix(" ········ ··"), "padding wraps")
    }

    @Test(arguments: TestEngine.enabled)
    func aPageSpeaksTheBrowsersLanguageAndAChosenOneAfterThat(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let german = try await client.execute(
                uri: "/login",
                method: .get,
                headers: [.accept: "text/html", .acceptLanguage: "de-AT,de;q=0.9"]
            )
            #expect(german.headers[.contentLanguage] == "de")
            #expect(german.text.contains(#"<html lang="de" dir="ltr">"#))
            #expect(german.text.contains("<h1>Anmelden</h1>"))
            #expect(german.text.contains("E-Mail oder Benutzername"))
            let arabic = try await client.execute(
                uri: "/",
                method: .get,
                headers: [.accept: "text/html", .acceptLanguage: "ar"]
            )
            #expect(arabic.text.contains(#"<html lang="ar" dir="rtl">"#))

            // The footer's Language page: a visitor picks Spanish, and every page after speaks it.
            let browser = PageSession(client)
            let page = try await browser.get("/")
            #expect(page.text.contains(#"<a href="/language">Language</a>"#))
            let choices = try await browser.get("/language")
            #expect(
                choices.text.contains(
                    #"lang="de" dir="ltr" translate="no"><input type="radio" name="language" value="de" > Deutsch"#
                )
            )
            let chosen = try await browser.submit("/language", to: "/language", ["language": "es"])
            #expect(chosen.headers[.location] == "/language?notice=language")
            let after = try await browser.follow(chosen)
            #expect(after.text.contains("Plaza ahora está en español."))
            #expect(try await browser.get("/signup").text.contains("Crea tu cuenta"))
            // A language this Plaza does not offer changes nothing.
            _ = try await browser.submit("/language", to: "/language", ["language": "xx"])
            #expect(try await browser.get("/login").text.contains(#"<html lang="es""#))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func problemsSpeakTheClientsLanguageAndKeepTheirCodes(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let refused = try await client.execute(
                uri: "/v1/auth/login",
                method: .post,
                headers: [.contentType: "application/json", .acceptLanguage: "es-MX, en;q=0.5"],
                body: ByteBuffer(string: #"{"login": "", "password": ""}"#)
            )
            #expect(refused.status == .unprocessableContent)
            #expect(refused.headers[.contentLanguage] == "es")
            let problem = try #require(refused.problem)
            #expect(problem.code == .validationFailed)
            #expect(problem.title == "Revisa los campos marcados.")
            #expect(problem.errors?.map(\.field).sorted() == ["login", "password"])
            #expect(problem.errors?.first { $0.field == "password" }?.message == "Escribe tu contraseña.")

            // A page's form shows the same problem in the page's language, beside its field.
            let browser = PageSession(client)
            _ = try await browser.submit("/language", to: "/language", ["language": "de"])
            let login = try await browser.follow(
                try await browser.submit("/login", to: "/login", ["login": "", "password": ""])
            )
            #expect(login.text.contains("Gib dein Passwort ein."))
        }
    }

    // MARK: Helpers

    static func texts(_ tag: String) throws -> [String: Any] {
        let url = try #require(Catalogue.directory?.appendingPathComponent("\(tag).json"))
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        object["@language"] = nil
        return object
    }

    /// `say("…")`, `phrase("…")`, `say("…" + "…", …)`: the literals of the first argument, and a `meaning:`.
    static var sayCall: Regex<(Substring, Substring, Substring?)> {
        /(?:^|[^A-Za-z0-9_])(?:say|phrase)\(\s*((?:"(?:[^"\\\n]|\\.)*"\s*\+?\s*)+)(?:,[^()]*?meaning: "([^"]*)")?/
    }

    /// A Swift string literal's (or several joined with `+`) text, its escapes undone.
    static func literal(_ source: String) -> String {
        source.matches(of: /"((?:[^"\\\n]|\\.)*)"/).map { String($0.output.1) }.joined()
            .replacing("\\\"", with: "\"").replacing("\\n", with: "\n").replacing("\\\\", with: "\\")
    }

    /// The `{values}` a text names (each plural form's together).
    static func values(_ text: Any) -> Set<String> {
        let strings = (text as? String).map { [$0] } ?? (text as? [String: String]).map { Array($0.values) } ?? []
        return Set(strings.flatMap { $0.matches(of: /\{([A-Za-z0-9_.]+)\}/).map { String($0.output.1) } })
    }
}
