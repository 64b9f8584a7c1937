/// The kind of one field of a FlatBuffer table, as the model verifier checks it.
enum FieldKind: Sendable, Equatable {
    /// A scalar stored inline, `width` bytes wide.
    case scalar(width: Int)
    /// An offset to a string.
    case string
    /// An offset to a vector of scalars, each `elementSize` bytes wide.
    case vector(elementSize: Int)
    /// An offset to a table, or to a vector of tables, or a union value: followed by the verifier's own code.
    case reference
    /// A field the schema has retired; whatever is stored there must still lie inside its table.
    case deprecated
    /// A 32-bit index of a subgraph (the body of a control-flow operator): it must name one.
    case subgraphIndex
    /// An offset to a vector of 32-bit subgraph indices: each must name a subgraph.
    case subgraphIndices
    /// A fused activation function (`ActivationFunctionType`, one byte): one of the six the runtime knows.
    case activation
    /// A padding mode (`Padding`, one byte): `SAME` or `VALID`.
    case padding
    /// A 32-bit size the kernels divide by (a stride, filter size or dilation): at least 1, also when the
    /// field is absent and `default` applies.
    case positive(default: Int32)
}

/// The fields of one operator-options table of the TFLite schema (`Conv2DOptions`, `ReshapeOptions`…), in
/// field-number order, for verifying the `builtin_options` unions of operators.
struct OptionTableLayout: Sendable {
    /// The table's name in the schema, for error messages.
    let name: String
    /// The kind of each field, indexed by field number.
    let fields: [FieldKind]
}
