import Foundation
import LiteVisionCommandSupport
import LiteVisionTestSupport
import Testing

/// Negative numbers after options reach the options' own rules instead of being read as options.
@Suite("Negative numbers as option values")
struct NegativeNumberArgumentsTests {
    @Test("A negative decimal number after a long option is joined to it; other words are left as they are")
    func joined() {
        #expect(
            NegativeNumberArguments.joined(["track", "--frame-rate", "-1", "--threshold", "-.5", "a.mp4"])
                == ["track", "--frame-rate=-1", "--threshold=-.5", "a.mp4"])
        #expect(NegativeNumberArguments.joined(["--x", "-1e3", "--y", "-0.25"]) == ["--x=-1e3", "--y=-0.25"])
        // Not numbers, not decimal, an option with its value given, a short word, and everything after `--`.
        let kept = [
            ["--json", "-", "--mot", "-x"], ["--a", "-0x10"], ["--a", "-1a"], ["--a", "-nan"], ["--a=1", "-2"],
            ["-v", "-1"], ["--", "--a", "-1"], ["--a"], ["--a", "--b", "-"],
        ]
        for words in kept { #expect(NegativeNumberArguments.joined(words) == words, "\(words)") }
        #expect(NegativeNumberArguments.joined(["--a", "-1", "--", "--b", "-2"]) == ["--a=-1", "--", "--b", "-2"])
    }

    @Test("track --frame-rate -1, --threshold -0.5 and models download --wait-limit -1 are refused by their own rules")
    func ownRules() throws {
        let folder = TestData.temporaryDirectory("cli-negative-numbers")
        defer { try? FileManager.default.removeItem(at: folder) }
        let detections = folder.appendingPathComponent("det.txt")
        try "1,-1,10,20,30,40,0.9\n".write(to: detections, atomically: true, encoding: .utf8)
        let rate = try LiteVisionExecutable.run(["track", "--detections", detections.path, "--frame-rate", "-1"])
        #expect(rate.status == 64)
        #expect(rate.errors.contains("--frame-rate must be a number of frames per second from 0.001"), "\(rate.errors)")
        let threshold = try LiteVisionExecutable.run(["track", "--detections", detections.path, "--threshold", "-0.5"])
        #expect(threshold.status == 64)
        #expect(threshold.errors.contains("--threshold must be between 0 and 1, got -0.5"), "\(threshold.errors)")
        let device = try LiteVisionExecutable.run(["track", "--device-frame-rate", "-1", "/dev/video0"])
        #expect(device.status == 64)
        #expect(
            device.errors.contains("--device-frame-rate must be a number of frames per second above 0, up to 1000"),
            "\(device.errors)")
        // An option that had no rule because a negative number never reached it: refused before any connection.
        for limit in ["-1", "0", "nan", "inf", "2592001"] {
            let wait = try LiteVisionExecutable.run([
                "models", "download", "--registry", "http://127.0.0.1:1", "--wait", "--wait-limit", limit, "m",
            ])
            #expect(wait.status == 64, "\(limit)")
            #expect(wait.errors.contains("--wait-limit must be a number of seconds above 0"), "\(wait.errors)")
        }
    }
}
