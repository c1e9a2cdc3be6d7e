import Foundation

/// Instruction counts under callgrind (valgrind), which are the same on a loaded machine as on an idle
/// one. Valgrind runs the benchmark's own executable in its `work` mode, counting only
/// `recokitMeasuredRegion`, and Python's parsers by the difference between a run with and without the
/// measured calls.
enum Callgrind {
    /// valgrind's path, nil when it is not installed.
    static let valgrind: String? = which("valgrind")

    /// The instructions valgrind collected running `arguments`, counting only inside functions matching
    /// `toggle` when given.
    static func instructions(_ arguments: [String], toggle: String? = nil) throws -> Double? {
        guard let valgrind else { return nil }
        var options = ["--tool=callgrind", "--callgrind-out-file=/dev/null"]
        if let toggle { options.append("--toggle-collect=\(toggle)") }
        let (status, _, errors) = try run(valgrind, options + arguments)
        guard status == 0 else {
            FileHandle.standardError.write(Data("valgrind \(arguments.joined(separator: " ")) failed (\(status)): \(errors.suffix(600))\n".utf8))
            return nil
        }
        // "==123== Collected : 45678901"
        guard let line = errors.split(separator: "\n").last(where: { $0.contains("Collected :") }),
              let number = line.split(separator: ":").last.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) })
        else { return nil }
        return number
    }

    /// Runs a program to its end; its status, standard output and standard error.
    static func run(_ path: String, _ arguments: [String]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read both to the end before waiting, so a full pipe never blocks the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    /// The full path of a program on the PATH, nil when there is none.
    static func which(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in paths {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}

/// Python's parsers on the same bytes, where Python (and orjson) are installed.
enum PythonParsers {
    /// The Python interpreter itself (not a shim script, which valgrind would measure instead).
    static let python: String? = {
        guard let shim = Callgrind.which("python3"),
              let (status, output, _) = try? Callgrind.run(shim, ["-c", "import sys; print(sys.executable)"]), status == 0
        else { return nil }
        let path = output.trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty ? nil : path
    }()

    static let hasOrjson: Bool = {
        guard let python, let (status, _, _) = try? Callgrind.run(python, ["-c", "import orjson"]) else { return false }
        return status == 0
    }()

    /// Loads the file, parses it once to warm up, then `repeats` more times.
    static let script = """
        import sys, json
        mode, repeats, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
        data = open(path, 'rb').read()
        if mode == 'orjson':
            import orjson
            loads = orjson.loads
        else:
            loads = json.loads
        loads(data)
        for _ in range(repeats):
            loads(data)
        """

    /// Instructions per parse of `file` by `mode` (`json` or `orjson`): the difference between a run
    /// with `repeats` parses after the warm-up and a run with none, divided by `repeats`.
    static func instructionsPerParse(_ mode: String, file: String, repeats: Int) throws -> Double? {
        guard let python else { return nil }
        guard let with = try Callgrind.instructions([python, "-c", script, mode, "\(repeats)", file]),
              let without = try Callgrind.instructions([python, "-c", script, mode, "0", file])
        else { return nil }
        return (with - without) / Double(repeats)
    }
}
