import Foundation

/// The bytes libFuzzer hands a target for one run, as the types RecoKit's entry points take.
public struct FuzzInput {
    /// The input as bytes (copied: libFuzzer's buffer lives only for the call).
    public let data: Data

    /// Wraps libFuzzer's pointer and size.
    public init(_ pointer: UnsafePointer<UInt8>?, _ size: Int) {
        data = pointer.map { Data(bytes: $0, count: size) } ?? Data()
    }

    /// The input as text, with invalid UTF-8 repaired (as a server reading a request body would).
    public var text: String { String(decoding: data, as: UTF8.self) }

    /// The input split at the first byte `separator` (for targets that take two inputs in one); the
    /// second part is empty when there is no separator.
    public func split(at separator: UInt8) -> (Data, Data) {
        guard let index = data.firstIndex(of: separator) else { return (data, Data()) }
        return (data[data.startIndex..<index], data[(index + 1)...])
    }
}

/// Stops the run when a property that must hold does not: libFuzzer records it as a crash, with the input.
public func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                      file: StaticString = #fileID, line: UInt = #line) {
    if !condition() {
        FileHandle.standardError.write(Data("fuzz property failed at \(file):\(line): \(message())\n".utf8))
        abort()
    }
}
