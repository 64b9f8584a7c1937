// The storage protocols and the records they exchange (ModelRecord, RegistryError, TokenRole, IncomingBlob, …)
// are part of this module's interface: whoever imports LiteVisionRegistry sees them.
@_exported import LiteVisionRegistryStorage
