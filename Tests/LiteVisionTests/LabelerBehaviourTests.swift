import Dispatch
import Synchronization
import Foundation
import LiteVision
import LiteVisionTestSupport
import Testing

@Suite("ImageLabeler behaviour")
struct LabelerBehaviourTests {
    static let birdModel = LocalModel(path: TestData.model("bird.tflite"))

    @Test("One labeler shared by 8 concurrent tasks for 200 calls returns what serial calls return")
    func concurrency() async throws {
        let labeler = try ImageLabeler(options: CustomImageLabelerOptions(localModel: Self.birdModel))
        let names = ["bird.jpg", "grace_hopper.jpg", "pets.jpg", "tulips.jpeg", "burger.jpg"]
        let images = try names.map { try VisionImage(contentsOfFile: TestData.image($0)).decoded() }
        let serial = try images.map { try labeler.results(in: $0) }
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var mismatches = 0
                    for call in 0..<25 {
                        let which = (task * 25 + call) % images.count
                        if try await labeler.process(images[which]) != serial[which] { mismatches += 1 }
                    }
                    return mismatches
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect(serial[0].first?.text == "Ardea cinerea (Grey Heron)")
    }

    @Test("Threads calling at once get the same answers too")
    func threads() throws {
        let labeler = try ImageLabeler(options: CustomImageLabelerOptions(localModel: Self.birdModel))
        let image = try VisionImage(contentsOfFile: TestData.image("bird.jpg")).decoded()
        let expected = try labeler.results(in: image)
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            if (try? labeler.results(in: image)) != expected { failures.withLock { $0 += 1 } }
        }
        #expect(failures.withLock { $0 } == 0)
    }

    @Test("labelFiles, a file per core, two batches at once: results in order, one call at a time, as serial calls")
    func batchLabeling() throws {
        var options = CustomImageLabelerOptions(localModel: Self.birdModel)
        options.processing.threadCount = 1  // one file per core: the batch's workers run at once
        let labeler = try ImageLabeler(options: options)
        let folder = TestData.temporaryDirectory("batch-labeling")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A photo cut short (refused: strict decoding) and a missing one fail alone, in their place.
        let cut = folder.appendingPathComponent("cut.jpg")
        try Data(try Data(contentsOf: URL(fileURLWithPath: TestData.image("bird.jpg"))).prefix(3000)).write(to: cut)
        let names = ["bird.jpg", "grace_hopper.jpg", "pets.jpg", "tulips.jpeg", "burger.jpg", "daisy.jpeg"]
        var paths = (0..<30).map { TestData.image(names[$0 % names.count]) }
        paths.insert(cut.path, at: 7)
        paths.insert(folder.appendingPathComponent("missing.jpg").path, at: 19)
        let serial = paths.map { path in
            "\(Result { try labeler.results(in: try VisionImage(contentsOfFile: path)) })"
        }
        #expect(serial[7].contains("failure") && serial[19].contains("failure"), "\(serial[7]) \(serial[19])")
        #expect(serial.filter { $0.contains("success") }.count == 30)

        let files = paths
        let batches = Mutex([[String]](repeating: [], count: 2))
        let overlapping = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 2) { batch in
            let inside = Atomic(0)
            var seen: [String] = []
            labeler.labelFiles(files) { index, result in
                if inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
                    overlapping.withLock { $0 += 1 }
                }
                // In order: the index is the count of results before it.
                seen.append(index == seen.count ? "\(result)" : "out of order: \(index) after \(seen.count)")
                inside.subtract(1, ordering: .sequentiallyConsistent)
            }
            batches.withLock { $0[batch] = seen }
        }
        #expect(overlapping.withLock { $0 } == 0, "body was called from two threads at once")
        for seen in batches.withLock({ $0 }) {
            #expect(seen.count == paths.count)
            for (index, result) in seen.enumerated() where index < serial.count {
                #expect(result == serial[index], "file \(index) (\(paths[index]))")
            }
        }
    }

    @Test("Results are sorted by confidence, then index, and cut by threshold and count")
    func sortingAndLimits() throws {
        let options = CustomImageLabelerOptions(localModel: Self.birdModel)
        options.confidenceThreshold = 0.0
        options.maxResultCount = 25
        let all = try ImageLabeler(options: options).results(
            in: try VisionImage(contentsOfFile: TestData.image("beach.jpg")))
        #expect(all.count == 25)
        for (a, b) in zip(all, all.dropFirst()) {
            #expect(a.confidence > b.confidence || (a.confidence == b.confidence && a.index < b.index))
        }
        options.confidenceThreshold = 0.05
        options.maxResultCount = 3
        let some = try ImageLabeler(options: options).results(
            in: try VisionImage(contentsOfFile: TestData.image("beach.jpg")))
        #expect(some.count <= 3 && !some.isEmpty)
        #expect(some.allSatisfy { $0.confidence >= 0.05 })
        #expect(some == Array(all.filter { $0.confidence >= 0.05 }.prefix(3)))
    }

    @Test("Unset or invalid options fall back as in ML Kit: metadata threshold, then 10 results")
    func defaults() throws {
        let options = CustomImageLabelerOptions(localModel: Self.birdModel)
        let metadataThreshold = try ImageLabeler(options: options).confidenceThreshold
        #expect(metadataThreshold > 0, "bird.tflite's metadata has a score threshold")
        for invalid: Float in [-0.5, 1.5, .nan] {
            options.confidenceThreshold = NSNumber(value: invalid)
            #expect(try ImageLabeler(options: options).confidenceThreshold == metadataThreshold)
        }
        for invalid in [0, -3] {
            options.maxResultCount = invalid
            #expect(try ImageLabeler(options: options).maxResultCount == 10)
        }
        // A model without metadata falls back to 0.
        let flowers = try ImageLabeler(
            options: CustomImageLabelerOptions(
                localModel: LocalModel(
                    path: TestData.model("automl_flowers.tflite"),
                    labelsPath: TestData.model("automl_flowers.labels.txt"))))
        #expect(flowers.confidenceThreshold == 0)
        #expect(flowers.labels == ["daisy", "dandelion", "roses", "sunflowers", "tulips"])
    }

    @Test("A model without labels returns indices with empty text")
    func noLabels() throws {
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: TestData.model("automl_flowers.tflite")))
        options.maxResultCount = 5
        let labeler = try ImageLabeler(options: options)
        #expect(labeler.labels == nil)
        let labels = try labeler.results(in: try VisionImage(contentsOfFile: TestData.image("daisy.jpeg")))
        #expect(labels.count == 5)
        #expect(labels.allSatisfy { $0.text.isEmpty })
        #expect(labels.first?.index == 0, "daisy is class 0 of the flowers model")
    }

    @Test("An AutoML manifest names the model and its labels")
    func manifest() throws {
        let folder = TestData.temporaryDirectory("manifest")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("manifest.json")
        try Data(
            """
            {"modelFile": "\(TestData.model("automl_flowers.tflite"))", "labelsFile": "\(TestData.model("automl_flowers.labels.txt"))", "modelType": "IMAGE_LABELING"}
            """.utf8
        ).write(to: manifest)
        let model = try #require(LocalModel(manifestPath: manifest.path))
        let labeler = try ImageLabeler(options: CustomImageLabelerOptions(localModel: model))
        let labels = try labeler.results(in: try VisionImage(contentsOfFile: TestData.image("sunflower.jpg")))
        #expect(labels.first?.text == "sunflowers")
        // Not JSON any more: no model is made from it, and a labeler given the model made before refuses it.
        try Data("not json".utf8).write(to: manifest)
        #expect(LocalModel(manifestPath: manifest.path) == nil)
        #expect(throws: VisionError.self) {
            try ImageLabeler(options: CustomImageLabelerOptions(localModel: model))
        }
    }

    @Test("The label locale picks the metadata file: English display names vs /m/ ids")
    func locale() throws {
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: TestData.model("object_labeler.tflite")))
        let english = try ImageLabeler(options: options).results(
            in: try VisionImage(contentsOfFile: TestData.image("grace_hopper.jpg")))
        #expect(english.first?.text == "Person")
        options.labelLocale = "xx"
        let fallback = try ImageLabeler(options: options).results(
            in: try VisionImage(contentsOfFile: TestData.image("grace_hopper.jpg")))
        #expect(fallback.first?.text.hasPrefix("/m/") == true)
    }

    @Test("The callback API delivers the labels on the queue given")
    func callback() async throws {
        let labeler = try ImageLabeler(options: CustomImageLabelerOptions(localModel: Self.birdModel))
        let image = try VisionImage(contentsOfFile: TestData.image("bird.jpg"))
        let queue = DispatchQueue(label: "callback-test")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 42)
        let (labels, onQueue) = await withCheckedContinuation { continuation in
            labeler.process(image, queue: queue) { labels, error in
                continuation.resume(returning: (labels, DispatchQueue.getSpecific(key: key) == 42 && error == nil))
            }
        }
        #expect(onQueue)
        #expect(labels?.first?.text == "Ardea cinerea (Grey Heron)")
        let failure = await withCheckedContinuation { continuation in
            labeler.process(
                try! VisionImage(pixels: [UInt8](repeating: 0, count: 12), width: 2, height: 2, format: .rgb8)
            ) { labels, error in
                continuation.resume(returning: labels == nil && error != nil)
            }
        }
        #expect(failure)
    }

    @Test("Camera buffers: BGRA and RGBA frames label like the RGB photo")
    func cameraFormats() throws {
        let labeler = try exhaustiveLabeler(Self.birdModel)
        let rgb = try PhotoFixtures.upright("bird.jpg")
        let expected = try labeler.results(in: VisionImage(buffer: rgb))
        for format in [PixelFormat.bgra8, .rgba8] {
            var pixels = [UInt8](repeating: 255, count: rgb.width * rgb.height * 4 + 64)
            for i in 0..<(rgb.width * rgb.height) {
                let r = rgb.pixels[i * 3], g = rgb.pixels[i * 3 + 1], b = rgb.pixels[i * 3 + 2]
                if format == .bgra8 {
                    pixels[i * 4] = b; pixels[i * 4 + 1] = g; pixels[i * 4 + 2] = r
                } else {
                    pixels[i * 4] = r; pixels[i * 4 + 1] = g; pixels[i * 4 + 2] = b
                }
            }
            let labels = try labeler.results(
                in: try VisionImage(pixels: pixels, width: rgb.width, height: rgb.height, format: format))
            #expect(labels.first?.index == expected.first?.index)
            #expect(abs((labels.first?.confidence ?? 0) - (expected.first?.confidence ?? 1)) <= 0.01)
        }
    }
}

