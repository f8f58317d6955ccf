import Foundation
import HubGeoFuzzKit
#if canImport(Glibc)
import Glibc
#endif

// hubgeo-fuzz: the seeded mutation fuzzer over every FuzzTarget (see FuzzTargets.all).
// Usage: hubgeo-fuzz [--seconds S] [--iterations N] [--seed X] [--skip K] [--crash FILE] SEED_FILE_OR_DIR...
// Exit 0 with a summary when nothing crashed; a crash kills the process (non-zero), and the
// input that caused it is in --crash FILE (default fuzz-crash.bin).

var seconds = 60.0, iterations = Int.max, seed: UInt64 = 1, skip = 0, crashPath = "fuzz-crash.bin"
var paths: [String] = []
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--seconds": seconds = Double(arguments.next() ?? "") ?? seconds
    case "--iterations": iterations = Int(arguments.next() ?? "") ?? iterations
    case "--seed": seed = UInt64(arguments.next() ?? "") ?? seed
    case "--skip": skip = Int(arguments.next() ?? "") ?? skip
    case "--crash": crashPath = arguments.next() ?? crashPath
    default: paths.append(argument)
    }
}

var seedFiles: [Data] = []
for path in paths {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
    if isDirectory.boolValue {
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let name = enumerator?.nextObject() as? String {
            if name.hasSuffix(".json"), let data = FileManager.default.contents(atPath: path + "/" + name) { seedFiles.append(data) }
        }
    } else if let data = FileManager.default.contents(atPath: path) {
        seedFiles.append(data)
    }
}

// The current input lives in a fixed buffer so that a signal handler can write it out.
let bufferSize = 512 * 1024
nonisolated(unsafe) let crashBuffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 1)
nonisolated(unsafe) var crashLength = 0
nonisolated(unsafe) var crashFD: Int32 = -1
crashFD = open(crashPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
unlink(crashPath)  // recreated by the handler only when something crashes
for signal in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] {
    Glibc.signal(signal) { number in
        let fd = open(crashPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd >= 0 { _ = write(fd, crashBuffer, crashLength); close(fd) }
        let message = "hubgeo-fuzz: CRASH (signal \(number)); input saved\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        Glibc.signal(number, SIG_DFL)
        raise(number)
    }
}
if crashFD >= 0 { close(crashFD) }

let runner = FuzzRunner(seeds: seedFiles, seed: seed)
print("hubgeo-fuzz: \(seedFiles.count) seed files, targets \(FuzzTargets.all.map(\.name).joined(separator: ", ")), seed \(seed), budget \(seconds) s")
let statistics = runner.run(iterations: iterations, seconds: seconds, skip: skip) { _, input in
    crashLength = min(input.count, bufferSize)
    input.withUnsafeBytes { crashBuffer.copyMemory(from: $0.baseAddress!, byteCount: crashLength) }
}
print("hubgeo-fuzz: \(statistics.inputs) inputs (\(statistics.executions) target executions) in \(String(format: "%.1f", statistics.seconds)) s without a crash")
