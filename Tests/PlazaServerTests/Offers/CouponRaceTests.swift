import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// One coupon under races (issue 36): held by one charge however many name it at once, redeemed only when that
/// charge is paid and the customer's again when it is not.
extension CouponChargeTests {
    @Test(arguments: TestEngine.enabled)
    func twoCountersNamingOneCouponAtOnceDiscountOneCharge(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (shop, _, anna, claim) = try await claimed(client, services)
            let wallet = WalletDriver(client)
            async let first = wallet.charge(
                business: shop.business,
                customer: "anna",
                1_200,
                coupon: claim.code,
                token: shop.owner
            )
            async let second = wallet.charge(
                business: shop.business,
                customer: "anna",
                900,
                coupon: claim.qrPayload,
                token: shop.owner
            )
            let answers = try await [first, second]
            #expect(answers.filter { $0.status == .created }.count == 1, "\(answers.map(\.text))")
            #expect(answers.filter { $0.problem?.code == .invalidCoupon }.count == 1)

            // The customer applies it from two screens to two charges waiting for them: one takes it.
            let winner = try #require(answers.first { $0.status == .created }).decode(Charge.self)
            #expect(
                try await wallet.end(winner, "decline", token: anna).status == .ok,
                "declined: the coupon is free again"
            )
            let charges = try await [1_000, 1_100].asyncMap {
                try await wallet.charge(business: shop.business, customer: "anna", Int64($0), token: shop.owner).decode(
                    Charge.self
                )
            }
            async let applyFirst = client.send(
                .post,
                "/v1/charges/\(charges[0].id)/coupon",
                json: ApplyCouponRequest(claimId: claim.id),
                token: anna
            )
            async let applySecond = client.send(
                .post,
                "/v1/charges/\(charges[1].id)/coupon",
                json: ApplyCouponRequest(claimId: claim.id),
                token: anna
            )
            let applied = try await [applyFirst, applySecond]
            #expect(applied.filter { $0.status == .ok }.count == 1, "\(applied.map(\.text))")
            #expect(applied.filter { $0.problem?.code == .invalidCoupon }.count == 1)
            let discounted = try await charges.asyncMap {
                try await client.send(.get, "/v1/charges/\($0.id)", token: anna).decode(Charge.self)
            }
            #expect(discounted.filter { $0.discount?.claimId == claim.id }.count == 1)
            #expect(try await services.verify().findings == [])
        }
    }

    /// Paying a charge with a coupon while the counter cancels it: paid, the coupon is redeemed with the payment;
    /// cancelled, it is the customer's again, to use on the next charge.
    @Test(arguments: TestEngine.enabled)
    func payingRacingACancelRedeemsTheCouponOnlyWithThePayment(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (shop, _, anna, claim) = try await claimed(client, services)
            let wallet = WalletDriver(client)
            var paid: Int64 = 0
            for _ in 0..<6 {
                let created = try await wallet.charge(
                    business: shop.business,
                    customer: "anna",
                    1_200,
                    coupon: claim.code,
                    token: shop.owner
                )
                guard created.status == .created else {
                    #expect(
                        created.problem?.code == .invalidCoupon,
                        "only once the coupon was redeemed: \(created.text)"
                    )
                    break
                }
                let charge = try created.decode(Charge.self)
                async let approve = wallet.approve(charge, token: anna)
                async let cancel = wallet.end(charge, "cancel", token: shop.owner)
                let (approved, cancelled) = try await (approve, cancel)
                #expect([approved.status, cancelled.status].filter { $0 == .ok }.count == 1)
                if approved.status == .ok { paid += charge.amount }
            }
            #expect(try await wallet.balance(token: anna) == 5_000 - paid)
            #expect(paid <= 1_080, "the coupon paid at most one charge")
            #expect(try await services.verify().findings == [])
        }
    }
}
