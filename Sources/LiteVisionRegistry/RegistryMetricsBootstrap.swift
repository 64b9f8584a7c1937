import Metrics
import Prometheus
import Synchronization

/// swift-metrics may be bootstrapped once per process: the first collector wins.
enum RegistryMetricsBootstrap {
    private static let done = Mutex(false)

    static func once(_ collector: PrometheusCollectorRegistry) {
        let first = done.withLock { done in
            defer { done = true }
            return !done
        }
        if first { MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: collector)) }
    }
}
