/// Walks the marker segments at the start of a JPEG file (everything before the first scan).
///
/// A JPEG file is SOI (`FF D8`) followed by segments `FF xx` + 16-bit big-endian length (which
/// counts itself) + payload, until SOS (`FF DA`) starts the entropy-coded data. Lengths come from
/// the file and are checked; a segment that runs past the end stops the walk. Stray bytes between
/// segments are skipped, as libjpeg does.
enum JPEGMarkerScanner {
    /// One marker segment: the marker byte (the `xx` of `FF xx`) and its payload.
    struct Segment {
        let marker: UInt8
        let payload: ByteView
    }

    /// How a walk ended.
    enum End {
        /// A complete SOS segment was found: the header is all there, and the entropy-coded data
        /// starts at `dataOffset`.
        case reachedScan(dataOffset: Int)
        /// EOI came before any scan.
        case reachedEnd
        /// The data ran out, or a segment's length runs past it.
        case ranOut
        /// The caller stopped the walk.
        case stopped
        /// The data does not start with SOI.
        case notJPEG
    }

    /// Whether the bytes start with the JPEG SOI marker followed by another marker.
    static func hasSignature(_ bytes: ByteView) -> Bool {
        bytes.matches([0xFF, 0xD8, 0xFF], at: 0)
    }

    /// Calls `body` for each segment before the first scan, in file order, until it returns `false`.
    @discardableResult
    static func forEachSegment(in bytes: ByteView, _ body: (Segment) -> Bool) -> End {
        walk(bytes, throughScans: false, body)
    }

    /// Calls `body` for every segment of the file in order, until EOI or until it returns `false`: the header's,
    /// each scan's SOS (its payload is the scan header) and the segments between scans (Huffman tables of
    /// progressive files), each scan's entropy-coded data skipped up to the next marker. Ends with
    /// ``End/reachedEnd`` at EOI, ``End/ranOut`` when the data or a segment runs out first; a segment that runs
    /// past the end of the data is given to `body` with the bytes there are, first.
    @discardableResult
    static func forEachSegmentThroughScans(in bytes: ByteView, _ body: (Segment) -> Bool) -> End {
        walk(bytes, throughScans: true, body)
    }

    private static func walk(_ bytes: ByteView, throughScans: Bool, _ body: (Segment) -> Bool) -> End {
        guard bytes.matches([0xFF, 0xD8], at: 0) else { return .notJPEG }
        var position = 2
        while true {
            // Skip anything up to the next 0xFF (entropy-coded data too), then any 0xFF fill bytes before the
            // marker byte.
            while let byte = bytes.u8(at: position), byte != 0xFF { position += 1 }
            while bytes.u8(at: position) == 0xFF { position += 1 }
            guard let marker = bytes.u8(at: position) else { return .ranOut }
            position += 1
            switch marker {
            case 0xD9:
                return .reachedEnd
            case 0x00, 0x01, 0xD0...0xD7:  // stuffed byte, TEM, RSTn: no length, no payload
                continue
            default:
                guard let length = bytes.u16(at: position), length >= 2 else { return .ranOut }
                guard let payload = bytes.slice(offset: position + 2, length: Int(length) - 2) else {
                    if throughScans, let rest = bytes.slice(offset: position + 2, length: bytes.count - position - 2) {
                        _ = body(Segment(marker: marker, payload: rest))
                    }
                    return .ranOut
                }
                if marker == 0xDA && !throughScans { return .reachedScan(dataOffset: position + Int(length)) }
                guard body(Segment(marker: marker, payload: payload)) else { return .stopped }
                position += Int(length)
            }
        }
    }

    /// Whether the header segments are all present: the walk reaches a complete SOS segment (or EOI)
    /// instead of running out of data. Used to tell a cut-short file from a malformed one.
    static func headerIsComplete(_ bytes: ByteView) -> Bool {
        switch forEachSegment(in: bytes, { _ in true }) {
        case .reachedScan, .reachedEnd: true
        case .ranOut, .stopped, .notJPEG: false
        }
    }

    /// Whether an EOI marker (`FF D9`) follows the first scan's header. Inside entropy-coded data
    /// `FF` is only ever followed by `00` or a restart marker, so a missing EOI means the file was cut.
    /// (Scans the compressed data once: used only when libjpeg-turbo has already complained.)
    static func hasEndMarkerAfterFirstScan(_ bytes: ByteView) -> Bool {
        guard case .reachedScan(let start) = forEachSegment(in: bytes, { _ in true }), start < bytes.count else {
            return false
        }
        let data = bytes.bytes
        var position = start
        while position + 1 < data.count {
            if data[position] == 0xFF && data[position + 1] == 0xD9 { return true }
            position += 1
        }
        return false
    }
}
