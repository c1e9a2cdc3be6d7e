#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RecoDestinations
import RecoHTTP
import RecoKit
import RecoTracking
import RecoVendors

/// `relay`: reads interactions as JSON lines on stdin, keeps them in a store, and delivers them to a
/// vendor; `--drain` delivers what the store holds and exits, `--deliver-only` delivers until a signal.
///
/// Each line is one JSON object in the format of ``RecoKit/Interaction/init(jsonLine:now:)``, or, with
/// `--vendor segmentify`, a Segmentify event object or array of them (see ``RelayLine``). Every line gets
/// one acknowledgement on stdout (or in the `--acks` file), written once the line is durable in the
/// store (see ``RelayAcknowledgements``): `{"line":N,"ids":[…]}` or `{"line":N,"refused":"…"}`.
/// Progress goes to stderr: `accepted N` after every 1,000 acknowledged events, every quarter second
/// while events trickle in, and at the end of input, then a summary line.
///
/// `recokit relay` runs it over a journal (``journal``); a program of another package runs it over a
/// store of its own with ``run(program:_:store:transport:)``.
public enum Relay {
    /// The whole `--help` text of `PROGRAM relay` over `store`.
    public static func usage(program: String, store: Store) -> String {
        """
        Usage: \(program) relay \(store.synopsis) --vendor segmentify|reteno --endpoint URL
                   [--api-key KEY] [--origin DOMAIN] [--durability strict|batched] [--deadline SECONDS]
                   [--acks FILE] [--request-timeout SECONDS] [--drain | --deliver-only]

        Reads one interaction per line on stdin, keeps it in the \(store.noun), and delivers it to the vendor
        at URL (a base URL: Segmentify's data center, or Reteno's API host; a local server can stand in).

        Acknowledgements (the contract): one JSON line per input line on stdout (or in --acks FILE), in
        input order, written only once the line's events are durable in the \(store.noun) (they survive a crash
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

        When the \(store.noun) is full (--max-journal-bytes), the relay stops reading stdin until delivery
        makes room.

        Stopping: SIGTERM, SIGINT or SIGHUP (a terminal or SSH session going away) ends the input at
        what has arrived: the lines already read or waiting in stdin are kept and acknowledged, then
        delivered until --deadline, as at the end of input (a line without its end is not taken, and the
        run exits 1). If the \(store.noun) is full, the relay waits at most --deadline after the signal for
        room; then the lines that had arrived and are not kept are refused ("not taken: the \(store.noun)
        stayed full …"), and the run exits 1. A second signal, or one after the input ended, stops the
        relay at once, as do SIGKILL and SIGQUIT; what was acknowledged stays in the \(store.noun). A signal
        stops --drain at once, saying so; what was not delivered stays in the \(store.noun). A signal while the
        journal opens (a large one takes seconds) counts from when it is open.

        Options:
        \(store.optionsHelp)
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
          --drain              deliver what the \(store.noun) holds without reading stdin, then exit
          --deliver-only       deliver without reading stdin until a signal, then for --deadline more
                               (a process that only delivers what others append)

        Exit status: 0 when every line was accepted (events still pending at the deadline stay in the
        journal for the next run or --drain); 1 when some lines were malformed or invalid (every other
        line was kept and delivered as far as the deadline allowed), or when the \(store.noun)'s disk
        failed (full, or an I/O error: the relay stops at once, names the error, and acknowledges no line
        after it), or when damage was found in the \(store.noun) while running (`relay: journal damage: …`
        names the file and byte range; only the damaged records are lost) or at start (`relay: journal
        recovery: …`; a torn tail there, the mark of an interrupted write that no acknowledgement
        covered, is reported but no failure: a record cut short at a file's end, or the zeros a power
        loss leaves where blocks were never written), or when acknowledgements could not be written (the
        reader of stdout went away, the --acks file's disk is full: the relay says from which line, reads
        no more input, and delivers what it kept), or when stdin could not be read to its end (the
        system's reason; what was read before is kept and delivered), or when the \(store.noun)'s disk
        failed while delivering (a batch not read back, a checkpoint or dead letters not written: tried
        again, nothing lost, `relay: disk errors while delivering: …`); 2 for a wrong command line.
        """
    }

