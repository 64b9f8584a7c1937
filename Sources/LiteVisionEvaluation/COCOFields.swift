import LiteVisionGeometry
/// Reading the fields of COCO files' objects: integers (ids), numbers, boxes, with errors that say where.
enum COCOFields {
    /// The largest id accepted (in magnitude), 2^53 − 1: ids are read as doubles, which hold every integer up to it
    /// exactly (2^53 + 1 would be read as 2^53, another object's id).
    static let largestID = 9_007_199_254_740_991.0

    /// `object[key]` as an integer id; `place` names the object in errors ("annotations[3]").
    static func id(_ object: JSONValue, _ key: String, in place: String, file: String) throws(EvaluationError) -> Int {
        guard let value = object[key] else { throw EvaluationError(file: file, reason: "\(place) has no \"\(key)\"") }
        guard case .number(let number) = value, number.rounded() == number else {
            throw EvaluationError(file: file, reason: "\(place).\(key) must be an integer, not \(describe(value))")
        }
        guard abs(number) <= largestID else {
            throw EvaluationError(
                file: file,
                reason: "\(place).\(key) is out of range: ids must be integers within ±(2^53 − 1) (\(Int(largestID)))")
        }
        return Int(number)
    }

    /// `object[key]` as a finite number, or nil when absent.
    static func number(
        _ object: JSONValue, _ key: String, in place: String, file: String
    ) throws(EvaluationError)
        -> Double?
    {
        guard let value = object[key] else { return nil }
        guard case .number(let number) = value else {
            throw EvaluationError(file: file, reason: "\(place).\(key) must be a number, not \(describe(value))")
        }
        return number
    }

    /// `object["bbox"]`: `[x, y, width, height]`, four finite numbers.
    static func box(_ object: JSONValue, in place: String, file: String) throws(EvaluationError) -> BoundingBox {
        guard let value = object["bbox"] else { throw EvaluationError(file: file, reason: "\(place) has no \"bbox\"") }
        guard case .array(let items) = value, items.count == 4 else {
            var found = describe(value)
            if case .array(let items) = value { found = "an array of \(items.count) values" }
            throw EvaluationError(file: file, reason: "\(place).bbox must be [x, y, width, height], not \(found)")
        }
        var numbers: [Double] = []
        for item in items {
            guard case .number(let number) = item else {
                throw EvaluationError(file: file, reason: "\(place).bbox holds \(describe(item)), not a number")
            }
            numbers.append(number)
        }
        return BoundingBox(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// A short description of a value for an error message.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .number(let number): return "\(number)"
        case .string(let text): return "the string \"\(text.prefix(40))\""
        default: return value.kind
        }
    }
}
