import LiteVision
import LiteVisionCommandSupport
import Testing

/// `litevision label`, `detect` and `track`'s JSON records.
@Suite("JSON records of objects and labels")
struct DetectOutputTests {
    static let good = DetectedObject(
        frame: BoundingBox(x: 1, y: 2, width: 3, height: 4), trackingID: 7, labels: [], detectionConfidence: 0.5)
    static let message =
        "the model gave a box, score or label confidence that is not finite (infinity or NaN), which JSON cannot hold"

    @Test("A frame whose objects JSON cannot hold (a score or box not finite) gets a record with an error")
    func trackRecord() {
        let bad = DetectedObject(frame: Self.good.frame, trackingID: 8, labels: [], detectionConfidence: .nan)
        let record = DetectOutput.trackLine(
            source: "det.txt", frame: 3, timestamp: 0.1, latencyMs: 2.5, objects: [Self.good, bad],
            classification: false)
        #expect(
            record.rendered
                == #"{"error":"\#(Self.message)","frame":3,"latencyMs":2.5,"source":"det.txt","timestamp":0.1}"#)
        // Finite objects are written whole.
        let fine = DetectOutput.trackLine(
            source: "det.txt", frame: 3, timestamp: nil, latencyMs: nil, objects: [Self.good], classification: false)
        #expect(fine.rendered.contains(#""trackingID":7"#) && !fine.rendered.contains("error"))
    }

    @Test("A photo's objects or labels JSON cannot hold throw, so that the photo counts as failed")
    func photoRecord() throws {
        let infinite = DetectedObject(
            frame: BoundingBox(x: 1, y: .infinity, width: 3, height: 4), trackingID: nil, labels: [],
            detectionConfidence: 0.5)
        #expect(throws: NotFiniteResult.self) {
            try DetectOutput.jsonLine(file: "a.jpg", objects: [infinite], classification: false)
        }
        let label = ObjectLabel(text: "cat", confidence: .infinity, index: 1)
        let labeled = DetectedObject(
            frame: Self.good.frame, trackingID: nil, labels: [label], detectionConfidence: 0.5)
        #expect(throws: NotFiniteResult.self) {
            try DetectOutput.jsonLine(file: "a.jpg", objects: [labeled], classification: true)
        }
        // Without classification the labels are not written, so nothing is refused.
        _ = try DetectOutput.jsonLine(file: "a.jpg", objects: [labeled], classification: false)
        do {
            _ = try LabelOutput.jsonLine(file: "a.jpg", labels: [ImageLabel(text: "cat", confidence: .nan, index: 0)])
            Issue.record("a NaN confidence was written")
        } catch {
            #expect(
                error.description
                    == "the model gave a label confidence that is not finite (infinity or NaN), which JSON cannot hold")
        }
        let fine = try LabelOutput.jsonLine(file: "a.jpg", labels: [ImageLabel(text: "cat", confidence: 1, index: 0)])
        #expect(fine.rendered == #"{"file":"a.jpg","labels":[{"confidence":1,"index":0,"text":"cat"}]}"#)
    }
}