    /// Runs `PROGRAM relay` with the words after `relay`; returns the exit status: 0 when every line was
    /// accepted, 1 for a failure of the run (said on standard error), 2 for a wrong command line.
    public static func run(program: String, _ words: [String], store: Store, transport: any Transport) async -> Int32 {
        do {
            return try await relay(words, store: store, transport: transport)
        } catch let error as UsageError {
            Console.error("error: \(error.description)")
            Console.error("see '\(program) help relay'")
            return 2
        } catch {
            Console.error("error: \(FileProblem.reason(error))")
            return 1
        }
    }

    static func relay(_ words: [String], store kind: Store, transport: any Transport) async throws -> Int32 {
        let arguments = try Arguments(words, options: kind.options.union(["vendor", "endpoint", "api-key", "origin", "durability", "deadline",
                                                                          "acks", "request-timeout"]),
                                      flags: kind.flags.union(["drain", "deliver-only"]))
        // Every word is checked before anything is said or opened: a usage error comes first, alone.
        let endpoint = try endpointURL(arguments.value("endpoint"))
        let deadline = Duration.milliseconds(Int64(try deadline(arguments.value("deadline")) * 1000))
        let requestTimeout = try requestTimeout(arguments.value("request-timeout"))
        let apiKey = arguments.value("api-key") ?? ""
        let vendor = arguments.value("vendor") ?? ""
        let destination: any TrackingDestination
        switch vendor {
        case "segmentify":
            destination = SegmentifyDestination(dataCenter: endpoint, apiKey: apiKey, origin: arguments.value("origin") ?? endpoint.host ?? "localhost")
        case "reteno":
            destination = RetenoDestination(base: endpoint, accessKey: apiKey)
        default:
            throw UsageError("--vendor must be segmentify or reteno")
        }
        let strict: Bool
        switch arguments.value("durability") ?? "batched" {
        case "strict": strict = true
        case "batched": strict = false
        case let other: throw UsageError("--durability must be strict or batched, not \(other)")
        }
        let readsInput = !arguments.flag("drain") && !arguments.flag("deliver-only")
        if arguments.flag("drain"), arguments.flag("deliver-only") { throw UsageError("--drain and --deliver-only do not go together") }
        let options = Options(values: Dictionary(uniqueKeysWithValues: kind.options.compactMap { name in arguments.value(name).map { (name, $0) } }),
                              flags: kind.flags.filter { arguments.flag($0) })
        try kind.check(options)
        if apiKey.isEmpty {
            Console.error("relay: no --api-key given; a real vendor will refuse the events (they stay in the \(kind.noun))")
        }
        // Where acknowledgements go is settled before the store is opened (a relay that cannot write them
        // stops here, with nothing taken).
        let acksPath = arguments.value("acks")
        let acksDescriptor = readsInput ? try acknowledgementDescriptor(acksPath) : nil
        // Taken before the store opens, which can take seconds: a stop meanwhile must not kill the relay
        // with the lines in its pipe.
        let signals = RelaySignals(noun: kind.noun)
        let opened = try await kind.open(options)
        for line in opened.report { Console.error("relay: \(line)") }
        var configuration = TrackerConfiguration()
        configuration.flushInterval = .milliseconds(200)
        configuration.requestTimeout = requestTimeout
        configuration.drainDeadline = deadline
        let tracker = Tracker(destination: destination, store: opened.store, configuration: configuration, transport: transport)
        let outcome = try await withThrowingTaskGroup(of: Void.self) { group -> Outcome in
            group.addTask { try await tracker.run() }
            var outcome = Outcome()
            if let acksDescriptor {
                outcome = try await read(into: tracker, vendor: vendor, strict: strict, acksDescriptor: acksDescriptor, acksPath: acksPath,
                                         signals: signals, deadline: deadline, noun: kind.noun, group: &group)
                // After a wait for room that used up the deadline, what is kept gets no more time.
                if outcome.gaveUpWaitingForRoom { tracker.drain(within: .zero) }
            } else if arguments.flag("deliver-only") {
                // Until a signal; the first drains until the deadline, a second stops at once.
                await signals.delivering()
            } else {
                // A drain stops at a signal, saying so (the signals' default would stop it without a word).
                signals.draining()
            }
            group.cancelAll()
            try await group.waitForAll()
            return outcome
        }
        withExtendedLifetime(signals) {}
        let statistics = tracker.statistics
        var line = "relay: delivered \(statistics.delivered), pending \(statistics.pending), dead-lettered \(statistics.deadLettered), "
            + "malformed \(outcome.malformed)"
        if let lastError = statistics.lastError, statistics.pending > 0 { line += "; last error: \(lastError)" }
        Console.error(line)
        // Damage met while running and a disk error are failures of the run, whatever else went well.
        for damage in statistics.damage { Console.error("relay: \(kind.noun) damage: \(damage)") }
        if let diskError = statistics.diskError { Console.error("relay: disk error: \(diskError)") }
        if let trouble = statistics.deliveryDiskError {
            Console.error("relay: disk errors while delivering: \(statistics.deliveryDiskErrors), each tried again (nothing was lost); the last: \(trouble)")
        }
        return outcome.malformed > 0 || outcome.unacknowledged || opened.damaged || !statistics.damage.isEmpty || statistics.diskError != nil
            || statistics.deliveryDiskErrors > 0 ? 1 : 0
    }

