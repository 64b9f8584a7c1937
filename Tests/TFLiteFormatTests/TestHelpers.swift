import LiteVisionTestSupport
import Testing
import TFLiteFormat

/// Runs `body` and returns the ModelFileError it throws, or nil when it succeeds.
/// Any other error fails the test: the library only throws ModelFileError.
func thrownError<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) -> ModelFileError? {
    do {
        _ = try body()
        return nil
    } catch let error as ModelFileError {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

extension ModelFileError {
    /// The case's name, to compare kinds of errors without their messages.
    var kind: String {
        switch self {
        case .unreadableFile: return "unreadableFile"
        case .empty: return "empty"
        case .notATFLiteModel: return "notATFLiteModel"
        case .truncatedOrCorrupt: return "truncatedOrCorrupt"
        case .malformed: return "malformed"
        case .malformedMetadata: return "malformedMetadata"
        case .malformedAssociatedFiles: return "malformedAssociatedFiles"
        case .unsupportedAssociatedFile: return "unsupportedAssociatedFile"
        case .missingAssociatedFile: return "missingAssociatedFile"
        case .tooManyLabels: return "tooManyLabels"
        }
    }
}

/// Loads a shared model's bytes once per call site.
func modelBytes(_ name: String) throws -> [UInt8] {
    let path = TestData.model(name)
    guard let handle = FileHandleReader(path: path) else { throw FixtureError("cannot read \(path)") }
    return handle.bytes
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Reads a file with the library's own reader path avoided, so fixtures do not depend on the code under test.
struct FileHandleReader {
    var bytes: [UInt8]
    init?(path: String) {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { break }
            result += chunk[0..<count]
        }
        bytes = result
    }
}

import LiteVisionSystem
