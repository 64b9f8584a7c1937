import CCurl
import Crypto
import FoundationEssentials
import LiteVisionSystem

/// One model's download in progress, kept in its cache folder as `download.partial` (the bytes received so
/// far) and `download.json` (what they are a part of: the address, the expected SHA-256, the server's `ETag`),
/// so that a later download, in this process or another, asks only for the rest.
struct PartialDownload {
    /// What `download.json` says.
    struct Record: Codable, Equatable {
        var url: String
        var sha256: String?
        var etag: String?
    }

    /// How one transfer ended.
    enum Outcome {
        /// The server says the installed version is current (`304 Not Modified`).
        case upToDate(InstalledModel)
        /// The whole file is in `download.partial`.
        case complete
        /// The partial bytes cannot be continued: start again from the first byte.
        case restart
    }

    let folder: String
    let url: String
    let expectedSHA256: String?
    /// The registry's version number of the file, recorded with it when installed.
    let version: Int?
    /// The file's size as the registry announced it: more bytes than this end the transfer.
    let announcedSize: Int?
    private var hash = SHA256()
    private var size: Int64 = 0
    private var etag: String?

    var partialPath: String { ModelCache.partialPath(in: folder) }
    var recordPath: String { ModelCache.partialRecordPath(in: folder) }

    init(folder: String, url: String, expectedSHA256: String?, version: Int? = nil, announcedSize: Int? = nil) {
        self.folder = folder
        self.url = url
        self.expectedSHA256 = expectedSHA256
        self.version = version
        self.announcedSize = announcedSize
    }

    /// Runs one transfer (with the extra request `headers`, for example a registry's token): continues the
    /// partial file when it belongs to this download, else starts afresh.
    mutating func run(
        _ curl: CurlLibrary, settings: TransferSettings, headers extraHeaders: [String] = [],
        installed: InstalledModel?,
        progress: (Int64, Int64?) -> Void, isCancelled: () -> Bool
    ) throws(TransferProblem) -> Outcome {
        try loadPartial()
        let descriptor = try openPartialFile()
        defer { close(descriptor) }
        let resumeFrom = size
        let request = settings.request(
            url, headers: requestHeaders(extraHeaders, resumeFrom: resumeFrom, installed: installed),
            resumeFrom: resumeFrom, sizeLimit: settings.sizeLimit, deadline: settings.downloadDeadline)
        var state = TransferState()
        let response = CurlTransfer.perform(
            curl, request,
            onResponse: { status, headers in
                guard begin(status: status, headers: headers, resumeFrom: resumeFrom, descriptor: descriptor, &state)
                else { return false }
                progress(size, state.total)
                return true
            },
            body: { bytes in
                guard append(bytes, descriptor: descriptor, sizeLimit: settings.sizeLimit, &state) else { return false }
                progress(size, state.total)
                return true
            }, shouldCancel: isCancelled)
        return try outcome(
            of: response, state, descriptor: descriptor, installed: installed, sizeLimit: settings.sizeLimit)
    }

    /// What a transfer's callbacks found, for ``outcome(of:_:descriptor:installed:sizeLimit:)``.
    private struct TransferState {
        /// The whole file's size, once the server has said it.
        var total: Int64?
        var writeError: SystemError?
        var tooLarge = false
        var largerThanAnnounced = false
        /// The server's range does not continue the partial bytes.
        var restart = false
    }

    /// `download.partial`, opened for appending. Not through a symbolic link, nor into a pipe or a device that
    /// someone put in the cache folder: the bytes go into a regular file of this folder only (O_NONBLOCK: opening
    /// a FIFO does not wait for a reader).
    private func openPartialFile() throws(TransferProblem) -> Int32 {
        let descriptor = open(partialPath, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TransferProblem(.fileSystem(path: partialPath, detail: errorDescription(errno)))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw TransferProblem(
                .fileSystem(path: partialPath, detail: "it is not a regular file; remove it and download again"))
        }
        return descriptor
    }

