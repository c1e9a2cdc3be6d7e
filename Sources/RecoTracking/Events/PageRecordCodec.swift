import Foundation

/// The journal's record of a page's impressions (``PageImpressions``): one record, read back as one
/// ``EventRecord`` per impression, numbered from the record's first sequence number.
///
/// Layout (version 3): version byte; run and first sequence (8 bytes each, little endian); occurred in
/// epoch milliseconds (8 bytes); kind (always impression's code); flags (as ``EventCodec``'s); the number
/// of impressions (varint); the shared strings userId, sessionId, lang, currency, pageUrl, region, os,
/// device and the params as JSON text; then per impression the strings instanceId, interactionId,
/// productId and its position (varint of position + 1, 0 when absent). Strings are written as in
/// ``EventCodec``: a varint of (length + 1) and UTF-8 bytes, 0 meaning absent.
enum PageRecordCodec {
    static let version: UInt8 = 3
    private static let sharedFields: [EventRecord.Field] = [.userId, .sessionId, .lang, .currency, .pageUrl, .region, .os, .device, .params]

    /// The page's record, its impressions numbered from `firstSequence` of run `run`.
    static func encode(_ page: borrowing PageImpressions, run: UInt64, firstSequence: UInt64) -> [UInt8] {
        withRecord(page, run: run, firstSequence: firstSequence) { Array($0) }
    }

    /// Writes the page's record into room of its own and hands its bytes to `body` (one pass, as
    /// ``EventCodec/withRecord(id:interaction:_:)``).
    static func withRecord<Result, Failure: Error>(_ page: borrowing PageImpressions, run: UInt64, firstSequence: UInt64,
                                                   _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result) throws(Failure) -> Result {
        let paramsText = page.context.params.isEmpty ? nil : JSONWriter.string(.object(page.context.params))
        var flags: UInt8 = 0
        if page.forcePush { flags |= 1 }
        if let testMode = page.context.testMode { flags |= testMode ? 6 : 2 }
        let millis = RecordWriter.milliseconds(of: page.occurred)
        let count = page.impressions.count
        var size = 27 + RecordWriter.size(of: UInt64(count))
        size += RecordWriter.size(ofStringsOf: page.context) + RecordWriter.size(of: paramsText)
        for impression in page.impressions {
            size += RecordWriter.size(of: impression.instanceId) + RecordWriter.size(of: impression.interactionId)
            size += RecordWriter.size(of: impression.productId) + RecordWriter.size(of: position(impression))
        }
        var out = RecordWriter.room(size: size)
        defer { out.free() }
        out.byte(version)
        out.fixed(run)
        out.fixed(firstSequence)
        out.fixed(millis)
        out.byte(0) // EventCodec's code of .impression
        out.byte(flags)
        out.varint(UInt64(count))
        out.strings(of: page.context)
        out.string(paramsText)
        for impression in page.impressions {
            out.string(impression.instanceId)
            out.string(impression.interactionId)
            out.string(impression.productId)
            out.varint(position(impression))
        }
        return try body(out.written("a page record's size was summed wrong"))
    }

    private static func position(_ impression: PageImpressions.Impression) -> UInt64 {
        impression.position.map { UInt64(max(0, $0)) + 1 } ?? 0
    }

    /// How many events a journal record holds: a page record its impressions, any other record one. A
    /// record that reads as a page but whose count is impossible counts one: it is dead-lettered whole, as
    /// unreadable. The journal counts pending events with it, so it reads only the count (not the strings).
    static func eventCount(of payload: ArraySlice<UInt8>) -> Int {
        guard payload.first == version else { return 1 }
        var reader = RecordReader(payload, at: 27)
        guard reader.count >= 28, reader[25] == 0 else { return 1 }
        // As `read` checks it: every impression takes at least 4 bytes.
        guard let impressions = reader.varint(), impressions > 0, impressions <= UInt64(reader.count - reader.index) / 4 else { return 1 }
        return Int(impressions)
    }

