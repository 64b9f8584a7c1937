import LiteVisionTracking
import Testing

@Suite("Label smoothing")
struct LabelSmootherTests {
    /// A label as LiteVision's label types are: text, confidence, index.
    struct Label: ClassLabel, Equatable {
        var text: String
        var confidence: Float
        var index: Int

        init(text: String, confidence: Float, index: Int) {
            self.text = text
            self.confidence = confidence
            self.index = index
        }

        init(index: Int, text: String, confidence: Float) {
            self.init(text: text, confidence: confidence, index: index)
        }
    }

    /// The smoothed labels of several objects, each with its own history, as the detector's stream session keeps
    /// them.
    struct Tracks {
        var smoother: LabelSmoother
        var histories: [Int: LabelHistory] = [:]

        init(_ smoother: LabelSmoother = LabelSmoother()) { self.smoother = smoother }

        mutating func update(trackID: Int, labels: [Label]) -> [Label] {
            smoother.update(&histories[trackID, default: LabelHistory()], with: labels)
        }
    }

    let dog = Label(index: 1, text: "Dog", confidence: 0.7)
    let cat = Label(index: 2, text: "Cat", confidence: 0.7)

    @Test("A track's first frame gives its labels back unchanged, sorted")
    func firstFrame() {
        var smoother = Tracks()
        let labels = [Label(index: 2, text: "Cat", confidence: 0.3), Label(index: 1, text: "Dog", confidence: 0.6)]
        let smoothed = smoother.update(trackID: 0, labels: labels)
        #expect(smoothed.map(\.index) == [1, 2])
        #expect(abs(smoothed[0].confidence - 0.6) < 1e-6 && abs(smoothed[1].confidence - 0.3) < 1e-6)
    }

    @Test("A label alternating between two classes every frame keeps a stable top label")
    func alternatingSingleLabel() {
        var smoother = Tracks()
        var tops: [Int] = []
        for t in 0..<40 { tops.append(smoother.update(trackID: 7, labels: [t % 2 == 0 ? dog : cat]).first!.index) }
        #expect(Set(tops) == [1])
        // Without smoothing the top label flickers every frame.
        var raw = Tracks(LabelSmoother(decay: 0, switchFrames: 1))
        var rawTops: [Int] = []
        for t in 0..<40 { rawTops.append(raw.update(trackID: 7, labels: [t % 2 == 0 ? dog : cat]).first!.index) }
        #expect(Set(rawTops) == [1, 2])
    }

    @Test("Two classes trading first place every frame keep a stable top label")
    func alternatingPair() {
        var smoother = Tracks()
        var tops: [Int] = []
        for t in 0..<40 {
            let labels =
                t % 2 == 0
                ? [Label(index: 1, text: "Dog", confidence: 0.55), Label(index: 2, text: "Cat", confidence: 0.45)]
                : [Label(index: 2, text: "Cat", confidence: 0.6), Label(index: 1, text: "Dog", confidence: 0.4)]
            tops.append(smoother.update(trackID: 3, labels: labels).first!.index)
        }
        #expect(Set(tops) == [1])
    }

    @Test("A real change of class switches the top label after a few frames")
    func realChange() {
        var smoother = Tracks()
        for _ in 0..<10 { #expect(smoother.update(trackID: 1, labels: [dog]).first?.index == 1) }
        var switchedAfter: Int?
        for t in 1...20 {
            let top = smoother.update(trackID: 1, labels: [cat]).first!
            if top.index == 2, switchedAfter == nil { switchedAfter = t }
            if switchedAfter != nil { #expect(top.index == 2, "and it stays switched") }
        }
        // With decay 0.6 the averages cross after 2 frames; 3 more frames of hysteresis: switched by frame 6.
        #expect(switchedAfter != nil && switchedAfter! <= 6)
    }

    @Test("Smoothed confidences follow an exponential moving average")
    func average() {
        var smoother = Tracks(LabelSmoother(decay: 0.5))
        _ = smoother.update(trackID: 0, labels: [Label(index: 1, text: "Dog", confidence: 1)])
        let second = smoother.update(trackID: 0, labels: [Label(index: 1, text: "Dog", confidence: 0)])
        // (0.5·0.5·1 + 0.5·0) / (1 − 0.5²) = 0.25 / 0.75.
        #expect(abs(second[0].confidence - 1.0 / 3) < 1e-6)
    }

    @Test("Tracks are independent, and a fresh history starts over")
    func independentHistories() {
        var smoother = Tracks()
        _ = smoother.update(trackID: 1, labels: [dog])
        _ = smoother.update(trackID: 2, labels: [cat])
        #expect(smoother.update(trackID: 2, labels: []).first?.index == 2)
        #expect(smoother.update(trackID: 1, labels: []).first?.index == 1)
        // A forgotten track (its history dropped) starts over.
        smoother.histories[1] = nil
        #expect(smoother.update(trackID: 1, labels: [cat]).first?.index == 2)
    }

    @Test("A class listed twice in a frame counts once, with its larger confidence")
    func duplicates() {
        var smoother = Tracks()
        let smoothed = smoother.update(
            trackID: 0,
            labels: [
                Label(index: 1, text: "Dog", confidence: 0.2),
                Label(index: 1, text: "Dog", confidence: 0.6),
            ])
        #expect(smoothed.count == 1 && abs(smoothed[0].confidence - 0.6) < 1e-6)
    }
}
