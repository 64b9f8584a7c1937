/// Re-identification by appearance (``TrackingOptions/reidentification``): the tracker's side of it.
extension ObjectTracker {
    /// Folds the appearance of a detection confidently matched to (or starting) the record at `index` into its
    /// average, when re-identification is on and the detection's vector is valid (see ``ReidentificationOptions``).
    mutating func observeAppearance(_ detection: TrackerDetection, record index: Int) {
        guard let reidentification = options.reidentification, let vector = detection.appearance,
            let inverseNorm = gallery.acceptedInverseNorm(of: vector)
        else { return }
        records[index].observeAppearance(
            vector, inverseNorm: inverseNorm, momentum: Float(reidentification.momentum))
    }

    /// The ID of the record at `index`, being reported for the first time: that of the dropped track its appearance
    /// re-identifies, when re-identification is on and one does, else the next new ID.
    mutating func newID(record index: Int) -> Int {
        guard let reidentification = options.reidentification else { return takeNextID() }
        let appearance = records[index].appearance, classIndex = records[index].classIndex
        guard !appearance.isEmpty,
            let id = gallery.take(
                matching: appearance, classIndex: classIndex, frame: frameCount,
                matchesClasses: options.matchesClasses, options: reidentification)
        else { return takeNextID() }
        return id
    }

    /// Keeps a reported track being dropped in the gallery, when re-identification is on and it has an appearance.
    mutating func rememberDropped(_ record: TrackRecord) {
        guard let reidentification = options.reidentification, record.isConfirmed else { return }
        gallery.remember(
            id: record.id, classIndex: record.classIndex, appearance: record.appearance, frame: frameCount,
            capacity: reidentification.capacity)
    }

    /// Whether appearance forbids pairing a track with a confident detection: both have a vector of the tracker's
    /// length and their cosine similarity is under ``ReidentificationOptions/matchSimilarity``.
    func appearanceVetoes(_ record: TrackRecord, _ detection: TrackerDetection) -> Bool {
        guard let veto = options.reidentification?.matchSimilarity, let vector = detection.appearance,
            !record.appearance.isEmpty, vector.count == record.appearance.count
        else { return false }
        let similarity = AppearanceGallery.cosine(record.appearance, vector)
        return similarity < veto  // false for NaN (a vector with a value that is not finite)
    }

    /// The IDs of the dropped tracks re-identification may still give back, oldest first (empty when it is off):
    /// at most ``ReidentificationOptions/capacity``, some possibly past ``ReidentificationOptions/memory`` (those are
    /// forgotten when a new object is next compared with them).
    public var rememberedIDs: [Int] { gallery.entries.map(\.id) }
}
