import FoundationEssentials
import LiteVision
import LiteVisionRegistryStorage

/// A published version, as the registry reports it.
package struct PublishedVersion: Codable, Sendable, Equatable {
    package var name: String
    package var version: Int
    package var sha256: String
    package var size: Int
    package var created: Date
    package var summary: ModelSummary?

    package init(_ record: VersionRecord, summary: ModelSummary? = nil) {
        name = record.name
        version = record.version
        sha256 = record.sha256
        size = record.size
        created = record.created
        self.summary = summary ?? (try? JSONDecoder().decode(ModelSummary.self, from: Data(record.summary.utf8)))
    }
}
