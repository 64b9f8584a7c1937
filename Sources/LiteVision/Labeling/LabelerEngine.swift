import LiteRT
import LiteVisionImaging
import LiteVisionModelStore

/// A loaded labeler: the compiled classifier and the label filter of an ``ImageLabeler`` whose model
/// loaded.
final class LabelerEngine: VisionEngine {
    let classifier: ClassifierModel
    let filter: LabelFilter
    let configuration: LabelerConfiguration

    init(_ configuration: LabelerConfiguration) throws(VisionError) {
        self.configuration = configuration
        // The runtime loads on another thread while the model file is read and checked.
        Runtime.startLoading(libraryPath: configuration.processing.runtimeLibraryPath)
        let reference: ModelReference
        if let custom = configuration.model {
            reference = custom
        } else {
            reference = .local(
                LocalModel(
                    path: try BuiltInModel.objectLabeler.path(
                        modelDirectory: configuration.modelDirectory,
                        allowsDownload: configuration.allowsModelDownload)))
        }
        let model: ResolvedModel
        do {
            model = try reference.resolve(cache: ModelCache(folder: configuration.modelCacheFolder))
        } catch {
            throw VisionError(error)
        }
        classifier = try ClassifierModel(
            model, settings: configuration.processing, locale: configuration.labelLocale)
        filter = LabelFilter(
            threshold: configuration.confidenceThreshold?.floatValue, maxCount: configuration.maxResultCount,
            metadataThreshold: configuration.model == nil
                ? ImageLabelerOptions.defaultConfidenceThreshold : classifier.metadataThreshold)
    }

    func results(in image: VisionImage) throws(VisionError) -> [ImageLabel] {
        let oriented = try image.oriented(
            forInputWidth: classifier.input.width, height: classifier.input.height,
            processing: configuration.processing)
        let pixels = oriented.pixels
        let minimum = ImageLabeler.minimumImageDimension
        guard pixels.width >= minimum, pixels.height >= minimum else {
            throw .invalidImage(
                "it is \(pixels.width)x\(pixels.height) pixels; labeling needs at least \(minimum)x\(minimum)"
            )
        }
        let labels = classifier.labels
        return try classifier.withScores(of: oriented) { scores in
            filter.select(scores).map { entry in
                ImageLabel(text: labels?[entry.index] ?? "", confidence: entry.score, index: entry.index)
            }
        }
    }
}
