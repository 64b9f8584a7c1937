@_exported import LiteVisionImaging
@_exported import LiteVisionTracking
