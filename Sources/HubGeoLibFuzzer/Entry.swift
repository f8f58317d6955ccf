import Foundation
import HubGeoFuzzKit

// libFuzzer entry point over every FuzzTarget. Built for fuzzing with
//   swift build --product hubgeo-libfuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DHUBGEO_LIBFUZZER
// (libFuzzer then supplies `main`). In an ordinary build it is a reproducer instead:
//   hubgeo-libfuzzer FILE...   runs each file through every target.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    for target in FuzzTargets.all { target.run(data) }
    return 0
}

#if !HUBGEO_LIBFUZZER
@main
struct Reproducer {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            data.withUnsafeBytes { _ = fuzzTestOneInput($0.bindMemory(to: UInt8.self).baseAddress, data.count) }
            print("\(path): ok")
        }
    }
}
#endif
