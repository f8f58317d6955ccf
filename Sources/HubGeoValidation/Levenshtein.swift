/// Edit distances, for "did you mean" suggestions.
package enum Levenshtein {
    /// The number of single-character insertions, deletions and substitutions between `a` and `b`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The candidate nearest to `word` (ignoring case), when it is close enough to be a likely
    /// typo: at most a third of the word's length, and at least 1.
    package static func nearest(to word: String, in candidates: some Sequence<String>, maxDistance: Int? = nil) -> String? {
        let lower = word.lowercased()
        let limit = maxDistance ?? max(2, word.count / 3)
        var best: (String, Int)?
        for candidate in candidates.sorted() {
            let d = distance(lower, candidate.lowercased())
            if d <= limit, d < (best?.1 ?? .max) { best = (candidate, d) }
        }
        return best?.0
    }
}
