/// Per-frame buffers of the association, kept between frames so that tracking does not allocate.
struct AssociationScratch: Sendable {
    /// Indices of the frame's high-score detections.
    var high: [Int] = []
    /// Indices of the frame's low-score detections.
    var low: [Int] = []
    /// Whether each detection of the frame has been matched.
    var detectionTaken: [Bool] = []
    /// With re-identification's appearance gate, whether each detection was refused to a track by its appearance.
    var vetoed: [Bool] = []
    /// Track indices taking part in the current stage.
    var rows: [Int] = []
    /// Detection indices taking part in the current stage.
    var columns: [Int] = []
    /// The assignment solver.
    var solver = AssignmentWorkspace()
}

extension ObjectTracker {
    /// Which tracks may take part in an association stage (among those still unmatched in this frame).
    enum StageTracks {
        /// Reported tracks, followed until the last frame or lost.
        case confirmed
        /// Tracks not reported yet.
        case tentative
    }

    /// Matches the frame's detections to the predicted tracks, in three stages.
    mutating func associate(_ detections: [TrackerDetection], imageWidth: Double, imageHeight: Double) {
        scratch.high.removeAll(keepingCapacity: true)
        scratch.low.removeAll(keepingCapacity: true)
        scratch.detectionTaken.removeAll(keepingCapacity: true)
        scratch.detectionTaken.append(contentsOf: repeatElement(false, count: detections.count))
        if options.reidentification?.matchSimilarity != nil {
            scratch.vetoed.removeAll(keepingCapacity: true)
            scratch.vetoed.append(contentsOf: repeatElement(false, count: detections.count))
        }
        for (index, detection) in detections.enumerated() {
            let box = detection.box
            guard detection.score.isFinite, box.x.isFinite, box.y.isFinite, box.width.isFinite,
                box.height.isFinite, box.width > 0, box.height > 0
            else { continue }
            if detection.score >= options.detectionThreshold {
                scratch.high.append(index)
            } else if detection.score >= options.rescueThreshold {
                scratch.low.append(index)
            }
        }
        // Stage 1: confident detections against every reported track, lost ones included.
        runStage(
            .confirmed, detections: detections, useLow: false, threshold: options.matchIoUThreshold,
            imageWidth: imageWidth, imageHeight: imageHeight)
        // With re-identification's appearance gate, the pairs it refused are considered again without it, among the
        // tracks and detections left: a bad vector then costs nothing unless another object competes for the track.
        if options.reidentification?.matchSimilarity != nil {
            runStage(
                .confirmed, detections: detections, useLow: false, threshold: options.matchIoUThreshold,
                imageWidth: imageWidth, imageHeight: imageHeight, gatingAppearance: false)
        }
        // Stage 2 (ByteTrack's rescue): weak detections, with a stricter gate, for the reported tracks still
        // unmatched. Unlike ByteTrack, lost tracks may be rescued too: an object coming out of hiding is often
        // detected weakly at first, and the partial-view similarity (see `TrackRecord.similarity`) checks that
        // the weak box fits the track's object.
        if !scratch.low.isEmpty {
            runStage(
                .confirmed, detections: detections, useLow: true,
                threshold: options.rescueMatchIoUThreshold, imageWidth: imageWidth, imageHeight: imageHeight)
        }
        // Stage 3: tracks not yet reported take what confident detections are left.
        if options.minimumHits > 1 {
            runStage(
                .tentative, detections: detections, useLow: false, threshold: options.matchIoUThreshold,
                imageWidth: imageWidth, imageHeight: imageHeight)
        }
    }

    /// One association stage: builds the allowed pairs, solves the assignment and corrects the matched tracks.
    private mutating func runStage(
        _ stage: StageTracks, detections: [TrackerDetection], useLow: Bool,
        threshold: Double, imageWidth: Double, imageHeight: Double, gatingAppearance: Bool = true
    ) {
        scratch.rows.removeAll(keepingCapacity: true)
        for i in records.indices {
            let record = records[i]
            guard record.detectionIndex < 0 else { continue }
            switch stage {
            case .confirmed: if !record.isConfirmed { continue }
            case .tentative: if record.isConfirmed { continue }
            }
            scratch.rows.append(i)
        }
        scratch.columns.removeAll(keepingCapacity: true)
        for index in useLow ? scratch.low : scratch.high where !scratch.detectionTaken[index] {
            scratch.columns.append(index)
        }
        guard !scratch.rows.isEmpty, !scratch.columns.isEmpty else { return }

        let checkClasses = options.matchesClasses
        let vetoes = gatingAppearance && !useLow && options.reidentification?.matchSimilarity != nil
        scratch.solver.begin(rows: scratch.rows.count, columns: scratch.columns.count)
        for (r, recordIndex) in scratch.rows.enumerated() {
            let record = records[recordIndex]
            let trackClass = record.classIndex
            for (c, detectionIndex) in scratch.columns.enumerated() {
                let detection = detections[detectionIndex]
                if checkClasses, let trackClass, let detectionClass = detection.classIndex,
                    trackClass != detectionClass
                {
                    continue
                }
                // Weak detections may be partial views of the object; lost tracks get some slack.
                let iou =
                    useLow
                    ? record.similarity(to: detection.box, imageWidth: imageWidth, imageHeight: imageHeight)
                    : record.similarity(toConfident: detection.box, threshold: threshold)
                // Gain = (1 - threshold) - cost, positive exactly when the cost 1 - IoU is within the gate;
                // the tiny constant keeps a pair exactly at the threshold.
                guard iou >= threshold else { continue }
                if vetoes, appearanceVetoes(record, detection) {
                    scratch.vetoed[detectionIndex] = true
                    continue
                }
                scratch.solver.addEdge(row: r, column: c, weight: iou - threshold + 1e-9)
            }
        }
        scratch.solver.solve()
        for r in scratch.rows.indices {
            let c = scratch.solver.rowMatch[r]
            guard c >= 0 else { continue }
            let recordIndex = scratch.rows[r], detectionIndex = scratch.columns[c]
            records[recordIndex].correct(
                with: detections[detectionIndex], index: detectionIndex, confident: !useLow,
                imageWidth: imageWidth, imageHeight: imageHeight)
            scratch.detectionTaken[detectionIndex] = true
            // Weak detections, often partly hidden, would blend the occluder into the appearance.
            if options.reidentification != nil, !useLow {
                observeAppearance(detections[detectionIndex], record: recordIndex)
            }
            if !records[recordIndex].isConfirmed, records[recordIndex].hits >= options.minimumHits {
                records[recordIndex].id = newID(record: recordIndex)
            }
        }
    }
}
