// A program for MLKitFidelityTests: where does `process(_:completion:)` call back by default?
//
//     MainQueueCallbackProbe MODEL IMAGE serviced|blocked
//
// `serviced`: the main thread runs `dispatchMain()`, as a program with a main loop does. `blocked`: the main
// thread waits for the completion on a semaphore, as a program without a main loop does. Prints `main` or
// `background` (the queue the completion ran on) and the top label's index. (On Linux, `dispatchMain()` ends
// the main thread and the main queue is drained by another thread, so the queue is what tells.)
import Dispatch
import Foundation
import LiteVision

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    print("usage: MainQueueCallbackProbe MODEL IMAGE serviced|blocked")
    exit(2)
}
let mainQueue = DispatchSpecificKey<Bool>()
DispatchQueue.main.setSpecific(key: mainQueue, value: true)
let labeler = ImageLabeler.imageLabeler(options: CustomImageLabelerOptions(localModel: LocalModel(path: arguments[1])))
let image = try VisionImage(contentsOfFile: arguments[2])
if arguments[3] == "serviced" {
    labeler.process(image) { labels, _ in
        print(DispatchQueue.getSpecific(key: mainQueue) == true ? "main" : "background", labels?.first?.index ?? -1)
        exit(0)
    }
    dispatchMain()
} else {
    let done = DispatchSemaphore(value: 0)
    labeler.process(image) { labels, _ in
        print(DispatchQueue.getSpecific(key: mainQueue) == true ? "main" : "background", labels?.first?.index ?? -1)
        done.signal()
    }
    done.wait()
}
