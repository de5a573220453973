import Foundation
import PlazaCore

/// A page of the feed is 20 listings of some 30 values each: Foundation's encoder spent more on it than the search
/// did (`plaza bench json`). These write the same bytes (`JSONWriterTests` compares them with Foundation's).
extension Listing: JSONWritable {
    package func write(to json: inout JSONWriter) {
        json.object { json in
            if let bidding {
                json.key("bidding")
                bidding.write(to: &json)
            }
            json.member("category", category)
            json.member("condition", condition.rawValue)
            json.key("createdAt")
            json.date(createdAt)
            json.member("description", description)
            json.key("free")
            json.bool(free)
            json.key("id")
            json.uuid(id)
            json.key("photos")
            json.array(photos) { json, photo in photo.write(to: &json) }
            if let price {
                json.key("price")
                price.write(to: &json)
            }
            json.key("seller")
            seller.write(to: &json)
            json.member("soldTo", soldTo)
            json.member("state", state.rawValue)
            json.member("title", title)
            json.key("updatedAt")
            json.date(updatedAt)
        }
    }
}

extension ListingPhoto: JSONWritable {
    package func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("id")
            json.uuid(id)
            json.member("thumbnailUrl", thumbnailUrl)
            json.member("url", url)
        }
    }
}

extension ListingSeller: JSONWritable {
    package func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("displayName", displayName)
            if let memberSince {
                json.key("memberSince")
                json.date(memberSince)
            }
            if let rating {
                json.key("rating")
                rating.write(to: &json)
            }
            if let sales {
                json.key("sales")
                json.integer(sales)
            }
            json.member("username", username)
        }
    }
}

extension RatingSummary: JSONWritable {
    package func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("average")
            if let average { json.double(average) } else { json.null() }
            json.key("count")
            json.integer(count)
        }
    }
}

extension Bidding: JSONWritable {
    package func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("bidCount")
            json.integer(bidCount)
            json.key("closed")
            json.bool(closed)
            json.key("currentPrice")
            json.integer(currentPrice)
            json.key("endsAt")
            json.date(endsAt)
            json.key("leading")
            json.bool(leading)
            json.key("minimumBid")
            json.integer(minimumBid)
            json.key("reserveMet")
            json.bool(reserveMet)
        }
    }
}
