import CLiteRt

/// Options for compiling a model.
package struct CompilationOptions: Sendable {
    /// Threads the CPU kernels (XNNPACK) use for one inference, 1 to ``Runtime/maximumThreadCount``. Defaults to
    /// the number of cores.
    package var threadCount: Int

    /// Where XNNPACK keeps packed weights between processes, for models loaded from files; nil: none.
    package var weightCache: WeightCache?

    /// The longest one ``CompiledModel/run()`` may take, in seconds: a run still going then is stopped by the
    /// runtime between two operators and throws (a model whose loop never ends, or one far too slow for this
    /// machine). `nil` (or 0 or less): no limit.
    package var inferenceTimeout: Double?

    /// Options with `threadCount` threads (the number of cores by default; brought into
    /// 1...``Runtime/maximumThreadCount``), the weight cache `weightCache` and the deadline `inferenceTimeout`
    /// for each run.
    package init(
        threadCount: Int = Runtime.defaultThreadCount, weightCache: WeightCache? = nil, inferenceTimeout: Double? = nil
    ) {
        self.threadCount = min(max(1, threadCount), Runtime.maximumThreadCount)
        self.weightCache = weightCache
        // 0, negative and NaN mean no limit, as `--inference-timeout 0` does (not a deadline already passed).
        self.inferenceTimeout = inferenceTimeout.flatMap { $0 > 0 ? $0 : nil }
    }
}

