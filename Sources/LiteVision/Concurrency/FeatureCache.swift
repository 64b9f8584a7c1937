import LiteVisionSystem
import Synchronization

/// The features (detectors, labelers) that ML Kit's factory methods hand out, kept by their options so that
/// equal options give the same feature.
///
/// ML Kit's own samples build fresh options and call `ObjectDetector.objectDetector(options:)` on every camera
/// frame; sharing the feature keeps its loaded models and its tracking state across those calls. A feature is
/// found again while anyone still holds it (held weakly here), or while it is among the few features
/// most recently handed out (held strongly, so that code that drops the feature after every frame still finds
/// it). A feature whose models could not be loaded is never kept: the next call tries again, as a model may have
/// been downloaded in between.
final class FeatureCache<Configuration: Hashable & Sendable, Feature: AnyObject & Sendable>: Sendable {
    /// What a feature is found by: its settings, and the identities of its model files (so that a model edited
    /// or replaced on disk, or updated by a download, gives a new feature).
    private struct Key: Hashable {
        let configuration: Configuration
        let files: [FileIdentity?]
    }

    /// A feature, held weakly.
    private struct Entry {
        weak var feature: Feature?
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// The features most recently handed out, the newest last, held strongly.
        var recent: [Feature] = []
        let recentLimit: Int

        /// Marks `feature` as the most recently used, dropping the oldest beyond the limit; returns `feature`.
        mutating func use(_ feature: Feature) -> Feature {
            recent.removeAll { $0 === feature }
            recent.append(feature)
            if recent.count > recentLimit { recent.removeFirst(recent.count - recentLimit) }
            return feature
        }
    }

    private let state: Mutex<State>

    /// A cache keeping the `recentLimit` features most recently handed out alive.
    init(recentLimit: Int) {
        state = Mutex(State(recentLimit: recentLimit))
    }

    /// The feature kept for `configuration` with model files of identities `files`, or a new one from `make`
    /// (kept unless `keep` says otherwise). When two threads make a feature for the same key at once, both get the
    /// one kept first.
    func feature(
        for configuration: Configuration, files: [FileIdentity?], make: () -> Feature, keep: (Feature) -> Bool
    ) -> Feature {
        let key = Key(configuration: configuration, files: files)
        if let found = state.withLock({ state in state.entries[key]?.feature.map { state.use($0) } }) {
            return found
        }
        let made = make()
        guard keep(made) else { return made }
        return state.withLock { state in
            if let earlier = state.entries[key]?.feature { return state.use(earlier) }
            state.entries = state.entries.filter { $0.value.feature != nil }
            state.entries[key] = Entry(feature: made)
            return state.use(made)
        }
    }

    /// The number of features that can be found again now (kept alive by their users or as recently used).
    var count: Int {
        state.withLock { state in state.entries.values.count { $0.feature != nil } }
    }
}
