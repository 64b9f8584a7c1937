// Reads a TFLite Model Metadata FlatBuffer (schema metadata_schema.fbs, file identifier "M001").
// Field numbers below are the field ids of that schema; a union takes two ids (its type, then its value).

extension ModelMetadata {
    /// Parses the metadata FlatBuffer held in `bytes[range]`.
    init(bytes: [UInt8], range: Range<Int>) throws(ModelFileError) {
        guard range.count >= 8 else {
            throw .malformedMetadata("the metadata buffer holds only \(range.count) bytes")
        }
        let identifier = bytes[(range.lowerBound + 4)..<(range.lowerBound + 8)]
        guard identifier.elementsEqual("M001".utf8) else {
            throw .malformedMetadata(
                "the TFLITE_METADATA buffer is not a TFLite Model Metadata FlatBuffer "
                    + "(identifier \(describeIdentifier(identifier)), expected \"M001\")")
        }
        var parser = MetadataParser(
            reader: FlatBufferReader(
                bytes: bytes, start: range.lowerBound,
                end: range.upperBound, domain: .metadata))
        self = try parser.modelMetadata()
    }
}

/// Renders four identifier bytes for an error message: as text when printable, else as hex.
func describeIdentifier(_ bytes: ArraySlice<UInt8>) -> String {
    if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
        return "\"" + String(decoding: bytes, as: UTF8.self) + "\""
    }
    return bytes.map { byte in
        let hex = String(byte, radix: 16)
        return hex.count == 1 ? "0" + hex : hex
    }.joined(separator: " ")
}

/// Walks the tables of a metadata FlatBuffer into the public metadata types.
struct MetadataParser {
    var reader: FlatBufferReader

    mutating func modelMetadata() throws(ModelFileError) -> ModelMetadata {
        let root = try reader.rootTable("the ModelMetadata table")
        var metadata = ModelMetadata()
        metadata.name = try reader.string(root, 0, "the model name")
        metadata.description = try reader.string(root, 1, "the model description")
        metadata.version = try reader.string(root, 2, "the model version")
        metadata.author = try reader.string(root, 4, "the model author")
        metadata.license = try reader.string(root, 5, "the model license")
        metadata.associatedFiles = try associatedFiles(root, 6, "the model's associated files")
        metadata.minParserVersion = try reader.string(root, 7, "the minimum parser version")

        let subgraphs = try reader.vector(root, 3, elementSize: 4, "the subgraph metadata")
        if let subgraphs, subgraphs.count > 0 {
            let subgraph = try reader.tableElement(subgraphs, 0, "subgraph metadata 0")
            metadata.inputTensors = try tensorMetadata(subgraph, 2, "input")
            metadata.outputTensors = try tensorMetadata(subgraph, 3, "output")
            metadata.subgraphAssociatedFiles = try associatedFiles(subgraph, 4, "the subgraph's associated files")
            metadata.inputProcessUnits = try processUnits(subgraph, 5, "the subgraph's input process units")
            metadata.outputProcessUnits = try processUnits(subgraph, 6, "the subgraph's output process units")
        }
        return metadata
    }

    private mutating func tensorMetadata(
        _ subgraph: FlatBufferTable, _ id: Int,
        _ role: String
    ) throws(ModelFileError) -> [TensorMetadata] {
        let vector = try reader.vector(subgraph, id, elementSize: 4, "the \(role) tensor metadata")
        let tables = try reader.tableElements(vector) { "\(role) tensor metadata \($0)" }
        var result: [TensorMetadata] = []
        result.reserveCapacity(tables.count)
        for table in tables {
            result.append(try tensorMetadata(table))
        }
        return result
    }

    private mutating func tensorMetadata(_ table: FlatBufferTable) throws(ModelFileError) -> TensorMetadata {
        let what = table.what
        var tensor = TensorMetadata()
        tensor.name = try reader.string(table, 0, "the name of \(what)")
        tensor.description = try reader.string(table, 1, "the description of \(what)")
        tensor.dimensionNames = try reader.strings(table, 2, "the dimension names of \(what)") ?? []
        if let content = try reader.table(table, 3, "the content of \(what)") {
            tensor.content = try contentKind(content)
            if let range = try reader.table(content, 2, "the content range of \(what)") {
                tensor.contentRange = ValueRange(
                    min: Int(try reader.scalar(range, 0, default: Int32(0))),
                    max: Int(try reader.scalar(range, 1, default: Int32(0))))
            }
        }
        tensor.processUnits = try processUnits(table, 4, "the process units of \(what)")
        if let stats = try reader.table(table, 5, "the stats of \(what)") {
            tensor.stats = ValueStats(
                min: try reader.floats(stats, 1, "the minimums of \(what)") ?? [],
                max: try reader.floats(stats, 0, "the maximums of \(what)") ?? [])
        }
        tensor.associatedFiles = try associatedFiles(table, 6, "the associated files of \(what)")
        return tensor
    }

