import FoundationEssentials

/// Where a registry keeps its models, their versions and its access tokens (the model files themselves are in a
/// ``RegistryBlobStore``).
///
/// Two implementations: SQLite in the data folder (the embedded default, one server process) and PostgreSQL (any
/// number of replicas sharing one database). Every change is one transaction, so that whatever number of
/// processes change a store at once:
/// - versions of a name are numbered 1, 2, 3… without duplicates, strictly increasing, a deleted version's number
///   never given again;
/// - the "latest" pointer and a rollout change atomically with the versions they name;
/// - a version is recorded only if its blob is stored: a blob removed at the same moment makes
///   ``recordVersion(of:blob:summary:isPrivate:)`` fail with ``RegistryError/conflict(_:)`` (store it again and
///   retry).
///
/// Names reach a store already validated. Errors are ``RegistryError``s: ``RegistryError/notFound(_:)`` for a
/// missing model or version, ``RegistryError/unavailable(_:)`` when the database cannot be reached.
package protocol RegistryMetadataStore: Sendable {
    /// A number that changes whenever models or versions change (publish, promote, rollout, delete), in any
    /// process using the store: what in-memory caches of models and blob owners are keyed by.
    func generation() async throws(RegistryError) -> Int

    /// Every model that has a version, by name.
    func models() async throws(RegistryError) -> [ModelRecord]

    /// A model and its versions, newest first.
    func model(_ name: String) async throws(RegistryError) -> (model: ModelRecord, versions: [VersionRecord])

    /// The models and versions whose file is the blob `sha256`.
    func owners(ofBlob sha256: String) async throws(RegistryError) -> BlobOwnership

    /// The blobs some version refers to.
    func referencedBlobs() async throws(RegistryError) -> Set<String>

    /// Records `blob` as the next version of `name` (created if new), which becomes its latest. `isPrivate`, when
    /// given, sets whether the model is private; when nil a new model is public and an existing one keeps its
    /// setting.
    func recordVersion(
        of name: String, blob: StoredBlob, summary: String, isPrivate: Bool?
    ) async throws(RegistryError) -> VersionRecord

    /// Makes `version` the latest of `name`.
    func promote(_ name: String, version: Int) async throws(RegistryError)

    /// Serves `version` of `name` to `percent` % of clients (0 ends the rollout; `percent` is 0 to 100).
    func rollout(_ name: String, version: Int, percent: Int) async throws(RegistryError)

    /// Deletes a version and returns it: the latest moves to the newest remaining version, and a rollout of it ends.
    /// Its blob stays (the caller asks the blob store to remove it if nothing else refers to it).
    func deleteVersion(_ name: String, version: Int) async throws(RegistryError) -> VersionRecord

    /// Stores a new token (its hash).
    func insertToken(_ token: TokenRecord) async throws(RegistryError)

    /// The token whose SHA-256 is `hash`, if any.
    func token(hash: String) async throws(RegistryError) -> TokenRecord?

    /// Every token, by id (their hashes included: callers show everything else).
    func tokens() async throws(RegistryError) -> [TokenRecord]

    /// Deletes the token `id`, or the one whose SHA-256 is `hash`: it is refused from the next request on, by every
    /// process using the store (tokens are looked up on every request, never cached). Returns the deleted token;
    /// ``RegistryError/notFound(_:)`` when there is none.
    func revokeToken(id: Int64?, hash: String?) async throws(RegistryError) -> TokenRecord

    /// Records that the token `id` was presented at `date`.
    func markTokenUsed(id: Int64, at date: Date) async throws(RegistryError)

    /// Returns when the store can serve: the database answers and its schema is the one this program needs;
    /// throws ``RegistryError/unavailable(_:)`` otherwise.
    func checkReady() async throws(RegistryError)
}
