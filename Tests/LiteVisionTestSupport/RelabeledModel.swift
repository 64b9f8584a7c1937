/// Copies of a real model with other label files, made at test time (never stored): the model's FlatBuffer is
/// kept and the zip of its associated files written again, every file stored (uncompressed) under its name.
public enum RelabeledModel {
    /// `model` (a `.tflite` file whose associated files form a zip at its end, with offsets from the file's start,
    /// as TFLite metadata writes them) with each associated file replaced by `transform(name, contents)`. Nil when
    /// the zip cannot be read or a file in it is compressed.
    public static func make(_ model: [UInt8], _ transform: (String, [UInt8]) -> [UInt8]) -> [UInt8]? {
        guard model.count >= 22,
            let end = (0...(model.count - 22)).reversed().first(where: { read32(model, $0) == 0x0605_4B50 })
        else { return nil }
        let count = Int(read16(model, end + 10))
        var position = Int(read32(model, end + 16))
        var entries: [(name: String, data: [UInt8])] = []
        var zipStart = end
        for _ in 0..<count {
            guard position + 46 <= end, read32(model, position) == 0x0201_4B50, read16(model, position + 10) == 0
            else { return nil }
            let size = Int(read32(model, position + 20))
            let nameLength = Int(read16(model, position + 28))
            let skipped = nameLength + Int(read16(model, position + 30)) + Int(read16(model, position + 32))
            let local = Int(read32(model, position + 42))
            let name = String(decoding: model[position + 46..<position + 46 + nameLength], as: UTF8.self)
            guard local + 30 <= end else { return nil }
            let dataStart = local + 30 + Int(read16(model, local + 26)) + Int(read16(model, local + 28))
            guard dataStart + size <= end else { return nil }
            entries.append((name, transform(name, Array(model[dataStart..<dataStart + size]))))
            zipStart = min(zipStart, local)
            position += 46 + skipped
        }
        var out = Array(model[..<zipStart])
        var directory: [UInt8] = []
        for entry in entries {
            let crc = crc32(entry.data)
            let name = Array(entry.name.utf8)
            let local = out.count
            let sizes =
                DamagedFiles.le32(Int(crc)) + DamagedFiles.le32(entry.data.count)
                + DamagedFiles.le32(entry.data.count)
            out += DamagedFiles.le32(0x0403_4B50) + DamagedFiles.le16(20) + [UInt8](repeating: 0, count: 8) + sizes
            out += DamagedFiles.le16(name.count) + DamagedFiles.le16(0) + name + entry.data
            directory += DamagedFiles.le32(0x0201_4B50) + DamagedFiles.le16(20) + DamagedFiles.le16(20)
            directory += [UInt8](repeating: 0, count: 8) + sizes + DamagedFiles.le16(name.count)
            directory += [UInt8](repeating: 0, count: 12) + DamagedFiles.le32(local) + name
        }
        let directoryStart = out.count
        out += directory + DamagedFiles.le32(0x0605_4B50) + [0, 0, 0, 0]
        out += DamagedFiles.le16(entries.count) + DamagedFiles.le16(entries.count)
        out += DamagedFiles.le32(directory.count) + DamagedFiles.le32(directoryStart) + [0, 0]
        return out
    }

    /// The lines of a label file without its last `count` lines.
    public static func dropLastLines(_ count: Int, of text: [UInt8]) -> [UInt8] {
        var lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return Array(lines.dropLast(count).joined(separator: [UInt8(ascii: "\n")])) + [UInt8(ascii: "\n")]
    }

    private static func read16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }

    private static func read32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(read16(bytes, at)) | UInt32(read16(bytes, at + 2)) << 16
    }

    /// The CRC-32 of zip files (polynomial 0xEDB88320).
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
