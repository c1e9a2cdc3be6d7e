import Foundation
import Testing
import RecoKitTesting

extension RelayProcessSuite {
    /// `recokit relay`, a real process, against a vendor that fails as networks do (`FaultyVendor`: the
    /// connection closed before a reply or reset before the request is whole, a 503, a reply cut short,
    /// no reply, a reply that trickles without end, each met first, then as the seed picks): every line
    /// is acknowledged, every acknowledged event reaches the vendor before the deadline, none is
    /// dead-lettered, and the run exits 0. The relay gives a request up after `--request-timeout 1`, so
    /// no reply and the trickle cost a second each. The web page (a wrong address: the relay waits 60 s
    /// before the next try) is met by `TransportFaultTests`, on the same tracker and transport.
    @Suite("A relay against a vendor that fails as networks do", .serialized)
    struct RelayTransportFaultTests {
        static let faults: [FaultyVendor.Answer] = [.closeBeforeReply, .resetBeforeWholeRequest, .unavailable, .cutShort, .noReply, .endlessTrickle]

        @Test(arguments: ["segmentify", "reteno"])
        func everyAcknowledgedLineIsDelivered(_ vendorName: String) async throws {
            let seed = ProcessInfo.processInfo.environment["RECOKIT_TRANSPORT_FAULT_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
            print("RelayTransportFaultTests \(vendorName) seed: \(seed) (RECOKIT_TRANSPORT_FAULT_SEED=\(seed) replays it)")
            let vendor = try FaultyVendor(seed: seed, successPercent: 70, faults: Self.faults, faultsFirst: true)
            defer { vendor.stop() }
            let directory = Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let relay = try RelayProcess(["relay", "--journal", directory.path, "--vendor", vendorName, "--endpoint", vendor.baseURL.absoluteString,
                                          "--api-key", "secret-key", "--deadline", "120", "--request-timeout", "1"])
            relay.feed((1...400).map { #"{"type":"click","instanceId":"r1107v1482","productId":"P-\#($0)","position":3,"userId":"u1","sessionId":"s1"}"# })
            let status = relay.wait()
            let what = "seed \(seed), \(vendorName): \(vendor.answersInWords): \(relay.stderr.suffix(600))"
            #expect(relay.process.terminationReason == .exit && status == 0, "\(what)")
            #expect(relay.acknowledged.count == 400, "\(what)")
            #expect(relay.stderr.contains("relay: delivered 400, pending 0, dead-lettered 0, malformed 0"), "\(what)")
            let missing = vendor.unconfirmed(relay.acknowledged.values.flatMap { $0 })
            #expect(missing.isEmpty, "\(missing.count) acknowledged events never confirmed; \(what)")
            #expect(vendor.faultsNotMet.isEmpty, "\(what)")
            #expect(!relay.stderr.contains("secret-key") && !relay.stderr.contains("Error Domain"), "\(what)")
            print("RelayTransportFaultTests \(vendorName): \(vendor.answersInWords)")
        }
    }
}
