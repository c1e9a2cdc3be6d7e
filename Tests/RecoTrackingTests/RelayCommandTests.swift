import Foundation
import Testing
import RecoKit

extension RelayProcessSuite {
    /// `recokit relay` and `recokit journal` as a user runs them.
    @Suite("recokit relay and recokit journal", .serialized)
    struct RelayCommandTests {
        /// A line that is not UTF-8 is refused, never repaired: `u\xFF` and `u\xFE` repaired to U+FFFD would
        /// reach the vendor as one visitor.
        @Test func aLineThatIsNotUTF8IsRefusedNotRepaired() async throws {
            let server = try await ScriptedServer.started()
            let directory = Fixtures.temporaryDirectory()
            defer {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
            }
            let relay = try RelayProcess(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint",
                                          server.base.absoluteString, "--api-key", "k", "--deadline", "20"])
            func line(_ user: [UInt8], _ product: String) -> [UInt8] {
                Array(#"{"type":"click","instanceId":"rec_pdp_1","productId":""#.utf8) + Array(product.utf8)
                    + Array(#"","sessionId":"s1","userId":""#.utf8) + user + Array("\"}\n".utf8)
            }
            let bytes = line(Array("u1".utf8), "P-1") + line([0x75, 0xFF], "P-2") + line([0x75, 0xFE], "P-3") + line(Array("u1".utf8), "P-4")
            relay.writeNow(bytes: bytes)
            relay.closeInput()
            #expect(relay.wait() == 1, "refused lines make a failing exit once the rest is delivered")
            #expect(relay.refused.keys.sorted() == [2, 3])
            // Counted from 1: the bytes before the user id (the line without its user id and its `"}\n` end), `u`, then the bad byte.
            let offset = (line([], "P-2").count - 3) + 2
            #expect(relay.refused[2] == "invalid UTF-8 at byte \(offset) of the line", "\(relay.refused)")
            #expect(relay.stderr.contains("relay: line 3: invalid UTF-8 at byte \(offset) of the line, skipped"))
            #expect(Set(try await server.received().map(\.product)) == ["P-1", "P-4"])
        }

        @Test func malformedLinesAreReportedWithTheirNumbersAndSkipped() async throws {
            let server = try await ScriptedServer.started()
            let directory = Fixtures.temporaryDirectory()
            defer {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
            }
            try await server.configure(bad: ["BAD-9"])
            let relay = try RelayProcess(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint",
                                          server.base.absoluteString, "--api-key", "k", "--deadline", "20"])
            var lines = (1...2500).map { #"{"type":"click","instanceId":"rec_pdp_1","productId":"P-\#($0)","userId":"u1","sessionId":"s1"}"# }
            lines[2] = #"{"type":"click","instanceId":"rec_pdp_1","productId":"P-3","userId":"u1""#
            lines[6] = #"{"type":"click","instanceId":"rec_pdp_1","productId":"P-7","sessionId":"s1"}"#
            lines[8] = #"{"type":"click","instanceId":"rec_pdp_1","productId":"BAD-9","userId":"u1","sessionId":"s1"}"#
            relay.feed(lines)
            #expect(relay.wait() == 1, "malformed lines make a failing exit once the rest is delivered")
            let stderr = relay.stderr
            #expect(stderr.contains("relay: line 3: invalid JSON"))
            #expect(stderr.contains("relay: line 7: invalid interaction: a click needs a non-empty userId"))
            #expect(stderr.contains("accepted 1000\n"))
            #expect(stderr.contains("accepted 2000\n"))
            #expect(stderr.contains("accepted 2498\n"))
            #expect(stderr.contains("relay: delivered 2497, pending 0, dead-lettered 1, malformed 2"))
            #expect(Set(try await server.received().map(\.product)).count == 2497)
            // One acknowledgement per line: 2,498 taken (BAD-9 too: the vendor refuses it later), 2 refused.
            #expect(relay.acknowledged.count == 2498)
            #expect(relay.refused.keys.sorted() == [3, 7])
            #expect(relay.refused[7] == "invalid interaction: a click needs a non-empty userId")

            let journal = try RelayProcess(["journal", directory.path])
            #expect(journal.wait() == 0)
            #expect(journal.stdout.hasPrefix("pending 0\ndead-lettered 1\n"))
            #expect(journal.stdout.contains("click rec_pdp_1 BAD-9: Segmentify BAD_INPUT"))
            try await server.configure(bad: [])
            let requeue = try RelayProcess(["journal", directory.path, "--requeue"])
            #expect(requeue.wait() == 0)
            #expect(requeue.stdout.hasPrefix("requeued 1 dead letters\npending 1\ndead-lettered 0\n"))
            let drain = try RelayProcess(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint",
                                          server.base.absoluteString, "--api-key", "k", "--drain"])
            #expect(drain.wait() == 0)
            #expect(drain.stderr.contains("relay: delivered 1, pending 0, dead-lettered 0"))
            #expect(try await server.received().contains { $0.product == "BAD-9" })
        }

