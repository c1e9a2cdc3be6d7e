import Foundation
import RecoKit
import RecoTracking
import RecoVendors

/// `recokit relay`: reads interactions as JSON lines on stdin, journals them, and delivers them to a
/// vendor; `--drain` delivers what the journal holds and exits.
///
/// Each line is one JSON object in the format of ``Interaction/init(jsonLine:now:)``, or, with
/// `--vendor segmentify`, a Segmentify event object or array of them (see ``RelayLine``). Every line gets
/// one acknowledgement on stdout (or in the `--acks` file), written once the line is durable in the
/// journal (see ``RelayAcknowledgements``): `{"line":N,"ids":[…]}` or `{"line":N,"refused":"…"}`.
/// Progress goes to stderr: `accepted N` after every 1,000 acknowledged events, every quarter second
/// while events trickle in, and at the end of input, then a summary line.
enum RelayCommand: Command {
    static let name = "relay"
    static let summary = "Journal interactions from stdin (JSON lines) and deliver them to a vendor"
    static let usage = """
        Usage: recokit relay --journal DIR --vendor segmentify|reteno --endpoint URL [--api-key KEY]
                             [--origin DOMAIN] [--durability strict|batched] [--deadline SECONDS]
                             [--acks FILE] [--request-timeout SECONDS] [--segment-bytes N]
                             [--max-journal-bytes N] [--drain]

        Reads one interaction per line on stdin, journals it in DIR, and delivers it to the vendor at URL
        (a base URL: Segmentify's data center, or Reteno's API host; a local server can stand in).

        Acknowledgements (the contract): one JSON line per input line on stdout (or in --acks FILE), in
        input order, written only once the line's events are durable in the journal (they survive a crash
        of the relay or of the machine from then on), and at most 250 ms after that:
          {"line":1,"ids":["3f9a1c2b7d4e5f60-1"]}              line 1 taken; its event ids (several for
                                                               a Segmentify array), as sent to the vendor
          {"line":2,"refused":"invalid JSON: …"}               line 2 not taken, and why
        A blank line gets none. A line without an acknowledgement when the relay stops was not taken
        for sure: send it again (a duplicate gets a new id). Lines read together share one commit.

        Progress on stderr: `accepted N` after every 1,000 acknowledged events, every quarter second
        while events trickle in, and at the end of input, then
        `relay: delivered D, pending P, dead-lettered X, malformed M`.

        Line format (one JSON object per line):
          {"type":"impression","instanceId":"rec_1","interactionId":"act_1","userId":"u1","sessionId":"s1"}
          {"type":"widget-view","instanceId":"rec_1","interactionId":"act_1","userId":"u1","sessionId":"s1"}
          {"type":"click","instanceId":"rec_1","productId":"240-LV09","position":3,"userId":"u1","sessionId":"s1"}
          {"type":"search-click","phase":"before-search","productId":"240-LV09","userId":"u1","sessionId":"s1"}
          {"type":"impression","recomVariantId":"r1107v1482","productId":"240-LV09","forcePush":true}
        Keys: type (impression, widget-view, click, search-click), instanceId or recomVariantId,
        interactionId, productId, position, phase (before-search, search), occurred (ISO 8601 or epoch
        ms; default now), forcePush, userId, sessionId, lang, currency, pageUrl, region, testMode, os,
        device, params (object). Segmentify needs userId and sessionId; Reteno takes impressions and
        clicks with a productId. A line that is not valid is refused (acknowledged as refused and
        reported on stderr with its number) and skipped; so is a line longer than 4 MiB, which is not kept
        in memory.

        With --vendor segmentify a line may also be a Segmentify event object as apps send it, or a JSON
        array of them (the body of /add/events): PAGE_VIEW, PRODUCT_VIEW, BASKET_OPERATIONS, CHECKOUT,
        USER_OPERATIONS, USER_CHANGE, CUSTOM_EVENT, SEARCH or INTERACTION, checked field by field:
          {"name":"PRODUCT_VIEW","userId":"u1","sessionId":"s1","productId":"240-LV09","title":"Bag",
           "url":"https://shop.example/p/240-LV09","image":"//cdn.shop.example/240.jpg","category":"Bags","price":129.9}
        A line is taken whole or not at all: one bad event in an array skips the line.

        When the journal is full (--max-journal-bytes), the relay stops reading stdin until delivery
        makes room.

        Stopping: SIGTERM, SIGINT or SIGHUP (a terminal or SSH session going away) ends the input at
        what has arrived: the lines already read or waiting in stdin are journaled and acknowledged, then
        delivered until --deadline, as at the end of input (a line without its end is not taken, and the
        run exits 1). If the journal is full, the relay waits at most --deadline after the signal for
        room; then the lines that had arrived and are not journaled are refused ("not taken: the journal
        stayed full …"), and the run exits 1. A second signal, or one after the input ended, stops the
        relay at once, as do SIGKILL and SIGQUIT; what was acknowledged stays in the journal. A signal
        stops --drain at once, saying so; what was not delivered stays in the journal. A signal while the
        journal opens (a large one takes seconds) counts from when it is open.

        Options:
          --journal DIR        the journal directory (created if missing; one relay at a time)
          --vendor NAME        segmentify or reteno
          --endpoint URL       the vendor's base URL
          --api-key KEY        Segmentify apiKey or Reteno access key (a real vendor needs it)
          --origin DOMAIN      Segmentify Origin header (default: the endpoint's host)
          --durability MODE    strict: the lines read together are committed (one fsync) and
                               acknowledged at once; batched (default): a commit every 100 ms at
                               most, fewer fsyncs when lines stream in
          --acks FILE          write acknowledgements to FILE (appended) instead of stdout
          --deadline SECONDS   how long to keep delivering after the input ends (default 30)
          --request-timeout SECONDS
                               the longest one request to the vendor may take, its whole reply
                               included, before it is given up and tried again (default 10, from
                               0.1 to 600)
          --segment-bytes N    start a new journal segment once one holds N bytes (default 8388608,
                               at least 4096): smaller segments give delivered events' disk back sooner
          --max-journal-bytes N
                               the most the journal may hold, delivered or not yet (default 536870912,
                               at least 16777216); past it the relay waits for delivery to make room
          --drain              deliver what the journal holds without reading stdin, then exit

        Exit status: 0 when every line was accepted (events still pending at the deadline stay in the
        journal for the next run or --drain); 1 when some lines were malformed or invalid (every other
        line was journaled and delivered as far as the deadline allowed), or when the journal's disk
        failed (full, or an I/O error: the relay stops at once, names the error, and acknowledges no line
        after it), or when damage was found in the journal while running (`relay: journal damage: …`
        names the file and byte range; only the damaged records are lost) or at start (`relay: journal
        recovery: …`; a torn tail there, the mark of an interrupted write that no acknowledgement
        covered, is reported but no failure: a record cut short at a file's end, or the zeros a power
        loss leaves where blocks were never written), or when acknowledgements could not be written (the
        reader of stdout went away, the --acks file's disk is full: the relay says from which line, reads
        no more input, and delivers what it journaled), or when stdin could not be read to its end (the
        system's reason; what was read before is journaled and delivered), or when the journal's disk
        failed while delivering (a batch not read back, a checkpoint or dead letters not written: tried
        again, nothing lost, `relay: disk errors while delivering: …`); 2 for a wrong command line.
        """

