/// One request an ``HTTPStreamTestServer`` received.
public struct LoggedHTTPRequest: Decodable, Equatable, Sendable {
    /// The request's path with its query, such as `/hls/seg003.ts`.
    public let path: String
    /// Whether the request carried an `Authorization` header (right or wrong).
    public let authorization: Bool
}
