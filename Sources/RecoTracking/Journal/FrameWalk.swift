/// A walk over a file of version-1 frames (`dead-letters.log`, `quarantine.log`) a window at a time:
/// both files grow for as long as what fills them goes on (a vendor refusing events, a disk damaging
/// them), and reading one must not need memory in proportion.
struct FrameWalk {
    /// Where the file ended (sooner than the size asked when it was cut meanwhile).
    var end: Int
    /// The stretches that hold no record.
    var stretches: [RecordFrame.BadStretch] = []
    /// The bytes from the first of those stretches on, read whole (see ``walk(size:window:read:record:windowEnd:)``).
    var tail: (base: Int, bytes: [UInt8])?
    /// Whether it reached the end (`read` may stop it).
    var complete = true

    /// Whether `stretch`, one of this walk's, is what an append cut short by a crash or a power loss leaves
    /// at the end of the file (see `RecordFrame.isCutShortAppend`).
    func isCutShortAppend(_ stretch: RecordFrame.BadStretch) -> Bool {
        guard stretch == stretches.last, let tail else { return false }
        return RecordFrame.isCutShortAppend(stretch, in: tail.bytes, base: tail.base, segment: 0, format: .version1)
    }

    /// Hands every record in the file's first `size` bytes to `record`, oldest first, reading `window`
    /// bytes at a time with `read` (which returns nil to stop the walk), and calls `windowEnd` after each
    /// window's records. While the records are whole, no more than a window (or one record longer than
    /// that) is held. From the first stretch that holds no record on, the rest is read whole and scanned
    /// as a journal segment is (after damage, the next valid record is looked for byte by byte).
    static func walk<Failure: Error>(size: Int, window: Int, read: (_ offset: Int, _ count: Int) throws(Failure) -> [UInt8]?,
                                     record: (_ offset: Int, _ payload: ArraySlice<UInt8>) -> Void,
                                     windowEnd: () throws(Failure) -> Void = {}) throws(Failure) -> FrameWalk {
        let window = max(1, window)
        var position = 0
        var span = window
        var size = size
        while position < size {
            let asked = min(span, size - position)
            guard let bytes = try read(position, asked) else { return FrameWalk(end: position, complete: false) }
            // Fewer bytes than asked: the file ends there (cut meanwhile by someone else).
            if bytes.count < asked { size = position + bytes.count }
            var index = 0
            scanning: while index < bytes.count {
                switch RecordFrame.frame(in: bytes, at: index, segment: 0, format: .version1) {
                case .record(let payload, let next):
                    if payload.first != RecordFrame.paddingMark { record(position + index, payload) }
                    index = next
                case .incomplete where position + bytes.count < size:
                    // A record the window's end cuts: the next window begins with it.
                    break scanning
                default:
                    try windowEnd()
                    return try walkDamaged(from: position + index, size: size, read: read, record: record, windowEnd: windowEnd)
                }
            }
            try windowEnd()
            // A record longer than the window: a larger one, until it holds the record.
            span = index == 0 ? min(span * 2, size) : window
            position += index
        }
        return FrameWalk(end: size)
    }

    /// The rest of a walk, from the first stretch that holds no record (`base`) to `size`, read whole.
    private static func walkDamaged<Failure: Error>(from base: Int, size: Int, read: (_ offset: Int, _ count: Int) throws(Failure) -> [UInt8]?,
                                                    record: (_ offset: Int, _ payload: ArraySlice<UInt8>) -> Void,
                                                    windowEnd: () throws(Failure) -> Void) throws(Failure) -> FrameWalk {
        guard let bytes = try read(base, max(0, size - base)) else { return FrameWalk(end: base, complete: false) }
        let stretches = RecordFrame.scan(bytes, base: base, segment: 0, from: base, format: .version1, record: record)
        try windowEnd()
        return FrameWalk(end: base + bytes.count, stretches: stretches, tail: (base, bytes))
    }
}
