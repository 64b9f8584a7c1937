import FoundationEssentials
import LiteVision
import LiteVisionRegistryStorage
import Synchronization

/// The check every upload passes before it is stored: it must be a classifier or detector LiteVision accepts.
enum UploadCheck {
    /// Held while an upload is read back and checked: the model reader works on bytes in memory, so one upload at
    /// a time is read back, and memory stays bounded by one upload limit however many publishers there are.
    private static let validation = Mutex(())

    /// The summary of the model in `upload`, or why it is not one.
    static func summary(of upload: IncomingBlob) throws(RegistryError) -> ModelSummary {
        let checked = validation.withLock { _ -> Result<ModelSummary, RegistryError> in
            let bytes: [UInt8]
            do {
                bytes = try upload.contents()
            } catch {
                return .failure(.storage("\(error)"))
            }
            return ModelSummary.of(bytes).mapError { .notAModel($0.description) }
        }
        return try checked.get()
    }

    /// `summary` as the JSON text the stores keep.
    static func encoded(_ summary: ModelSummary) -> String {
        String(decoding: (try? JSONEncoder().encode(summary)) ?? Data(), as: UTF8.self)
    }
}
