import Foundation

/// Damaged copies of real image and video files, made by byte surgery at test time (never stored).
public enum DamagedFiles {
    /// The kinds of JPEG damage the decoding tests cover.
    public enum JPEGDamage: String, CaseIterable, Sendable, CustomStringConvertible {
        /// An RST marker (`FF D3`) inserted in the middle of the file, inside the entropy-coded data.
        case markerInScan
        /// A copy of the file's own SOF segment inserted in the middle of the entropy-coded data.
        case secondFrameHeader
        /// 64 bytes in the middle of the entropy-coded data overwritten with fixed pseudo-random bytes (no `FF`).
        case garbageInScan
        /// The first half of the file only.
        case truncated

        public var description: String { rawValue }
    }

    /// `jpeg` (a baseline or progressive JPEG file with at least a few kilobytes of compressed data) damaged as
    /// `damage` says. `nil` when its header cannot be walked.
    public static func jpeg(_ jpeg: [UInt8], _ damage: JPEGDamage) -> [UInt8]? {
        guard let sof = segment(in: jpeg, where: { (0xC0...0xC2).contains($0) }),
            let sos = segment(in: jpeg, where: { $0 == 0xDA })
        else { return nil }
        var middle = max(jpeg.count / 2, sos.upperBound + 2)
        while jpeg[middle - 1] == 0xFF { middle += 1 }  // never split an FF 00 pair
        switch damage {
        case .markerInScan:
            return Array(jpeg[..<middle]) + [0xFF, 0xD3] + Array(jpeg[middle...])
        case .secondFrameHeader:
            return Array(jpeg[..<middle]) + Array(jpeg[sof]) + Array(jpeg[middle...])
        case .garbageInScan:
            var damaged = jpeg
            var generator = SeededGenerator(seed: 7)
            for offset in middle..<(middle + 64) { damaged[offset] = UInt8.random(in: 0...0xFE, using: &generator) }
            return damaged
        case .truncated:
            return Array(jpeg.prefix(jpeg.count / 2))
        }
    }

