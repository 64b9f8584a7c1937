import FoundationEssentials
import Hummingbird
import LiteVisionRegistryStorage
import NIOCore

// The answers of the routes: JSON bodies, errors as `{"error": "…"}`, and the shapes of models in them.

extension RegistryRoutes {
    /// `error` as its status and `{"error": "…"}`.
    static func error(_ error: RegistryError) -> Response {
        var response = json(["error": error.description])
        response.status = HTTPResponse.Status(code: error.status)
        return response
    }

    /// `value` as a 200 JSON answer.
    static func json(_ value: some Encodable) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: encoded(value)))
    }

    /// `value` as JSON: sorted keys, ISO 8601 dates.
    static func encoded(_ value: some Encodable) -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return ByteBuffer(bytes: (try? encoder.encode(value)) ?? Data("{}".utf8))
    }
}

/// A model in listings.
struct ModelListing: Encodable {
    var name: String
    var latestVersion: Int?
    var rolloutVersion: Int?
    var rolloutPercent: Int
    var isPrivate: Bool

    init(_ model: ModelRecord) {
        name = model.name
        latestVersion = model.latestVersion
        rolloutVersion = model.rolloutVersion
        rolloutPercent = model.rolloutPercent
        isPrivate = model.isPrivate
    }
}

/// A model's details: its versions, and the version the asking client gets with its blob's address.
struct ModelInfo: Encodable {
    var name: String
    var latestVersion: Int?
    var rolloutVersion: Int?
    var rolloutPercent: Int
    var isPrivate: Bool
    var versions: [PublishedVersion]
    var served: PublishedVersion
    var servedBlob: String

    init(model: ModelRecord, versions: [PublishedVersion], served: PublishedVersion) {
        name = model.name
        latestVersion = model.latestVersion
        rolloutVersion = model.rolloutVersion
        rolloutPercent = model.rolloutPercent
        isPrivate = model.isPrivate
        self.versions = versions
        self.served = served
        servedBlob = "/v1/blobs/" + served.sha256
    }
}
