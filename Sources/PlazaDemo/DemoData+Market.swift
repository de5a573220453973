import Foundation
import PlazaCore
import PlazaServer

extension DemoData {
    /// The demo town's university with its safe spots and its terms, so that a student can join the campus marketplace
    /// with any `@isar-uni.edu` address (the code arrives in the demo's mailbox); Ella, a student there, sells three
    /// things so that the feed has something in it, one of them by bidding; Finn sells chairs.
    static func seedMarket(_ services: PlazaServices, now: Date = Date()) async throws {
        guard try await services.market.allCampuses().isEmpty else { return }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let year = calendar.component(.year, from: now)
        let campus = try await services.market.createCampus(
            CampusRequest(
                name: "Isar University",
                domains: ["*.isar-uni.edu"],
                center: Coordinate(latitude: 48.1508, longitude: 11.5805),
                termEnds: (year...(year + 1)).flatMap { ["\($0)-02-15", "\($0)-07-31"] }
            )
        )
        for spot in [
            SafeSpotRequest(
                name: "Main library lobby",
                latitude: 48.1502,
                longitude: 11.5811,
                description: "Inside the main entrance, by the staffed desk.",
                hours: "Mon–Sat 8–22"
            ),
            SafeSpotRequest(
                name: "Campus police",
                latitude: 48.1497,
                longitude: 11.5792,
                description: "Geschwister-Scholl-Platz, ground floor.",
                hours: "Always open"
            ),
            SafeSpotRequest(
                name: "Emergency telephone, Ludwigstraße",
                latitude: 48.1515,
                longitude: 11.5800,
                description: "The blue light pole by the fountain.",
                hours: "Always lit"
            ),
        ] {
            _ = try await services.market.addSafeSpot(campus: campus.id, spot)
        }
        try await seedListings(services, now: now)
    }

    /// Ella (who logs in as `DemoData.student`) and Finn (who cannot) and their listings, each with a small drawing of the thing; Ella's second
    /// textbook sells by bidding over the next three days.
    static func seedListings(_ services: PlazaServices, now: Date) async throws {
        let ella = try await student(services, student.username, "Ella Park", password: student.password, now: now)
        let finn = try await student(services, "finn", "Finn Weber", now: now)
        let items: [(Identity, String, String, Int64?, String, ListingCondition, String, BiddingTerms?)] = [
            (
                ella, "Linear Algebra Done Right",
                "Third edition, no highlighting. Bought for Math 2 and barely opened.", 2_200, "textbooks",
                .likeNew, book, nil
            ),
            (
                ella, "Wooden desk chair", "Solid beech, a bit wobbly on the left; fine with a folded napkin.", nil,
                "furniture", .fair, chair, nil
            ),
            (
                ella, "Desk lamp", "Warm light, bendy neck, cable 1.5 m. Pick up at the library lobby.", 900,
                "dorm_supplies", .good, lamp, nil
            ),
            (
                ella, "Calculus: Early Transcendentals",
                "Eighth edition with the solutions manual. Highest bid by Sunday evening takes both.",
                1_500, "textbooks", .good, book,
                BiddingTerms(reservePrice: 2_500, endsAt: now.addingTimeInterval(3 * 86_400))
            ),
            (
                finn, "Two folding chairs", "Light, sturdy, fold flat under the bed. For guests or the balcony.", 1_200,
                "furniture", .good, chair, nil
            ),
        ]
        for (seller, title, description, price, category, condition, picture, bidding) in items {
            guard let data = Data(base64Encoded: picture) else { continue }
            let photo = try await services.media.upload(seller, data, contentType: "image/jpeg", now: now)
            _ = try await services.market.createListing(
                seller,
                ListingRequest(
                    title: title,
                    description: description,
                    price: price.map { Money(amount: $0, currency: "USD") },
                    free: price == nil ? true : nil,
                    category: category,
                    condition: condition,
                    photoIds: [photo.id],
                    biddable: bidding
                ),
                now: now
            )
        }
    }

