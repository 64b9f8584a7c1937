import ArgumentParser
import LiteVisionTracking

/// `litevision track --detections FILE --reidentify` and its settings: re-identification by appearance
/// (``TrackingOptions/reidentification``), from the appearance vectors of the file's rows.
package struct ReidentificationArguments: ParsableArguments {
    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @Flag(
        name: .long,
        help: "With --detections: give an object that comes back its old ID, by the appearance vectors after field 10.")
    package var reidentify = false

    @Option(name: .long, help: "With --reidentify: the least cosine similarity to take an old ID (default 0.6).")
    package var reidSimilarity: Double?

    @Option(name: .long, help: "With --reidentify: how much the best old ID must beat the second (default 0.05).")
    package var reidMargin: Double?

    @Option(name: .long, help: "With --reidentify: for how many frames a gone object is remembered (default 10 s).")
    package var reidMemory: Int?

    /// Checks the settings' ranges, that they come with `--reidentify`, and that it comes with `--detections` (video
    /// sources have no appearance vectors yet).
    func validate(withDetections: Bool) throws {
        let settings = reidSimilarity != nil || reidMargin != nil || reidMemory != nil
        if settings && !reidentify {
            throw ValidationError("--reid-similarity, --reid-margin and --reid-memory go with --reidentify")
        }
        guard reidentify else { return }
        guard withDetections else {
            throw ValidationError(
                "--reidentify goes with --detections (its rows carry the appearance vectors; a video has none yet)")
        }
        if let reidSimilarity, !(reidSimilarity >= -1 && reidSimilarity <= 1) {
            throw ValidationError("--reid-similarity must be a cosine similarity from -1 to 1, got \(reidSimilarity)")
        }
        if let reidMargin, !(reidMargin >= 0 && reidMargin <= 2) {
            throw ValidationError("--reid-margin must be from 0 to 2, got \(reidMargin)")
        }
        if let reidMemory, !(1...1_000_000).contains(reidMemory) {
            throw ValidationError("--reid-memory must be a number of frames from 1 to 1000000, got \(reidMemory)")
        }
    }

    /// The tracker's re-identification settings, `nil` without `--reidentify`: the defaults, `--reid-memory` (else
    /// the default memory, counted at 30 fps, scaled to `frameRate`), `--reid-similarity` and `--reid-margin`.
    func options(frameRate: Double) -> ReidentificationOptions? {
        guard reidentify else { return nil }
        var options = ReidentificationOptions()
        options.memory = reidMemory ?? max(1, Int((Double(options.memory) * frameRate / 30).rounded()))
        if let reidSimilarity { options.minimumSimilarity = reidSimilarity }
        if let reidMargin { options.margin = reidMargin }
        return options
    }
}
