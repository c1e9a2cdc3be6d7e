import Foundation
@testable import RecoKitTesting
import RecoVendors
import Testing

@Suite("Sample payload fixtures")
struct SamplePayloadsTests {
    @Test func findsThePackagesPayloads() throws {
        let names = try SamplePayloads.names
        #expect(names.contains("reteno-recoms-full"))
        #expect(names.contains("reteno-recoms-fields"))
        #expect(names == names.sorted())
        #expect(try SamplePayloads.all.count == names.count)
        #expect(try SamplePayloads.all.allSatisfy { $0.pathExtension == "json" })
    }

    @Test func namesWorkWithOrWithoutTheExtension() throws {
        let bare = try SamplePayloads.url(named: "reteno-recoms-full")
        #expect(try SamplePayloads.url(named: "reteno-recoms-full.json") == bare)
        #expect(bare.path.hasSuffix("/Samples/Payloads/reteno-recoms-full.json"))
        #expect(try SamplePayloads.data(named: "reteno-recoms-full") == Data(contentsOf: bare))
        #expect(try SamplePayloads.json(named: "reteno-recoms-fields")["recoms"]?[0]?["productId"] == "240-LV09")
    }

    @Test func everySamplePayloadIsValidJSON() throws {
        for name in try SamplePayloads.names {
            #expect(throws: Never.self, "\(name)") { try SamplePayloads.json(named: name) }
        }
    }

    @Test func anUnknownNameListsTheNamesThereAre() {
        #expect {
            try SamplePayloads.data(named: "reteno-recoms-ful")
        } throws: { error in
            let text = (error as? SamplePayloadError)?.description ?? ""
            return text.hasPrefix(#"no sample payload named "reteno-recoms-ful" in "#) && text.contains("there are: ") && text.contains("reteno-recoms-full")
        }
    }

    @Test func aMissingFolderSaysWhereItLookedAndWhatToDo() {
        let nowhere = URL(fileURLWithPath: "/nonexistent/RecoKit/Samples/Payloads")
        #expect {
            try SamplePayloads.files(in: nowhere)
        } throws: { error in
            let text = (error as? SamplePayloadError)?.description ?? ""
            return text.contains("/nonexistent/RecoKit/Samples/Payloads does not exist") && text.contains(SamplePayloads.environmentVariable)
        }
    }
}
