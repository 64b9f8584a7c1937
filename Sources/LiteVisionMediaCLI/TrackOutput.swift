import ArgumentParser
import LiteVision
import LiteVisionCommandSupport
import LiteVisionSystem

/// How `litevision track` prints and writes what it found: the line per frame, MOTChallenge rows, and the output
/// files, written whole or not at all.
enum TrackOutput {
    /// One MOTChallenge row: `frame,id,x,y,w,h,score,-1,-1,-1` (`frame` counted from 1).
    static func motRow(frame: Int, object: DetectedObject) -> String {
        let f = object.frame
        return "\(frame),\(object.trackingID ?? -1),\(fixed(Float(f.x), digits: 2)),\(fixed(Float(f.y), digits: 2)),"
            + "\(fixed(Float(f.width), digits: 2)),\(fixed(Float(f.height), digits: 2)),\(fixed(object.detectionConfidence, digits: 4)),-1,-1,-1"
    }

    /// The line printed for a frame without an output option: `frame N: #id label (x,y wxh)  …`, or `-`.
    static func summary(frame: Int, objects: [DetectedObject]) -> ConsoleText {
        let items = objects.map { object in
            "#\(object.trackingID ?? -1) \((object.labels.first ?? object.detectorLabel).map { "\($0.text) " } ?? "")"
                + "(\(Int(object.frame.x)),\(Int(object.frame.y)) \(Int(object.frame.width))x\(Int(object.frame.height)))"
        }
        // The labels' texts are escaped as one interpolated value.
        return "frame \(frame): \(items.isEmpty ? "-" : items.joined(separator: "  "))"
    }

    /// The temporary file of the output `path` (renamed to `path` by ``commit(_:to:)``); a folder that is missing or
    /// cannot be written is printed and ends the command with status 2.
    static func openFile(_ path: String) throws -> AtomicFile {
        do throws(SystemError) {
            return try AtomicFile(path: path)
        } catch {
            Console.error("litevision: \(VisionError.fileNotWritable(path: path, reason: error.reason))")
            throw ExitCode(2)
        }
    }

    /// Writes `text` to the temporary `file` and renames it over its path: never a half-written file.
    static func commit(_ text: String, to file: AtomicFile) throws {
        do throws(SystemError) {
            try file.write(Array(text.utf8))
            try file.commit()
        } catch {
            throw VisionError.fileNotWritable(path: file.path, reason: error.reason)
        }
    }
}