    /// A verified student of Isar University who signed the agreement, with `password` (else one nobody knows).
    private static func student(
        _ services: PlazaServices,
        _ username: String,
        _ name: String,
        password: String? = nil,
        now: Date
    ) async throws -> Identity {
        _ = try await services.createAccount(
            email: "\(username)@demo.plaza.test",
            username: username,
            displayName: name,
            password: password ?? UUID().uuidString + UUID().uuidString,
            role: .customer,
            checkPolicy: false
        )
        guard let user = try await AccountStore().user(login: username, on: services.database.sql) else {
            // The operator reads this at the terminal, in English (a demo seed gone wrong).
            var missing = PlazaError.notFound()
            missing.title = "No such demo student \(username)."
            throw missing
        }
        let identity = Identity(user: user, sessionID: UUID())
        try await services.market.enroll(identity, email: "\(username)@isar-uni.edu", now: now)
        return identity
    }

    private static let book =
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABIMDRANCxIQDhAUExIVGywdGxgYGzYnKSAsQDlEQz85Pj1HUGZXR0thTT0+WXlaYWltcnNyRVV9hnxvhWZwcm7/2wBDARMUFBsXGzQdHTRuST5Jbm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm7/wAARCADwAUADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDq6KKKgYUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUVznjD/l0/4H/7LXN10Qoc0b3M5VLO1j0eivOKKv6t5k+18j0eivOKKPq3mHtfI9Horziij6t5h7XyPR6K84oo+reYe18j0eivOKKPq3mHtfI9Horziij6t5h7XyPR6K84rb8J/wDITk/64n/0JamVDlV7jVS7tY6yiiiuY1CiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooA5zxh/y6f8D/APZa5uuk8Yf8un/A/wD2WsXTbT7ffR22/wAvfn5sZxgE9PwrvpNKndnPNXkVaK6X/hEf+n3/AMhf/Xo/4RH/AKff/IX/ANel9Yp9w9nLsc1RXS/8Ij/0+/8AkL/69H/CI/8AT7/5C/8Ar0fWKfcPZy7HNUV0v/CI/wDT7/5C/wDr0f8ACI/9Pv8A5C/+vR9Yp9w9nLsc1RXS/wDCI/8AT7/5C/8Ar0f8Ij/0+/8AkL/69H1in3D2cuxzVFdL/wAIj/0+/wDkL/69H/CI/wDT7/5C/wDr0fWKfcPZy7HNUV0v/CI/9Pv/AJC/+vR/wiP/AE+/+Qv/AK9H1in3D2cuxzVbfhP/AJCcn/XE/wDoS1S1fTv7Mulh83zdyB87cdyPX2q74T/5Ccn/AFxP/oS1U2pU20KKtKzOsooorzzpCiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooA5zxh/y6f8D/8AZazvDn/Ict/+Bf8AoJrR8Yf8un/A/wD2Ws7w5/yHLf8A4F/6Ca7Y/wAF+jMH/EO2ooorzjpCiiigAooooAKKKKACiiigAooooA5Lxd/yE4/+uI/9Cak8J/8AITk/64n/ANCWl8Xf8hOP/riP/QmpPCf/ACE5P+uJ/wDQlr0F/BOb/l4dZRRRXGbhRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAc54w/5dP8Agf8A7LWd4c/5Dlv/AMC/9BNaPjD/AJdP+B/+y1hWV29jdJcRBS6ZwG6cjH9a7oK9Ky8znk7TuehUVyX/AAlV7/zyt/8Avlv8aP8AhKr3/nlb/wDfLf41y/Vpm3tYnW0VyX/CVXv/ADyt/wDvlv8AGj/hKr3/AJ5W/wD3y3+NH1aYe1idbRXJf8JVe/8APK3/AO+W/wAaP+Eqvf8Anlb/APfLf40fVph7WJ1tFcl/wlV7/wA8rf8A75b/ABo/4Sq9/wCeVv8A98t/jR9WmHtYnW0VyX/CVXv/ADyt/wDvlv8AGj/hKr3/AJ5W/wD3y3+NH1aYe1idbRXJf8JVe/8APK3/AO+W/wAaP+Eqvf8Anlb/APfLf40fVph7WIeLv+QnH/1xH/oTUnhP/kJyf9cT/wChLWfqOoS6lOs0yorKu3CAgYyT3PvWh4T/AOQnJ/1xP/oS11OLjSszFO87nWUUUVwnQFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQBznjD/l0/4H/7LXN10njD/l0/4H/7LXN16FH4Ec1T4mFFFFakBRRRQAUUUUAFFFFABRRRQAUUUUAFbfhP/kJyf9cT/wChLWJW34T/AOQnJ/1xP/oS1nV+BlQ+JHWUUUV5x1BRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAc54w/5dP+B/+y1zddJ4w/5dP+B/+y1zdehR+BHNU+JhRRRWpAUUUUAFFFFABRRRQAUUUUAFFFFABW34T/5Ccn/XE/8AoS1iVt+E/wDkJyf9cT/6EtZ1fgZUPiR1lFFFecdQUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFAHOeMP+XT/gf/stc3XSeMP+XT/gf/stc3XoUfgRzVPiYUUUVqQFFFFABRRRQAUUUUAFFFFABRRRQAVt+E/+QnJ/1xP/AKEtYlbfhP8A5Ccn/XE/+hLWdX4GVD4kdZRRRXnHUFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQBznjD/l0/4H/7LXN10njD/l0/4H/7LXN16FH4Ec1T4mFFFFakBRRRQAUUUUAFFFFABRRRQAUUUUAFbfhP/kJyf9cT/wChLWJW34T/AOQnJ/1xP/oS1nV+BlQ+JHWUUUV5x1BRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAc54w/5dP+B/+y1zddJ4w/5dP+B/+y1zdehR+BHNU+JhRRRWpAUUUUAFFFFABRRRQAUUUUAFFFFABW34T/5Ccn/XE/8AoS1iVt+E/wDkJyf9cT/6EtZ1fgZUPiR1lFFFecdQUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFAHOeMP+XT/gf/stc3XSeMP+XT/gf/stc3XoUfgRzVPiYUUUVqQFFFFABRRRQAUUUUAFFFFABRRRQAVt+E/+QnJ/1xP/AKEtYlbfhP8A5Ccn/XE/+hLWdX4GVD4kdZRRRXnHUFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQBznjD/l0/4H/7LXN16HNbw3GPPhjk29N6g4/Oov7Osv8Anzt/+/S/4V0wrKMbWMpU23c4Giu+/s6y/wCfO3/79L/hR/Z1l/z52/8A36X/AAq/rC7E+yZwNFd9/Z1l/wA+dv8A9+l/wo/s6y/587f/AL9L/hR9YXYPZM4Giu+/s6y/587f/v0v+FH9nWX/AD52/wD36X/Cj6wuweyZwNFd9/Z1l/z52/8A36X/AAo/s6y/587f/v0v+FH1hdg9kzgaK77+zrL/AJ87f/v0v+FH9nWX/Pnb/wDfpf8ACj6wuweyZwNFd9/Z1l/z52//AH6X/Cj+zrL/AJ87f/v0v+FH1hdg9kzga2/Cf/ITk/64n/0Ja6P+zrL/AJ87f/v0v+FSQ2lvAxaGCKNiMZRADj8KmddSi1YqNNp3JaKKK5TUKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooA/9k="
    private static let chair =
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABIMDRANCxIQDhAUExIVGywdGxgYGzYnKSAsQDlEQz85Pj1HUGZXR0thTT0+WXlaYWltcnNyRVV9hnxvhWZwcm7/2wBDARMUFBsXGzQdHTRuST5Jbm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm7/wAARCADwAUADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDraKKKYgooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiioL65+yWjz7N+3Hy5xnJxQ3bUEr6E9FYf/AAkf/Tr/AORP/rUf8JH/ANOv/kT/AOtWftYdzT2U+xuUVh/8JH/06/8AkT/61H/CR/8ATr/5E/8ArUe1h3D2U+xuUVh/8JH/ANOv/kT/AOtR/wAJH/06/wDkT/61HtYdw9lPsblFYf8Awkf/AE6/+RP/AK1H/CR/9Ov/AJE/+tR7WHcPZT7G5RWH/wAJH/06/wDkT/61H/CR/wDTr/5E/wDrUe1h3D2U+xuUVh/8JH/06/8AkT/61H/CR/8ATr/5E/8ArUe1h3D2U+xuUVU029+327S+X5eG243Z7D/GrdaJ3V0ZtWdmFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFUdb/wCQVN/wH/0IVeqjrf8AyCpv+A/+hCpn8LKh8SOUooorhO0KKKKACiiigAooooAKKKKACiiigDpPDn/Hg/8A11P8hWrWV4c/48H/AOup/kK1a7afwo46nxMKKKKsgKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAqjrf/IKm/wCA/wDoQq9VHW/+QVN/wH/0IVM/hZUPiRylFFFcJ2hRRRQAUUUUAFFFFABRRRQAUUUUAdJ4c/48H/66n+QrVrK8Of8AHg//AF1P8hWrXbT+FHHU+JhRRRVkBRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFUdb/AOQVN/wH/wBCFXqo63/yCpv+A/8AoQqZ/CyofEjlKKKK4TtCiiigAooooAKKKKACiiigAooooA6Tw5/x4P8A9dT/ACFatZXhz/jwf/rqf5CtWu2n8KOOp8TCiiirICiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKo63/wAgqb/gP/oQq9VHW/8AkFTf8B/9CFTP4WVD4kcpRRRXCdoUUUUAFFFFABRRRQAUUUUAFFFFAHSeHP8Ajwf/AK6n+QrVrK8Of8eD/wDXU/yFatdtP4UcdT4mFFFFWQFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAVn6+SNHnI6/L/6EK0KzvEH/ACBp/wDgP/oQpS+Fjj8SOQ8x/WjzH9abRXGdg7zH9aPMf1ptFADvMf1o8x/Wm0UAO8x/WjzH9abRQA7zH9aPMf1ptFADvMf1o8x/Wm0UAdV4XYtp0hP/AD1P8hWxWN4V/wCQbJ/12P8AIVs11w+FHJP4mFFFFUSFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAVQ1yN5dJnSNGdztwqjJPzCr9FDV1YE7O5515i+tW/7PvP+fSf/AL9n/Cs2vTK54wUjolNxOF/s+8/59J/+/Z/wo/s+8/59J/8Av2f8K7qir9ku5HtX2OF/s+8/59J/+/Z/wo/s+8/59J/+/Z/wruqKPZLuHtX2OF/s+8/59J/+/Z/wo/s+8/59J/8Av2f8K7qij2S7h7V9jhf7PvP+fSf/AL9n/Cj+z7z/AJ9J/wDv2f8ACu6oo9ku4e1fY4X+z7z/AJ9J/wDv2f8ACq8oMMhjlVkcdVYEEV6FXDeJP+Q7c/8AAf8A0EVEqaii41HJnQ+Fgf7LZsEBpSQSOowB/Q1sVmeG/wDkBW3/AAL/ANCNadbR2RjLVsKKKKokKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooA8zr0yvM69MrKl1NavQKKKK1MgooooAKKKKACiiigArhvEn/Iduf+A/8AoIrua4bxJ/yHbn/gP/oIrOpsaU9zpvDf/ICtv+Bf+hGtOszw3/yArb/gX/oRrTq47IiW7CiiimIKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooA8zr0yvM69MrKl1NavQKKKK1MgooooAKKKKACiiigArhvEn/Iduf8AgP8A6CK7muG8Sf8AIduf+A/+gis6mxpT3Om8N/8AICtv+Bf+hGtOszw3/wAgK2/4F/6Ea06uOyIluwooopiCiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKAPM69MrzOvTKypdTWr0CiiitTIKKKKACiiigAooooAK4bxJ/yHbn/gP/oIrua4bxJ/yHbn/gP/AKCKzqbGlPc6bw3/AMgK2/4F/wChGtOszw3/AMgK2/4F/wChGtOrjsiJbsKKKKYgooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigDD/4ROx/563P/AH0v+FblFFJJLYbbe4UUUUxBRRRQAUUUUAFFFFABWVfeHrW+u3uJZJg74yFYY4GPT2rVooaT3BNrYgsbRLG0S3iLFEzgseeTn+tT0UUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQB//9k="
    private static let lamp =
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABIMDRANCxIQDhAUExIVGywdGxgYGzYnKSAsQDlEQz85Pj1HUGZXR0thTT0+WXlaYWltcnNyRVV9hnxvhWZwcm7/2wBDARMUFBsXGzQdHTRuST5Jbm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm7/wAARCADwAUADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDq6KKKxLCiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiikbO07QCccAnFAC0Viz69JC7xvabJF4wz5wfy5qs2v3ZUgLEpI6hTx+tTzo6FhqjOjorlW1e+ZSpnOCMcKB/SoGvLllKtcSkEYILnmlzotYSXVnYMwVSzEAAZJPalrjLaMTXMUbZAdwpx7muzpxlcyrUvZ2V7hRRRVGIUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAUtT05L6PIwsyj5W/ofauXlieGRo5VKupwQa6bUdXtdPVg7h5gOIlPOff06965ibUbjVdQXKDDHCoq5Kj8Bk46/nSdNy1R00MRye7LYSinSxPDI0cqlXU4INNrA9Lct6TGJdTgVs4DbuPYZ/pXWVzXh+MPqO45yiFhj8v610taw2POxbvOwUUUVZyhRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFZGqeILey3xQ/vbhcjA+6p9z/h6dqaVwNSeaO3haWZwkaDJY1zOqeJnk3w2I2IcjzT94j1Hp3/APrVmu99rV5gbpXOWCA4VB7Z4A6V0Gl+HIbbEl5tml5+Xqg/Ajk/4/jV2UdydzF03RrrVG852KRMSTM/JY+w6nnv9a6rT9MttOTbAmWOcyNgsfbPpVuipcmxpFLU9OS+jyMLMo+Vv6H2rl5YnhkaOVSrqcEGu1qlqenJfR5GFmUfK39D7VlKN9UddCvye7LYzvDUYM08nOVUKPx//VW9WVoFs0EU/mKyyb9rKe2Bn+tatOOxniHeowoooqjEKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigDnfFWoSxFbOIsgdNzkEfMCSMdM9vXuapaR4ekvFWe5JigYZAH329D7D/PfNWvGKqGtGCjcQ4JxyQMY/ma1PDzM+iWxZiThhknsGIFaXtHQnqW7W1hs4fKt4wiZzgdz9amoorMoKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAwvF8amwhkI+dZdoPsQc/yFSeFJGfSirHISUqvsMA/wAyaf4niWTRnZicxMrDHrnH9TVTwfKxguYSBtRlYHvkjB/9BFX9kXU6GiiioGFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAUdbh8/R7lN23Cb84z93n+lYng+bbdXEO376B856YOP/Zv0ro7yJp7OeFCA0kbKCemSMVynhWVY9X2sDmWNlGPXg/0NWvhYnudjRRRUDCiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACuI0X/RdehSf5WV2jI64bBGOPeu3riJP3PiYmX5ALvcS3GBuzn6Y5q4dRM7eiiioGFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFcR4j/AOQ5cf8AAf8A0EV29cl4u/5Ccf8A1xH/AKE1XDcTOtoqtpn/ACDLT/rin/oIqzUDCiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKo3OsWNrO0M8+2RcZGxjjjPYVH/wkGmf8/P/AJDb/CnZgaVc14xVQ1owUbiHBOOSBjH8zWn/AMJBpn/Pz/5Db/CsjxHqFjf2sX2eXzJkf+6wwpHPUeoFVFNMTNjw8zPolsWYk4YZJ7BiBWjXN+H9YtrXTvJu59rK52DYThevYeua0v8AhINM/wCfn/yG3+FJp3BM0qKzf+Eg0z/n5/8AIbf4U6LXNOmlSOO4y7sFUbG5J/ClZjuaFFFFIAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigDiPEf8AyHLj/gP/AKCKza6DWtHvrrVZpoIN0bbcHeoz8oHc1R/4R/U/+fb/AMiL/jWyasQZtFaX/CP6n/z7f+RF/wAaP+Ef1P8A59v/ACIv+NO6Cxm0Vpf8I/qf/Pt/5EX/ABo/4R/U/wDn2/8AIi/40XQWM2rOmf8AITtP+uyf+hCrP/CP6n/z7f8AkRf8ansdD1GG/t5JLfCJKrMd68AH60NoLHYUUUVgWFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQAUUUUAFFFFABRRRQB/9k="
}