/// A model compiled for the CPU, with one buffer per input and output: the unit of inference.
///
/// A compiled model is **not** for concurrent use: give each thread or task its own, or check one out of a
/// pool (the labelers do). Fill inputs with ``withInput(_:_:)``, call ``run()``, read outputs with
/// ``withOutput(_:_:)``.
package final class CompiledModel: @unchecked Sendable {
    // @unchecked: a compiled model may move between threads, but is used by one caller at a time; the
    // feature types keep their compiled models in a pool whose lock hands each one to a single caller.

    /// The model this was compiled from.
    package let model: Model
    /// The inputs of the model's first signature.
    package let inputs: [TensorSignature]
    /// The outputs of the model's first signature.
    package let outputs: [TensorSignature]

    let handle: LiteRtCompiledModel
    private var inputBuffers: [LiteRtTensorBuffer]
    private var outputBuffers: [LiteRtTensorBuffer]
    /// The deadline of the run in progress (monotonic seconds; infinity between runs), which the runtime's
    /// cancellation callback reads between operators on the thread running the model.
    private let deadline: RunDeadline?
    private var api: UnsafePointer<LiteVisionLiteRtApi> { model.runtime.api }

    /// Compiles `model` for the CPU with `options`.
    package init(model: Model, options: CompilationOptions = CompilationOptions()) throws(LiteRTError) {
        self.model = model
        let runtime = model.runtime
        let api = runtime.api
        runtime.creationLock.lock()
        defer { runtime.creationLock.unlock() }
        do {
            let handle = try Self.compile(model: model, options: options)
            var inputs: [TensorSignature] = [], outputs: [TensorSignature] = []
            var inputBuffers: [LiteRtTensorBuffer] = [], outputBuffers: [LiteRtTensorBuffer] = []
            var succeeded = false
            defer {
                if !succeeded {
                    for buffer in inputBuffers + outputBuffers { api.pointee.DestroyTensorBuffer(buffer) }
                    api.pointee.DestroyCompiledModel(handle)
                }
            }
            var signature: LiteRtSignature?
            try check(api.pointee.GetModelSignature(model.handle, 0, &signature), "read the model's signature")
            guard let signature else { throw LiteRTError(status: 6, operation: "read the model's signature") }
            var inputCount = 0, outputCount = 0
            try check(api.pointee.GetNumSignatureInputs(signature, &inputCount), "count the model's inputs")
            try check(api.pointee.GetNumSignatureOutputs(signature, &outputCount), "count the model's outputs")
            for index in 0..<inputCount {
                let (info, buffer) = try Self.tensor(
                    api: api, runtime: runtime, compiled: handle,
                    signature: signature, index: index, isInput: true)
                inputs.append(info)
                inputBuffers.append(buffer)
            }
            for index in 0..<outputCount {
                let (info, buffer) = try Self.tensor(
                    api: api, runtime: runtime, compiled: handle,
                    signature: signature, index: index, isInput: false)
                outputs.append(info)
                outputBuffers.append(buffer)
            }
            var deadline: RunDeadline?
            if let timeout = options.inferenceTimeout, timeout.isFinite {
                let runDeadline = RunDeadline(timeout: timeout)
                try check(
                    api.pointee.SetCompiledModelCancellationFunction(handle, runDeadline.instant, RunDeadline.check),
                    "set the inference deadline")
                deadline = runDeadline
            }
            succeeded = true
            self.deadline = deadline
            self.handle = handle
            self.inputs = inputs
            self.outputs = outputs
            self.inputBuffers = inputBuffers
            self.outputBuffers = outputBuffers
        }
    }

    private static func compile(model: Model, options: CompilationOptions) throws(LiteRTError) -> LiteRtCompiledModel {
        let api = model.runtime.api
        var compilationOptions: LiteRtOptions?
        try check(api.pointee.CreateOptions(&compilationOptions), "create compilation options")
        guard let compilationOptions else { throw LiteRTError(status: 2, operation: "create compilation options") }
        defer { api.pointee.DestroyOptions(compilationOptions) }
        try check(
            api.pointee.SetOptionsHardwareAccelerators(compilationOptions, Int32(kLiteVisionHwAcceleratorCpu)),
            "select the CPU accelerator")
        // The thread count is an opaque "xnnpack" option whose payload is TOML text; the options object takes
        // ownership of the payload and frees it with the destructor. `flags` is left unset on purpose:
        // setting it replaces XNNPACK's defaults and sends uint8 models to slower kernels.
        var toml = "num_threads = \(options.threadCount)\n"
        let cacheUse = weightCacheUse(model: model, options: options)
        if let cacheUse { toml += "weight_cache_file_path = \"\(cacheUse.path)\"\n" }
        var compiled: LiteRtCompiledModel?
        defer {
            if let cacheUse, let cache = options.weightCache {
                if compiled != nil { cache.finish(cacheUse) } else { cache.abandon(cacheUse) }
            }
        }
        guard let payload = litevision_strdup_payload(toml) else {
            throw LiteRTError(status: 2, operation: "set the thread count")
        }
        var opaque: LiteRtOpaqueOptions?
        let status = api.pointee.CreateOpaqueOptions("xnnpack", payload, litevision_free_payload, &opaque)
        guard status == 0, let opaque else {
            litevision_free_payload(payload)
            throw LiteRTError(status: status == 0 ? 2 : status, operation: "set the thread count")
        }
        let added = api.pointee.AddOpaqueOptions(compilationOptions, opaque)
        if added != 0 {
            api.pointee.DestroyOpaqueOptions(opaque)
            throw LiteRTError(status: added, operation: "set the thread count")
        }
        try check(
            api.pointee.CreateCompiledModel(model.runtime.environment, model.handle, compilationOptions, &compiled),
            "compile the model")
        guard let compiled else { throw LiteRTError(status: 504, operation: "compile the model") }
        return compiled
    }

    /// How this compile uses the weight cache: only for a model loaded from a file by a runtime whose file is known.
    private static func weightCacheUse(model: Model, options: CompilationOptions) -> WeightCache.Use? {
        guard let cache = options.weightCache, let modelFile = model.fileIdentity,
            let runtimeFile = model.runtime.libraryIdentity
        else { return nil }
        return cache.use(model: modelFile, runtime: runtimeFile)
    }

    private static func tensor(
        api: UnsafePointer<LiteVisionLiteRtApi>, runtime: Runtime,
        compiled: LiteRtCompiledModel, signature: LiteRtSignature, index: Int,
        isInput: Bool
    ) throws(LiteRTError) -> (TensorSignature, LiteRtTensorBuffer) {
        let role = isInput ? "input \(index)" : "output \(index)"
        var tensor: LiteRtTensor?
        if isInput {
            try check(api.pointee.GetSignatureInputTensorByIndex(signature, index, &tensor), "read \(role)")
        } else {
            try check(api.pointee.GetSignatureOutputTensorByIndex(signature, index, &tensor), "read \(role)")
        }
        guard let tensor else { throw LiteRTError(status: 6, operation: "read \(role)") }
        var namePointer: UnsafePointer<CChar>?
        try check(api.pointee.GetTensorName(tensor, &namePointer), "read the name of \(role)")
        let name = namePointer.map { String(cString: $0) } ?? ""
        var type = LiteRtRankedTensorType()
        try check(api.pointee.GetRankedTensorType(tensor, &type), "read the type of \(role)")
        let rank = Int(litevision_layout_rank(&type.layout))
        let shape = withUnsafeBytes(of: type.layout.dimensions) { raw in
            (0..<min(rank, Int(LITEVISION_LITERT_MAX_RANK))).map {
                Int(raw.load(fromByteOffset: $0 * 4, as: Int32.self))
            }
        }
        var quantizationType: Int32 = 0
        var quantization: (scale: Float, zeroPoint: Int)?
        try check(api.pointee.GetQuantizationTypeId(tensor, &quantizationType), "read the quantization of \(role)")
        if quantizationType == Int32(kLiteVisionQuantizationPerTensor) {
            var perTensor = LiteRtQuantizationPerTensor()
            try check(api.pointee.GetPerTensorQuantization(tensor, &perTensor), "read the quantization of \(role)")
            quantization = (perTensor.scale, Int(perTensor.zero_point))
        }
        var requirements: LiteRtTensorBufferRequirements?
        if isInput {
            try check(
                api.pointee.GetCompiledModelInputBufferRequirements(compiled, 0, index, &requirements),
                "read the buffer requirements of \(role)")
        } else {
            try check(
                api.pointee.GetCompiledModelOutputBufferRequirements(compiled, 0, index, &requirements),
                "read the buffer requirements of \(role)")
        }
        guard let requirements else {
            throw LiteRTError(status: 6, operation: "read the buffer requirements of \(role)")
        }
        var buffer: LiteRtTensorBuffer?
        if !isInput && rank == 0 {
            // An open output shape: the runtime writes the real output after a run, so give it room.
            try check(
                api.pointee.CreateManagedTensorBuffer(
                    runtime.environment, Int32(kLiteVisionTensorBufferTypeHostMemory),
                    &type, Self.openOutputBufferSize, &buffer),
                "create the buffer of \(role)")
        } else {
            try check(
                api.pointee.CreateManagedTensorBufferFromRequirements(
                    runtime.environment, &type, requirements, &buffer),
                "create the buffer of \(role)")
        }
        guard let buffer else { throw LiteRTError(status: 2, operation: "create the buffer of \(role)") }
        var size = 0
        let sizeStatus = api.pointee.GetTensorBufferSize(buffer, &size)
        if sizeStatus != 0 {
            api.pointee.DestroyTensorBuffer(buffer)
            throw LiteRTError(status: sizeStatus, operation: "read the buffer size of \(role)")
        }
        let info = TensorSignature(
            name: name, elementType: ElementType(rawValue: type.element_type),
            elementTypeCode: type.element_type, shape: shape,
            quantization: quantization, bufferSize: size)
        return (info, buffer)
    }

    deinit {
        for buffer in inputBuffers + outputBuffers { api.pointee.DestroyTensorBuffer(buffer) }
        api.pointee.DestroyCompiledModel(handle)
    }

    /// Gives `body` the memory of input `index` to fill (locked for writing while `body` runs).
    package func withInput<R>(_ index: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> R) throws -> R {
        precondition(inputs.indices.contains(index), "no input \(index)")
        var address: UnsafeMutableRawPointer?
        try check(
            api.pointee.LockTensorBuffer(inputBuffers[index], &address, Int32(kLiteVisionLockModeWrite)),
            "lock input \(index)")
        defer { _ = api.pointee.UnlockTensorBuffer(inputBuffers[index]) }
        return try body(UnsafeMutableRawBufferPointer(start: address, count: inputs[index].bufferSize))
    }

    /// Runs the model on the current contents of the input buffers.
    ///
    /// - Throws: ``LiteRTError``; with status 100 (Cancelled) when the run took longer than the options'
    ///   ``CompilationOptions/inferenceTimeout`` and was stopped.
    package func run() throws(LiteRTError) {
        let inputCount = inputBuffers.count, outputCount = outputBuffers.count
        deadline?.start()
        let status = inputBuffers.withUnsafeMutableBufferPointer { ins in
            outputBuffers.withUnsafeMutableBufferPointer { outs in
                api.pointee.RunCompiledModel(handle, 0, inputCount, ins.baseAddress, outputCount, outs.baseAddress)
            }
        }
        // Stopped by the deadline: LiteRT 2.3.0 answers RuntimeFailure (3; "Client requested cancel during Invoke()"),
        // later versions Cancelled (100). Other failures are reported as they are.
        if let deadline, deadline.stop(), status == 100 || status == 3 {
            throw LiteRTError(
                status: 100,
                operation:
                    "finish running the model within its \(deadline.timeout) s inference deadline (it may "
                    + "loop forever; a longer deadline is ProcessingOptions.inferenceTimeout, or --inference-timeout)")
        }
        try check(status, "run the model")
    }

    /// Gives `body` the memory of output `index` to read (locked for reading while `body` runs).
    package func withOutput<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        precondition(outputs.indices.contains(index), "no output \(index)")
        var address: UnsafeMutableRawPointer?
        try check(
            api.pointee.LockTensorBuffer(outputBuffers[index], &address, Int32(kLiteVisionLockModeRead)),
            "lock output \(index)")
        defer { _ = api.pointee.UnlockTensorBuffer(outputBuffers[index]) }
        return try body(UnsafeRawBufferPointer(start: address, count: outputs[index].bufferSize))
    }
}
extension CompiledModel {
    /// Bytes given to an output whose shape the model leaves open until it runs (for example the four outputs
    /// of SSD detectors' `TFLite_Detection_PostProcess`): 256 KiB, room for 16,384 boxes.
    package static let openOutputBufferSize = 1 << 18

    /// The output shapes as the compiled model knows them now. Outputs whose shape the model leaves open
    /// report their real shape after the first ``run()``.
    package func currentOutputShapes() throws(LiteRTError) -> [[Int]] {
        var layouts = [LiteRtLayout](repeating: LiteRtLayout(), count: outputs.count)
        try check(
            model.runtime.api.pointee.GetCompiledModelOutputTensorLayouts(handle, 0, outputs.count, &layouts, false),
            "read the output shapes")
        return layouts.map { layout in
            var layout = layout
            let rank = min(Int(litevision_layout_rank(&layout)), Int(LITEVISION_LITERT_MAX_RANK))
            return withUnsafeBytes(of: layout.dimensions) { raw in
                (0..<rank).map { Int(raw.load(fromByteOffset: $0 * 4, as: Int32.self)) }
            }
        }
    }
}
