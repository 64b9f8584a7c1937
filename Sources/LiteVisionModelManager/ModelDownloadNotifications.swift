import Foundation

extension Notification.Name {
    /// Posted by ``ModelManager`` when a remote model was downloaded, or found already up to date, as ML Kit's
    /// `.mlkitModelDownloadDidSucceed`. `userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue]` is the
    /// ``RemoteModel``.
    public static let mlkitModelDownloadDidSucceed = Notification.Name("MLKModelDownloadDidSucceedNotification")
    /// Posted by ``ModelManager`` when a download failed, as ML Kit's `.mlkitModelDownloadDidFail`.
    /// `userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue]` is the ``RemoteModel``,
    /// `userInfo[ModelDownloadUserInfoKey.error.rawValue]` the error as an `NSError` (domain `com.google.mlkit`,
    /// ML Kit's code, LiteVision's message as its `localizedDescription`), and
    /// `userInfo[ModelDownloadUserInfoKey.downloadError.rawValue]` the ``ModelDownloadError`` itself.
    public static let mlkitModelDownloadDidFail = Notification.Name("MLKModelDownloadDidFailNotification")
}

/// The keys of the `userInfo` of download notifications, as ML Kit's `ModelDownloadUserInfoKey`.
public enum ModelDownloadUserInfoKey: String, Sendable {
    /// The ``RemoteModel`` the notification is about.
    case remoteModel = "MLKModelDownloadUserInfoKeyRemoteModel"
    /// The error of a failed download, as an `NSError` in ML Kit's domain `com.google.mlkit` (read it with
    /// `as? NSError`, as ML Kit's samples do).
    case error = "MLKModelDownloadUserInfoKeyError"
    /// The ``ModelDownloadError`` of a failed download, with its ``ModelDownloadError/reason`` (LiteVision
    /// addition; on Linux an `NSError` cannot be cast back to it).
    case downloadError = "LiteVisionModelDownloadUserInfoKeyDownloadError"
}
