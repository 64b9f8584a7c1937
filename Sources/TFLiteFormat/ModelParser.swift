// Reads the parts of a TFLite model FlatBuffer (schema.fbs, file identifier "TFL3") this module exposes.
// Field numbers below are the field ids of that schema's tables.

/// What ``ModelParser`` extracts from the model FlatBuffer.
struct ParsedModel {
    var schemaVersion: UInt32
    var description: String?
    var inputs: [TensorInfo]
    var outputs: [TensorInfo]
    var subgraphCount: Int
    var minRuntimeVersion: String?
    /// Where the `TFLITE_METADATA` buffer lies in the file, if the model has one.
    var metadataRange: Range<Int>?
}

/// Checks that `bytes` start like a TFLite FlatBuffer: at least 8 bytes, identifier `TFL3` at byte 4.
func checkModelIdentifier(_ bytes: [UInt8], path: String?) throws(ModelFileError) {
    guard !bytes.isEmpty else { throw .empty(path: path) }
    guard bytes.count >= 8 else {
        throw .notATFLiteModel(
            reason: "\(bytes.count) bytes are too few for a TFLite FlatBuffer (at least 8 are needed)")
    }
    let identifier = bytes[4..<8]
    guard !identifier.elementsEqual("TFL3".utf8) else { return }
    var reason = "the FlatBuffer file identifier at bytes 4-7 is \(describeIdentifier(identifier)), not \"TFL3\""
    if let kind = recognizedFileKind(bytes) { reason += "; the data looks like \(kind)" }
    throw .notATFLiteModel(reason: reason)
}

/// Names common file formats from their first bytes, to explain what was passed instead of a model.
func recognizedFileKind(_ bytes: [UInt8]) -> String? {
    func starts(with prefix: [UInt8], at offset: Int = 0) -> Bool {
        bytes.count >= offset + prefix.count && bytes[offset..<(offset + prefix.count)].elementsEqual(prefix)
    }
    if starts(with: [0xFF, 0xD8, 0xFF]) { return "a JPEG image" }
    if starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "a PNG image" }
    if starts(with: Array("GIF8".utf8)) { return "a GIF image" }
    if starts(with: Array("RIFF".utf8)) { return "a RIFF file (WebP image, WAV or AVI)" }
    if starts(with: Array("ftyp".utf8), at: 4) { return "an MP4/MOV/HEIF media file" }
    if starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "a zip archive" }
    if starts(with: [0x7F, 0x45, 0x4C, 0x46]) { return "an executable or shared library (ELF)" }
    if starts(with: Array("%PDF".utf8)) { return "a PDF document" }
    if starts(with: [0x1F, 0x8B]) { return "a gzip archive" }
    if starts(with: Array("<".utf8)) && bytes.prefix(512).allSatisfy(isTextByte) { return "an HTML or XML document" }
    if bytes.prefix(512).allSatisfy(isTextByte) { return "a text file" }
    return nil
}

private func isTextByte(_ byte: UInt8) -> Bool {
    byte == 0x09 || byte == 0x0A || byte == 0x0D || byte >= 0x20 && byte != 0x7F
}

/// Walks the model FlatBuffer's tables.
struct ModelParser {
    var reader: FlatBufferReader

