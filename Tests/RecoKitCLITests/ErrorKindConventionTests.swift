import Foundation
import Testing
import RecoKitTesting
import RecoTemplates
import RecoTracking

/// One way to ask any public error what went wrong: `error.kind == .someKind`, a `Kind` struct of static
/// members (so new kinds never break a caller), as README's "Errors" note describes.
@Suite("Error kinds")
struct ErrorKindConventionTests {
    /// Every public error type in Sources/ declares `public struct Kind` and `public var kind: Kind`.
    /// `ProductFailure` is a record of one failed product (index, productId, path, reason), not a choice
    /// of kinds, and is the one exception.
    @Test func everyPublicErrorTypeHasAKind() throws {
        let sources = RecokitChildProcess.packageRoot.appendingPathComponent("Sources")
        let walker = try #require(FileManager.default.enumerator(atPath: sources.path))
        var errorTypes: [String] = []
        while let path = walker.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("public struct ") && line.contains(": Error") {
                let name = line.dropFirst("public struct ".count).prefix { $0.isLetter || $0.isNumber }
                errorTypes.append(String(name))
                guard name != "ProductFailure" else { continue }
                #expect(text.contains("    public struct Kind: Hashable, Sendable, CustomStringConvertible {"), "\(path): \(name) has no Kind")
                #expect(text.contains("    public var kind: Kind {"), "\(path): \(name) has no kind property")
            }
        }
        #expect(errorTypes.count >= 12, "\(errorTypes)")
    }

    @Test func eachFactoryGivesItsKind() throws {
        #expect(RetenoError.invalidVariantId("x").kind == .invalidVariantId)
        #expect(RetenoError.invalidBaseURL("x").kind == .invalidBaseURL)
        #expect(SegmentifyEventError.missing("pageView.category").kind == .missing)
        #expect(SegmentifyEventError.invalid("productView.price", must: "be ≥ 0", got: "-5").kind == .invalid)
        #expect(SegmentifyEventError.conflict("checkout.products", "empty").kind == .conflict)
        #expect(BloomreachError.invalidParameter("segment", "empty").kind == .invalidParameter)
        #expect(BloomreachError.httpStatus(503).kind == .httpStatus)
        #expect(BloomreachError.transport("reset").kind == .transport)
        #expect(BloomreachError.payload(.unrecognized("no")).kind == .payload)
        #expect(InteractionError.missingField("userId", for: .click).kind == .missingField)
        #expect(InteractionError.emptyProductId(for: .click).kind == .emptyProductId)
        #expect(InteractionError.notInWidget("no 7").kind == .notInWidget)
        #expect(InteractionError.unsupported("no").kind == .unsupported)
        #expect(InteractionError.malformed("no").kind == .malformed)
        #expect(TrackingError.queueFull.kind == .queueFull)
        #expect(TrackingError.shutDown.kind == .shutDown)
        #expect(TrackingError.invalid(.malformed("x")).kind == .invalid)
        #expect(TrackingError.journal("disk").kind == .journal)
        #expect(TrackingError.journalInUse("/j").kind == .journalInUse)
        #expect(TrackingError.configuration("no").kind == .configuration)
        #expect(SamplePayloadError.missingFolder("/x").kind == .missingFolder)
        #expect(SamplePayloadError.missingPayload("a", folder: "/x", available: []).kind == .missingPayload)
        #expect(SamplePayloadError.unreadable("/x", reason: "no").kind == .unreadable)
        #expect(RenderError.unknownTemplate("carusel", available: ["carousel"]).kind == .unknownTemplate)
        #expect(PayloadError.invalidJSON("bad", at: .root, line: 1, column: 1).kind == .invalidJSON)
        #expect(ConnectifError.missingField("cartId").kind == .missingField)
        #expect(EightDigitsError.noVisit.kind == .noVisit)
        do {
            _ = try Template("{{#open}}", name: "broken")
            Issue.record("an unclosed section compiled")
        } catch {
            #expect(error.kind == .syntax)
            #expect(RenderError.template(error).kind == .template)
        }
        // Kinds print their names, for logs.
        #expect("\(TrackingError.queueFull.kind)" == "queueFull")
    }

    @Test func theOldAccessorsStillAnswer() {
        #expect(SegmentifyEventError.missing("x").isMissing)
        #expect(InteractionError.notInWidget("no").isNotInWidget)
        #expect(TrackingError.queueFull.isQueueFull)
        #expect(BloomreachError.httpStatus(503).status == 503)
        #expect(RenderError.unknownTemplate("a", available: []).missingTemplate == "a")
    }
}