    /// The `content_properties` union of a `Content` table (type at field 0, value at field 1).
    private mutating func contentKind(_ content: FlatBufferTable) throws(ModelFileError) -> ContentKind? {
        let type = Int(try reader.scalar(content, 0, default: UInt8(0)))
        let what = "the content properties of \(content.what)"
        switch type {
        case 0:
            return nil
        case 1:
            return .feature
        case 2:
            guard let image = try reader.table(content, 1, what) else {
                return .image(ImageProperties(colorSpace: .unknown))
            }
            var properties = ImageProperties(
                colorSpace: ColorSpace(schemaValue: Int(try reader.scalar(image, 0, default: Int8(0)))))
            if let size = try reader.table(image, 1, "the default size of \(content.what)") {
                properties.defaultSize = ImageSize(
                    width: Int(try reader.scalar(size, 0, default: UInt32(0))),
                    height: Int(try reader.scalar(size, 1, default: UInt32(0))))
            }
            return .image(properties)
        case 3:
            guard let box = try reader.table(content, 1, what) else {
                return .boundingBox(BoundingBoxProperties(index: [], type: .unknown, coordinateType: .ratio))
            }
            let index = try reader.integers(box, 0, as: UInt32.self, "the bounding box index of \(content.what)") ?? []
            return .boundingBox(
                BoundingBoxProperties(
                    index: index.map { Int($0) },
                    type: BoundingBoxType(schemaValue: Int(try reader.scalar(box, 1, default: Int8(0)))),
                    coordinateType: CoordinateType(schemaValue: Int(try reader.scalar(box, 2, default: Int8(0))))))
        case 4:
            guard let audio = try reader.table(content, 1, what) else {
                return .audio(AudioProperties(sampleRate: 0, channels: 0))
            }
            return .audio(
                AudioProperties(
                    sampleRate: Int(try reader.scalar(audio, 0, default: UInt32(0))),
                    channels: Int(try reader.scalar(audio, 1, default: UInt32(0)))))
        default:
            return .other(type)
        }
    }

    /// A vector of `ProcessUnit` tables, each holding the `options` union (type at field 0, value at 1).
    private mutating func processUnits(
        _ table: FlatBufferTable, _ id: Int,
        _ what: String
    ) throws(ModelFileError) -> [ProcessUnit] {
        let vector = try reader.vector(table, id, elementSize: 4, what)
        let units = try reader.tableElements(vector) { "process unit \($0) of \(what)" }
        var result: [ProcessUnit] = []
        result.reserveCapacity(units.count)
        for unit in units {
            result.append(try processUnit(unit))
        }
        return result
    }

    private mutating func processUnit(_ unit: FlatBufferTable) throws(ModelFileError) -> ProcessUnit {
        let type = Int(try reader.scalar(unit, 0, default: UInt8(0)))
        let what = "the options of \(unit.what)"
        let options = try reader.table(unit, 1, what)
        switch type {
        case 1:
            guard let options else { return .normalization(NormalizationOptions(mean: [], std: [])) }
            return .normalization(
                NormalizationOptions(
                    mean: try reader.floats(options, 0, "the means of \(what)") ?? [],
                    std: try reader.floats(options, 1, "the deviations of \(what)") ?? []))
        case 2:
            guard let options else {
                return .scoreCalibration(ScoreCalibration(transformation: .identity, defaultScore: 0))
            }
            return .scoreCalibration(
                ScoreCalibration(
                    transformation: ScoreTransformation(
                        schemaValue: Int(try reader.scalar(options, 0, default: Int8(0)))),
                    defaultScore: try reader.float(options, 1, default: 0)))
        case 3:
            guard let options else { return .scoreThreshold(0) }
            return .scoreThreshold(try reader.float(options, 0, default: 0))
        case 4:
            guard let options else { return .bertTokenizer(vocabularyFiles: []) }
            return .bertTokenizer(vocabularyFiles: try associatedFiles(options, 0, "the vocabulary of \(what)"))
        case 5:
            guard let options else { return .sentencePieceTokenizer(modelFiles: []) }
            return .sentencePieceTokenizer(modelFiles: try associatedFiles(options, 0, "the models of \(what)"))
        case 6:
            guard let options else { return .regexTokenizer(delimiterPattern: nil) }
            return .regexTokenizer(delimiterPattern: try reader.string(options, 0, "the pattern of \(what)"))
        default:
            return .other(type)
        }
    }

    /// A vector of `AssociatedFile` tables.
    private mutating func associatedFiles(
        _ table: FlatBufferTable, _ id: Int,
        _ what: String
    ) throws(ModelFileError) -> [AssociatedFileInfo] {
        let vector = try reader.vector(table, id, elementSize: 4, what)
        let files = try reader.tableElements(vector) { "file \($0) of \(what)" }
        var result: [AssociatedFileInfo] = []
        result.reserveCapacity(files.count)
        for file in files {
            result.append(
                AssociatedFileInfo(
                    name: try reader.string(file, 0, "the name of \(file.what)") ?? "",
                    description: try reader.string(file, 1, "the description of \(file.what)"),
                    type: AssociatedFileType(schemaValue: Int(try reader.scalar(file, 2, default: Int8(0)))),
                    locale: try reader.string(file, 3, "the locale of \(file.what)")))
        }
        return result
    }
}
