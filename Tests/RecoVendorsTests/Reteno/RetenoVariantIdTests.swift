import Testing
import RecoVendors

@Suite("Reteno variant ids")
struct RetenoVariantIdTests {
    @Test func parsesRecomAndVariant() throws {
        let id = try RetenoVariantId("r1107v1482")
        #expect(id.recomId == 1107)
        #expect(id.variantId == 1482)
        #expect(id.description == "r1107v1482")
        #expect(try RetenoVariantId(recomId: 1, variantId: 2).description == "r1v2")
    }

    @Test(arguments: ["", "r", "v1", "r1v", "rv1", "r1107", "R1107v1482", "r1107V1482", "r0v1", "r1v0", "r01v2", "r-1v2", "r1v2 ", " r1v2",
                      "r1v2v3", "r1.5v2", "r１v2", "r1107v1482x", "r9999999999999999999v1"])
    func rejectsMalformedIds(text: String) {
        #expect {
            _ = try RetenoVariantId(text)
        } throws: { error in
            guard let error = error as? RetenoError else { return false }
            return error.value == text && error.description.contains("\"\(text)\"") && error.description.contains("r{recomId}v{variantId}")
        }
    }

    @Test func rejectsNonPositiveNumbers() {
        #expect(throws: RetenoError.self) { try RetenoVariantId(recomId: 0, variantId: 5) }
        #expect(throws: RetenoError.self) { try RetenoVariantId(recomId: 3, variantId: -1) }
    }

    @Test func errorNamesTheValueAndTheForm() {
        do {
            _ = try RetenoVariantId("r12x")
            Issue.record("accepted r12x")
        } catch {
            #expect(error.description == "invalid Reteno variant id \"r12x\": expected r{recomId}v{variantId} with positive whole numbers, like r1107v1482")
        }
    }
}
