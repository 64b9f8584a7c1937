/// A processing step the metadata prescribes for a tensor (its `ProcessUnitOptions` union).
package enum ProcessUnit: Sendable, Equatable {
    /// Normalize input values per channel: `(x - mean) / std`.
    case normalization(NormalizationOptions)
    /// Calibrate output scores with per-class sigmoid parameters.
    case scoreCalibration(ScoreCalibration)
    /// Drop results whose score is below this global threshold.
    case scoreThreshold(Float)
    /// A WordPiece (BERT) tokenizer; its vocabulary files.
    case bertTokenizer(vocabularyFiles: [AssociatedFileInfo])
    /// A SentencePiece tokenizer; its model files.
    case sentencePieceTokenizer(modelFiles: [AssociatedFileInfo])
    /// A regular-expression tokenizer; its delimiter pattern.
    case regexTokenizer(delimiterPattern: String?)
    /// A process unit type this library does not know (its union type number).
    case other(Int)
}

/// Normalization parameters: each input value `x` of channel `c` becomes `(x - mean[c]) / std[c]`.
/// A single value applies to every channel.
package struct NormalizationOptions: Sendable, Equatable {
    /// Per-channel means.
    package var mean: [Float]
    /// Per-channel standard deviations.
    package var std: [Float]

    /// Normalization with the given means and standard deviations.
    package init(mean: [Float], std: [Float]) {
        self.mean = mean
        self.std = std
    }
}

/// Sigmoid score calibration: `f(x) = scale / (1 + exp(-(slope * g(x) + offset)))` per class, where `g` is
/// ``transformation``; classes without parameters (or below their minimum score) get ``defaultScore``.
package struct ScoreCalibration: Sendable, Equatable {
    /// The transform `g` applied to the raw score before the sigmoid.
    package var transformation: ScoreTransformation
    /// The score given to classes without calibration parameters, or below their minimum score.
    package var defaultScore: Float

    /// A calibration with the given transform and default score.
    package init(transformation: ScoreTransformation, defaultScore: Float) {
        self.transformation = transformation
        self.defaultScore = defaultScore
    }
}

/// The transform applied to an uncalibrated score before calibration (`ScoreTransformationType`).
package enum ScoreTransformation: Sendable, Equatable {
    /// `g(x) = x`.
    case identity
    /// `g(x) = log(x)`.
    case log
    /// `g(x) = log(x) - log(1 - x)`.
    case inverseLogistic
    /// A transform number this library does not know.
    case other(Int)

    /// The transform for a schema `ScoreTransformationType` number.
    package init(schemaValue: Int) {
        switch schemaValue {
        case 0: self = .identity
        case 1: self = .log
        case 2: self = .inverseLogistic
        default: self = .other(schemaValue)
        }
    }
}
