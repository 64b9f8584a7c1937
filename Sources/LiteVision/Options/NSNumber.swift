/// A number given to an option, as ML Kit's thresholds take Foundation's `NSNumber`
/// (`options.confidenceThreshold = NSNumber(value: 0.5)`).
///
/// LiteVision does not use Foundation (it would make every program that labels an image load it), so it
/// brings this small value type of the same name; a literal works too (`options.confidenceThreshold = 0.5`).
///
/// In a file that also imports Foundation, `NSNumber(value: 0.5)` assigned to a LiteVision option is this
/// type, and anywhere else Foundation's (LiteVision's initializers step aside); where the name stands for a
/// type (`let threshold: NSNumber`), write `LiteVision.NSNumber` or `Foundation.NSNumber`.
public struct NSNumber: Sendable, Hashable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    /// The number.
    public let doubleValue: Double

    /// The number as a `Float`, as LiteVision compares confidences.
    public var floatValue: Float { Float(doubleValue) }

    /// The number rounded toward zero (0 for a number that is not finite).
    public var intValue: Int { doubleValue.isFinite ? Int(doubleValue.rounded(.towardZero)) : 0 }

    /// The number `value`.
    @_disfavoredOverload
    public init(value: Double) { doubleValue = value }

    /// The number `value`.
    @_disfavoredOverload
    public init(value: Float) { doubleValue = Double(value) }

    /// The number `value`.
    @_disfavoredOverload
    public init(value: Int) { doubleValue = Double(value) }

    /// The number written as a literal: `options.confidenceThreshold = 0.5`.
    public init(floatLiteral value: Double) { doubleValue = value }

    /// The number written as an integer literal.
    public init(integerLiteral value: Int) { doubleValue = Double(value) }

    /// The number, as Swift prints a `Double`.
    public var description: String { doubleValue.description }
}
