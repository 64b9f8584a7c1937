// `import LiteVisionModelManager` brings in LiteVision too, so that code written for ML Kit (one import for
// everything) needs one import here as well.
@_exported import LiteVision
