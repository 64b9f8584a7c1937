import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionEvaluation
import LiteVisionSystem

/// The arguments of `litevision eval detect`, and its work: COCO box evaluation of a results file, or of a
/// detector run over the annotated photos.
package struct EvalDetectArguments: ParsableArguments {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Evaluate object detections against COCO ground truth (AP and AR as pycocotools computes them).",
        discussion: """
            GT.json is a COCO ground truth (images, categories, annotations with bbox, area, iscrowd; an absent area \
            is the box's width x height, an absent iscrowd 0); DETS.json a COCO results list ([{"image_id", \
            "category_id", "bbox", "score"}]; an empty list is no detections: AP and AR 0). Prints the 12 COCO numbers \
            (AP, AP50, AP75, APs, APm, APl, AR1, AR10, AR100, ARs, ARm, ARl) and each category's AP. A number with \
            nothing to average (no ground truth in its size range) is "-" in the table and null in JSON, where \
            pycocotools prints -1. Instead of --results, --images DIR runs a detector (the built-in object localizer, \
            or --detector MODEL.tflite) over the ground truth's images (DIR/file_name); an object's category is the \
            ground-truth category named as its label (ignoring case), or the only category; objects with no such \
            category are left out. Its defaults here: every object (--multiple), at most 100 per photo, score \
            threshold 0.05.
            """
    )

    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @Option(name: .long, help: "The COCO ground truth (.json).")
    package var annotations: String

    @Option(name: .long, help: "The detections, a COCO results file (.json).")
    package var results: String?

    @Option(name: .long, help: "Run the detector over the ground truth's photos, found in this folder.")
    package var images: String?

    @OptionGroup package var detector: DetectorArguments

    @OptionGroup package var decoding: DecodingArguments

    @Option(name: .customLong("save-results"), help: "With --images: write the detections as a COCO results file.")
    package var saveResults: String?

    @Flag(name: .long, help: "Print one JSON object (fractions in [0, 1], counts as integers) instead of tables.")
    package var json = false

    @Option(name: .long, help: "Draw precision-recall curves (IoU 0.5, all sizes) into this PNG file.")
    package var plot: String?

    package func validate() throws {
        if results == nil && images == nil {
            throw ValidationError("Give the detections with --results FILE, or run a detector with --images DIR.")
        }
        if results != nil && images != nil {
            throw ValidationError(
                "Give --results FILE (detections made already) or --images DIR (run a detector now), not both.")
        }
        if images == nil {
            let d = detector
            if d.detector != nil || d.detectorLabels != nil || d.model != nil || d.classify || d.multiple
                || d.maxObjects != nil || d.threshold != nil || saveResults != nil
            {
                throw ValidationError("The detector's options and --save-results go with --images.")
            }
        }
        if let plot, !plot.lowercased().hasSuffix(".png") {
            throw ValidationError("--plot writes a PNG file: give a name ending in .png, not \(plot).")
        }
    }

    /// Evaluates, prints, writes `--save-results`, and draws with `plotWriter` when `--plot` is given.
    package func run(plotWriter: EvaluationPlot.Writer?) throws {
        if let images, let problem = EvalFolders.folderProblem(images) {
            Console.error(
                "litevision: --images \(images): \(problem): give the folder that holds the ground truth's photos")
            throw ExitCode(2)
        }
        let groundTruth: COCOGroundTruth
        do {
            groundTruth = try COCOGroundTruth(contentsOfFile: annotations)
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
        let repeated = groundTruth.repeatedAnnotationIDs
        if repeated > 0 {
            let what = repeated == 1 ? "1 annotation repeats" : "\(repeated) annotations repeat"
            let advice =
                "evaluated as pycocotools does, each as the last annotation with its id (give each annotation its own "
                + "id for a meaningful evaluation)"
            Console.error("litevision: warning: \(annotations): \(what) an earlier one's id; \(advice)")
        }
        let outputs = [saveResults, plot].compactMap { $0 }
        if !outputs.isEmpty {
            let photos = images.map { folder in
                groundTruth.images.compactMap { $0.fileName }.map { EvalFolders.join(folder, $0) }
            }
            try OutputPaths.check(
                inputs: [annotations] + (results.map { [$0] } ?? []) + (photos ?? []) + detector.inputPaths,
                cache: detector.remote.cache
            ) { outputs throws(OutputPathError) in
                if let saveResults { try outputs.claimFile(saveResults, for: "--save-results") }
                if let plot { try outputs.claimFile(plot, for: "--plot") }
            }
        }
        var failures = 0
        let detections: [COCODetection]
        if let results {
            do {
                detections = try COCODetection.read(contentsOfFile: results)
            } catch {
                Console.error("litevision: \(error)")
                throw ExitCode(2)
            }
        } else {
            (detections, failures) = try detect(groundTruth: groundTruth, folder: images ?? "")
            if let saveResults {
                do throws(SystemError) {
                    try AtomicFile.write(Array(COCODetection.json(detections).utf8), to: saveResults)
                } catch {
                    Console.error("litevision: --save-results \(saveResults): \(error.reason)")
                    throw ExitCode(1)
                }
            }
        }
        let evaluation: COCOEvaluation
        do {
            evaluation = try COCOEvaluation(
                groundTruth: groundTruth, detections: detections, resultsFile: results ?? "the detector's results")
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
        Console.output(json ? EvalOutput.detectionJSON(evaluation) : EvalOutput.detectionTable(evaluation))
        if evaluation.unknownCategoryCount > 0 && results != nil {
            let count = evaluation.unknownCategoryCount
            Console.error(
                "litevision: \(count) detections have a category not in the ground truth: left out, as in pycocotools")
        }
        if let plot, let plotWriter {
            let curves = evaluation.categories.compactMap { result in
                result.precisionAt50.map {
                    (name: "\(result.category.name) (AP50 \(EvalOutput.fraction(result.ap50)))", precision: $0)
                }
            }
            try EvalOutput.write(
                .precisionRecall(
                    title: "Precision-recall, IoU 0.5 (AP50 \(EvalOutput.fraction(evaluation.stats[1])))",
                    recall: COCOEvaluation.recallThresholds, curves: curves),
                to: plot, with: plotWriter)
        }
        if failures > 0 {
            Console.error("litevision: \(failures) of \(groundTruth.images.count) photos could not be processed")
            throw ExitCode(1)
        }
    }

    /// Runs the detector over the ground truth's photos: the detections, and how many photos failed.
    private func detect(groundTruth: COCOGroundTruth, folder: String) throws -> ([COCODetection], Int) {
        var settings = detector
        settings.multiple = true
        settings.maxObjects = settings.maxObjects ?? 100
        settings.threshold = settings.threshold ?? 0.05
        let objectDetector = try settings.makeDetector(mode: .singleImage)
        var categoryByName: [String: Int] = [:]
        for category in groundTruth.categories {
            let key = ClassificationEvaluation.normalized(category.name)
            if categoryByName[key] == nil { categoryByName[key] = category.id }
        }
        let onlyCategory = groundTruth.categories.count == 1 ? groundTruth.categories[0].id : nil
        var detections: [COCODetection] = []
        var failures = 0
        var unmatched = 0
        for image in groundTruth.images {
            guard let fileName = image.fileName else {
                failures += 1
                Console.error("litevision: \(annotations): image \(image.id) has no \"file_name\" to find it by")
                continue
            }
            let path = EvalFolders.join(folder, fileName)
            do {
                let photo = try VisionImage(contentsOfFile: path).decoded(allowsDamagedImageData: decoding.lenient)
                for object in try objectDetector.results(in: photo) {
                    let label = object.detectorLabel?.text ?? object.labels.first?.text
                    guard
                        let category = label.flatMap({ categoryByName[ClassificationEvaluation.normalized($0)] })
                            ?? onlyCategory
                    else {
                        unmatched += 1
                        continue
                    }
                    detections.append(
                        COCODetection(
                            imageID: image.id, categoryID: category,
                            box: object.frame,
                            score: Double(object.detectionConfidence)))
                }
            } catch {
                failures += 1
                Console.error("litevision: \(path): \(error)")
            }
        }
        if unmatched > 0 {
            Console.error("litevision: \(unmatched) objects have no label naming a ground-truth category; left out")
        }
        return (detections, failures)
    }
}
