/// The TFLite Model Metadata of a model: the human-readable description its author attached, and the
/// machine-readable facts needed to use it (normalization, label files, score thresholds, box layout).
///
/// It comes from the model's `TFLITE_METADATA` buffer. Only the main subgraph's metadata is exposed.
package struct ModelMetadata: Sendable, Equatable {
    /// The model's name.
    package var name: String?
    /// A description of what the model does.
    package var description: String?
    /// The model's version, as its author wrote it.
    package var version: String?
    /// Who created the model.
    package var author: String?
    /// The licenses that apply to the model.
    package var license: String?
    /// The smallest metadata parser version that understands every field populated in this metadata.
    package var minParserVersion: String?
    /// Files associated with the model as a whole (not with a particular tensor).
    package var associatedFiles: [AssociatedFileInfo]
    /// Metadata of the main subgraph's inputs, in the order of the model's inputs.
    package var inputTensors: [TensorMetadata]
    /// Metadata of the main subgraph's outputs, in the order of the model's outputs.
    package var outputTensors: [TensorMetadata]
    /// Files associated with the main subgraph.
    package var subgraphAssociatedFiles: [AssociatedFileInfo]
    /// Processing applied to the inputs as a whole, before inference (for example a tokenizer).
    package var inputProcessUnits: [ProcessUnit]
    /// Processing applied to the outputs as a whole, after inference.
    package var outputProcessUnits: [ProcessUnit]

    /// Metadata with the given fields; everything not given is empty.
    package init(
        name: String? = nil, description: String? = nil, version: String? = nil,
        author: String? = nil, license: String? = nil, minParserVersion: String? = nil,
        associatedFiles: [AssociatedFileInfo] = [], inputTensors: [TensorMetadata] = [],
        outputTensors: [TensorMetadata] = [], subgraphAssociatedFiles: [AssociatedFileInfo] = [],
        inputProcessUnits: [ProcessUnit] = [], outputProcessUnits: [ProcessUnit] = []
    ) {
        self.name = name
        self.description = description
        self.version = version
        self.author = author
        self.license = license
        self.minParserVersion = minParserVersion
        self.associatedFiles = associatedFiles
        self.inputTensors = inputTensors
        self.outputTensors = outputTensors
        self.subgraphAssociatedFiles = subgraphAssociatedFiles
        self.inputProcessUnits = inputProcessUnits
        self.outputProcessUnits = outputProcessUnits
    }
}

/// The metadata of one input or output tensor.
package struct TensorMetadata: Sendable, Equatable {
    /// The tensor's name in the metadata (often friendlier than the graph's name, e.g. `"image"`).
    package var name: String?
    /// A description of the tensor.
    package var description: String?
    /// Names of the tensor's dimensions, if given.
    package var dimensionNames: [String]
    /// What the tensor holds (an image, bounding boxes, features…), or nil when not stated.
    package var content: ContentKind?
    /// The range of dimensions the content covers (`Content.range`), e.g. `2...2` for the boxes of a
    /// `[1, 10, 4]` detection output; nil when the content spans every dimension but the batch axis.
    package var contentRange: ValueRange?
    /// The processing steps the metadata prescribes for this tensor, in order.
    package var processUnits: [ProcessUnit]
    /// The per-channel statistics of the tensor's values, if given.
    package var stats: ValueStats?
    /// Files associated with this tensor (label files, score calibration…).
    package var associatedFiles: [AssociatedFileInfo]

    /// Tensor metadata with the given fields; everything not given is empty.
    package init(
        name: String? = nil, description: String? = nil, dimensionNames: [String] = [],
        content: ContentKind? = nil, contentRange: ValueRange? = nil, processUnits: [ProcessUnit] = [],
        stats: ValueStats? = nil, associatedFiles: [AssociatedFileInfo] = []
    ) {
        self.name = name
        self.description = description
        self.dimensionNames = dimensionNames
        self.content = content
        self.contentRange = contentRange
        self.processUnits = processUnits
        self.stats = stats
        self.associatedFiles = associatedFiles
    }

    /// The normalization to apply to input values, `(x - mean) / std` per channel: the first
    /// NormalizationOptions process unit, or nil when there is none.
    package var normalization: NormalizationOptions? {
        for unit in processUnits { if case let .normalization(options) = unit { return options } }
        return nil
    }

    /// The recommended score threshold below which results should be dropped: the first
    /// ScoreThresholdingOptions process unit's `global_score_threshold`, or nil when there is none.
    package var scoreThreshold: Float? {
        for unit in processUnits { if case let .scoreThreshold(value) = unit { return value } }
        return nil
    }

    /// The score calibration to apply to output scores: the first ScoreCalibrationOptions process unit,
    /// or nil when there is none. Its per-class parameters are in the associated file of type
    /// ``AssociatedFileType/tensorAxisScoreCalibration``.
    package var scoreCalibration: ScoreCalibration? {
        for unit in processUnits { if case let .scoreCalibration(options) = unit { return options } }
        return nil
    }

    /// The bounding box layout, when the content is ``ContentKind/boundingBox(_:)``.
    package var boundingBox: BoundingBoxProperties? {
        if case let .boundingBox(properties) = content { return properties }
        return nil
    }

    /// The associated files of the given type, in metadata order.
    package func associatedFiles(ofType type: AssociatedFileType) -> [AssociatedFileInfo] {
        associatedFiles.filter { $0.type == type }
    }
}

/// Per-channel statistics of a tensor's values. A single value applies to every channel.
package struct ValueStats: Sendable, Equatable {
    /// Per-channel minimum values.
    package var min: [Float]
    /// Per-channel maximum values.
    package var max: [Float]

    /// Statistics with the given minimums and maximums.
    package init(min: [Float], max: [Float]) {
        self.min = min
        self.max = max
    }
}

/// An inclusive range of integers, as the metadata's `ValueRange` table stores it.
package struct ValueRange: Sendable, Equatable {
    /// The first value of the range.
    package var min: Int
    /// The last value of the range (inclusive).
    package var max: Int

    /// A range from `min` through `max`.
    package init(min: Int, max: Int) {
        self.min = min
        self.max = max
    }
}