        /// A line longer than the journal's largest record is counted, not kept, and refused with its
        /// number; the lines around it go through. Input without line ends used to grow one buffer
        /// until the process ran out of memory.
        @Test func aLineTooLongIsRefusedWithoutBeingKept() async throws {
            let server = try await ScriptedServer.started()
            let directory = Fixtures.temporaryDirectory()
            defer {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
            }
            let relay = try RelayProcess(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint",
                                          server.base.absoluteString, "--api-key", "k", "--deadline", "20"])
            let click = { (product: String) in #"{"type":"click","instanceId":"rec_pdp_1","productId":"\#(product)","userId":"u1","sessionId":"s1"}"# }
            let long = #"{"type":"click","instanceId":"rec_pdp_1","productId":""# + String(repeating: "x", count: 5 << 20) + #"","userId":"u1","sessionId":"s1"}"#
            let justTooLong = String(repeating: "y", count: (4 << 20) + 1)
            relay.feed([click("P-1"), long, click("P-3"), justTooLong])
            #expect(relay.wait() == 1, "refused lines make a failing exit once the rest is delivered")
            let length = long.utf8.count
            #expect(relay.stderr.contains("relay: line 2: a line of \(length) bytes, more than 4194304 (the journal's largest record), skipped"))
            #expect(relay.refused.keys.sorted() == [2, 4])
            #expect(relay.acknowledged.keys.sorted() == [1, 3])
            #expect(Set(try await server.received().map(\.product)) == ["P-1", "P-3"])
        }

        /// Each line is acknowledged on stdout once durable, in order, by a timer: a burst followed by
        /// silence (stdin still open) is acknowledged without a next line.
        @Test(arguments: ["strict", "batched"])
        func aBurstFollowedBySilenceIsAcknowledgedLineByLine(durability: String) async throws {
            let server = try await ScriptedServer.started()
            let directory = Fixtures.temporaryDirectory()
            defer {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
            }
            let relay = try RelayProcess(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint",
                                          server.base.absoluteString, "--api-key", "k", "--durability", durability, "--deadline", "20"])
            let click = #"{"name":"INTERACTION","type":"click","instanceId":"scn_1","interactionId":"318-KZ11","userId":"u1","sessionId":"s1"}"#
            relay.feed([
                #"{"type":"click","instanceId":"rec_pdp_1","productId":"P-1","userId":"u1","sessionId":"s1"}"#,  // 1
                #"{"type":"click","#,                                                                               // 2: malformed
                "",                                                                                                  // 3: blank, no answer
                #"{"type":"click","instanceId":"rec_pdp_1","productId":"P-4","userId":"u1","sessionId":"s1"}"#,  // 4
                "[" + click + "," + click.replacingOccurrences(of: "318-KZ11", with: "557-TR02") + "]",              // 5: two events
                #"{"type":"click","instanceId":"rec_pdp_1","productId":"P-6","userId":"u1"}"#,                      // 6: invalid
            ], keepOpen: true)
            let answered = await relay.waitUntil { $0.answeredCount == 5 }
            #expect(answered, "acknowledgements so far: \(relay.stdout)")
            #expect(relay.process.isRunning, "acknowledged while stdin is still open")
            let acknowledged = relay.acknowledged
            #expect(acknowledged.keys.sorted() == [1, 4, 5])
            #expect(acknowledged.values.map(\.count).sorted() == [1, 1, 2])
            #expect(relay.refused[2]?.hasPrefix("invalid JSON") == true, "\(relay.refused)")
            #expect(relay.refused[6] == "invalid interaction: a click needs a non-empty sessionId")
            let order = relay.stdout.split(separator: "\n").compactMap { line -> Int? in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["line"] as? Int
            }
            #expect(order == [1, 2, 4, 5, 6], "in input order")
            relay.closeInput()
            #expect(relay.wait() == 1)
            #expect(Set(try await server.received().map(\.id)) == Set(acknowledged.values.flatMap { $0 }))
        }

