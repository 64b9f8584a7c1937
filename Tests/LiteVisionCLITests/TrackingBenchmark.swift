import Foundation
import LiteVisionTestSupport
import Testing

/// The tracking benchmark's driver, `benchmarks/tracking_bench.py compare`: it makes a scene of
/// `benchmarks/tracking_scenes.py` and its seeded noisy detections, runs this `litevision track --detections` (with
/// each variant's extra arguments) and roboflow's trackers 2.6.1 on them, and scores every output with TrackEval
/// (`scripts/setup.sh --dev` installs them).
enum TrackingBenchmark {
    /// The scores of each tracker ("LiteVision", the variants' labels, then SORT, ByteTrack, OC-SORT and BoT-SORT):
    /// TrackEval's measures by name (HOTA, DetA, IDF1, ... in percent; counts as numbers). A failing driver is a
    /// recorded issue with its standard error, and a thrown error.
    /// `sceneSeed` makes another simulated scene of the sequence (0, the default, the benchmark's usual one); `level`
    /// is the noise model's level, "normal" or "heavy", or one of the other noise models ("U", "P", "Pp", "Ppp", "S",
    /// "Q": `tracking_scenes.OTHER_NOISE_MODELS`; "V", "W": `UNSEEN_NOISE_MODELS`; "Gn", "Gh", "Gp" for the `gen-*`
    /// scenes of `benchmarks/tracking_generic.py`); `frameStep` plays the sequence at 1/`frameStep` of its frame rate.
    static func compare(
        sequence: String, seed: Int, sceneSeed: Int = 0, level: String = "normal", frameStep: Int = 1,
        variants: [String] = []
    ) throws -> [String: [String: Double]] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../benchmarks/tracking_bench.py").standardized.path
        var arguments = [
            "python3", script, "compare", "--litevision", LiteVisionExecutable.path, "--sequence", sequence,
            "--seed", String(seed), "--scene-seed", String(sceneSeed), "--level", level, "--frame-step",
            String(frameStep),
        ]
        for variant in variants { arguments += ["--variant", variant] }
        let result = try LiteVisionExecutable.run(arguments, program: "/usr/bin/env")
        #expect(
            result.status == 0,
            "the benchmark driver failed (scripts/setup.sh --dev installs trackers, trackeval and motmetrics): \(result.errors)"
        )
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: [String: Double]])
    }

    /// Runs `compare` and expects LiteVision's HOTA and IDF1 at least each of the four peers'.
    static func expectAtLeastEveryPeer(
        sequence: String, seed: Int, sceneSeed: Int = 0, level: String = "normal", frameStep: Int = 1
    ) throws {
        let scores = try compare(
            sequence: sequence, seed: seed, sceneSeed: sceneSeed, level: level, frameStep: frameStep)
        let ours = try #require(scores["LiteVision"])
        for peer in ["SORT", "ByteTrack", "OC-SORT", "BoT-SORT"] {
            let theirs = try #require(scores[peer])
            #expect(try #require(ours["HOTA"]) >= #require(theirs["HOTA"]), "\(peer): \(scores)")
            #expect(try #require(ours["IDF1"]) >= #require(theirs["IDF1"]), "\(peer): \(scores)")
        }
    }
}
