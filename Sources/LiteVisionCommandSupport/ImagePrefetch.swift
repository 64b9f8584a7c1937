import Dispatch
import LiteVision
import Synchronization

/// Reads and decodes one image on another core while the model loads: for a fresh process labeling one
/// photo, decoding and loading the runtime and model are the two slowest steps, and independent.
package final class ImagePrefetch: Sendable {
    private let outcome = Mutex<Result<VisionImage, VisionError>?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts reading and decoding `path`; `allowsDamagedImageData` and `preprocessing` as the labeler's options say.
    package init(
        path: String, allowsDamagedImageData: Bool, preprocessing: ProcessingOptions.Preprocessing
    ) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let result = Result { () throws(VisionError) in
                try VisionImage(contentsOfFile: path).decoded(
                    scale: .full, allowsDamagedImageData: allowsDamagedImageData, preprocessing: preprocessing)
            }
            outcome.withLock { $0 = result }
            finished.signal()
        }
    }

    /// The decoded image (full size: what the labeler would decode itself by default), once ready.
    package func wait() -> Result<VisionImage, VisionError> {
        finished.wait()
        return outcome.withLock { $0! }
    }
}
