import FoundationEssentials
import Hummingbird
import LiteVisionRegistryStorage
import NIOCore

// `GET` and `HEAD /v1/blobs/{sha256}`: model files by content, with `ETag`, `If-None-Match` and `Range`, sent a piece
// at a time as the client reads.

extension RegistryRoutes {
    /// A model file by content address: immutable, with `ETag`, `If-None-Match` and single `Range` support
    /// (`headersOnly` for `HEAD`: the same status and headers, no body).
    func blob(
        _ request: Request, context: RegistryRequestContext, headersOnly: Bool = false
    ) async throws -> Response {
        let sha256 = context.parameters.get("sha256") ?? ""
        guard sha256.count == 64, sha256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return Self.error(.invalidRequest("a blob is named by 64 lowercase hexadecimal digits"))
        }
        let owners: ResponseCache.BlobOwners
        let size: Int
        switch await blobAccess(sha256, for: request) {
        case .refused(let refusal): return refusal
        case .granted(let found, let stored): (owners, size) = (found, stored)
        }
        var headers: HTTPFields = [
            .eTag: "\"\(sha256)\"", .acceptRanges: "bytes", .contentType: "application/octet-stream",
        ]
        headers.append(contentsOf: Self.isPrivate(owners) ? Self.privateBlobHeaders : Self.publicBlobHeaders)
        if let condition = request.headers[.ifNoneMatch],
            condition.contains(sha256) || condition.trimmingCharacters(in: .whitespaces) == "*"
        {
            return Response(status: .notModified, headers: headers)
        }
        var range = 0...(max(size, 1) - 1)
        var status = HTTPResponse.Status.ok
        let ifRange = request.headers[.ifRange]
        if let header = request.headers[.range], ifRange == nil || ifRange!.contains(sha256) {
            switch Self.byteRange(header, size: size) {
            case .whole:
                break
            case .unsatisfiable:
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            case .range(let requested):
                range = requested
                status = .partialContent
                headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            }
        }
        headers[.contentLength] = String(range.count)
        if headersOnly { return Response(status: status, headers: headers) }
        let privateNames = Set(owners.models.filter(\.isPrivate).map(\.name))
        metrics.blobSent(
            bytes: range.count, fromStart: range.lowerBound == 0,
            versions: owners.versions.map {
                privateNames.contains($0.model) ? ("(private)", nil) : ($0.model, $0.version)
            })
        let body = await blobBody(sha256, size: size, range: range, on: context.channel)
        return Response(status: status, headers: headers, body: body)
    }

    /// Whether a request may have a blob, and what the blob is.
    private enum BlobAccess {
        /// The answer to send instead of the blob.
        case refused(Response)
        /// The blob's owners and size.
        case granted(ResponseCache.BlobOwners, size: Int)
    }

    /// Whether `request` may have the blob `sha256` (it is stored, some version has it, and the request's token
    /// may read one of them), with its owners and size.
    private func blobAccess(_ sha256: String, for request: Request) async -> BlobAccess {
        do throws(RegistryError) {
            let grant = try await self.grant(request)
            let owners = try await cache.owners(ofBlob: sha256, in: service)
            guard !owners.models.isEmpty else { throw RegistryError.notFound("blob \(sha256)") }
            try Self.requireRead(owners.models, grant: grant, what: "blob \(sha256)")
            guard let stored = try await service.blobs.size(of: sha256) else {
                throw RegistryError.notFound("blob \(sha256)")
            }
            return .granted(owners, size: stored)
        } catch {
            // A refusal depends on the token (or its absence) and is never to be cached, whether or not the blob's
            // owners were looked up before the token was refused.
            var refusal = Self.error(error)
            refusal.headers.append(contentsOf: Self.privateBlobHeaders)
            return .refused(refusal)
        }
    }

    /// The bytes `range` of the blob `sha256` (`size` bytes), piece by piece as the client on `channel` reads (each
    /// piece once the connection has taken the ones before), from memory for a kept file, else from the store:
    /// never more than a few pieces per connection.
    private func blobBody(
        _ sha256: String, size: Int, range: ClosedRange<Int>, on channel: any Channel
    ) async -> ResponseBody {
        if let bytes = await cache.blob(sha256, size: size, from: service.blobs),
            let slice = bytes.getSlice(at: range.lowerBound, length: range.count)
        {
            return ResponseBody(contentLength: slice.readableBytes) { writer in
                try await Self.write(slice, to: &writer, on: channel)
                try await writer.finish(nil)
            }
        }
        let blobs = service.blobs
        return ResponseBody(contentLength: range.count) { writer in
            try await blobs.read(sha256, size: size, range: range) { piece in
                try await Self.write(piece, to: &writer, on: channel)
            }
            try await writer.finish(nil)
        }
    }

    /// The most bytes of a download handed to a connection at once.
    package static let downloadPiece = 64 << 10

    /// The most bytes of a download from memory or from a file the registry holds for one connection whose client
    /// does not read: NIO's write buffer up to its high-water mark (64 KiB) and the piece that passed it, and the
    /// next piece, waiting in Hummingbird's writer until the channel is writable again (from PostgreSQL the 1 MiB
    /// chunk that piece was cut from). Measured: 800 such clients, +181 MB (232 KiB each, with the connection's
    /// own state).
    package static let bufferedBytesPerConnection = 3 * downloadPiece

    /// Writes `buffer` to `writer` in pieces of at most ``downloadPiece`` bytes, each after the previous one was
    /// taken by the connection `channel`.
    ///
    /// Hummingbird's writer (NIO's `NIOAsyncWriter`) waits while the channel is not writable, but a write returns
    /// as soon as it is queued for the channel's event loop, and the writer only learns that the channel stopped
    /// being writable once the loop has run the writes queued before: a task reading pieces from a file faster
    /// than a busy loop runs them queued ~1 MB per connection that never reads (300 such clients: +333 MB). So
    /// after each piece this waits for a task queued behind the write on the loop (the loop runs its tasks in
    /// order): the write has then reached the channel, whose writability the writer knows before the next piece.
    private static func write(
        _ buffer: ByteBuffer, to writer: inout any ResponseBodyWriter, on channel: any Channel
    ) async throws {
        var rest = buffer
        while rest.readableBytes > 0, let piece = rest.readSlice(length: min(downloadPiece, rest.readableBytes)) {
            try await writer.write(piece)
            try await channel.eventLoop.submit {}.get()
        }
    }

    /// Whether a blob is readable only with a token: every model that has it is private (a blob that a public
    /// model also has is public).
    private static func isPrivate(_ owners: ResponseCache.BlobOwners) -> Bool {
        !owners.models.isEmpty && owners.models.allSatisfy(\.isPrivate)
    }

    /// A public blob: immutable, and any cache (a CDN) may keep it for a year.
    private static let publicBlobHeaders: HTTPFields = [.cacheControl: "public, max-age=31536000, immutable"]

    /// A private blob (answers and refusals alike): no shared cache may keep it, and the answer depends on the
    /// token, so a cache that does keep it must key it by `Authorization`.
    private static let privateBlobHeaders: HTTPFields = [.cacheControl: "private, no-store", .vary: "Authorization"]

    /// What a `Range` header asks of a `size`-byte file.
    package enum ByteRange: Equatable {
        /// The header is not a single byte range this server serves (several ranges, other units, malformed):
        /// ignored, as HTTP allows, and the whole file sent.
        case whole
        /// A valid range that starts past the end of the file.
        case unsatisfiable
        case range(ClosedRange<Int>)
    }

    /// The single range of a `Range: bytes=START-[END]` or `bytes=-SUFFIX` header within `size` bytes.
    package static func byteRange(_ header: String, size: Int) -> ByteRange {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let parts = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .whole }
        let digits = { (part: Substring) in !part.isEmpty && part.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
        // A number too large for Int is past any file's end: as large as can be.
        let number = { (part: Substring) in Int(part) ?? Int.max }
        if parts[0].isEmpty {  // the last SUFFIX bytes
            guard digits(parts[1]) else { return .whole }
            let suffix = number(parts[1])
            return suffix > 0 && size > 0 ? .range(max(0, size - min(suffix, size))...(size - 1)) : .unsatisfiable
        }
        guard digits(parts[0]), parts[1].isEmpty || digits(parts[1]) else { return .whole }
        let start = number(parts[0])
        guard start < size else { return .unsatisfiable }
        let end = parts[1].isEmpty ? size - 1 : number(parts[1])
        guard end >= start else { return .whole }
        return .range(start...min(end, size - 1))
    }
}
