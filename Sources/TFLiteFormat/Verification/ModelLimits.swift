/// The limits the model verifier applies to what a model declares, checked before the runtime sees the model
/// (and before anything is allocated from a declared size).
///
/// They are far above what a vision model needs (the largest tensor of the shared models is under 5 MB) and
/// keep a corrupt model (a flipped bit in a shape or a shape constant) from making the runtime allocate
/// gigabytes. A model built on purpose to compute huge shapes at run time (through operators between a constant
/// and its user, or broadcasting) is not caught by them; see `ModelVerifier+ComputedShapes.swift`.
package enum ModelLimits {
    /// The largest tensor a model may declare, in bytes: 256 MiB.
    package static let maximumTensorBytes = 256 << 20
    /// The most bytes all the tensors without constant data may need together, in every subgraph, as declared:
    /// 512 MiB (the shared models need 3–23 MB). It bounds the runtime's memory for them, which reuses memory
    /// between tensors and needs at most their sum, for shapes as declared; outputs the runtime shapes from a
    /// constant while preparing the model have a limit of their own (``maximumTensorBytes`` each, see
    /// `ModelVerifier+ComputedShapes.swift`). A model whose declared tensors add up to more is refused, even if the
    /// runtime's reuse would have made it fit.
    package static let maximumTotalTensorBytes = 512 << 20
    /// The most dimensions a tensor may have.
    package static let maximumRank = 16
    /// The most input or output tensors one operator may have.
    package static let maximumOperatorTensors = 4096
    /// The largest file of a model's associated-files zip, in bytes (64 MiB), checked against its declared size
    /// before it is decompressed and against the bytes that actually come out while it is.
    package static let maximumAssociatedFileBytes = 64 << 20
    /// The largest label file read from disk, in bytes (64 MiB).
    package static let maximumLabelFileBytes = 64 << 20
    /// The most labels a label file may have (a million; ImageNet has a thousand).
    package static let maximumLabelCount = 1_000_000
    /// The most subgraphs a model may have (vision models have one; models with control flow a handful).
    package static let maximumSubgraphs = 1_000
    /// How deeply control-flow operators (`CALL_ONCE`, `IF`, `WHILE`, and any other naming subgraphs) may nest
    /// subgraphs: 64. The runtime prepares and runs nested subgraphs recursively, and a chain of 50,000 overflowed
    /// its stack (30,000 still ran, in 461 MB).
    package static let maximumControlFlowDepth = 64
}
