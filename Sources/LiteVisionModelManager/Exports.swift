// `import LiteVisionModelManager` brings in LiteVision too, so that code written for ML Kit (one import for
// everything) needs one import here as well.
@_exported import LiteVision
// The error a failed download is posted with (under `ModelDownloadUserInfoKey.downloadError`), so that an
// observer can read its cause without importing the model store.
@_exported import struct LiteVisionModelStore.ModelDownloadError
