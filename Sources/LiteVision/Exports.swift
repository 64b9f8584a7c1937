// `import LiteVision` brings in the ML Kit-shaped API and the documented LiteVision additions: the types
// declared in this module, and these types of the lower modules, re-exported one by one (never a whole
// module, so that internals stay internal).

// Geometry of results and images.
@_exported import struct LiteVisionGeometry.BoundingBox
@_exported import enum LiteVisionGeometry.ImageOrientation
// Pixel buffers and the errors of decoding them.
@_exported import struct LiteVisionImaging.ImageBuffer
@_exported import enum LiteVisionImaging.PixelFormat
@_exported import enum LiteVisionImaging.YUVRange
@_exported import enum LiteVisionImaging.ImageDecodingError
// Models and where they come from.
@_exported import struct LiteVisionModelStore.LocalModel
@_exported import enum LiteVisionModelStore.BuiltInModel
@_exported import struct LiteVisionModelStore.ModelDownloadError
@_exported import class LiteVisionModelStore.CustomRemoteModel
@_exported import class LiteVisionModelStore.RemoteModel
@_exported import class LiteVisionModelStore.RemoteModelSource
@_exported import class LiteVisionModelStore.URLModelSource
@_exported import class LiteVisionModelStore.RegistryModelSource
@_exported import class LiteVisionModelStore.FirebaseModelSource
// The runtime's errors, as VisionError carries them.
@_exported import struct LiteRT.LiteRTError
@_exported import struct LiteRT.RuntimeLoadError
