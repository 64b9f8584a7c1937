// swift-format-ignore-file
// (The snippets are kept exactly as the seed guides write them; the formatter would respace them.)
//
// The hosted-model snippets of the seed guides 000 (001, 003) and 004, which share them, verbatim: a model
// source named as in the Firebase console, its download, and the download notifications. LiteVision resolves
// `FirebaseModelSource(name:)` on the registry named by LITEVISION_REGISTRY; with none configured here, the
// download fails at once and the failure notification arrives. Lines ending in `// seed-test` are the test's
// own, inside a snippet; every other line of a snippet is the seed's.
import Foundation
import LiteVision
import LiteVisionModelManager
import LiteVisionTestSupport
import Testing

/// The guides' observer: an object whose notification handlers hold it weakly.
final class DownloadObserver: Sendable {
    let outcome = Received<String>()

    func observe() {
NotificationCenter.default.addObserver(
    forName: .mlkitModelDownloadDidSucceed,
    object: nil,
    queue: nil
) { [weak self] notification in
    guard let strongSelf = self,
        let userInfo = notification.userInfo,
        let model = userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue]
            as? RemoteModel,
        model.name == "your_remote_model"
        else { return }
    // The model was downloaded and is available on the device
    strongSelf.outcome.record("downloaded")  // seed-test
}

NotificationCenter.default.addObserver(
    forName: .mlkitModelDownloadDidFail,
    object: nil,
    queue: nil
) { [weak self] notification in
    guard let strongSelf = self,
        let userInfo = notification.userInfo,
        let model = userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue]
            as? RemoteModel
        else { return }
    let error = userInfo[ModelDownloadUserInfoKey.error.rawValue]
    // ...
    if model.name == "your_remote_model" { strongSelf.outcome.record("failed: \(error.map { "\($0)" } ?? "")") }  // seed-test
}
    }
}

@Suite("Seed snippets: hosted models (000, 001, 003, 004)")
struct HostedModelSnippets {
    @Test("FirebaseModelSource, CustomRemoteModel, download with conditions, notifications")
    func download() throws {
        let observer = DownloadObserver()
        observer.observe()

let firebaseModelSource = FirebaseModelSource(
    name: "your_remote_model") // The name you assigned in
                               // the Firebase console.
let remoteModel = CustomRemoteModel(remoteModelSource: firebaseModelSource)

let downloadConditions = ModelDownloadConditions(
  allowsCellularAccess: true,
  allowsBackgroundDownloading: true
)

let downloadProgress = ModelManager.modelManager().download(
  remoteModel,
  conditions: downloadConditions
)

        defer { downloadProgress.cancel() }
        #expect(remoteModel.name == "your_remote_model")
        let outcome = observer.outcome.wait(seconds: 20)
        #expect(outcome != nil, "a notification for the model arrived")
        if ProcessInfo.processInfo.environment["LITEVISION_REGISTRY"] == nil {
            #expect(outcome?.hasPrefix("failed:") == true, "\(outcome ?? "nothing")")
        }
    }
}