    static func run(_ words: [String]) async throws -> Int32 {
        let arguments = try Arguments(words, options: ["journal", "vendor", "endpoint", "api-key", "origin", "durability", "deadline", "acks",
                                                                 "request-timeout", "segment-bytes", "max-journal-bytes"],
                                      flags: ["drain"])
        guard let journal = arguments.value("journal") else { throw UsageError("--journal is required") }
        let endpoint = try endpointURL(arguments.value("endpoint"))
        let deadline = Duration.milliseconds(Int64(try deadline(arguments.value("deadline")) * 1000))
        let maxJournalBytes = try maxJournalBytes(arguments.value("max-journal-bytes"))
        let requestTimeout = try requestTimeout(arguments.value("request-timeout"))
        let segmentBytes = try segmentBytes(arguments.value("segment-bytes"))
        let apiKey = arguments.value("api-key") ?? ""
        if apiKey.isEmpty {
            Console.error("relay: no --api-key given; a real vendor will refuse the events (they stay in the journal)")
        }
        let destination: any TrackingDestination
        switch arguments.value("vendor") {
        case "segmentify":
            destination = SegmentifyDestination(dataCenter: endpoint, apiKey: apiKey, origin: arguments.value("origin") ?? endpoint.host ?? "localhost")
        case "reteno":
            destination = RetenoDestination(base: endpoint, accessKey: apiKey)
        default:
            throw UsageError("--vendor must be segmentify or reteno")
        }
        // The relay makes every commit itself (after each read when strict, every 100 ms when batched), so
        // the tracker runs without a background commit, and a disk error always reaches the relay: it
        // acknowledges nothing after one and exits non-zero.
        let strict: Bool
        switch arguments.value("durability") ?? "batched" {
        case "strict": strict = true
        case "batched": strict = false
        case let other: throw UsageError("--durability must be strict or batched, not \(other)")
        }
        if let problem = FileProblem.unwritableFolder(journal) { throw CommandFailure("--journal \(journal): \(problem)") }
        // Where acknowledgements go is settled before the journal is opened (a relay that cannot write
        // them stops here, with nothing taken).
        let acksPath = arguments.value("acks")
        let acksDescriptor = arguments.flag("drain") ? nil : try acknowledgementDescriptor(acksPath)
        // Taken before the journal opens, which can take seconds: a stop meanwhile must not kill the relay
        // with the lines in its pipe.
        let signals = RelaySignals()
        var configuration = TrackerConfiguration(journal: URL(fileURLWithPath: journal), durability: .strict)
        configuration.flushInterval = .milliseconds(200)
        configuration.segmentBytes = segmentBytes
        configuration.maxJournalBytes = maxJournalBytes
        configuration.requestTimeout = requestTimeout
        let tracker = try Tracker(destination: destination, configuration: configuration)
        let recovery = tracker.recoveryReport
        if !recovery.damage.isEmpty || recovery.checkpointNote != nil {
            Console.error("relay: journal recovery: \(recovery.pendingEvents) pending events in \(recovery.segments) segments")
            if let note = recovery.checkpointNote { Console.error("relay: journal recovery: \(note)") }
            for damage in recovery.damage { Console.error("relay: journal recovery: \(damage)") }
        }
        // Damage found at start that may have cost acknowledged lines (anything but a torn tail) fails the
        // run, and so does a disk error recovery got past (a checkpoint it could not read).
        let damagedBefore = recovery.damage.contains { !$0.isInterruptedWrite } || recovery.diskError != nil
        var malformed = 0
        var unacknowledged = false
        var gaveUpWaitingForRoom = false
        if let acksDescriptor {
            let input = RelayInput()
            signals.reading(input)
            let acks = RelayAcknowledgements(descriptor: acksDescriptor,
                                             destination: acksPath.map { $0 == "-" ? "stdout" : "--acks \($0)" } ?? "stdout", input: input)
            let read = try await relay(input, into: tracker, vendor: arguments.value("vendor") ?? "", strict: strict, acks: acks,
                                       signals: signals, deadline: deadline)
            malformed = read.malformed
            signals.inputEnded()
            if let notTaken = read.notTakenWhileFull {
                unacknowledged = true
                gaveUpWaitingForRoom = true
                Console.error("relay: \(notTaken.signal): the journal stayed full for the deadline after the signal; "
                              + "\(notTaken.lines.count) \(notTaken.lines.count == 1 ? "line" : "lines") that had arrived "
                              + "(\(RelayCommand.lineRanges(notTaken.lines))) were not taken, each acknowledged as refused: send them again")
            }
            if let signal = signals.endedInput, let bytes = input.unfinishedLineBytes, bytes > 0 {
                unacknowledged = true
                Console.error("relay: \(signal): a line of \(bytes) bytes had not ended when the input stopped; it was not taken (send it again)")
            }
            if let failure = input.readFailure {
                unacknowledged = true
                Console.error("relay: cannot read stdin: \(failure); no more input was read (a line without an "
                              + "acknowledgement was not taken: send it again)")
            }
            if let failure = acks.writeFailure {
                unacknowledged = true
                Console.error("relay: \(failure); no more input was read (send the lines without one again; "
                              + "those journaled are delivered all the same, so the vendor may get them twice)")
            }
        } else {
            // A drain stops at a signal, saying so (the signals' default would stop it without a word).
            signals.draining()
        }
        // After a wait for room that used up the deadline, what is journaled gets no more time.
        let summary = await tracker.shutdown(deadline: gaveUpWaitingForRoom ? .zero : deadline)
        withExtendedLifetime(signals) {}
        var line = "relay: \(summary), malformed \(malformed)"
        let statistics = tracker.statistics
        if let lastError = statistics.lastError, summary.pending > 0 { line += "; last error: \(lastError)" }
        Console.error(line)
        // Damage met while running and a disk error are failures of the run, whatever else went well.
        for damage in statistics.damage { Console.error("relay: journal damage: \(damage)") }
        if let diskError = statistics.diskError { Console.error("relay: disk error: \(diskError)") }
        if let trouble = statistics.deliveryDiskError {
            Console.error("relay: disk errors while delivering: \(statistics.deliveryDiskErrors), each tried again (nothing was lost); the last: \(trouble)")
        }
        return malformed > 0 || unacknowledged || damagedBefore || !statistics.damage.isEmpty || statistics.diskError != nil
            || statistics.deliveryDiskErrors > 0 ? 1 : 0
    }

