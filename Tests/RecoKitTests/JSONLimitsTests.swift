import Foundation
import RecoKit
import Testing

@Suite struct JSONLimitsTests {
    private func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }

    private func limitError(_ text: String, _ limits: JSONLimits = .default) -> PayloadError? {
        do {
            _ = try JSONValue(parsing: text, limits: limits)
            return nil
        } catch {
            return error.kind == .limitExceeded ? error : nil
        }
    }

    @Test func theDefaultDepthParsesAndOneMoreIsALimitWithPathLineAndColumn() throws {
        let limit = JSONLimits.default.maximumDepth
        #expect(limit == 512)
        _ = try JSONValue(parsing: nested(limit))
        let error = try #require(limitError(#"{"a":"# + nested(limit) + "}"))
        #expect(error.message == "nesting deeper than 512 levels (JSONLimits.maximumDepth)")
        #expect(error.path == JSONPath(components: [.key("a")] + Array(repeating: .index(0), count: limit - 1)))
        #expect(error.position?.line == 1)
        #expect(error.position?.column == 5 + limit)
        #expect(error.description.hasPrefix("JSON limit exceeded: nesting deeper than 512 levels (JSONLimits.maximumDepth) at $.a[0][0]"))
    }

    @Test func depthIsSettable() throws {
        let limits = JSONLimits(maximumDepth: 3)
        _ = try JSONValue(parsing: #"{"a":[{}]}"#, limits: limits)
        let error = try #require(limitError(#"{"a":[{"b":[]}]}"#, limits))
        #expect(error.path.description == "$.a[0].b")
    }

    /// The parser and the writer do not recurse, and hashing looks one level down: at the default depth a
    /// value is parsed, compared, hashed, written and freed on a thread whose stack is 256 KB (half of a
    /// macOS secondary thread's), even in a debug build; 100,000 levels are refused there without a crash.
    @Test func theDefaultDepthFitsASmallStack() throws {
        let results = onThread(stackSize: 256 << 10) {
            let text = #"{"a":"# + self.nested(511) + "}"
            guard let value = try? JSONValue(parsing: text) else { return [false] }
            var set: Set<JSONValue> = [value]
            set.insert(value)
            return [value == value, set.count == 1, value.description == text, self.limitError(self.nested(100_000)) != nil]
        }
        #expect(results == [true, true, true, true])
    }

    @Test func equalValuesHashEqually() throws {
        let pairs = [(#"[1.50,{"a":[2]}]"#, #"[1.5,{"a":[2.0]}]"#), (#"{"a":1,"b":{"c":[]}}"#, #"{"b":{"c":[]},"a":1e0}"#)]
        for (left, right) in pairs {
            let (a, b) = (try JSONValue(parsing: left), try JSONValue(parsing: right))
            #expect(a == b)
            #expect(a.hashValue == b.hashValue)
        }
        #expect(Set([try JSONValue(parsing: "[[1]]"), try JSONValue(parsing: "[[2]]")]).count == 2)
    }

    @Test func numberLengthIsLimited() throws {
        let longest = "1" + String(repeating: "0", count: 127)
        #expect(try JSONValue(parsing: "[\(longest)]")[0]?.numberValue?.text == longest)
        let error = try #require(limitError(#"{"price": 1"# + String(repeating: "0", count: 128) + "}"))
        #expect(error.message == "a number longer than 128 bytes (JSONLimits.maximumNumberLength)")
        #expect(error.path.description == "$.price")
        #expect(error.position?.column == 11)
        _ = try JSONValue(parsing: "[\(longest)]", limits: JSONLimits(maximumNumberLength: 128))
        #expect(limitError("[123]", JSONLimits(maximumNumberLength: 2)) != nil)
    }

    @Test func stringLengthIsLimitedForValuesAndKeys() throws {
        let limits = JSONLimits(maximumStringBytes: 8)
        _ = try JSONValue(parsing: #"{"12345678":"abcdefgh","e":"\n\n\n\n"}"#, limits: limits)
        let value = try #require(limitError(#"{"a":[1,"abcdefghi"]}"#, limits))
        #expect(value.message == "a string longer than 8 bytes (JSONLimits.maximumStringBytes)")
        #expect(value.path.description == "$.a[1]")
        #expect(value.position?.column == 9)
        let escaped = try #require(limitError(#"{"a":"\n\n\n\n\n"}"#, limits))
        #expect(escaped.path.description == "$.a")
        let key = try #require(limitError(#"{"a":{"123456789":1}}"#, limits))
        #expect(key.path.description == "$.a")
    }

    @Test func inputSizeIsLimited() throws {
        #expect(JSONLimits.default.maximumInputBytes == 64 << 20)
        _ = try JSONValue(parsing: Data("[1,2]".utf8), limits: JSONLimits(maximumInputBytes: 5))
        let error = try #require(limitError("[1,2] ", JSONLimits(maximumInputBytes: 5)))
        #expect(error.message == "a document of 6 bytes, more than 5 (JSONLimits.maximumInputBytes)")
        #expect(error.path == .root)
    }

    @Test func malformedJSONKeepsItsKindAndPaths() {
        let cases: [(String, String)] = [
            (#"{"a":[[1,2],[3,}]}"#, "$.a[1][1]"), (#"{"a":[[1,2],[3 4]]}"#, "$.a[1]"), (#"{"a":{"b" 1}}"#, "$.a"),
            (#"[{"x":1},{"y":tru}]"#, "$[1].y"), (#"[[[]],[["#, "$[1][0][0]"),
        ]
        for (text, path) in cases {
            #expect(throws: PayloadError.self) { try JSONValue(parsing: text) }
            do { _ = try JSONValue(parsing: text) } catch {
                #expect(error.kind == .invalidJSON, "\(text)")
                #expect(error.path.description == path, "\(text): \(error)")
            }
        }
    }

    /// Runs `work` on a thread of its own with the given stack size and waits for its answer.
    private func onThread<T: Sendable>(stackSize: Int, _ work: @escaping @Sendable () -> T) -> T {
        let box = ThreadResult<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.value = work()
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        return box.value!
    }
}

/// The answer of work done on another thread, read after the thread signals it is done.
private final class ThreadResult<T>: @unchecked Sendable {
    var value: T?
}