    /// The request's headers: `extra`, `If-Range` when continuing, `If-None-Match` when a version without a
    /// known SHA-256 is installed.
    private func requestHeaders(_ extra: [String], resumeFrom: Int64, installed: InstalledModel?) -> [String] {
        var headers = extra
        if resumeFrom > 0, let etag { headers.append("If-Range: \(etag)") }
        if resumeFrom == 0, expectedSHA256 == nil, let known = installed?.etag.flatMap(Self.headerValue) {
            headers.append("If-None-Match: \(known)")
        }
        return headers
    }

    /// The response's head has arrived: continue the partial file (206 from where it ends), or start it afresh
    /// (anything else: the server ignored the range, or the file changed under If-Range); records what the bytes
    /// are a part of. False ends the transfer.
    private mutating func begin(
        status: Int, headers: [String: String], resumeFrom: Int64, descriptor: Int32, _ state: inout TransferState
    ) -> Bool {
        if status == 206 {
            guard headers["content-range"].flatMap(Self.rangeStart) == resumeFrom else {
                state.restart = true
                return false
            }
        } else if size > 0 {
            if ftruncate(descriptor, 0) != 0 {
                state.writeError = .fromErrno(.write, path: partialPath)
                return false
            }
            hash = SHA256()
            size = 0
        }
        state.total = Self.totalSize(status: status, headers: headers, resumeFrom: resumeFrom)
        etag = headers["etag"].flatMap(Self.headerValue)
        do {
            // Not fsynced: losing the record in a power failure only means the download starts afresh (an
            // empty or unreadable record is ignored), and the transfer does not wait for the disk.
            try AtomicFile.write(
                Array(try JSONEncoder().encode(Record(url: url, sha256: expectedSHA256, etag: etag))),
                to: recordPath, durable: false)
        } catch let error as SystemError {
            state.writeError = error
            return false
        } catch {
            state.writeError = SystemError(.write, path: recordPath, reason: "\(error)")
            return false
        }
        return true
    }

    /// Appends a piece of the body, within the announced size and the size limit. False ends the transfer.
    private mutating func append(
        _ bytes: UnsafeRawBufferPointer, descriptor: Int32, sizeLimit: Int, _ state: inout TransferState
    ) -> Bool {
        if let announcedSize, size + Int64(bytes.count) > Int64(announcedSize) {
            state.largerThanAnnounced = true
            return false
        }
        guard size + Int64(bytes.count) <= Int64(sizeLimit) else {
            state.tooLarge = true
            return false
        }
        do throws(SystemError) {
            try Platform.writeAll(bytes, to: descriptor, path: partialPath)
        } catch {
            state.writeError = error
            return false
        }
        hash.update(bufferPointer: bytes)
        size += Int64(bytes.count)
        return true
    }

    /// How the transfer ended, from libcurl's `response` and what the callbacks found.
    private mutating func outcome(
        of response: CurlTransfer.Response, _ state: TransferState, descriptor: Int32, installed: InstalledModel?,
        sizeLimit: Int
    ) throws(TransferProblem) -> Outcome {
        // The partial bytes cannot be continued: the server refused the range (416), answered a range request
        // with the whole file (libcurl stops with a range error), or sent a range that does not start where asked.
        if state.restart || response.status == 416 || response.code == LiteVisionCurlCode(kLiteVisionCurlRangeError) {
            return .restart
        }
        if response.status == 304, let installed { return .upToDate(installed) }
        if state.largerThanAnnounced, let announcedSize {
            discard()
            throw TransferProblem(
                .invalidRegistryResponse(
                    detail:
                        "the server sent more than the \(announcedSize) bytes the registry announced for the file; nothing was installed"
                ))
        }
        if let reason = ModelDownloadError.Reason(
            response, sizeLimit: sizeLimit, writeError: state.writeError, tooLarge: state.tooLarge)
        {
            let problem = TransferProblem(reason, serverMessage: response.errorBody.isEmpty ? nil : response.errorBody)
            // Kept to be resumed, except when it cannot help: too large, or on a full disk (where its bytes are in
            // the way of whatever frees the space).
            switch reason {
            case .tooLarge, .noSpace: discard()
            default: break
            }
            throw problem
        }
        if fsync(descriptor) != 0 {
            throw TransferProblem(.fileSystem(path: partialPath, detail: errorDescription(errno)))
        }
        return .complete
    }

