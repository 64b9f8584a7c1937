import FoundationEssentials
import LiteVision
import LiteVisionRegistryStorage
import LiteVisionSystem
import Synchronization

/// The check every upload passes before it is stored: it must be a classifier or detector LiteVision accepts,
/// and (unless the trial is off) run once within its deadline (``UploadTrial``). The upload is read back once,
/// on a thread of its own (``DedicatedThread``): reading, parsing and running a model of up to the upload limit
/// never holds an event loop or a thread of Swift concurrency's pool.
enum UploadCheck {
    /// Held while an upload is read back and checked: the model reader works on bytes in memory, so one upload at
    /// a time is read back, and memory stays bounded by one upload limit however many publishers there are.
    private static let serial = Mutex(())

    /// The summary of the model in `upload` (complete), or why it is not one; with a `trialTimeout`, the model
    /// is also run once with that deadline in seconds.
    ///
    /// - Throws: ``RegistryError/notAModel(_:)`` when it is not a model, or cannot be run or passes its deadline;
    ///   ``RegistryError/unavailable(_:)`` when the runtime cannot be loaded here for the trial.
    static func check(_ upload: IncomingBlob, trialTimeout: Double?) async throws(RegistryError) -> ModelSummary {
        let (path, size) = (upload.path, upload.size)  // the upload is complete: its file is read on the thread
        let checked = await DedicatedThread.run {
            serial.withLock { _ -> Result<ModelSummary, RegistryError> in
                let bytes: [UInt8]
                do {
                    bytes = try FileContents.read(atPath: path, maximumSize: size)
                } catch {
                    return .failure(.storage("\(error)"))
                }
                let summary = ModelSummary.of(bytes).mapError { RegistryError.notAModel($0.description) }
                guard case .success(let model) = summary, let trialTimeout else { return summary }
                if let failure = UploadTrial.run(bytes, kind: model.kind, timeout: trialTimeout) {
                    return .failure(failure)
                }
                return summary
            }
        }
        return try checked.get()
    }

    /// `summary` as the JSON text the stores keep.
    static func encoded(_ summary: ModelSummary) -> String {
        String(decoding: (try? JSONEncoder().encode(summary)) ?? Data(), as: UTF8.self)
    }
}
