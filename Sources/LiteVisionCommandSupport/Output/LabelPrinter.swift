import LiteVision

/// Prints the results of `litevision label` in the order of the images, whatever order they come in, with the
/// progress bar on standard error; images known bad up front (a missing file, an empty folder) are failures from
/// the start.
package final class LabelPrinter {
    private let files: [ImageFiles.Entry]
    private let json: Bool
    private let progress: ProgressBar
    private var outcomes: [Int: Result<[ImageLabel], VisionError>] = [:]
    private var printed = 0
    private var failures = 0

    /// A printer for the images `files`, as a table or, with `json`, one JSON object per image.
    package init(files: [ImageFiles.Entry], json: Bool) {
        self.files = files
        self.json = json
        progress = ProgressBar(total: files.count)
        for (index, file) in files.enumerated() {
            if let problem = file.problem {
                outcomes[index] = .failure(.fileNotReadable(path: file.name, reason: problem))
            }
        }
        printReady()
    }

    /// Adds the result of the image at `index` and prints every result that is next in order.
    package func add(_ outcome: Result<[ImageLabel], VisionError>, at index: Int) {
        outcomes[index] = outcome
        printReady()
    }

    /// Erases the progress bar and says how many images failed, when some did; returns their count.
    package func finish() -> Int {
        progress.finish()
        if failures > 0 {
            Console.error("litevision: \(failures) of \(files.count) images could not be labeled")
        }
        return failures
    }

    private func printReady() {
        while let outcome = outcomes.removeValue(forKey: printed) {
            let path = files[printed].name
            progress.clear()
            // A label JSON cannot hold fails the photo, as an error would.
            let printable: Result<ConsoleText, any Error>
            switch outcome {
            case .success(let labels) where json:
                do { printable = .success(try LabelOutput.jsonLine(file: path, labels: labels)) } catch {
                    printable = .failure(error)
                }
            case .success(let labels): printable = .success(LabelOutput.table(file: path, labels: labels))
            case .failure(let error): printable = .failure(error)
            }
            switch printable {
            case .success(let text):
                Console.output(text)
            case .failure(let error):
                failures += 1
                Console.error("litevision: \(path): \(error)")
                if json { Console.output(LabelOutput.jsonError(file: path, error: error)) }
            }
            progress.advance()
            printed += 1
        }
    }
}