@Suite("Camera frames in YUV")
struct YUVFrameTests {
    /// BT.601 RGB → YCbCr of a photo, as a camera would deliver it (4:2:0, chroma from the top-left pixel of
    /// each 2x2 block), with padded rows.
    static func planes(
        _ rgb: ImageBuffer, video: Bool
    ) -> (y: [UInt8], cb: [UInt8], cr: [UInt8], yStride: Int, cStride: Int, cw: Int) {
        let w = rgb.width, h = rgb.height, cw = (w + 1) / 2, ch = (h + 1) / 2
        let yStride = w + 16, cStride = cw + 8
        var y = [UInt8](repeating: 0, count: yStride * h)
        var cb = [UInt8](repeating: 128, count: cStride * ch), cr = cb
        func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
        for row in 0..<h {
            for col in 0..<w {
                let i = row * rgb.bytesPerRow + col * 3
                let r = Double(rgb.pixels[i]), g = Double(rgb.pixels[i + 1]), b = Double(rgb.pixels[i + 2])
                let luma = 0.299 * r + 0.587 * g + 0.114 * b
                let u = (b - luma) / 1.772, v = (r - luma) / 1.402
                y[row * yStride + col] = video ? clamp(16 + luma * 219 / 255) : clamp(luma)
                if row % 2 == 0 && col % 2 == 0 {
                    cb[(row / 2) * cStride + col / 2] = video ? clamp(128 + u * 224 / 255) : clamp(128 + u)
                    cr[(row / 2) * cStride + col / 2] = video ? clamp(128 + v * 224 / 255) : clamp(128 + v)
                }
            }
        }
        return (y, cb, cr, yStride, cStride, cw)
    }

