extension ObjectTracker {
    /// The IoU of two tracks' boxes from which they count as meeting (see ``resolveCrossings()``).
    static let crossingOverlap = 0.1
    /// How many frames each of two tracks must have been matched in for their meeting to be followed: their velocities
    /// have settled by then (a higher bar than ``establishedHits``).
    static let crossingHits = 10
    /// For how many frames two tracks may stay together and still have their IDs exchanged when they part: past that,
    /// where each object would be at its old velocity says little. The contact is kept until they part all the same,
    /// so that two objects walking together do not start one anew from the velocities they have side by side.
    static let crossingFrames = 40
    /// The largest share of the squared distances, as the IDs are, that the squared distances with the IDs exchanged
    /// may reach for the exchange.
    static let crossingSwapShare = 0.5
    /// The largest distance of the objects from where they would be with the IDs exchanged (the root of the two squared
    /// distances summed), in widths of the two tracks' boxes (their mean): an exchange must fit the old velocities
    /// well. 0.75 until the twenty-sixth round of `docs/tracking-quality.md`, where a crossing that came out swapped
    /// (`TUD-Stadtmitte`, heavy noise draw 26: 0.77 widths off, velocities taken from noisy boxes) was left so; 0.95
    /// won that draw and changed five others: three for the better, two for the worse (by 0.01 and 0.5 HOTA).
    static let crossingSwapError = 0.95
    /// The smallest distance of the objects from where they would be as the IDs are (measured as above), in widths:
    /// they must fit the old velocities badly.
    static let crossingKeepError = 0.5
    /// For how many frames one of two tracks may have gone unmatched when they meet (the other matched in this frame):
    /// the lost track's box is its prediction, and two objects that cross while one is unseen are met as well.
    static let crossingUnseenFrames = 3

    /// Gives two tracks back each other's IDs when their objects crossed and the tracks came out of the crossing on
    /// each other's objects.
    ///
    /// Two people at one depth who walk through each other are seen, for a few frames, as one box, or one of them not
    /// at all; which one comes out where is often not in the boxes, and a track may follow the other person out (an ID
    /// swap for the rest of the sequence, which the association cannot undo: both tracks then fit their boxes). So when
    /// two tracks of one class, each matched in ``crossingHits`` frames, meet (their boxes' IoU reaches
    /// ``crossingOverlap``; one of them may be unmatched for up to ``crossingUnseenFrames`` frames, met at its
    /// predicted box, if the other is matched in this frame), where each object would be at the velocity its track had
    /// then is followed; when the two part again (both matched in a frame, their boxes apart) within ``crossingFrames``
    /// frames, the IDs are exchanged if the objects are much nearer where the *other* object would be: the squared
    /// distances, summed, at most ``crossingSwapShare`` of those as the IDs are, their root under ``crossingSwapError``
    /// box widths, and as the IDs are over ``crossingKeepError``. The track keeps following its object, with its motion
    /// model; only what goes with an ID moves (the ID, age, hits and, with re-identification, the appearance, as when a
    /// track continues a lost one), so the frames since the crossing keep the wrong IDs (two ID switches where there
    /// was one) and every frame after has the right ones.
    ///
    /// Only tracks one of which went unmatched for a frame or more while together (or was unmatched when they met) are
    /// considered: where both were matched in every frame, their boxes told them apart, and a walker slowing down while
    /// the other speeds up must not look like an exchange. Objects that stop, turn or change pace while one is hidden
    /// can still look exchanged; the thresholds keep that rare. On the tracking benchmark (`docs/tracking-quality.md`,
    /// nineteenth round) this won 4 more of 680 draws at the sequences' own frame rate, the worst draw among them, and
    /// lost none; meeting a track while it is unseen (twenty-third round) won 3 more and lost one of 120 at lower frame
    /// rates.
    mutating func resolveCrossings() {
        let motion = cameraMotionEstimator.last
        for i in contacts.indices {
            contacts[i].firstReckoning.advance(cameraMotion: motion)
            contacts[i].secondReckoning.advance(cameraMotion: motion)
            contacts[i].frames += 1
        }
        if !contacts.isEmpty { resolveContacts() }
        startContacts()
    }

