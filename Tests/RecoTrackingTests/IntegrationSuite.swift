import Testing

/// The suites that start servers and processes run one after another, so that the load test's
/// resident-memory measure is not disturbed by the others and the 2-core machine is not oversubscribed.
@Suite("Tracking against real servers and processes", .serialized)
struct IntegrationSuite {}