    /// `--endpoint`: an http or https URL with a host.
    static func endpointURL(_ text: String?) throws(UsageError) -> URL {
        guard let text else { throw UsageError("--endpoint is required: the vendor's base URL, such as https://gandalf.segmentify.com") }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw UsageError("--endpoint \(text) is not a URL; give one such as https://gandalf.segmentify.com")
        }
        guard scheme == "https" || scheme == "http" else {
            throw UsageError("--endpoint \(text): the scheme must be https or http, not \(scheme)")
        }
        return url
    }

    /// `--deadline`: seconds, 0 or more (default 30).
    static func deadline(_ text: String?) throws(UsageError) -> Double {
        guard let text else { return 30 }
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
            throw UsageError("--deadline is a number of seconds from 0 to 86400, not \"\(text)\"")
        }
        return seconds
    }

    /// `--request-timeout`: the longest one request may take, 0.1 to 600 seconds (default 10).
    static func requestTimeout(_ text: String?) throws(UsageError) -> Duration {
        guard let text else { return TrackerConfiguration(journal: nil).requestTimeout }
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0.1, seconds <= 600 else {
            throw UsageError("--request-timeout is a number of seconds from 0.1 to 600, not \"\(text)\"")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// `--segment-bytes`: a segment's size, 4096 bytes to 1 GiB (default 8 MiB).
    static func segmentBytes(_ text: String?) throws(UsageError) -> Int {
        let defaultBytes = TrackerConfiguration(journal: nil).segmentBytes
        guard let text else { return defaultBytes }
        guard let bytes = Int(text), (4096...(1 << 30)).contains(bytes) else {
            throw UsageError("--segment-bytes is a number of bytes from 4096 to 1073741824, not \"\(text)\"")
        }
        return bytes
    }

    /// `--max-journal-bytes`: the most the journal may hold, 16 MiB (four of the largest lines) to 1 TiB
    /// (default 512 MiB).
    static func maxJournalBytes(_ text: String?) throws(UsageError) -> Int {
        guard let text else { return TrackerConfiguration(journal: nil).maxJournalBytes }
        guard let bytes = Int(text), ((16 << 20)...(1 << 40)).contains(bytes) else {
            throw UsageError("--max-journal-bytes is a number of bytes from 16777216 to 1099511627776, not \"\(text)\"")
        }
        return bytes
    }

    /// Where acknowledgements go: stdout, or the file `--acks` names (created, or appended to).
    private static func acknowledgementDescriptor(_ path: String?) throws -> Int32 {
        // A caller that stops reading acknowledgements must not kill the relay (the lines stay durable).
        signal(SIGPIPE, SIG_IGN)
        guard let path, path != "-" else {
            if StandardStreams.outputClosedAtStart {
                throw CommandFailure("standard output is closed: acknowledgements would have nowhere to go; open it, or give --acks FILE")
            }
            return 1
        }
        if let problem = FileProblem.unwritableFile(path) { throw CommandFailure("--acks \(path): \(problem)") }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CommandFailure("--acks \(path): cannot open: \(String(cString: strerror(errno)).lowercased())") }
        return descriptor
    }

    /// What reading the input came to.
    private struct Reading {
        /// Lines refused as not valid.
        var malformed = 0
        /// Lines that had arrived when a signal ended the input and were not taken because the journal
        /// stayed full for the deadline after it, and the signal's name.
        var notTakenWhileFull: (signal: String, lines: [Int])?
    }

    /// Reads `input` (stdin) to its end, or until acknowledgements cannot be written.
    ///
    /// Takes every line that has arrived at once: journals their events without waiting for the disk,
    /// then (strict) one commit for all of them, then their acknowledgements. In batched mode the
    /// acknowledgement timer commits every 100 ms instead, so a fast stream pays fewer fsyncs. The timer
    /// runs in both modes: a burst followed by silence is acknowledged without waiting for the next line.
    ///
    /// While the journal is full it waits for delivery to make room, however long that takes; once a
    /// signal has ended the input, for `deadline` after the signal at most. Then every line that had
    /// arrived and is not yet journaled is refused (its acknowledgement says why), so none goes without
    /// an answer.
    private static func relay(_ input: RelayInput, into tracker: Tracker, vendor: String, strict: Bool,
                              acks: RelayAcknowledgements, signals: RelaySignals, deadline: Duration) async throws -> Reading {
        let timerFailure = LockedError()
        let timer = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                do { try acks.commitAndWrite(tracker) } catch { timerFailure.set(error) }
            }
        }
        defer { timer.cancel() }
        var reading = Reading()
        var lineNumber = 0
        var waitingForRoom = false
        while let lines = await input.next() {
            for entry in lines {
                lineNumber += 1
                if let notTaken = reading.notTakenWhileFull {
                    if case .text(let line) = entry, line.allSatisfy(\.isWhitespace) { continue }
                    reading.notTakenWhileFull?.lines.append(lineNumber)
                    acks.add(.refused(line: lineNumber, reason: notTakenReason(notTaken.signal, journaled: 0, of: 0)))
                    continue
                }
                guard case .text(let line) = entry else {
                    if case .tooLong(let bytes) = entry {
                        reading.malformed += 1
                        let reason = "a line of \(bytes) bytes, more than \(RelayInput.maximumLineBytes) (the journal's largest record)"
                        Console.error("relay: line \(lineNumber): \(reason), skipped")
                        acks.add(.refused(line: lineNumber, reason: reason))
                    }
                    continue
                }
                if line.allSatisfy(\.isWhitespace) { continue }
                let interactions: [Interaction]
                do {
                    interactions = try RelayLine.interactions(from: line, vendor: vendor)
                    // A line of several events is taken all or none: each is checked before any is journaled
                    // (a single event is checked once, by the tracker as it journals it).
                    if interactions.count > 1 {
                        for interaction in interactions { try tracker.check(interaction) }
                    }
                } catch {
                    reading.malformed += 1
                    Console.error("relay: line \(lineNumber): \(error), skipped")
                    acks.add(.refused(line: lineNumber, reason: "\(error)"))
                    continue
                }
                var ids: [EventID] = []
                tracking: for interaction in interactions {
                    while true {
                        do {
                            ids.append(try tracker.trackUntilCommit(interaction))
                            break
                        } catch where error.interactionError != nil {
                            reading.malformed += 1
                            Console.error("relay: line \(lineNumber): \(error), skipped")
                            acks.add(.refused(line: lineNumber, reason: "\(error)"))
                            break tracking
                        } catch {
                            // Backpressure: stdin can wait for delivery to make room. Anything else (the disk) ends the relay.
                            guard error.isQueueFull else { throw error }
                            if let signal = signals.endedInput(atLeast: deadline) {
                                // Events of this line journaled before the journal filled are delivered all the same.
                                reading.notTakenWhileFull = (signal, [lineNumber])
                                acks.add(.refused(line: lineNumber, reason: notTakenReason(signal, journaled: ids.count, of: interactions.count)))
                                ids = []
                                break tracking
                            }
                            if !waitingForRoom { Console.error("relay: the journal is full; waiting for delivery to make room") }
                            waitingForRoom = true
                            // Delivery takes only durable events: commit what waits before waiting.
                            try acks.commitAndWrite(tracker)
                            try tracker.commit()
                            try await Task.sleep(for: .milliseconds(100))
                        }
                    }
                }
                waitingForRoom = false
                if ids.count == interactions.count, reading.notTakenWhileFull == nil { acks.add(.accepted(line: lineNumber, ids: ids)) }
            }
            if let error = timerFailure.error { throw error }
            if strict { try acks.commitAndWrite(tracker) }
        }
        try acks.commitAndWrite(tracker)
        if let error = timerFailure.error { throw error }
        acks.reportFinal()
        return reading
    }

    /// Why a line that had arrived was not taken: the journal stayed full for the deadline after `signal`.
    private static func notTakenReason(_ signal: String, journaled: Int, of events: Int) -> String {
        var reason = "not taken: the journal stayed full for the deadline after \(signal); send it again"
        if journaled > 0 {
            reason += " (\(journaled) of its \(events) events had been journaled and are delivered all the same)"
        }
        return reason
    }

    /// Line numbers as ranges: `3, 7-9`.
    static func lineRanges(_ lines: [Int]) -> String {
        var ranges: [String] = []
        var start = lines.first ?? 0, end = start
        for line in lines.dropFirst() {
            if line == end + 1 { end = line; continue }
            ranges.append(start == end ? "line \(start)" : "lines \(start)-\(end)")
            start = line
            end = line
        }
        if !lines.isEmpty { ranges.append(start == end ? "line \(start)" : "lines \(start)-\(end)") }
        return ranges.joined(separator: ", ")
    }
}

/// The first error the acknowledgement timer met (the disk), for the reading loop to end with.
private final class LockedError: @unchecked Sendable {
    private let lock = NSLock()
    private var first: (any Error)?
    var error: (any Error)? { lock.withLock { first } }
    func set(_ error: any Error) { lock.withLock { if first == nil { first = error } } }
}