    /// What reading the input came to.
    struct Outcome {
        /// Lines refused as not valid.
        var malformed = 0
        /// Whether some line that arrived got no acceptance (not taken, or its acknowledgement unwritten).
        var unacknowledged = false
        /// Whether the run gave up waiting for room in a full store after a signal.
        var gaveUpWaitingForRoom = false
    }

    /// Reads stdin to its end, acknowledging as it goes, and says what it came to on standard error.
    private static func read(into tracker: Tracker, vendor: String, strict: Bool, acksDescriptor: Int32, acksPath: String?,
                             signals: RelaySignals, deadline: Duration, noun: String,
                             group: inout ThrowingTaskGroup<Void, any Error>) async throws -> Outcome {
        let input = RelayInput()
        signals.reading(input)
        let acks = RelayAcknowledgements(descriptor: acksDescriptor,
                                         destination: acksPath.map { $0 == "-" ? "stdout" : "--acks \($0)" } ?? "stdout", input: input)
        // Commits every 100 ms while lines wait, so a burst followed by silence is acknowledged without
        // waiting for the next line.
        let timerFailure = LockedError()
        group.addTask {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                do { try await acks.commitAndWrite(tracker) } catch { timerFailure.set(error) }
            }
        }
        let read = try await relay(input, into: tracker, vendor: vendor, strict: strict, acks: acks, signals: signals,
                                   deadline: deadline, noun: noun, timerFailure: timerFailure)
        var outcome = Outcome(malformed: read.malformed)
        signals.inputEnded()
        if let notTaken = read.notTakenWhileFull {
            outcome.unacknowledged = true
            outcome.gaveUpWaitingForRoom = true
            Console.error("relay: \(notTaken.signal): the \(noun) stayed full for the deadline after the signal; "
                          + "\(notTaken.lines.count) \(notTaken.lines.count == 1 ? "line" : "lines") that had arrived "
                          + "(\(lineRanges(notTaken.lines))) were not taken, each acknowledged as refused: send them again")
        }
        if let signal = signals.endedInput, let bytes = input.unfinishedLineBytes, bytes > 0 {
            outcome.unacknowledged = true
            Console.error("relay: \(signal): a line of \(bytes) bytes had not ended when the input stopped; it was not taken (send it again)")
        }
        if let failure = input.readFailure {
            outcome.unacknowledged = true
            Console.error("relay: cannot read stdin: \(failure); no more input was read (a line without an "
                          + "acknowledgement was not taken: send it again)")
        }
        if let failure = acks.writeFailure {
            outcome.unacknowledged = true
            Console.error("relay: \(failure); no more input was read (send the lines without one again; "
                          + "those kept are delivered all the same, so the vendor may get them twice)")
        }
        return outcome
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
        guard let text else { return TrackerConfiguration().requestTimeout }
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0.1, seconds <= 600 else {
            throw UsageError("--request-timeout is a number of seconds from 0.1 to 600, not \"\(text)\"")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
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
        /// Lines that had arrived when a signal ended the input and were not taken because the store
        /// stayed full for the deadline after it, and the signal's name.
        var notTakenWhileFull: (signal: String, lines: [Int])?
    }

