@_exported import LiteVisionImaging
