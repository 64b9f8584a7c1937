import LiteVision
import LiteVisionCommandSupport
import Testing

/// `litevision detect` and `track`'s JSON records.
@Suite("JSON records of objects")
struct DetectOutputTests {
    @Test("An object JSON cannot hold (a score or box that is not finite) gives the frame's record with an error")
    func notFinite() {
        let good = DetectedObject(
            frame: BoundingBox(x: 1, y: 2, width: 3, height: 4), trackingID: 7, labels: [], detectionConfidence: 0.5)
        let bad = DetectedObject(frame: good.frame, trackingID: 8, labels: [], detectionConfidence: .nan)
        let record = DetectOutput.trackLine(
            source: "det.txt", frame: 3, timestamp: nil, latencyMs: nil, objects: [good, bad], classification: false)
        #expect(
            record.rendered
                == #"{"error":"the objects could not be written: a box or score is not finite, which JSON cannot hold","#
                + #""frame":3,"source":"det.txt"}"#)
        let box = BoundingBox(x: 1, y: .infinity, width: 3, height: 4)
        let file = DetectOutput.jsonLine(
            file: "a.jpg", objects: [DetectedObject(frame: box, trackingID: nil, labels: [], detectionConfidence: 0.5)],
            classification: false)
        #expect(file.rendered.hasPrefix(#"{"error":"the objects could not be written"#))
        #expect(file.rendered.hasSuffix(#""file":"a.jpg"}"#))
        // Finite objects are written whole.
        let fine = DetectOutput.trackLine(
            source: "det.txt", frame: 3, timestamp: nil, latencyMs: nil, objects: [good], classification: false)
        #expect(fine.rendered.contains(#""trackingID":7"#) && !fine.rendered.contains("error"))
    }
}