    /// Reads `input` (stdin) to its end, or until acknowledgements cannot be written.
    ///
    /// Takes every line that has arrived at once: keeps their events without waiting for the disk,
    /// then (strict) one commit for all of them, then their acknowledgements. In batched mode the
    /// acknowledgement timer commits every 100 ms instead, so a fast stream pays fewer fsyncs. The timer
    /// runs in both modes: a burst followed by silence is acknowledged without waiting for the next line.
    ///
    /// While the journal is full it waits for delivery to make room, however long that takes; once a
    /// signal has ended the input, for `deadline` after the signal at most. Then every line that had
    /// arrived and is not yet journaled is refused (its acknowledgement says why), so none goes without
    /// an answer.
    private static func relay(_ input: RelayInput, into tracker: Tracker, vendor: String, strict: Bool, acks: RelayAcknowledgements,
                              signals: RelaySignals, deadline: Duration, noun: String, timerFailure: LockedError) async throws -> Reading {
        var reading = Reading()
        var lineNumber = 0
        var waitingForRoom = false
        while let lines = await input.next() {
            for entry in lines {
                lineNumber += 1
                if let notTaken = reading.notTakenWhileFull {
                    if case .text(let line) = entry, line.allSatisfy(\.isWhitespace) { continue }
                    reading.notTakenWhileFull?.lines.append(lineNumber)
                    acks.add(.refused(line: lineNumber, reason: notTakenReason(notTaken.signal, journaled: 0, of: 0, noun: noun)))
                    continue
                }
                guard case .text(let line) = entry else {
                    let reason = switch entry {
                    case .tooLong(let bytes): "a line of \(bytes) bytes, more than \(RelayInput.maximumLineBytes) (the \(noun)'s largest record)"
                    case .invalidUTF8(let offset): "invalid UTF-8 at byte \(offset + 1) of the line"
                    case .text: ""
                    }
                    reading.malformed += 1
                    Console.error("relay: line \(lineNumber): \(reason), skipped")
                    acks.add(.refused(line: lineNumber, reason: reason))
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
                            ids.append(try tracker.track(interaction))
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
                                acks.add(.refused(line: lineNumber, reason: notTakenReason(signal, journaled: ids.count, of: interactions.count, noun: noun)))
                                ids = []
                                break tracking
                            }
                            if !waitingForRoom { Console.error("relay: the \(noun) is full; waiting for delivery to make room") }
                            waitingForRoom = true
                            // Delivery takes only durable events: commit what waits before waiting.
                            try await acks.commitAndWrite(tracker)
                            try await tracker.commit()
                            try await Task.sleep(for: .milliseconds(100))
                        }
                    }
                }
                waitingForRoom = false
                if ids.count == interactions.count, reading.notTakenWhileFull == nil { acks.add(.accepted(line: lineNumber, ids: ids)) }
            }
            if let error = timerFailure.error { throw error }
            if strict { try await acks.commitAndWrite(tracker) }
        }
        try await acks.commitAndWrite(tracker)
        if let error = timerFailure.error { throw error }
        await acks.reportFinal()
        return reading
    }

    /// Why a line that had arrived was not taken: the journal stayed full for the deadline after `signal`.
    private static func notTakenReason(_ signal: String, journaled: Int, of events: Int, noun: String) -> String {
        var reason = "not taken: the \(noun) stayed full for the deadline after \(signal); send it again"
        if journaled > 0 {
            reason += " (\(journaled) of its \(events) events had been kept and are delivered all the same)"
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
final class LockedError: @unchecked Sendable {
    private let lock = NSLock()
    private var first: (any Error)?
    var error: (any Error)? { lock.withLock { first } }
    func set(_ error: any Error) { lock.withLock { if first == nil { first = error } } }
}