    /// Appends one record per impression of a page record to `records` (nothing when it throws).
    static func read(_ payload: ArraySlice<UInt8>, into records: inout [EventRecord]) throws(TrackingError) {
        let before = records.count
        let complete = { () -> Bool in
            var reader = RecordReader(payload, at: 27)
            let count = reader.count
            guard count >= 28, reader[0] == version, reader[25] == 0 else { return false }
            let run = reader.fixed(at: 1), first = reader.fixed(at: 9), millis = Int64(bitPattern: reader.fixed(at: 17)), flags = reader[26]
            guard RecordWriter.trackableMilliseconds.contains(millis) else { return false }
            // Every impression takes at least 4 bytes: a count larger than that allows is damage.
            guard let impressions = reader.varint(), impressions > 0, impressions <= UInt64(count - reader.index) / 4 else { return false }
            var shared = EventRecord.Spans()
            for field in sharedFields {
                guard let value = reader.span() else { return false }
                shared[field] = value
            }
            // No exact reserveCapacity here: called page after page, it would copy the array each time.
            if records.capacity < before + Int(impressions) { records.reserveCapacity(max(2 * records.capacity, before + Int(impressions))) }
            for number in 0..<impressions {
                var spans = shared
                guard let instanceId = reader.span(), let interactionId = reader.span(), let productId = reader.span(),
                      let position = reader.varint() else { return false }
                spans[.instanceId] = instanceId
                spans[.interactionId] = interactionId
                spans[.productId] = productId
                records.append(EventRecord(bytes: payload, id: EventID(run: run, sequence: first &+ number), occurredMilliseconds: millis,
                                           kind: .impression, position: position == 0 ? nil : Int(truncatingIfNeeded: position - 1),
                                           flags: flags, spans: spans, isPageImpression: true))
            }
            return reader.index == count
        }()
        guard complete else {
            records.removeSubrange(before...)
            throw .journal("truncated or damaged page impressions record")
        }
    }

    /// One impression of a page record as a value.
    static func event(of record: EventRecord) -> TrackedEvent {
        var params: [String: JSONValue] = [:]
        if let text = record.string(.params), let object = (try? JSONValue(parsing: text))?.objectValue { params = object }
        let context = InteractionContext(userId: record.string(.userId), sessionId: record.string(.sessionId), lang: record.string(.lang),
                                         currency: record.string(.currency), pageUrl: record.string(.pageUrl), region: record.string(.region),
                                         testMode: record.testMode, os: record.string(.os), device: record.string(.device), params: params)
        let interaction = Interaction(kind: .impression, instanceId: record.string(.instanceId) ?? "",
                                      interactionId: record.string(.interactionId) ?? "", productId: record.string(.productId),
                                      position: record.position, context: context, occurred: record.occurred, forcePush: record.forcePush)
        return TrackedEvent(id: record.id, interaction: interaction)
    }
}

extension EventRecord {
    /// Appends the events of a journal record to `records`: one for an event's record, one per
    /// impression for a page's record (``PageImpressions``). Throws, appending nothing, when it cannot be read.
    public static func read(_ payload: ArraySlice<UInt8>, into records: inout [EventRecord]) throws(TrackingError) {
        if payload.first == PageRecordCodec.version {
            try PageRecordCodec.read(payload, into: &records)
        } else {
            records.append(try EventRecord(bytes: payload))
        }
    }
}

extension PageImpressions {
    /// The record a tracker of run `run` journals for this page, its impressions numbered from
    /// `firstSequence` (for tools and benchmarks that read records without a tracker).
    public static func journalRecord(of page: PageImpressions, run: UInt64, firstSequence: UInt64 = 1) -> ArraySlice<UInt8> {
        PageRecordCodec.encode(page, run: run, firstSequence: firstSequence)[...]
    }
}
