import Hummingbird
import Logging

/// Puts the request's id (Hummingbird's, as error pages show it) in the metadata of every log line written
/// while the request is handled, by any logger made with ``metadataProvider`` (the command bootstraps
/// swift-log with it): the recommendation source's and the trackers' lines name the page's request too.
public enum RequestLogging {
    /// The id of the request being handled by this task, if any.
    @TaskLocal public static var requestId: String?

    /// Adds `request` to a line's metadata when a request is being handled.
    public static let metadataProvider = Logger.MetadataProvider {
        guard let requestId else { return [:] }
        return ["request": .string(requestId)]
    }
}

/// Runs the rest of the chain with ``RequestLogging/requestId`` set to the request's id.
struct RequestIdMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await RequestLogging.$requestId.withValue(context.id) { try await next(request, context) }
    }
}
