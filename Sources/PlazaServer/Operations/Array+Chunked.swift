import Foundation

extension Array {
    /// The elements in runs of at most `size`: a statement's binds stay well under both engines' limits.
    func chunked(by size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
