/// Sorts 64-bit keys in ascending order: a least-significant-digit radix sort of 11-bit digits
/// over the bits the largest key uses (the builder's keys pack two numbers below 2^31), with the
/// standard sort for short arrays.
func radixSort(_ keys: inout [UInt64]) {
    guard keys.count > 512 else {
        keys.sort()
        return
    }
    let largest = keys.max()!
    let bits = 64 - largest.leadingZeroBitCount
    let digitBits = 11
    let passes = (bits + digitBits - 1) / digitBits
    guard passes > 0 else { return }
    var scratch = [UInt64](repeating: 0, count: keys.count)
    keys.withUnsafeMutableBufferPointer { keys in
        scratch.withUnsafeMutableBufferPointer { scratch in
            var source = keys, target = scratch
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 1 << digitBits) { counts in
                for pass in 0..<passes {
                    let shift = UInt64(pass * digitBits)
                    let mask = UInt64(1 << digitBits - 1)
                    counts.initialize(repeating: 0)
                    for key in source { counts[Int((key >> shift) & mask)] += 1 }
                    var offset = 0
                    for digit in 0..<(1 << digitBits) {
                        let count = counts[digit]
                        counts[digit] = offset
                        offset += count
                    }
                    for key in source {
                        let digit = Int((key >> shift) & mask)
                        target[counts[digit]] = key
                        counts[digit] += 1
                    }
                    swap(&source, &target)
                }
            }
            if passes % 2 == 1 { _ = keys.update(fromContentsOf: scratch) }
        }
    }
}
