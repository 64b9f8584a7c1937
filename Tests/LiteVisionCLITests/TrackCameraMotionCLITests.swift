import Foundation
import LiteVisionTestSupport
import Testing

/// `litevision track --detections FILE --camera-motion auto`: a moving camera's motion estimated from the boxes.
@Suite("litevision track --detections --camera-motion")
struct TrackCameraMotionCLITests {
    /// Six people standing still, seen by a camera panning at 16 px per frame that turns back every 20 frames
    /// (1280x720, 120 frames): rows and, for each row, its frame, person and x.
    static func panning() -> (rows: [String], people: [(frame: Int, person: Int, x: Double)]) {
        var rows: [String] = [], people: [(Int, Int, Double)] = []
        for frame in 1...120 {
            let phase = (16 * (frame - 1)) % 640
            let offset = Double(phase <= 320 ? phase : 640 - phase)
            for person in 0..<6 {
                let jitter = Double((frame * 7 + person * 3) % 5 - 2) * 0.5
                let x = 430 + 110 * Double(person) - offset + jitter
                let y = 250 + 15 * Double(person % 3) - jitter
                rows.append("\(frame),-1,\(x),\(y),36,90,0.9,-1,-1,-1")
                people.append((frame, person, x))
            }
        }
        return (rows, people)
    }

    /// Runs `track --detections` on the panning rows with `extra` arguments; returns each person's IDs.
    func idsOfPeople(_ extra: [String]) throws -> [Int: Set<Int>] {
        let folder = TestData.temporaryDirectory("cli-track-camera-motion")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (rows, people) = Self.panning()
        let detections = folder.appendingPathComponent("det.txt")
        try (rows.joined(separator: "\n") + "\n").write(to: detections, atomically: true, encoding: .utf8)
        let mot = folder.appendingPathComponent("out.txt").path
        let result = try LiteVisionExecutable.run(
            ["track", "--detections", detections.path, "--image-size", "1280x720", "--mot", mot] + extra)
        #expect(result.status == 0, "\(result.errors)")
        var ids: [Int: Set<Int>] = [:]
        for line in try String(contentsOfFile: mot, encoding: .utf8).split(separator: "\n") {
            let row = line.split(separator: ",").map(String.init)
            let frame = try #require(Int(row[0])), id = try #require(Int(row[1])), x = try #require(Double(row[2]))
            let person = try #require(people.first { $0.frame == frame && abs($0.x - x) < 0.01 }, "row \(row)")
            ids[person.person, default: []].insert(id)
        }
        return ids
    }

    @Test("A panning camera: one ID per person with --camera-motion auto, new IDs with the default (fixed)")
    func panning() throws {
        let auto = try idsOfPeople(["--camera-motion", "auto"])
        #expect(auto.count == 6 && auto.values.allSatisfy { $0.count == 1 }, "\(auto)")
        let fixed = try idsOfPeople([])
        #expect(fixed.values.filter { $0.count > 1 }.count >= 3, "\(fixed)")
        #expect(try idsOfPeople(["--camera-motion", "fixed"]) == fixed)
    }

    @Test("Bad values and --camera-motion without --detections are refused with a specific message")
    func badValues() throws {
        let cases: [([String], String)] = [
            (["--detections", "det.txt", "--camera-motion", "sideways"], "'sideways' is invalid for '--camera-motion"),
            (["--detections", "det.txt", "--camera-motion", ""], "is invalid for '--camera-motion"),
            (["--detections", "det.txt", "--camera-motion"], "Missing value for '--camera-motion"),
            (["--camera-motion", "auto", "video.mp4"], "--camera-motion goes with --detections"),
        ]
        for (arguments, message) in cases {
            let result = try LiteVisionExecutable.run(["track"] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.errors.contains(message), "\(arguments): \(result.errors)")
        }
    }
}
