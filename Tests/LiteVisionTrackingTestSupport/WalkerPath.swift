/// Paths of one walker, as the left edges (x, in pixels) of their box frame after frame, for tests of the tracker's
/// motion model.
public enum WalkerPath {
    /// Walking right 16 px a frame for 10 frames from x 100 (a brisk walk at 8 fps), standing at 260 for 3, then
    /// walking back left 16 px a frame for 6. With the usual motion model the velocity still carries the walker right
    /// when they set off left: their box misses the prediction, and a new ID starts; under 20 fps it does not.
    public static let stopsAndTurnsBack: [Double] =
        (0...10).map { 100 + 16 * Double($0) } + [260, 260, 260] + (1...6).map { 260 - 16 * Double($0) }
}
