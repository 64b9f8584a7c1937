import LiteRT
import LiteVisionGeometry
import LiteVisionImaging
import LiteVisionModelStore
import TFLiteFormat

/// What every image model LiteVision runs has in common, read and checked once: the parsed file, one RGB
/// image input with its normalization, and a pool of compiled copies. Classifiers and detectors add their
/// own output checks on top.
struct ImageModel: Sendable {
    /// How messages name the model (its path, or the name given to bytes in memory).
    let path: String
    let file: TFLiteModelFile
    /// The input image size and pixel scaling.
    let input: ModelInput
    /// How images are resampled to the input.
    let preprocessing: ProcessingOptions.Preprocessing
    let pool: SessionPool
    /// The first compiled copy's signature (every copy has the same).
    let outputs: [TensorSignature]

    /// Parses and checks `model` with `checkOutputs` (the feature's own rules, returning the reasons it
    /// refuses the model), then compiles it. `probe` runs once on the first compiled copy (e.g. to learn open
    /// output shapes) before the pool is made.
    init(
        _ model: ResolvedModel, settings: ProcessingOptions,
        checkOutputs: (TFLiteModelFile) -> [String],
        probe: ((InferenceSession) throws(VisionError) -> Void)? = nil
    ) throws(VisionError) {
        let path = model.name
        self.path = path
        do {
            file = try TFLiteModelFile(bytes: model.bytes)
        } catch {
            throw .invalidModel(path: path, reason: "\(error)")
        }
        if let reason = (Self.inputViolations(file) + checkOutputs(file)).first {
            throw .unsupportedModel(path: path, reason: reason)
        }
        let tensor = file.inputs[0]
        preprocessing = settings.preprocessing
        input = ModelInput(
            width: tensor.shape[2], height: tensor.shape[1],
            normalization: try Self.normalization(of: file, path: path))

        let runtime: Runtime
        do {
            runtime = try Runtime.load(libraryPath: settings.runtimeLibraryPath)
        } catch {
            throw .runtimeUnavailable(error)
        }
        let compiledModel: Model
        do {
            if let file = model.path {
                compiledModel = try Model(runtime: runtime, path: file, expectedIdentity: model.identity)
            } else {
                compiledModel = try model.bytes.withUnsafeBytes { bytes in
                    Result { () throws(LiteRTError) in try Model(runtime: runtime, bytes: bytes) }
                }.get()
            }
        } catch {
            throw .runtime(error)
        }
        let options = CompilationOptions(
            threadCount: settings.threadCount, weightCache: .standard, inferenceTimeout: settings.inferenceTimeout)
        let make: @Sendable () throws -> InferenceSession = {
            InferenceSession(compiled: try CompiledModel(model: compiledModel, options: options))
        }
        let first: InferenceSession
        do {
            first = try make()
        } catch let error as LiteRTError {
            throw .runtime(error)
        } catch {
            throw .invalidModel(path: path, reason: "\(error)")
        }
        guard first.compiled.inputs.count == 1, first.compiled.inputs[0].shape == tensor.shape,
            first.compiled.outputs.count == file.outputs.count
        else {
            throw .invalidModel(
                path: path,
                reason: "the runtime reads its signature differently (inputs \(first.compiled.inputs.map(\.shape)))")
        }
        try probe?(first)
        outputs = first.compiled.outputs
        pool = SessionPool(limit: max(2, Runtime.defaultThreadCount), first: first, make: make)
    }

    /// Every way the input breaks ML Kit's requirements: one uint8 or float32 `[1, H, W, 3]` image.
    static func inputViolations(_ file: TFLiteModelFile) -> [String] {
        guard file.inputs.count == 1 else {
            return ["an image model has exactly one input, this model has \(file.inputs.count)"]
        }
        var reasons: [String] = []
        let input = file.inputs[0]
        if input.elementType != .uint8 && input.elementType != .float32 {
            reasons.append("its input must be uint8 or float32, it is \(input.elementType)")
        }
        if input.shape.count != 4 || input.shape[0] != 1 || input.shape[3] != 3 || input.shape[1] <= 0
            || input.shape[2] <= 0
        {
            reasons.append("its input must be shaped [1, height, width, 3] (one RGB image), it is \(input.shape)")
        }
        return reasons
    }

    /// The metadata's normalization for a float32 input (required there, as in ML Kit); nil for uint8.
    static func normalization(of file: TFLiteModelFile, path: String) throws(VisionError) -> ModelInput.Normalization? {
        guard file.inputs[0].elementType == .float32 else { return nil }
        guard let options = file.metadata?.inputTensors.first?.normalization, !options.mean.isEmpty,
            !options.std.isEmpty
        else {
            throw .unsupportedModel(
                path: path,
                reason: """
                    its input is float32 but its metadata has no NormalizationOptions (mean and std), so LiteVision \
                    cannot know how to scale pixels; add them with the TFLite Support metadata writer, as ML Kit requires
                    """)
        }
        guard [1, 3].contains(options.mean.count), [1, 3].contains(options.std.count),
            options.std.allSatisfy({ $0 != 0 && $0.isFinite }), options.mean.allSatisfy(\.isFinite)
        else {
            throw .unsupportedModel(
                path: path,
                reason:
                    "its NormalizationOptions must have 1 or 3 finite means and non-zero stds, got mean \(options.mean) std \(options.std)"
            )
        }
        let mean = options.mean.count == 1 ? SIMD3(repeating: options.mean[0]) : SIMD3(options.mean)
        let std = options.std.count == 1 ? SIMD3(repeating: options.std[0]) : SIMD3(options.std)
        return ModelInput.Normalization(mean: mean, inverseStd: 1 / std, std: std)
    }

    /// Fills the input of `session` from `image`, or the `region` of its stored pixels, turned upright.
    func writeInput(_ image: OrientedImage, region: PixelRect? = nil, session: InferenceSession) throws(VisionError) {
        // `.mediapipe`'s sampling tables hold 32-bit offsets into the region's rows.
        let rows = (region ?? image.storedBounds).height
        let (bytes, overflow) = image.pixels.bytesPerRow.multipliedReportingOverflow(by: rows)
        if preprocessing == .mediapipe, overflow || bytes >= Int(Int32.max) {
            throw .invalidImage(
                "the .mediapipe preprocessing samples at most 2 GiB of pixel rows; this image region has \(rows) rows "
                    + "of \(image.pixels.bytesPerRow) bytes (use the default .exact preprocessing, or a smaller region)"
            )
        }
        do {
            _ = try session.compiled.withInput(0) { tensor in
                switch preprocessing {
                case .exact:
                    InputWriter.write(
                        image, region: region ?? image.storedBounds, as: input, into: tensor, session: session)
                case .mediapipe:
                    MediaPipeInputWriter.write(
                        image, region: region ?? image.storedBounds, as: input, into: tensor, session: session)
                }
            }
        } catch {
            throw VisionError(runningModel: error)
        }
    }
}
