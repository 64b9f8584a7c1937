import Foundation

extension Notification.Name {
    /// Posted by ``ModelManager`` when a remote model was downloaded, or found already up to date, as ML Kit's
    /// `.mlkitModelDownloadDidSucceed`. `userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue]` is the
    /// ``RemoteModel``.
    public static let mlkitModelDownloadDidSucceed = Notification.Name("MLKModelDownloadDidSucceedNotification")
    /// Posted by ``ModelManager`` when a download failed, as ML Kit's `.mlkitModelDownloadDidFail`.
    /// `userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue]` is the ``RemoteModel``,
    /// `userInfo[ModelDownloadUserInfoKey.error.rawValue]` the ``ModelDownloadError``.
    public static let mlkitModelDownloadDidFail = Notification.Name("MLKModelDownloadDidFailNotification")
}

/// The keys of the `userInfo` of download notifications, as ML Kit's `ModelDownloadUserInfoKey`.
public enum ModelDownloadUserInfoKey: String, Sendable {
    /// The ``RemoteModel`` the notification is about.
    case remoteModel = "MLKModelDownloadUserInfoKeyRemoteModel"
    /// The ``ModelDownloadError`` of a failed download.
    case error = "MLKModelDownloadUserInfoKeyError"
}
