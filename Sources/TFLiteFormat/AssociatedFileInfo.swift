/// A file the metadata associates with the model or one of its tensors (a label list, a vocabulary…).
/// Its contents are in the zip appended to the model: see ``AssociatedFiles/data(named:)``.
package struct AssociatedFileInfo: Sendable, Equatable {
    /// The file's name, exactly as stored in the model's zip.
    package var name: String
    /// A description of the file.
    package var description: String?
    /// What the file is for.
    package var type: AssociatedFileType
    /// The file's language, such as `"en"` or `"en-US"`, when several translations exist.
    package var locale: String?

    /// File information with the given fields.
    package init(name: String, description: String? = nil, type: AssociatedFileType, locale: String? = nil) {
        self.name = name
        self.description = description
        self.type = type
        self.locale = locale
    }
}

/// What an associated file is for (`AssociatedFileType`).
package enum AssociatedFileType: Sendable, Equatable, Hashable {
    /// Not stated.
    case unknown
    /// Human-readable descriptions, such as a readme.
    case descriptions
    /// Labels of one axis of the tensor, one per line: line `i` names score `i` of a classifier output.
    case tensorAxisLabels
    /// Labels the tensor's values refer to, one per line: a detector's class value `i` names line `i`.
    case tensorValueLabels
    /// Per-class sigmoid score calibration parameters, as CSV lines.
    case tensorAxisScoreCalibration
    /// A vocabulary for text models.
    case vocabulary
    /// A ScaNN on-device search index.
    case scannIndexFile
    /// A file type number this library does not know.
    case other(Int)

    /// The file type for a schema `AssociatedFileType` number.
    package init(schemaValue: Int) {
        switch schemaValue {
        case 0: self = .unknown
        case 1: self = .descriptions
        case 2: self = .tensorAxisLabels
        case 3: self = .tensorValueLabels
        case 4: self = .tensorAxisScoreCalibration
        case 5: self = .vocabulary
        case 6: self = .scannIndexFile
        default: self = .other(schemaValue)
        }
    }
}
