/// A `.tflite` model file parsed in memory: its inputs and outputs, its TFLite Model Metadata, and the
/// zip of associated files (label lists…) appended to it.
///
/// Parsing first verifies the whole FlatBuffer as the runtime will read it (every table, vector and string
/// in bounds and aligned; tensor, buffer, operator-code and subgraph indices in range; constant data as large
/// as its tensor; tensors written before they are read; sizes within ``ModelLimits``), so that a model that
/// parses can be handed to the runtime safely. It then reads the few tables it needs, straight from the byte
/// array. It never crashes or reads out of bounds on malformed input: a problem throws a ``ModelFileError``
/// that says what is wrong.
///
/// ```swift
/// let model = try TFLiteModelFile(contentsOfFile: "bird.tflite")
/// print(model.inputs[0].shape)                       // [1, 224, 224, 3]
/// let labels = try model.labelMap(forOutput: 0)       // 965 bird names
/// ```
package struct TFLiteModelFile: Sendable {
    /// The whole file, exactly as read (shared, not copied), for handing to the runtime.
    package let bytes: [UInt8]
    /// The TFLite schema version the model was written with (3 for current models).
    package var schemaVersion: UInt32
    /// The model's description (for example `"TOCO Converted."`), if any.
    package var description: String?
    /// The inputs of the main subgraph (subgraph 0), in order.
    package var inputs: [TensorInfo]
    /// The outputs of the main subgraph (subgraph 0), in order.
    package var outputs: [TensorInfo]
    /// The number of subgraphs in the model (at least 1).
    package var subgraphCount: Int
    /// The minimum TFLite runtime version the converter recorded (the `min_runtime_version` entry), if any.
    package var minRuntimeVersion: String?
    /// The TFLite Model Metadata (the `TFLITE_METADATA` entry), or nil when the model has none.
    package var metadata: ModelMetadata?
    /// The files of the zip appended to the model; empty when there is none.
    package var associatedFiles: AssociatedFiles

    /// Parses a model held in memory.
    ///
    /// - Throws: ``ModelFileError`` when the bytes are empty, not a TFLite model, truncated or corrupt.
    package init(bytes: [UInt8]) throws(ModelFileError) {
        try self.init(bytes: bytes, path: nil)
    }

    /// Reads and parses the model file at `path`.
    ///
    /// - Throws: ``ModelFileError`` when the file is missing, unreadable, empty, not a TFLite model,
    ///   truncated or corrupt.
    package init(contentsOfFile path: String) throws(ModelFileError) {
        try self.init(bytes: try readModelFile(atPath: path), path: path)
    }

    private init(bytes: [UInt8], path: String?) throws(ModelFileError) {
        try checkModelIdentifier(bytes, path: path)
        var verifier = ModelVerifier(reader: FlatBufferReader(bytes: bytes, start: 0, end: bytes.count, domain: .model))
        try verifier.verify()
        var parser = ModelParser(reader: FlatBufferReader(bytes: bytes, start: 0, end: bytes.count, domain: .model))
        let parsed = try parser.parse()
        self.bytes = bytes
        self.schemaVersion = parsed.schemaVersion
        self.description = parsed.description
        self.inputs = parsed.inputs
        self.outputs = parsed.outputs
        self.subgraphCount = parsed.subgraphCount
        self.minRuntimeVersion = parsed.minRuntimeVersion
        self.metadata = try parsed.metadataRange.map { range throws(ModelFileError) in
            try ModelMetadata(bytes: bytes, range: range)
        }
        self.associatedFiles = try AssociatedFiles(bytes: bytes)
    }
}