    /// Exchanges the IDs of the tracks of each contact that parts as ``resolveCrossings()`` says, and ends the
    /// contacts whose tracks parted or are gone.
    private mutating func resolveContacts() {
        scratch.recordByID.removeAll(keepingCapacity: true)
        for index in records.indices where records[index].isConfirmed { scratch.recordByID[records[index].id] = index }
        var i = 0
        while i < contacts.count {
            let contact = contacts[i]
            guard let a = scratch.recordByID[contact.first], let b = scratch.recordByID[contact.second] else {
                contacts.remove(at: i)
                continue
            }
            let first = records[a].filter, second = records[b].filter
            // Still together, or one of them unseen: wait.
            guard records[a].framesSinceUpdate == 0, records[b].framesSinceUpdate == 0,
                first.box.intersection(second.box).area <= 0
            else {
                if records[a].framesSinceUpdate > 0 || records[b].framesSinceUpdate > 0 { contacts[i].wasUnseen = true }
                i += 1
                continue
            }
            contacts.remove(at: i)
            // Both seen in every frame: their boxes told them apart.
            guard contact.wasUnseen, contact.frames <= Self.crossingFrames else { continue }
            let keptFirst = contact.firstReckoning.squaredDistance(to: first)
            let keptSecond = contact.secondReckoning.squaredDistance(to: second)
            let swappedFirst = contact.secondReckoning.squaredDistance(to: first)
            let swappedSecond = contact.firstReckoning.squaredDistance(to: second)
            let kept = keptFirst + keptSecond, swapped = swappedFirst + swappedSecond
            let width = 0.5 * (first.box.width + second.box.width)
            guard swapped <= Self.crossingSwapShare * kept, kept.squareRoot() > Self.crossingKeepError * width,
                swapped.squareRoot() < Self.crossingSwapError * width
            else { continue }
            exchangeIdentities(a, b)
            scratch.recordByID[records[a].id] = a
            scratch.recordByID[records[b].id] = b
            // The others' reckonings were for the objects these IDs had.
            contacts.removeAll { $0.involves(contact.first) || $0.involves(contact.second) }
            i = 0
        }
    }

    /// Starts following every pair of tracks of one class, matched in ``crossingHits`` frames or more, one of them in
    /// this frame and the other in one of the last ``crossingUnseenFrames`` + 1, whose boxes meet, unless already.
    ///
    /// A pair met while one was unseen may meet again in plain sight (both matched) and is then followed a second time,
    /// from velocities of that moment: a hidden object met on its prediction may only cross later, and the first
    /// contact's reckonings would then be old (or past ``crossingFrames`` at the parting).
    private mutating func startContacts() {
        for a in records.indices where records[a].canMeet {
            let box = records[a].filter.box
            for b in records.indices where b > a && records[b].canMeet {
                let unseen = records[a].framesSinceUpdate > 0 || records[b].framesSinceUpdate > 0
                guard records[a].framesSinceUpdate == 0 || records[b].framesSinceUpdate == 0,
                    records[a].classIndex == records[b].classIndex,
                    box.fastIoU(records[b].filter.box) >= Self.crossingOverlap,
                    !contacts.contains(where: {
                        $0.joins(records[a].id, records[b].id) && (unseen || !$0.startedUnseen)
                    })
                else { continue }
                contacts.append(
                    TrackContact(
                        first: records[a].id, second: records[b].id,
                        firstReckoning: .init(records[a].filter), secondReckoning: .init(records[b].filter),
                        startedUnseen: unseen))
            }
        }
    }

    /// Exchanges the IDs of two tracks, with the history that goes with an ID (age, hits and appearance, as in
    /// ``confirm(_:beforeRetiring:)``).
    private mutating func exchangeIdentities(_ a: Int, _ b: Int) {
        let first = records[a]
        records[a].id = records[b].id
        records[a].age = records[b].age
        records[a].hits = records[b].hits
        records[a].appearance = records[b].appearance
        records[b].id = first.id
        records[b].age = first.age
        records[b].hits = first.hits
        records[b].appearance = first.appearance
    }
}

extension TrackRecord {
    /// Whether the track may start a contact (see `ObjectTracker.resolveCrossings()`): reported, matched in at least
    /// `ObjectTracker.crossingHits` frames, the last of them at most `ObjectTracker.crossingUnseenFrames` frames ago.
    fileprivate var canMeet: Bool {
        isConfirmed && framesSinceUpdate <= ObjectTracker.crossingUnseenFrames && hits >= ObjectTracker.crossingHits
    }
}
