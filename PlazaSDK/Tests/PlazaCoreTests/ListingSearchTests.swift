import PlazaCore
import Testing

/// The terms both engines index and the clauses they match (issue 39): plain English stems, adjacent words joined.
@Suite struct ListingSearchTests {
    @Test func stemsAndTermsAreThoseBothEnginesIndex() {
        #expect(ListingSearch.stem("beanbags") == "beanbag")
        #expect(ListingSearch.stem("puppies") == "puppy")
        #expect(ListingSearch.stem("boxes") == "box")
        #expect(ListingSearch.stem("glasses") == "glass")
        #expect(ListingSearch.stem("running") == "run")
        #expect(ListingSearch.stem("painted") == "paint")
        #expect(ListingSearch.stem("selling") == "sell")
        #expect(ListingSearch.stem("calculus") == "calculus")
        #expect(ListingSearch.stem("speed") == "speed")
        #expect(ListingSearch.stem("3ds") == "3ds")
        #expect(ListingSearch.terms("Bean bags") == ["bean", "beanbags", "beanbag", "bags", "bag"])
        #expect(ListingSearch.clauses("bean bag") == [["bean"], ["bag", "beanbag"]])
        #expect(ListingSearch.clauses("calculus textbook") == [["calculus"], ["textbook", "calculustextbook"]])
    }

    @Test(arguments: ["beanbag", "beanbags", "bean bag", "bean ba"])
    func beanbagQueriesMatchEveryWayOfWritingIt(_ query: String) {
        for title in ["Beanbag", "Two beanbags", "Bean bag chair"] {
            #expect(ListingSearch.matches(ListingSearch.clauses(query), terms: ListingSearch.terms(title)), "\(title)")
        }
        #expect(!ListingSearch.matches(ListingSearch.clauses(query), terms: ListingSearch.terms("Green beans")))
    }
}
