import LiteVision

/// How `litevision track` prints what it found: the line per frame, and MOTChallenge rows.
package enum TrackOutput {
    /// One MOTChallenge row: `frame,id,x,y,w,h,score,-1,-1,-1` (`frame` counted from 1).
    package static func motRow(frame: Int, object: DetectedObject) -> String {
        let f = object.frame
        return "\(frame),\(object.trackingID ?? -1),\(fixed(Float(f.x), digits: 2)),\(fixed(Float(f.y), digits: 2)),"
            + "\(fixed(Float(f.width), digits: 2)),\(fixed(Float(f.height), digits: 2)),\(fixed(object.detectionConfidence, digits: 4)),-1,-1,-1"
    }

    /// The line printed for a frame without an output option: `frame N: #id label (x,y wxh)  …`, or `-`.
    package static func summary(frame: Int, objects: [DetectedObject]) -> ConsoleText {
        let items = objects.map { object in
            "#\(object.trackingID ?? -1) \((object.labels.first ?? object.detectorLabel).map { "\($0.text) " } ?? "")"
                + "(\(Int(object.frame.x)),\(Int(object.frame.y)) \(Int(object.frame.width))x\(Int(object.frame.height)))"
        }
        // The labels' texts are escaped as one interpolated value.
        return "frame \(frame): \(items.isEmpty ? "-" : items.joined(separator: "  "))"
    }
}
