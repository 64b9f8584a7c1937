/// Why a request to a model registry's administration API (list, describe, publish, promote, roll out, delete)
/// failed; its description says what failed and what to do. (A model's download fails with
/// ``ModelDownloadError`` instead.)
package struct RegistryRequestError: Error, Sendable, CustomStringConvertible {
    /// The address requested.
    package var url: String
    /// What went wrong: the same reasons as a download's transfer.
    package var reason: ModelDownloadError.Reason
    /// What the registry said with an error status (its JSON error's sentence), if anything.
    package var serverMessage: String?

    /// An error for the request of `url`.
    package init(url: String, reason: ModelDownloadError.Reason, serverMessage: String? = nil) {
        self.url = url
        self.reason = reason
        self.serverMessage = serverMessage
    }

    /// Why the request failed, in one sentence (in the words a transfer's failure is told with).
    package var description: String {
        var transfer = ModelDownloadError(url: url, expectedSHA256: "", reason: reason)
        transfer.serverMessage = serverMessage
        return transfer.cause
    }
}