        @Test func acknowledgementsGoToTheAcksFileWhenOneIsNamed() async throws {
            let server = try await ScriptedServer.started()
            let directory = Fixtures.temporaryDirectory()
            defer {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
            }
            let acks = directory.appendingPathComponent("acks.jsonl")
            let relay = try RelayProcess(["relay", "--journal", directory.appendingPathComponent("journal").path, "--vendor", "reteno",
                                          "--endpoint", server.base.absoluteString, "--api-key", "k", "--acks", acks.path])
            relay.feed((1...3).map { #"{"type":"click","recomVariantId":"r1107v1482","productId":"P-\#($0)"}"# })
            #expect(relay.wait() == 0)
            #expect(relay.stdout.isEmpty)
            let lines = try String(contentsOf: acks, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 3)
            #expect(lines.allSatisfy { $0.hasPrefix("{\"line\":") && $0.contains("\"ids\":[\"") }, "\(lines)")
            #expect(lines.first?.hasPrefix("{\"line\":1,") == true)
        }

        @Test func segmentifyEventObjectsAndArraysAreRelayedWholeOrNotAtAll() async throws {
            let server = try await ScriptedServer.started()
            let directory = Fixtures.temporaryDirectory()
            defer {
                server.stop()
                try? FileManager.default.removeItem(at: directory)
            }
            let relay = try RelayProcess(["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint",
                                          server.base.absoluteString, "--api-key", "k", "--deadline", "20"])
            let view = #"{"name":"PRODUCT_VIEW","userId":"u1","sessionId":"s1","productId":"240-LV09","title":"Bag","url":"https://shop.example/p/240-LV09","image":"//cdn.shop.example/240.jpg","category":"Bags","price":129.9}"#
            let click = #"{"name":"INTERACTION","type":"click","instanceId":"scn_1","interactionId":"318-KZ11","userId":"u1","sessionId":"s1"}"#
            let badView = #"{"name":"PRODUCT_VIEW","userId":"u1","sessionId":"s1","productId":"557-TR02","title":"Belt","url":"https://shop.example/p/557","image":"//cdn.shop.example/557.jpg","category":"Belts","price":"abc"}"#
            relay.feed([
                view,                                                                               // 1: one event object
                "[" + click + "," + view.replacingOccurrences(of: "240-LV09", with: "100900") + "]", // 2: an array of two
                "[" + click.replacingOccurrences(of: "318-KZ11", with: "NOT-SENT") + "," + badView + "]", // 3: one bad event
                #"{"name":"PRODUCT_VEIW","userId":"u1","sessionId":"s1"}"#,                       // 4: unknown name
                #"{"type":"impression","instanceId":"scn_1","interactionId":"act_1","userId":"u1","sessionId":"s1"}"#, // 5: JSON-line form
            ])
            #expect(relay.wait() == 1)
            let stderr = relay.stderr
            #expect(stderr.contains("relay: line 3: event 2 of 2: productView.price: "), "\(stderr)")
            #expect(stderr.contains("relay: line 4: event.name: must be one of "), "\(stderr)")
            #expect(stderr.contains("relay: delivered 4, pending 0, dead-lettered 0, malformed 2"), "\(stderr)")
            let received = try await server.received()
            #expect(received.filter { $0.kind == "PRODUCT_VIEW" }.map(\.product).sorted() == ["100900", "240-LV09"])
            #expect(received.filter { $0.kind == "click" }.map(\.product) == ["318-KZ11"])
            #expect(received.filter { $0.kind == "impression" }.count == 1)
            #expect(!received.contains { $0.product == "NOT-SENT" || $0.product == "557-TR02" }, "a line is taken whole or not at all")

            let reteno = try RelayProcess(["relay", "--journal", directory.appendingPathComponent("reteno").path, "--vendor", "reteno",
                                           "--endpoint", server.base.absoluteString, "--api-key", "k", "--deadline", "5"])
            reteno.feed([view])
            #expect(reteno.wait() == 1)
            #expect(reteno.stderr.contains("relay: line 1: a Segmentify event object, but --vendor is reteno"))
        }
    }
}
