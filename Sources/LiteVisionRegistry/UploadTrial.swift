import LiteVision
import LiteVisionRegistryStorage

/// The upload check's last step (``UploadCheck``): the model is run once, as a client would run it, on a grey
/// picture, with an inference deadline, so that a model that loops forever in a way the verifier cannot prove (or
/// that the runtime cannot run at all) is refused before a fleet of clients downloads it. Run by the check on its
/// thread, one at a time: a trial may take up to its deadline and never holds an event loop or a thread of the
/// concurrency pool.
enum UploadTrial {
    /// One inference of the model in `bytes` (a `classifier` or a `detector`, as ``ModelSummary/kind`` says) with
    /// a `timeout`-second deadline; the error a publisher should get, if any: ``RegistryError/notAModel(_:)`` with
    /// the runtime's reason, or ``RegistryError/unavailable(_:)`` when the runtime cannot be loaded here.
    static func run(_ bytes: [UInt8], kind: String, timeout: Double) -> RegistryError? {
        var processing = ProcessingOptions()
        processing.threadCount = 1
        processing.inferenceTimeout = timeout
        let model = LocalModel(bytes: bytes, name: "the model")
        let image = VisionImage(buffer: ImageBuffer(width: 64, height: 64, format: .rgb8))
        do throws(VisionError) {
            if kind == "detector" {
                let options = ObjectDetectorOptions()
                options.detectorModel = model
                options.processing = processing
                _ = try ObjectDetector(options: options).results(in: image)
            } else {
                let options = CustomImageLabelerOptions(localModel: model)
                options.processing = processing
                _ = try ImageLabeler(options: options).results(in: image)
            }
            return nil
        } catch {
            if case .runtimeUnavailable(let reason) = error {
                return .unavailable(
                    "the registry cannot run models to check them (\(reason)); install the LiteRT runtime next to it, "
                        + "or start it with --upload-trial-timeout 0 to publish without a trial run")
            }
            return .notAModel("it failed its trial run (one inference within \(timeout) s): \(error)")
        }
    }
}
