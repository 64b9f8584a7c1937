import Prometheus

/// The registry's Prometheus metrics, served at `GET /metrics` in the text exposition format:
///
/// - `litevision_registry_requests_total{method, status}`: requests answered;
/// - `litevision_registry_blob_bytes_total`: bytes of model files sent (whole files and ranges);
/// - `litevision_registry_downloads_total{model, version}`: model files sent from their first byte (a resumed
///   download counts once), per model and version; private models are counted together as
///   `{model="(private)",version="(private)"}`, so that `/metrics`, which needs no token, names none of them;
/// - `litevision_registry_publishes_total{outcome}`: uploads published or refused.
///
/// When the process bootstraps swift-metrics with this collector (``bootstrap()``, as `litevision registry serve`
/// does), Hummingbird's own request metrics (`hb_requests`, `hb_request_duration_seconds`, …) appear too.
package final class RegistryMetrics: Sendable {
    /// The Prometheus collector all of the above are kept in.
    package let collector = PrometheusCollectorRegistry()

    package init() {}

    /// Makes this collector the process's swift-metrics backend (once per process; the first call wins).
    package func bootstrap() {
        RegistryMetricsBootstrap.once(collector)
    }

    func requestAnswered(method: String, status: Int) {
        collector.makeCounter(
            name: "litevision_registry_requests_total", labels: [("method", method), ("status", String(status))]
        ).increment()
    }

    func blobSent(bytes: Int, fromStart: Bool, versions: [(model: String, version: Int?)]) {
        collector.makeCounter(name: "litevision_registry_blob_bytes_total").increment(by: Int64(bytes))
        guard fromStart else { return }
        for (model, version) in versions {
            collector.makeCounter(
                name: "litevision_registry_downloads_total",
                labels: [("model", model), ("version", version.map(String.init) ?? "(private)")]
            ).increment()
        }
    }

    func publish(outcome: String) {
        collector.makeCounter(name: "litevision_registry_publishes_total", labels: [("outcome", outcome)]).increment()
    }

    /// The metrics in Prometheus' text format.
    func text() -> [UInt8] { collector.emitToBuffer() }
}