    mutating func parse() throws(ModelFileError) -> ParsedModel {
        let model = try reader.rootTable("the Model table")
        let version = try reader.scalar(model, 0, default: UInt32(0))
        let description = try reader.string(model, 3, "the model description")

        guard let subgraphs = try reader.vector(model, 2, elementSize: 4, "the subgraphs"), subgraphs.count > 0 else {
            throw .malformed("the model has no subgraph")
        }
        let subgraph = try reader.tableElement(subgraphs, 0, "subgraph 0")
        let tensors = try reader.vector(subgraph, 0, elementSize: 4, "the tensors of subgraph 0")
        let inputIndices = try reader.integers(subgraph, 1, as: Int32.self, "the inputs of subgraph 0") ?? []
        let outputIndices = try reader.integers(subgraph, 2, as: Int32.self, "the outputs of subgraph 0") ?? []
        let inputs = try tensorInfos(inputIndices, tensors, role: "input")
        let outputs = try tensorInfos(outputIndices, tensors, role: "output")

        var metadataRange: Range<Int>?
        var minRuntimeVersion: String?
        let entries = try reader.vector(model, 6, elementSize: 4, "the metadata entries")
        let entryTables = try reader.tableElements(entries) { "metadata entry \($0)" }
        for entry in entryTables {
            let name = try reader.string(entry, 0, "the name of \(entry.what)")
            guard name == "TFLITE_METADATA" || name == "min_runtime_version" else { continue }
            let bufferIndex = Int(try reader.scalar(entry, 1, default: UInt32(0)))
            let range = try bufferRange(model, bufferIndex, entryName: name ?? "")
            if name == "TFLITE_METADATA" {
                if metadataRange == nil { metadataRange = range }
            } else if minRuntimeVersion == nil {
                let text = reader.bytes[range].prefix { $0 != 0 }
                minRuntimeVersion = String(decoding: text, as: UTF8.self)
            }
        }

        return ParsedModel(
            schemaVersion: version, description: description, inputs: inputs, outputs: outputs,
            subgraphCount: subgraphs.count, minRuntimeVersion: minRuntimeVersion,
            metadataRange: metadataRange)
    }

    private mutating func tensorInfos(
        _ indices: [Int32], _ tensors: FlatBufferVector?,
        role: String
    ) throws(ModelFileError) -> [TensorInfo] {
        let tensorCount = tensors?.count ?? 0
        var result: [TensorInfo] = []
        result.reserveCapacity(indices.count)
        for (position, index) in indices.enumerated() {
            guard let tensors, index >= 0, Int(index) < tensorCount else {
                throw .malformed(
                    "\(role) \(position) of subgraph 0 refers to tensor \(index), "
                        + "but the subgraph has \(tensorCount) tensors")
            }
            let tensor = try reader.tableElement(tensors, Int(index), "tensor \(index) of subgraph 0")
            result.append(try tensorInfo(tensor))
        }
        return result
    }

    private mutating func tensorInfo(_ tensor: FlatBufferTable) throws(ModelFileError) -> TensorInfo {
        let what = tensor.what
        let shape = try reader.integers(tensor, 0, as: Int32.self, "the shape of \(what)") ?? []
        let type = try reader.scalar(tensor, 1, default: Int8(0))
        let name = try reader.string(tensor, 3, "the name of \(what)") ?? ""
        var quantization: Quantization?
        if let parameters = try reader.table(tensor, 4, "the quantization of \(what)") {
            let scales = try reader.floats(parameters, 2, "the quantization scales of \(what)") ?? []
            let zeroPoints =
                try reader.integers(
                    parameters, 3, as: Int64.self,
                    "the quantization zero points of \(what)") ?? []
            if let scale = scales.first {
                quantization = Quantization(scale: scale, zeroPoint: Int(zeroPoints.first ?? 0))
            }
        }
        return TensorInfo(
            name: name, shape: shape.map { Int($0) },
            elementType: TensorElementType(schemaValue: Int(type)), quantization: quantization)
    }

    /// Where the data of buffer `index` lies: inside the FlatBuffer (`data`), or, for models over 2 GB,
    /// at `offset`/`size` relative to the start of the file.
    private func bufferRange(
        _ model: FlatBufferTable, _ index: Int,
        entryName: String
    ) throws(ModelFileError) -> Range<Int> {
        let buffers = try reader.vector(model, 4, elementSize: 4, "the buffers")
        let bufferCount = buffers?.count ?? 0
        guard let buffers, index < bufferCount else {
            throw .malformed(
                "the metadata entry \"\(entryName)\" refers to buffer \(index), "
                    + "but the model has \(bufferCount) buffers")
        }
        let buffer = try reader.tableElement(buffers, index, "buffer \(index) (\(entryName))")
        if let outside = try reader.outsideData(buffer, offsetField: 1, sizeField: 2, buffer.what) {
            return outside
        }
        return try reader.byteRange(buffer, 0, "the data of \(buffer.what)") ?? 0..<0
    }
}
