import Foundation
import PlazaCore

/// Finds the fields behind Foundation's "not valid JSON" for valid JSON whose number does not fit its field
/// (`"amount": 1.5`, or a whole number beyond Int64): its `JSONDecoder` reports those with no coding path at all.
enum NumberFields {
    private enum Step {
        case key(String)
        case index(Int)
    }

    /// The dotted paths (`points.3.accuracy`) of the numbers that `T` cannot take, or nil when the body is not JSON
    /// or its trouble is something else. Runs only on a failed decode: a few decodes of a small body.
    static func misfits<T: Decodable>(_ type: T.Type, in data: Data) -> [String]? {
        guard let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        var candidates: [(path: [Step], value: Any)] = []
        collect(root, path: [], into: &candidates)
        guard !candidates.isEmpty, candidates.count <= 64 else { return nil }
        // With every fractional or huge number set to 0 the body must decode; then each one put back alone that breaks
        // it again is at fault.
        let zeroed = candidates.reduce(root) { replacing($0, at: $1.path[...], with: 0) }
        guard decodes(T.self, zeroed) else { return nil }
        return candidates.filter { !decodes(T.self, replacing(zeroed, at: $0.path[...], with: $0.value)) }.map {
            candidate in
            candidate.path.map { step -> String in
                switch step {
                case .key(let key): key
                case .index(let index): String(index)
                }
            }.joined(separator: ".")
        }
    }

    private static func decodes<T: Decodable>(_ type: T.Type, _ value: Any) -> Bool {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) else {
            return false
        }
        do {
            _ = try PlazaJSON.decoder().decode(T.self, from: data)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            return false
        } catch {
            // Another problem (a missing field, say) is reported by the ordinary path, not as a number.
        }
        return true
    }

    private static func collect(_ value: Any, path: [Step], into candidates: inout [(path: [Step], value: Any)]) {
        switch value {
        case let object as [String: Any]:
            for (key, child) in object { collect(child, path: path + [.key(key)], into: &candidates) }
        case let array as [Any]:
            for (index, child) in array.enumerated() { collect(child, path: path + [.index(index)], into: &candidates) }
        case is Bool, is String:
            break
        case let number as NSNumber
        where Int64(exactly: number.doubleValue) == nil || number.doubleValue.magnitude >= 9.2e18:
            candidates.append((path, value))
        default:
            break
        }
    }

    private static func replacing(_ value: Any, at path: ArraySlice<Step>, with replacement: Any) -> Any {
        guard let step = path.first else { return replacement }
        switch (step, value) {
        case (.key(let key), var object as [String: Any]):
            object[key] = object[key].map { replacing($0, at: path.dropFirst(), with: replacement) }
            return object
        case (.index(let index), var array as [Any]) where array.indices.contains(index):
            array[index] = replacing(array[index], at: path.dropFirst(), with: replacement)
            return array
        default:
            return value
        }
    }
}
