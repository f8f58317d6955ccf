import Foundation

/// A seeded mutation fuzzer: takes seed files (the real data and the fixtures), mutates them
/// (bit flips, byte changes, deletions, duplications, JSON tokens, nesting, invalid UTF-8,
/// truncation, splices) and feeds each result to every `FuzzTarget`. The same seed gives the
/// same inputs, so a crash at iteration N is reproduced with `--seed S --skip N`.
public struct FuzzRunner {
    public struct Statistics: Sendable {
        public var inputs = 0
        public var executions = 0
        public var seconds = 0.0
    }

    public var seeds: [Data]
    public var targets: [FuzzTarget]
    public var seed: UInt64
    /// Mutated inputs larger than this are cut (keeps each execution fast).
    public var maxInputBytes = 256 * 1024

    public init(seeds: [Data], targets: [FuzzTarget] = FuzzTargets.all, seed: UInt64) {
        self.seeds = seeds.isEmpty ? [Data("{}".utf8)] : seeds
        self.targets = targets
        self.seed = seed
    }

    /// Runs until `iterations` inputs or `seconds` have passed, whichever comes first.
    /// `before` sees each input before it runs (to save it in case of a crash).
    public func run(iterations: Int, seconds: Double, skip: Int = 0, before: (Int, Data) -> Void = { _, _ in }) -> Statistics {
        var random = SplitMix64(seed: seed)
        var statistics = Statistics()
        let start = Date()
        var iteration = 0
        while iteration < skip + iterations {
            let input = mutate(seeds[Int(random.next() % UInt64(seeds.count))], random: &random)
            iteration += 1
            if iteration <= skip { continue }
            before(iteration, input)
            for target in targets { target.run(input) }
            statistics.inputs += 1
            statistics.executions += targets.count
            if iteration % 16 == 0, Date().timeIntervalSince(start) >= seconds { break }
        }
        statistics.seconds = Date().timeIntervalSince(start)
        return statistics
    }

    static let tokens: [String] = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud800", "\\udc00", "null", "true", "NaN", "Infinity", "-Infinity",
        "1e999", "-0", "0.", "1e", "01", "-", "\"latitude\": ", "\"idPlus\": {}", "\"clubs\": [", "\"members\": [",
        "\"coordinates\": {\"latitude\": 91, \"longitude\": 181}", "\"level1URLIncludes\": [\"x.level1.json\"]",
        "\"expertises\": [\"", "\"remark\": [{\"language\": \"", "\u{0}", "\n", "\t", "é", "😀",
    ]

    func mutate(_ seed: Data, random: inout SplitMix64) -> Data {
        var bytes = [UInt8](seed.prefix(maxInputBytes))
        let count = 1 + Int(random.next() % 4)
        for _ in 0..<count {
            let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count + 1))
            switch random.next() % 11 {
            case 0:  // flip a bit
                if position < bytes.count { bytes[position] ^= 1 << UInt8(random.next() % 8) }
            case 1:  // random byte
                if position < bytes.count { bytes[position] = UInt8(truncatingIfNeeded: random.next()) }
            case 2:  // delete a range
                let length = min(bytes.count - position, Int(random.next() % 64))
                bytes.removeSubrange(position..<(position + length))
            case 3:  // duplicate a range
                let length = min(bytes.count - position, Int(random.next() % 256))
                bytes.insert(contentsOf: bytes[position..<(position + length)], at: position)
            case 4, 5:  // insert a JSON token
                let token = Self.tokens[Int(random.next() % UInt64(Self.tokens.count))]
                bytes.insert(contentsOf: Array(token.utf8), at: position)
            case 6:  // deep nesting
                let depth = Int(random.next() % 1_200)
                let open: UInt8 = random.next() % 2 == 0 ? UInt8(ascii: "[") : UInt8(ascii: "{")
                bytes.insert(contentsOf: [UInt8](repeating: open, count: depth), at: position)
            case 7:  // invalid UTF-8
                let junk: [[UInt8]] = [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF8, 0x88, 0x80, 0x80, 0x80]]
                bytes.insert(contentsOf: junk[Int(random.next() % UInt64(junk.count))], at: position)
            case 8:  // truncate
                bytes.removeSubrange(position..<bytes.count)
            case 9:  // splice in part of another seed
                let other = [UInt8](seeds[Int(random.next() % UInt64(seeds.count))])
                if !other.isEmpty {
                    let from = Int(random.next() % UInt64(other.count))
                    let length = min(other.count - from, Int(random.next() % 512))
                    bytes.insert(contentsOf: other[from..<(from + length)], at: position)
                }
            default:  // quote a number: 51.4 -> "51.4"
                if let digit = bytes[position...].firstIndex(where: { $0 >= 0x30 && $0 <= 0x39 }) {
                    var end = digit
                    while end < bytes.count, (0x30...0x39).contains(bytes[end]) || bytes[end] == UInt8(ascii: ".") { end += 1 }
                    bytes.insert(UInt8(ascii: "\""), at: end)
                    bytes.insert(UInt8(ascii: "\""), at: digit)
                }
            }
        }
        if bytes.count > maxInputBytes { bytes.removeSubrange(maxInputBytes...) }
        return Data(bytes)
    }
}

/// SplitMix64 (Steele, Lea & Flood 2014): small, fast, seedable.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
