import Testing

/// All video tests run one after the other: the live-source tests measure real-time pacing, which parallel
/// decoding on a 2-core machine would disturb.
@Suite(.serialized) struct VideoTests {}
