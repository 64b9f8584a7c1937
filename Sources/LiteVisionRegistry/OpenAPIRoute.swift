import Hummingbird

extension RegistryRoutes {
    /// The OpenAPI 3.1 document of the API: `openapi.yaml` beside this file, embedded in the module by SwiftPM
    /// (`resources: [.embedInCode("openapi.yaml")]`), so the served document is the one in the repository.
    package static var openAPIDocument: [UInt8] { PackageResources.openapi_yaml }

    /// Adds `GET /openapi.yaml`: the document, as `application/yaml`, to anyone (no token looked at).
    func addOpenAPIRoute(to router: Router<RegistryRequestContext>) {
        router.get("openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: Self.openAPIDocument)))
        }
    }
}