    @Test("NV12 and I420 frames, full and video range, label like the RGB photo", arguments: [false, true])
    func yuv(video: Bool) throws {
        let labeler = try exhaustiveLabeler(LocalModel(path: TestData.model("bird.tflite")))
        let rgb = try PhotoFixtures.upright("bird.jpg")
        let expected = try labeler.results(in: VisionImage(buffer: rgb))
        let p = Self.planes(rgb, video: video)
        var interleaved = [UInt8](repeating: 128, count: p.cStride * 2 * ((rgb.height + 1) / 2))
        for row in 0..<((rgb.height + 1) / 2) {
            for col in 0..<p.cw {
                interleaved[row * p.cStride * 2 + col * 2] = p.cb[row * p.cStride + col]
                interleaved[row * p.cStride * 2 + col * 2 + 1] = p.cr[row * p.cStride + col]
            }
        }
        let range: VisionImage.YUVRange = video ? .video : .full
        let nv12 = try VisionImage(
            nv12: p.y, yBytesPerRow: p.yStride, cbcr: interleaved, cbcrBytesPerRow: p.cStride * 2,
            width: rgb.width, height: rgb.height, range: range)
        let i420 = try VisionImage(
            i420: p.y, yBytesPerRow: p.yStride, u: p.cb, uBytesPerRow: p.cStride, v: p.cr,
            vBytesPerRow: p.cStride, width: rgb.width, height: rgb.height, range: range)
        for image in [nv12, i420] {
            let labels = try labeler.results(in: image)
            #expect(labels.first?.index == expected.first?.index)
            #expect(abs((labels.first?.confidence ?? 0) - (expected.first?.confidence ?? 1)) <= 0.03)
        }
        // A chroma plane that is too small is an error, not a read past its end.
        #expect(throws: VisionError.self) {
            try VisionImage(
                nv12: p.y, yBytesPerRow: p.yStride, cbcr: Array(interleaved.prefix(100)),
                cbcrBytesPerRow: p.cStride * 2, width: rgb.width, height: rgb.height, range: range)
        }
    }
}