    /// Checks the complete file and makes it the installed version; the partial files are gone afterwards,
    /// whatever the outcome.
    mutating func install() throws(TransferProblem) -> InstalledModel {
        defer { discard() }
        let digest = SHA256Digest.hex(hash.finalize())
        if let expectedSHA256, digest != expectedSHA256 {
            throw TransferProblem(.hashMismatch(expected: expectedSHA256, actual: digest, byteCount: Int(size)))
        }
        if let problem = Self.flatBufferProblem(partialPath) {
            throw TransferProblem(.notATFLiteModel(detail: problem))
        }
        let record = InstalledModel.Record(url: url, sha256: digest, size: Int(size), etag: etag, version: version)
        return try ModelCache.commit(partialPath, as: record, in: folder)
    }

    /// Removes the partial file and its record.
    mutating func discard() {
        unlink(partialPath)
        unlink(recordPath)
        hash = SHA256()
        size = 0
        etag = nil
    }

    /// Continues from the partial file when its record says it is part of this download (hashing what is
    /// there), else removes it.
    private mutating func loadPartial() throws(TransferProblem) {
        hash = SHA256()
        size = 0
        etag = nil
        // Anything but a regular file in place of the partial file (a symbolic link to a file elsewhere, a FIFO)
        // was not made by a download: it is removed, never read or appended to.
        var status = stat()
        if lstat(partialPath, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
            discard()
            return
        }
        guard let bytes = try? FileContents.read(atPath: recordPath, maximumSize: 1 << 16),
            let record = try? JSONDecoder().decode(Record.self, from: Data(bytes)),
            record.url == url, record.sha256 == expectedSHA256,
            record.etag.map({ Self.headerValue($0) != nil }) ?? true
        else {
            discard()
            return
        }
        let descriptor = open(partialPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            discard()
            return
        }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { Platform.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw TransferProblem(.fileSystem(path: partialPath, detail: errorDescription(errno)))
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { hash.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            size += Int64(count)
        }
        etag = record.etag
    }

    /// `text` when it can be sent as a header value (visible ASCII and spaces: no line break that would add a
    /// header of its own), else nil. For `ETag`s read back from files in the cache folder.
    static func headerValue(_ text: String) -> String? {
        text.utf8.allSatisfy({ $0 >= 32 && $0 < 127 }) ? text : nil
    }

    /// The first byte of a `Content-Range: bytes START-END/TOTAL` header.
    static func rangeStart(_ header: String) -> Int64? {
        guard header.hasPrefix("bytes ") else { return nil }
        return header.dropFirst(6).split(separator: "-").first.flatMap { Int64($0) }
    }

    /// The size of the whole file, from `Content-Range` (206) or `Content-Length` (200).
    static func totalSize(status: Int, headers: [String: String], resumeFrom: Int64) -> Int64? {
        if status == 206 {
            return headers["content-range"]?.split(separator: "/").last.flatMap { Int64($0) }
        }
        return headers["content-length"].flatMap { Int64($0) }
    }

    /// Why the file at `path` is not a TFLite model (its FlatBuffer identifier is not `TFL3`), or nil.
    static func flatBufferProblem(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return errorDescription(errno) }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 8)
        let count = header.withUnsafeMutableBytes { Platform.read(descriptor, $0.baseAddress!, 8) }
        guard count == 8 else { return "it is only \(max(0, count)) bytes long" }
        guard Array(header[4..<8]) == Array("TFL3".utf8) else {
            let start = String(decoding: header.map { (32..<127).contains($0) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
            return "it does not carry the TFLite identifier TFL3 (it starts with \"\(start)\")"
        }
        return nil
    }
}
