// A program for MLKitFidelityTests: where do ML Kit-shaped completion handlers run by default?
//
//     MainQueueCallbackProbe process MODEL IMAGE serviced|blocked
//     MainQueueCallbackProbe delete CACHE_FOLDER MODEL_URL SHA256 serviced|blocked
//
// `process` labels IMAGE with `process(_:completion:)`; `delete` deletes the downloaded model of MODEL_URL from
// CACHE_FOLDER with `ModelManager.deleteDownloadedModel(_:completion:)`. `serviced`: the main thread runs
// `dispatchMain()`, as a program with a main loop does. `blocked`: the main thread waits for the completion on a
// semaphore, as a program without a main loop does. Prints `main` or `background` (the queue the completion ran
// on), then the top label's index or, for `delete`, `deleted` when the completion saw no error and the model is
// gone. (On Linux, `dispatchMain()` ends the main thread and the main queue is drained by another thread, so the
// queue is what tells.)
import Dispatch
import Foundation
import LiteVision
import LiteVisionModelManager

let arguments = CommandLine.arguments
let usage = """
    usage: MainQueueCallbackProbe process MODEL IMAGE serviced|blocked
           MainQueueCallbackProbe delete CACHE_FOLDER MODEL_URL SHA256 serviced|blocked
    """
guard arguments.count == 5 && arguments[1] == "process" || arguments.count == 6 && arguments[1] == "delete",
    let mode = arguments.last, ["serviced", "blocked"].contains(mode)
else {
    print(usage)
    exit(2)
}
let mainQueue = DispatchSpecificKey<Bool>()
DispatchQueue.main.setSpecific(key: mainQueue, value: true)
let done = DispatchSemaphore(value: 0)

/// Prints where the completion runs and what it saw, then ends the program (`serviced`) or wakes the main thread.
@Sendable func report(_ outcome: String) {
    print(DispatchQueue.getSpecific(key: mainQueue) == true ? "main" : "background", outcome)
    if mode == "serviced" { exit(0) }
    done.signal()
}

if arguments[1] == "process" {
    let labeler = ImageLabeler.imageLabeler(
        options: CustomImageLabelerOptions(localModel: LocalModel(path: arguments[2])))
    let image = try VisionImage(contentsOfFile: arguments[3])
    labeler.process(image) { labels, _ in report("\(labels?.first?.index ?? -1)") }
} else {
    let manager = ModelManager(cacheFolder: arguments[2])
    let model = CustomRemoteModel(remoteModelSource: .url(arguments[3], sha256: arguments[4]))
    guard manager.isModelDownloaded(model) else {
        print("the model is not downloaded in \(arguments[2])")
        exit(1)
    }
    manager.deleteDownloadedModel(model) { error in
        report(error == nil && !manager.isModelDownloaded(model) ? "deleted" : "failed: \(error.map { "\($0)" } ?? "")")
    }
}
if mode == "serviced" {
    dispatchMain()
} else {
    done.wait()
}
