// `import LiteVisionTracking` (the library product of the tracker alone, for detectors LiteVision does not run)
// brings in the tracker's types and the one type of a lower module they use.
@_exported import struct LiteVisionGeometry.BoundingBox
