extension String {
    /// The Levenshtein distance to `other`: the fewest single-character insertions, deletions and
    /// substitutions that turn one into the other. Used for "Did you mean …?" suggestions.
    func editDistance(to other: String) -> Int {
        let a = Array(self), b = Array(other)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The candidate closest to this string when it is close enough to be a likely typo.
    func closest(in candidates: [String]) -> String? {
        // swift-argument-parser's empirical floor: suggest only below an edit distance of 4.
        candidates
            .map { ($0, editDistance(to: $0)) }
            .filter { $0.1 < 4 }
            .min { $0.1 < $1.1 }?.0
    }
}