    /// The byte range of the first header segment whose marker satisfies `matches` (the SOS segment
    /// itself, without the compressed data after it), walking lengths from the start of the file.
    public static func segment(in jpeg: [UInt8], where matches: (UInt8) -> Bool) -> Range<Int>? {
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF {
            let end = position + 2 + (Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3]))
            if matches(jpeg[position + 1]) { return end <= jpeg.count ? position..<end : nil }
            if jpeg[position + 1] == 0xDA { return nil }
            position = end
        }
        return nil
    }

    /// bird.tflite's bytes with its input's height turned from 224 into 1,048,588 (one int32 of the shape vector
    /// `[1, 224, 224, 3]`, found by its bytes): a tensor of 705 MB declared in a model of 3.5 MB. Nil when the
    /// vector is not found (another model).
    public static func birdWithHugeInput(_ bird: [UInt8]) -> [UInt8]? {
        // The vector's length, 4, then its four little-endian int32 values.
        let shape: [UInt8] = [4, 0, 0, 0, 1, 0, 0, 0, 224, 0, 0, 0, 224, 0, 0, 0, 3, 0, 0, 0]
        guard bird.count >= shape.count,
            let start = (0...(bird.count - shape.count)).first(where: {
                bird[$0..<$0 + shape.count].elementsEqual(shape)
            })
        else { return nil }
        var bytes = bird
        withUnsafeBytes(of: Int32(1_048_588).littleEndian) { bytes.replaceSubrange(start + 8..<start + 12, with: $0) }
        return bytes
    }

    /// Where ``damagedBird(_:for:)`` writes its photos (a temporary folder, one per test process).
    static let photos = TestData.temporaryDirectory("damaged-photos")

    /// The shared bird.jpg damaged as `damage` says, written for the test `user` (so that tests running at once
    /// never write the same file); returns its path. Fails when bird.jpg's header cannot be walked.
    public static func damagedBird(_ damage: JPEGDamage, for user: String) throws -> String {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestData.image("bird.jpg"))))
        guard let damaged = jpeg(bytes, damage) else { throw CocoaError(.fileReadCorruptFile) }
        let path = photos.appendingPathComponent("\(user)-bird-\(damage).jpg").path
        try Data(damaged).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A copy of the file at `path` cut to its first `fraction` of bytes, written into `folder`.
    public static func truncatedCopy(of path: String, fraction: Double, in folder: URL) throws -> String {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let name = URL(fileURLWithPath: path).lastPathComponent
        let copy = folder.appendingPathComponent("cut-\(Int(fraction * 100))-\(name)")
        try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: copy)
        return copy.path
    }

    /// A mid-grey JPEG of `width` x `height` pixels (multiples of 16) in a few bytes per 16x16 block: huge in
    /// memory, small on disk. `greyJPEG` is a 16x16 mid-grey (128) baseline JPEG with 4:2:0 subsampling; the
    /// result is its header with the size patched, and its one-block compressed data repeated for every block.
    /// `nil` when its compressed data is not the 4 whole bytes this needs.
    public static func greyJPEG(from greyJPEG: [UInt8], width: Int, height: Int) -> [UInt8]? {
        guard width % 16 == 0, height % 16 == 0, let sof = segment(in: greyJPEG, where: { $0 == 0xC0 }),
            let sos = segment(in: greyJPEG, where: { $0 == 0xDA }), greyJPEG.count == sos.upperBound + 6,
            greyJPEG.suffix(2) == [0xFF, 0xD9]
        else { return nil }
        var frame = Array(greyJPEG[..<sos.upperBound])
        frame.replaceSubrange((sof.lowerBound + 5)..<(sof.lowerBound + 9), with: be16(height) + be16(width))
        let block = Array(greyJPEG[sos.upperBound..<(sos.upperBound + 4)])
        frame.reserveCapacity(frame.count + (width / 16) * (height / 16) * 4 + 2)
        for _ in 0..<((width / 16) * (height / 16)) { frame += block }
        return frame + [0xFF, 0xD9]
    }

    /// An AVI file of `frames` Motion-JPEG frames of `width` x `height` pixels, all ``greyJPEG(from:width:height:)``:
    /// a video whose frames are huge in memory but small on disk, with its size declared in its headers.
    public static func mjpegAVI(greyJPEG grey: [UInt8], width: Int, height: Int, frames: Int) -> [UInt8]? {
        guard let frame = greyJPEG(from: grey, width: width, height: height) else { return nil }
        let avih =
            le32(40_000) + le32(0) + le32(0) + le32(0x10) + le32(frames) + le32(0) + le32(1) + le32(0)
            + le32(width) + le32(height) + [UInt8](repeating: 0, count: 16)
        let strh =
            Array("vidsMJPG".utf8) + le32(0) + le32(0) + le32(0) + le32(1) + le32(25) + le32(0)
            + le32(frames) + le32(0) + le32(0xFFFF_FFFF) + le32(0) + le16(0) + le16(0) + le16(width) + le16(height)
        let strf =
            le32(40) + le32(width) + le32(height) + le16(1) + le16(24) + Array("MJPG".utf8)
            + le32(width * height * 3) + [UInt8](repeating: 0, count: 16)
        let hdrl = list(
            "hdrl", chunk("avih", avih) + list("strl", chunk("strh", strh) + chunk("strf", strf)))
        let movi = list("movi", (0..<frames).flatMap { _ in chunk("00dc", frame) })
        let body = Array("AVI ".utf8) + hdrl + movi
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    private static func chunk(_ fourCC: String, _ data: [UInt8]) -> [UInt8] {
        Array(fourCC.utf8) + le32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
    }

    private static func list(_ kind: String, _ data: [UInt8]) -> [UInt8] { chunk("LIST", Array(kind.utf8) + data) }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }

    static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16((value >> 16) & 0xFFFF) }

    private static func be16(_ value: Int) -> [UInt8] { [UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
}
