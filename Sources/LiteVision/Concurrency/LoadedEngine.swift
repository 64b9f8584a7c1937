import Dispatch

/// The part of ``ImageLabeler`` and ``ObjectDetector`` that ML Kit's shape makes the same: an engine loaded
/// once when the feature is made (or why it could not be), and its results now or in the background.
///
/// As in ML Kit, a feature whose model cannot be used is still made, and every call reports the load error.
struct LoadedEngine<Engine: VisionEngine>: Sendable {
    /// The loaded engine, or why it could not be loaded.
    let outcome: Result<Engine, VisionError>

    /// Loads the engine now, keeping the error for every later call.
    init(_ load: () throws(VisionError) -> Engine) {
        outcome = Result { () throws(VisionError) in try load() }
    }

    /// The engine, or `nil` when it could not be loaded.
    var engine: Engine? { try? outcome.get() }

    /// Why the engine could not be loaded, or `nil` when it is ready.
    var loadError: VisionError? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    /// The results for `image`; the load error when the engine could not be loaded.
    func results(in image: VisionImage) throws(VisionError) -> [Engine.Output] {
        try outcome.get().results(in: image)
    }

    /// Computes the results for `image` in the background and calls `completion` with them or the error, on
    /// `queue` or as ``runInBackground(on:qos:_:completion:)`` chooses.
    func process(
        _ image: VisionImage, queue: DispatchQueue?,
        completion: @escaping @Sendable ([Engine.Output]?, VisionError?) -> Void
    ) {
        runInBackground(on: queue, { () throws(VisionError) in try results(in: image) }, completion: completion)
    }

    /// As ``process(_:queue:completion:)``, with an empty array instead of `nil` on error.
    func processUnwrapped(
        _ image: VisionImage, queue: DispatchQueue?,
        completion: @escaping @Sendable ([Engine.Output], VisionError?) -> Void
    ) {
        process(image, queue: queue) { results, error in completion(results ?? [], error) }
    }
}
