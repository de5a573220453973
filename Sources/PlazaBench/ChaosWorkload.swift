import Foundation

extension ChaosBench {
    /// One item of the workload, of whichever domain: each counts as one operation.
    enum Work: Sendable {
        case transfer(Operation)
        case deal(ChaosDeal)
        case order(ChaosOrder)
        case coupon(ChaosCoupon)
        case charge(ChaosCharge)
        case punchCard(ChaosPunchCard)
        case auction(ChaosAuction)

        var deal: ChaosDeal? { if case .deal(let deal) = self { deal } else { nil } }
        var order: ChaosOrder? { if case .order(let order) = self { order } else { nil } }
        var coupon: ChaosCoupon? { if case .coupon(let round) = self { round } else { nil } }
        var charge: ChaosCharge? { if case .charge(let charge) = self { charge } else { nil } }
        var punchCard: ChaosPunchCard? { if case .punchCard(let card) = self { card } else { nil } }
        var auction: ChaosAuction? { if case .auction(let auction) = self { auction } else { nil } }
    }

    /// The seeded workload: rings of three transfers between market deals, mixed so that every domain's conflicts run
    /// beside each other (the same seed, the same items in the same order).
    static func workload(_ options: Options, accounts: Int) -> [Work] {
        var random = BenchRandom(seed: options.seed)
        var work: [Work] = []
        var (deals, orders, rounds, claimers, charges, cards, auctions) = (0, 0, 0, 0, 0, 0, 0)
        while work.count < options.operations {
            let pick = random.next() % 100
            if pick < 25 {
                // About one item in eight: a deal between two of the people.
                let seller = Int(random.next() % UInt64(accounts))
                let buyer = (seller + 1 + Int(random.next() % UInt64(accounts - 1))) % accounts
                let race = ChaosDeal.Race.allCases[Int(random.next() % UInt64(ChaosDeal.Race.allCases.count))]
                work.append(
                    .deal(
                        ChaosDeal(
                            number: deals,
                            seller: seller,
                            buyer: buyer,
                            amount: Int64(100 + random.next() % 800),
                            race: race,
                            sellerCancels: random.next() % 2 == 0,
                            payStyle: style(&random, oneIn: 2),
                            key: random.uuid().uuidString
                        )
                    )
                )
                deals += 1
                continue
            }
            if pick < 35 {
                // About one item in twenty-five: a card order, its shopper a person of its own after the `accounts`.
                let race = ChaosOrder.Race.allCases[Int(random.next() % UInt64(ChaosOrder.Race.allCases.count))]
                work.append(
                    .order(
                        ChaosOrder(
                            number: orders,
                            shopper: accounts + orders,
                            quantity: 1 + Int(random.next() % 20),
                            race: race,
                            payStyle: style(&random, oneIn: 2),
                            keys: (0..<4).map { _ in random.uuid().uuidString }
                        )
                    )
                )
                orders += 1
                continue
            }
            if pick < 38 {
                // About one item in forty: a round of claims, four to seven claimers for three coupons; numbered among the
                // claimers here, placed after the shoppers below.
                let count = 4 + Int(random.next() % 4)
                let twice = (0..<count).map { _ in random.next() % 3 == 0 }
                work.append(
                    .coupon(ChaosCoupon(number: rounds, claimers: Array(claimers..<(claimers + count)), twice: twice))
                )
                (rounds, claimers) = (rounds + 1, claimers + count)
                continue
            }
            if pick < 48 {
                // About one item in ten: a charge at the counter, its approval racing a cancel, a decline or a second
                // device, then refunds racing each other.
                let race = ChaosCharge.Race.allCases[Int(random.next() % UInt64(ChaosCharge.Race.allCases.count))]
                work.append(
                    .charge(
                        ChaosCharge(
                            number: charges,
                            customer: Int(random.next() % UInt64(accounts)),
                            amount: Int64(100 + random.next() % 900),
                            race: race,
                            payStyle: style(&random, oneIn: 2),
                            refunds: Int(random.next() % 4),
                            refundStyle: style(&random, oneIn: 3),
                            keys: (0..<6).map { _ in random.uuid().uuidString }
                        )
                    )
                )
                charges += 1
                continue
            }
            if pick < 52 {
                // About one item in twenty-five: a loyalty card punched full by counters scanning each code twice at once,
                // then redeemed by two counters at once.
                let keys = (0..<(2 * ChaosShop.punchesRequired + 2)).map { _ in random.uuid().uuidString }
                work.append(
                    .punchCard(
                        ChaosPunchCard(
                            number: cards,
                            holder: Int(random.next() % UInt64(accounts)),
                            keys: keys,
                            redeemStyle: style(&random, oneIn: 2)
                        )
                    )
                )
                cards += 1
                continue
            }
            if pick < 55 {
                // About one item in thirty: three or four bidders at once on an auction the run closes meanwhile.
                let people = (0..<accounts).shuffled(using: &random).prefix(4 + Int(random.next() % 2))
                let (seller, bidders) = (people.first!, Array(people.dropFirst()))
                let maxima = (0..<bidders.count).map { Int64(1_200 + 150 * $0) }.shuffled(using: &random)
                work.append(
                    .auction(
                        ChaosAuction(
                            number: auctions,
                            seller: seller,
                            bidders: bidders,
                            maxima: maxima,
                            styles: bidders.map { _ in style(&random, oneIn: 2) },
                            keys: bidders.map { _ in random.uuid().uuidString },
                            closeAfter: Int(random.next() % 300)
                        )
                    )
                )
                auctions += 1
                continue
            }
            // A ring of three: each pays the next, so money goes round in a cycle.
            let ring = (0..<3).map { _ in Int(random.next() % UInt64(accounts)) }
            guard Set(ring).count == 3 else { continue }
            for step in 0..<3 where work.count < options.operations {
                work.append(
                    .transfer(
                        Operation(
                            from: ring[step],
                            to: ring[(step + 1) % 3],
                            amount: Int64(1 + random.next() % 900),
                            key: random.uuid().uuidString,
                            style: style(&random, oneIn: 10)
                        )
                    )
                )
            }
        }
        // Each shopper and claimer a person of their own, after the `accounts`: shoppers first, then claimers.
        return work.map { item in
            guard case .coupon(var round) = item else { return item }
            round.claimers = round.claimers.map { accounts + orders + $0 }
            return .coupon(round)
        }
    }

    /// Sent once, or (one time in `n` each) twice at once or again later.
    static func style(_ random: inout BenchRandom, oneIn n: UInt64) -> Operation.Style {
        let roll = random.next() % (2 * n)
        return roll == 0 ? .twice : roll == 1 ? .againLater : .once
    }
}
