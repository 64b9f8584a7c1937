// `import LiteVision` brings in the ML Kit-shaped API and the documented LiteVision additions: the types
// declared in this module, and these types of the lower modules, re-exported one by one (never a whole
// module, so that internals stay internal). The errors of the lower modules (decoding, download, runtime) are
// not re-exported: they reach a user wrapped in a `VisionError` case, whose description carries their message.

// Geometry of results and images.
@_exported import struct LiteVisionGeometry.BoundingBox
@_exported import enum LiteVisionGeometry.ImageOrientation
// Pixel buffers (the YUV range of camera frames is `VisionImage.YUVRange`).
@_exported import struct LiteVisionImaging.ImageBuffer
@_exported import enum LiteVisionImaging.PixelFormat
// Models and where they come from (a URL or a registry model is a `RemoteModelSource` made by its factories).
@_exported import struct LiteVisionModelStore.LocalModel
@_exported import class LiteVisionModelStore.CustomRemoteModel
@_exported import class LiteVisionModelStore.RemoteModel
@_exported import class LiteVisionModelStore.RemoteModelSource
@_exported import class LiteVisionModelStore.FirebaseModelSource
// How objects are followed across frames, where the tracker lives.
@_exported import struct LiteVisionTracking.TrackingOptions
