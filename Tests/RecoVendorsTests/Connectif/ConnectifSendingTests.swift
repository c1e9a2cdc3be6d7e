import Foundation
import Testing
@testable import RecoVendors

@Suite("Connectif sending")
struct ConnectifSendingTests {
    actor Outcome {
        var successes = 0
        var errors: [ConnectifError] = []
        func succeeded() { successes += 1 }
        func failed(_ error: ConnectifError) { errors.append(error) }
    }

    @Test func aValidPurchaseIsSentWithItsContext() async throws {
        let sender = RecordingConnectifSender()
        let connectif = Connectif(sender: sender, context: ConnectifFixtures.context)
        let result = await connectif.sendPurchase(ConnectifFixtures.purchase)
        #expect(throws: Never.self) { try result.get() }
        let sent = await sender.sent
        #expect(sent.map(\.purchase) == [ConnectifFixtures.purchase])
        #expect(sent.map(\.context) == [ConnectifFixtures.context])
    }

    @Test func anInvalidPurchaseIsRefusedBeforeSending() async {
        let sender = RecordingConnectifSender()
        var purchase = ConnectifFixtures.purchase
        purchase.products[0].quantity = 0
        let result = await Connectif(sender: sender, context: ConnectifFixtures.context).sendPurchase(purchase)
        guard case .failure(let error) = result else { Issue.record("sent an invalid purchase"); return }
        #expect(error.field == "totalQuantity" || error.field == "products[0].quantity")
        #expect(await sender.sent.isEmpty)
    }

    @Test func callbacksReportSuccessAndError() async {
        let sender = RecordingConnectifSender()
        let connectif = Connectif(sender: sender, context: ConnectifFixtures.context)
        let outcome = Outcome()
        let callbacks = EventCallbacks(onSuccess: { await outcome.succeeded() }, onError: { await outcome.failed($0) })
        await connectif.sendPurchase(ConnectifFixtures.purchase, callbacks: callbacks)
        await sender.failNext(.sendFailed("HTTP 503"))
        await connectif.sendPurchase(ConnectifFixtures.purchase, callbacks: callbacks)
        var invalid = ConnectifFixtures.purchase
        invalid.cartId = ""
        await connectif.sendPurchase(invalid, callbacks: callbacks)
        #expect(await outcome.successes == 1)
        #expect(await outcome.errors.map(\.kind) == [.sendFailed, .missingField])
        #expect(await outcome.errors.first?.description == "the event was not delivered: HTTP 503")
    }

    @Test func theContextIsCollectedForAServer() {
        let context = EventContext.collected(appVersion: "2.4.1")
        #expect(context.appVersion == "2.4.1")
        #expect(context.toolkitVersion == EventContext.toolkitVersion)
        #expect(!context.osVersion.isEmpty)
        #if os(Linux)
        #expect(context.platform == "Linux")
        #elseif os(macOS)
        #expect(context.platform == "macOS")
        #endif
    }
}
